/**
 * LZB16 on the real chunks: the four `fortwallgameplay.bndl` manifests of the retail
 * `../shared/samples/real/Patch_00.arch06`, read through the project's LTAR reader. The
 * structural oracles of `../shared/docs/lzb16.md`: each chunk decodes to exactly its raw length
 * consuming its whole payload; the result parses as BNDL v6 to its last byte; every member's
 * declared size equals the size word of the same path in the layer's EMBB container, and members
 * absent from the container are declared with size 0. Then the whole archive through `verify`
 * and the bundle resolver. Skips with a message when ../shared is absent.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { decodeOodle, identifyCodec } from '..';
import { BndlManifest, parseBndl } from '../../formats/bundle/bndl';
import { readEmbb } from '../../formats/bundle/embb';
import { LtarEntry, LtarSource } from '../../archive/ltarSource';
import { EntryByteSource, readBundleMember, resolveBundle } from '../../archive/bundles';
import { Mount } from '../../archive/mount';
import { verifyMount } from '../../archive/verify';
import { sharedPath } from '../../../test/support/shared';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const patch = sharedPath('samples/real/Patch_00.arch06');
const LAYERS = ['island', 'mtnpass', 'snowmtn', 'volcano'];
const layerPath = (layer: string, ext: string): string => `worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay.${ext}`;

function open(): LtarSource {
  return LtarSource.openFile(patch.path, 'Patch_00.arch06');
}

function entry(s: LtarSource, p: string): LtarEntry {
  for (let i = 0; i < s.fileCount; i++) if (s.pathAt(i) === p) return s.entryAt(i);
  assert.fail(`${p} not in Patch_00.arch06`);
}

/** The entry's chunks: payload bytes and raw length. */
function chunks(e: LtarEntry): { payload: Uint8Array; rawLen: number; stored: boolean }[] {
  const cs = e.chunkStream();
  const n = cs.indexAll();
  const out = [];
  for (let c = 0; c < n; c++) {
    const ch = cs.chunk(c);
    out.push({ payload: e.source.bytes.readSync(e.record.dataOffset + ch.headerOffset + 8, ch.storedLen), rawLen: ch.rawLen, stored: ch.stored });
  }
  return out;
}

test('Patch_00.arch06: each .bndl is one LZB16 chunk that decodes to its raw length, consuming the payload', { skip: patch.skip }, async (t) => {
  const s = open();
  try {
    for (const layer of LAYERS) {
      await t.test(layer, () => {
        const e = entry(s, layerPath(layer, 'bndl'));
        const cs = chunks(e);
        assert.equal(cs.length, 1, 'one chunk');
        const { payload, rawLen, stored } = cs[0];
        assert.equal(stored, false);
        assert.deepEqual([...payload.subarray(0, 2)], [0x8c, 0x02], 'chunk header 8C 02');
        assert.equal(identifyCodec(payload), 'lzb16');
        assert.ok(rawLen === 740 || rawLen === 760, `raw length ${rawLen}`);
        assert.equal(e.size, rawLen);
        // The big-endian word counts the rest of the payload, minus one: the stream is the whole payload.
        assert.equal(((payload[2] << 8) | payload[3]) + 1, payload.length - 4);
        const out = decodeOodle(payload, rawLen, { file: e.path, chunkIndex: 0 });
        assert.equal(out.length, rawLen);
        // The same bytes through the archive reader, and the decoder refuses one byte more or less.
        assert.deepEqual(e.readSync(), out);
        assert.throws(() => decodeOodle(payload, rawLen + 1));
        assert.throws(() => decodeOodle(payload, rawLen - 1));
        assert.throws(() => decodeOodle(payload.subarray(0, payload.length - 1), rawLen));
      });
    }
  } finally {
    s.close();
  }
});

