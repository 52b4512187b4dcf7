/**
 * The retail samples in ../shared/samples/real, each checked against a fact that does not come
 * from the reader under test: a figure from that folder's README.md, from
 * ../shared/docs/formats-public.md ("Checked on a retail archive", §1-§3, §9), or bytes read from
 * the file at offsets named here (independent little-endian reads, as `xxd` shows them).
 * They skip with a message when ../shared is absent, and fail under ARCH06_REQUIRE_SHARED=1.
 * (The LZB16 tests cover `verify` over all chunks and the BNDL manifests.)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Mount } from '../../archive/mount';
import { parseEmbb } from '../bundle/embb';
import { parsePathIndex } from '../archive/pathIndex';
import { parsePrfb, PRFB_LOD_OFFSET, PRFB_LOD_RECORD_SIZE } from '../prefab/prfb';
import { parseLtfxHeader } from '../effect/ltfx';
import { stringHash } from '../../hash/stringHash';
import { sharedPath } from '../../../test/support/shared';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { rawCString, rawLtarRecords, rawU32 } from '../../../test/support/rawLtar';

const PATCH = sharedPath('samples/real/Patch_00.arch06');
const INDEX = sharedPath('samples/real/archivepatchloosefiles.txt');
const FXP = sharedPath('samples/real/landmine_curse.fxp');

// Independent little-endian reads (not the project's readers).
const u32 = rawU32;
const cstring = rawCString;
const ascii = (b: Uint8Array, o: number, n: number): string => Buffer.from(b.subarray(o, o + n)).toString('latin1');

// README.md: "four world layers (worlds\retail\{island,mtnpass,snowmtn,volcano}\sectionsandlayers\fortwallgameplay.embb + .bndl)".
const LAYERS = ['island', 'mtnpass', 'snowmtn', 'volcano'];
const layerPath = (layer: string, ext: string): string => `worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay.${ext}`;
// README.md: each .embb's members and their formats, "(9 in island, 9 in the others)".
const MEMBER_FORMATS: Record<string, [string, number]> = {
  inst: ['PRFB', 8],
  veggrid: ['VEGG', 1],
  terrain: ['TERR', 9],
  uiwd: ['UIWD', 4],
  objres: ['OBJR', 13],
  uis: ['UISH', 3],
  scripts: ['SCRI', 1],
  wldclnt: ['WDSC', 9],
  hkai: ['HKAI', 3],
};

/** An install holding the retail archive, named by its cfg (as the game's x64/default.archcfg does). */
function mountPatch(): Mount {
  const root = tempDir('arch06-real-');
  writeTree(root, { 'x64/default.archcfg': '..\\Patch_00.arch06\r\n', 'Patch_00.arch06': fs.readFileSync(PATCH.path) });
  return Mount.open({ root });
}

test('Patch_00.arch06 mounts with its 8 entries, each the size and storage its raw record gives', { skip: PATCH.skip }, () => {
  const bytes = new Uint8Array(fs.readFileSync(PATCH.path));
  assert.equal(bytes.length, 124548); // README: "124,548 bytes"
  assert.equal(ascii(bytes, 0, 4), 'LTAR'); // bytes 0-3
  assert.equal(u32(bytes, 4), 4); // bytes 4-7: v4 (§1.2)
  assert.equal(u32(bytes, 0x10), 8); // fileCount; README: "8 entries"
  const raw = rawLtarRecords(bytes); // formats-public §1, read by hand (test/support/rawLtar.ts)
  const expected = LAYERS.flatMap((l) => [layerPath(l, 'bndl'), layerPath(l, 'embb')]);
  assert.deepEqual(raw.map((r) => r.path).sort(), [...expected].sort());
  // "Checked on a retail archive": every file record has +0x1C = 1 and flags = 9 (chunked).
  assert.ok(raw.every((r) => r.unk1C === 1 && r.flags === 9 && r.storage === 'chunked'));
  // README: "each .bndl (the layer's manifest, 740 or 760 bytes)".
  for (const r of raw.filter((x) => x.path.endsWith('.bndl'))) assert.ok(r.size === 740 || r.size === 760, `${r.path}: ${r.size}`);

  const m = mountPatch();
  try {
    assert.deepEqual(m.skipped, []);
    assert.deepEqual(m.broken, []);
    assert.deepEqual(
      m.sources.map((s) => [s.name, s.kind, s.fileCount]),
      [['Patch_00.arch06', 'archive', 8]],
    );
    assert.deepEqual([...m.sources[0].allPaths()].sort(), [...expected].sort());
    assert.equal(m.distinctPaths().length, 8);
    assert.deepEqual(
      m
        .list('worlds\\retail')!
        .folders.map((f) => f.name)
        .sort(),
      LAYERS,
    );
    for (const r of raw) {
      const e = m.entry(r.path);
      assert.deepEqual([e.size, e.storedSize, e.storage], [r.size, r.storedSize, 'chunked'], r.path);
    }
  } finally {
    m.close();
  }
});

