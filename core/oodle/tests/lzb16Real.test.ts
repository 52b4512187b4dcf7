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