test('Patch_00.arch06: the decoded manifests are BNDL v6 to their last byte, sized like their EMBB containers', { skip: patch.skip }, async (t) => {
  const s = open();
  let sizesChecked = 0;
  try {
    for (const layer of LAYERS) {
      await t.test(layer, () => {
        const bytes = entry(s, layerPath(layer, 'bndl')).readSync();
        const b = parseBndl(bytes, layerPath(layer, 'bndl'));
        assert.equal(b.variant, 'manifest');
        const m = b as BndlManifest;
        assert.equal(m.version, 6);
        assert.equal(m.typeFollowsPaths, true);
        // parseBndl notes any byte after the last string and the path-offset table.
        assert.deepEqual(m.notes, []);
        assert.equal(m.confidence, 'confirmed');
        assert.equal(m.poolStart + m.tableOffset + 4 * m.members.length, bytes.length, 'the path-offset table ends at the last byte');
        assert.equal(m.members.length, 10);

        const container = readEmbb(new EntryByteSource(entry(s, layerPath(layer, 'embb'))));
        assert.equal(container.blocks.length, 1);
        const sizes = new Map(container.members.map((x) => [x.path, x.size]));
        const declared = new Set(m.members.map((x) => x.path));
        for (const member of m.members) {
          assert.ok(member.path.startsWith(`worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay.`), member.path);
          const size = sizes.get(member.path);
          if (size === undefined) {
            assert.equal(member.declaredSize, 0, `${member.path} is absent from the container and declared with size 0`);
            assert.match(member.path, /\.wldmsh$/);
          } else {
            assert.equal(member.declaredSize, size, `${member.path}: declared size = container size word`);
            sizesChecked++;
          }
        }
        for (const x of container.members) assert.ok(declared.has(x.path), `container member ${x.path} is declared`);
        assert.equal(container.members.length, 9);
      });
    }
  } finally {
    s.close();
  }
  assert.equal(sizesChecked, 36, '36 of 36 member sizes');
});

function install(): string {
  const root = tempDir('arch06-lzb16-');
  writeTree(root, { 'x64/default.archcfg': '..\\Patch_00.arch06\n', 'Patch_00.arch06': fs.readFileSync(patch.path) });
  return root;
}

// The issue and the sample's README say 14 chunks (10 Kraken); the archive holds 13: the entry
// sizes force it (each chunk decodes to at most 64 KiB: island's container 216,049 bytes → 4
// chunks, mtnpass 52,070 → 1, snowmtn 67,768 → 2, volcano 127,047 → 2), and walking the chunk
// headers by hand, outside the reader, finds exactly those 9 Kraken and 4 LZB16 chunks.
test('verify on an install of Patch_00.arch06: 0 failures, 13 chunks decoded (9 Kraken, 4 LZB16)', { skip: patch.skip }, () => {
  const m = Mount.open({ root: install() });
  try {
    const report = verifyMount(m);
    assert.deepEqual(report.failures, []);
    assert.equal(report.entries, 8);
    assert.deepEqual(report.chunksByCodec, { lzb16: 4, kraken: 9 });
    assert.deepEqual(report.unsupportedChunks, {});
    assert.deepEqual(report.unsupportedForms, {});
  } finally {
    m.close();
  }
});

test('the four layer bundles resolve: members from the container, the .wldmsh declared with 0 bytes and served empty', { skip: patch.skip }, () => {
  const m = Mount.open({ root: install() });
  try {
    for (const layer of LAYERS) {
      const b = resolveBundle(m, layerPath(layer, 'bndl'));
      assert.ok(b.container, `${layer} has its container`);
      assert.deepEqual(b.counts, { loose: 0, container: 9, empty: 1, missing: 0 }, layer);
      assert.deepEqual(b.undeclared, []);
      for (const member of b.members) {
        if (member.servedFrom === 'empty') {
          // Declared with 0 bytes and not stored in the container: the engine has nothing to read.
          assert.match(member.path, /\.wldmsh$/);
          assert.equal(member.declaredSize, 0);
          assert.equal(readBundleMember(m, b, member).length, 0);
          continue;
        }
        assert.equal(member.sizeMatchesDeclared, true, member.path);
        assert.equal(readBundleMember(m, b, member).length, member.declaredSize, member.path);
      }
    }
  } finally {
    m.close();
  }
});

test('an LZB16 chunk with an unseen form fails its entry with UNSUPPORTED_FORM; verify counts it apart', { skip: patch.skip }, () => {
  // Patch_00 with the island manifest's first token changed to match code 3 (FF → 3F): same
  // length, so the archive stays valid; only that chunk uses a form no real chunk exercises.
  const bytes = new Uint8Array(fs.readFileSync(patch.path));
  const s = open();
  let at: number;
  try {
    const e = entry(s, layerPath('island', 'bndl'));
    at = e.record.dataOffset + e.chunkStream().chunk(0).headerOffset + 8 + 4;
  } finally {
    s.close();
  }
  assert.equal(bytes[at], 0xff);
  bytes[at] = 0x3f;
  const root = tempDir('arch06-lzb16-form-');
  writeTree(root, { 'x64/default.archcfg': '..\\Patch_00.arch06\n', 'Patch_00.arch06': bytes });
  const m = Mount.open({ root });
  try {
    const report = verifyMount(m);
    assert.equal(report.failures.length, 1);
    assert.equal(report.failures[0].code, 'UNSUPPORTED_FORM');
    assert.equal(report.failures[0].path, layerPath('island', 'bndl'));
    assert.match(report.failures[0].message, /unsupported LZB16 form: match code 3/);
    assert.match(report.failures[0].message, new RegExp(`at 0x${at.toString(16)}:`));
    assert.deepEqual(report.unsupportedForms, { lzb16: 1 });
    assert.deepEqual(report.unsupportedChunks, {});
    assert.deepEqual(report.chunksByCodec, { lzb16: 3, kraken: 9 });
  } finally {
    m.close();
  }
});