test('Patch_00.arch06: the 4 EMBB containers parse to their last byte, 9 members each, sizes adding up', { skip: PATCH.skip }, () => {
  const raw = rawLtarRecords(new Uint8Array(fs.readFileSync(PATCH.path)));
  const m = mountPatch();
  try {
    for (const layer of LAYERS) {
      const p = layerPath(layer, 'embb');
      const bytes = m.entry(p).readSync(); // Kraken chunks (README), decoded by the project's decoder
      const recordSize = raw.find((r) => r.path === p)!.size; // u64 at +0x14 of its file record
      assert.equal(bytes.length, recordSize, p);

      // Walked by hand, as formats-public §2 lays it out and "Checked on a retail archive" settles it.
      assert.equal(ascii(bytes, 0, 4), 'EMBB');
      assert.equal(u32(bytes, 4), 5);
      const pathPoolSize = u32(bytes, 0x08);
      const n = u32(bytes, 0x0c);
      assert.equal(n, 9, `${p}: README "9 in island, 9 in the others"`);
      const tableAt = 0x10 + pathPoolSize;
      // Paths NUL-terminated and padded to 4, offsets relative to 0x10: the pool is exactly the padded paths.
      const paths: string[] = [];
      let padded = 0;
      for (let i = 0; i < n; i++) {
        const at = 0x10 + u32(bytes, tableAt + 4 * i);
        const s = cstring(bytes, at);
        paths.push(s);
        padded += Math.ceil((s.length + 1) / 4) * 4;
      }
      assert.equal(padded, pathPoolSize, `${p}: the path pool is the paths padded to 4`);
      // count x {u32 size; bytes[size]}, no padding between payloads.
      const walked: { offset: number; size: number }[] = [];
      let at = tableAt + 4 * n;
      for (let i = 0; i < n; i++) {
        const size = u32(bytes, at);
        walked.push({ offset: at + 4, size });
        at += 4 + size;
      }
      const payloads = walked.reduce((t, w) => t + 4 + w.size, 0);
      // The container-size identity: 16 + path table + 4n + Σ(4 + size) = entry size.
      assert.equal(16 + pathPoolSize + 4 * n + payloads, recordSize, `${p}: container-size identity`);
      // Each payload opens with the magic and version the README names for its extension.
      for (let i = 0; i < n; i++) {
        const ext = paths[i].slice(paths[i].lastIndexOf('.') + 1);
        assert.ok(paths[i].startsWith(`worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay.`), paths[i]);
        assert.deepEqual([ascii(bytes, walked[i].offset, 4), u32(bytes, walked[i].offset + 4)], MEMBER_FORMATS[ext], paths[i]);
      }
      assert.deepEqual(paths.map((s) => s.slice(s.lastIndexOf('.') + 1)).sort(), Object.keys(MEMBER_FORMATS).sort());

      // The reader agrees with the hand walk and finds nothing left over.
      const c = parseEmbb(bytes, p);
      assert.equal(c.blocks.length, 1);
      assert.equal(c.blocks[0].end, bytes.length, `${p}: parsed to its last byte`);
      assert.equal(c.trailing, undefined);
      assert.equal(c.confidence, 'confirmed');
      assert.deepEqual(c.notes, []);
      assert.equal(c.blocks[0].pathPoolSize, pathPoolSize);
      assert.deepEqual(
        c.members.map((x) => [x.path, x.offset, x.size]),
        paths.map((s, i) => [s, walked[i].offset, walked[i].size]),
      );
    }
  } finally {
    m.close();
  }
});

test('Patch_00.arch06: the four embedded .inst (PRFB v8) read as far as the reader claims', { skip: PATCH.skip }, () => {
  const m = mountPatch();
  try {
    for (const layer of LAYERS) {
      const bytes = m.entry(layerPath(layer, 'embb')).readSync();
      const member = parseEmbb(bytes, layer).members.find((x) => x.path.endsWith('.inst'))!;
      const inst = bytes.subarray(member.offset, member.offset + member.size);
      // 76 bytes in all four (their EMBB size words): 0x38 header bytes, then 20 bytes, too few
      // for one 44-byte LOD record; every byte from 0x0C on is 0 (read with xxd).
      assert.equal(inst.length, 76);
      assert.ok(inst.subarray(0x0c).every((b) => b === 0));
      const p = parsePrfb(inst, member.path);
      assert.equal(p.version, 8); // bytes 4-7
      assert.deepEqual(
        p.header.map((w) => w.value),
        Array.from({ length: 14 }, (_, i) => u32(inst, 4 * i)),
      );
      assert.equal(ascii(inst, 0, 4), 'PRFB');
      // Word [2] ("u32 hash; of what is not stated", seed 001) is StringHash of the member's own path
      // in all four samples: a finding of this test, computed by the independent StringHash.
      assert.equal(p.hash, stringHash(member.path));
      assert.equal(p.hash, u32(inst, 8));
      assert.deepEqual(p.counts, { draws: 0, materials: 0, childPrefabs: 0, vertexFormats: 0 });
      const fit = Math.floor((inst.length - PRFB_LOD_OFFSET) / PRFB_LOD_RECORD_SIZE);
      assert.equal(fit, 0);
      assert.equal(p.lods.records.length, fit);
      assert.match(p.lods.stop, /fewer than 44 bytes/);
      assert.equal(p.tables, undefined);
      assert.equal(p.geometry, undefined);
      assert.deepEqual([p.rest?.offset, p.rest?.size], [PRFB_LOD_OFFSET, inst.length - PRFB_LOD_OFFSET]);
    }
  } finally {
    m.close();
  }
});

test('archivepatchloosefiles.txt: 243 rows sorted by hash, every hash the StringHash of its path', { skip: INDEX.skip }, () => {
  const bytes = new Uint8Array(fs.readFileSync(INDEX.path));
  // Read by hand (seed 004 "The path index"): u32 1 | u32 stringBytes | strings | u32 count | count x {u32 hash, u32 offset}.
  assert.equal(u32(bytes, 0), 1);
  const stringBytes = u32(bytes, 4);
  const countAt = 8 + stringBytes;
  const count = u32(bytes, countAt);
  assert.equal(count, 243); // README: "243 rows"
  assert.equal(countAt + 4 + 8 * count, bytes.length, 'the rows end the file');
  const rows = Array.from({ length: count }, (_, i) => {
    const at = countAt + 4 + 8 * i;
    return { hash: u32(bytes, at), path: cstring(bytes, 8 + u32(bytes, at + 4)) };
  });
  for (const r of rows) assert.equal(stringHash(r.path), r.hash, r.path); // README: "every hash = StringHash of its path"
  for (let i = 1; i < count; i++) assert.ok(rows[i - 1].hash <= rows[i].hash, `row ${i} out of order`);
  const parsed = parsePathIndex(bytes);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.rows, rows);
});

test('landmine_curse.fxp: LTFX v8 with an embedded GADB v17 at 0x08', { skip: FXP.skip }, () => {
  const bytes = new Uint8Array(fs.readFileSync(FXP.path));
  // xxd: 4c544658 08000000 47414442 11000000 ("LTFX", 8, "GADB", 0x11); formats-public §9.
  assert.equal(Buffer.from(bytes.subarray(0, 16)).toString('hex'), '4c5446580800000047414442' + '11000000');
  const h = parseLtfxHeader(bytes, 'landmine_curse.fxp');
  assert.equal(h.version, 8);
  assert.equal(h.gadb.offset, 8);
  assert.equal(h.gadb.version, 0x11);
  // The nine words at 0x10..0x30, as xxd shows them: 4c0e0000 0c000000 10000000 00000000 8c020000
  // 02020000 df44f2ab 00000000 2c000000.
  assert.deepEqual(
    h.gadb.words.map((w) => w.value),
    [0xe4c, 0x0c, 0x10, 0, 0x28c, 0x202, 0xabf244df, 0, 0x2c],
  );
  assert.equal(h.size, 14524); // ls -l
  assert.equal(h.confidence, 'uncertain');
});