/** One sequence of an LZB16 stream as the test's own walker reads it (docs/lzb16.md, written apart from the decoder). */
interface Sequence {
  /** Output position of the sequence's first literal, and its literal bytes. */
  out: number;
  literals: Uint8Array;
  /** Whether the literal count took the extension byte (token & 15 == 15). */
  extended: boolean;
  /** The match (absent on the final, literal-only sequence). */
  match?: { form: 'match 0' | 'long match' | 'short match'; out: number; length: number; offset: number; e?: number };
}

function walk(payload: Uint8Array): Sequence[] {
  const seqs: Sequence[] = [];
  let p = 4;
  let o = 0;
  while (p < payload.length) {
    const token = payload[p++];
    let lits = token & 15;
    const extended = lits === 15;
    if (extended) lits += payload[p++];
    const seq: Sequence = { out: o, literals: payload.subarray(p, p + lits), extended };
    seqs.push(seq);
    p += lits;
    o += lits;
    if (p === payload.length) break;
    const code = token >> 4;
    if (code === 0) {
      seq.match = { form: 'match 0', out: o, length: 4, offset: payload[p] | (payload[p + 1] << 8) };
      p += 2;
    } else {
      assert.equal(code, 15, `match code at stream byte ${p}`);
      const e = payload[p++];
      if (e < 0x80) {
        seq.match = { form: 'long match', out: o, length: e + 19, offset: payload[p] | (payload[p + 1] << 8), e };
        p += 2;
      } else {
        seq.match = { form: 'short match', out: o, length: ((e >> 3) & 15) + 4, offset: e & 7, e };
      }
    }
    o += seq.match.length;
  }
  return seqs;
}

test('Patch_00.arch06: each LZB16 form the real chunks use, checked token by token against the decoded bytes', { skip: patch.skip }, () => {
  const s = open();
  const forms: Record<string, number> = {};
  const count = (form: string): void => void (forms[form] = (forms[form] ?? 0) + 1);
  const shortE = new Set<number>();
  try {
    for (const layer of LAYERS) {
      const [{ payload, rawLen }] = chunks(entry(s, layerPath(layer, 'bndl')));
      const out = decodeOodle(payload, rawLen, { file: layer, chunkIndex: 0 });
      const seqs = walk(payload);
      const last = seqs[seqs.length - 1];
      assert.equal(last.match, undefined, `${layer}: the stream ends with a literal-only sequence`);
      assert.equal(last.out + last.literals.length, rawLen, `${layer}: the walk covers exactly the raw length`);
      for (const q of seqs) {
        count(q.extended ? 'literal count + extension byte' : 'literal count');
        // Literals land where the walk says, byte for byte.
        assert.deepEqual(Buffer.from(out.subarray(q.out, q.out + q.literals.length)), Buffer.from(q.literals), `${layer}: literals at ${q.out}`);
        if (!q.match) {
          count('final literal-only sequence');
          continue;
        }
        const { form, out: at, length, offset } = q.match;
        count(form);
        assert.ok(offset >= 1 && offset <= at, `${layer}: offset ${offset} inside the output at ${at}`);
        // A match repeats the bytes `offset` back, overlapping runs included.
        for (let i = 0; i < length; i++) assert.equal(out[at + i], out[at + i - offset], `${layer} ${form} at ${at + i}`);
        if (form === 'short match') {
          shortE.add(q.match.e!);
          // Offset 1: a run of the byte before it.
          assert.ok(
            out.subarray(at - 1, at + length).every((b) => b === out[at - 1]),
            `${layer}: short match at ${at} is a run`,
          );
        }
      }
    }
  } finally {
    s.close();
  }
  // Every form the decoder accepts is seen in the real bytes (docs/lzb16.md); the counts are this walk's.
  assert.deepEqual(forms, {
    'literal count': 37,
    'literal count + extension byte': 12,
    'final literal-only sequence': 4,
    'match 0': 1,
    'long match': 36,
    'short match': 8,
  });
  // What real data leaves open: no short-form E byte sets bit 6, so the length field's top bit
  // (lengths 12-19) is exercised only by the synthetic tests (lzb16.test.ts).
  assert.ok(
    [...shortE].every((e) => e < 0xc0),
    [...shortE].map((e) => e.toString(16)).join(' '),
  );
});
