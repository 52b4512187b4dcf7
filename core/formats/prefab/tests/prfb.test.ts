// PRFB v8 prefabs. There is no sample file: every file here is synthetic (core/formats/prefab/writer.ts,
// whose framing of what seed 001 leaves open is its own). The oracles are the seed's statements
// (-1.0 at +28 of every LOD record, groups opening with their tag, next = -1 on the finest unit,
// header [4] / [5] / [9] counting draws / materials / formats) and the writer's own layout, which
// the reader must find by search without being told.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { PRFB_LOD_MARKER, PRFB_LOD_OFFSET, PRFB_LOD_RECORD_SIZE, Prfb, parsePrfb, prfbNotes, prfbSummary } from '../prfb';
import { PrfbWriteInput, SAMPLE_FORMATS, box, samplePrefabInput, writePrfb } from '../writer';
import { VERTEX_TYPE, VERTEX_USAGE } from '../tables/layout';
import { meshModelFromPrfb } from '../../../model/fromPrfb';
import type { ModelPart } from '../../../model/meshModel';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';

const FILE = 'prefabs/fort/keepwall_a.inst';
const notesOf = (p: Prfb): string => prfbNotes(p).join('\n');

test('prfb: the synthetic keep wall reads back: header words, LOD records, groups, chains', () => {
  const input = samplePrefabInput();
  const { bytes, layout } = writePrfb(input);
  const p = parsePrfb(bytes, FILE);
  assert.equal(p.format, 'PRFB');
  assert.equal(p.version, 8);
  assert.equal(p.hash, 0xcafef00d);
  assert.equal(p.confidence, 'uncertain');
  // Header words up to 0x38, raw, with the seed's labels where it gives them.
  assert.equal(p.header.length, 14);
  assert.deepEqual(
    p.header.filter((h) => h.labelled).map((h) => [h.index, h.label.split(' ')[0]]),
    [
      [0, 'magic'],
      [1, 'version'],
      [2, 'hash'],
      [4, 'draws'],
      [5, 'materials'],
      [6, 'child'],
      [9, 'vertex'],
    ],
  );
  assert.match(p.header[7]!.label, /not the unit count/);
  assert.equal(p.header[7]!.labelled, false);
  assert.equal(p.header[3]!.label, 'unknown');
  assert.deepEqual(p.counts, { draws: 6, materials: 2, childPrefabs: 0, vertexFormats: 2 });

  // Seed: LOD records from 0x38, 44 bytes each, -1.0 at +28.
  assert.equal(p.lods.records.length, layout.lodCount);
  assert.equal(p.lods.end, PRFB_LOD_OFFSET + layout.lodCount * PRFB_LOD_RECORD_SIZE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const r of p.lods.records) {
    assert.equal(r.offset, PRFB_LOD_OFFSET + r.index * PRFB_LOD_RECORD_SIZE);
    assert.equal(view.getFloat32(r.offset + 28, true), -1);
    assert.equal(r.raw[7], PRFB_LOD_MARKER);
  }
  assert.match(p.lods.stop, /no -1\.0 at \+28/);
  // Groups open with their tag: a root {tag, -1, 0, 0, next, cull} then units of the same tag.
  assert.deepEqual(
    p.lods.groups.map((g) => g.tag),
    [0xd238b9dd, 0x3249],
  );
  assert.deepEqual(
    p.lods.records.map((r) => r.kind),
    ['root', 'unit', 'unit', 'unit', 'root', 'unit'],
  );
  const wall = p.lods.groups[0]!;
  assert.equal(p.lods.records[wall.roots[0]!]!.cullDistance, 700000);
  assert.deepEqual(wall.chains, [{ root: 0, units: [1, 2, 3], complete: true }]);
  // next = -1 on the finest unit, and only there.
  assert.deepEqual(
    p.lods.records.filter((r) => r.kind === 'unit' && r.next === -1).map((r) => r.index),
    [3, 5],
  );
  assert.deepEqual(
    wall.units.map((u) => p.lods.records[u]!.switchDistance),
    [32000, 15000, 8000],
  );
  assert.deepEqual(
    wall.units.map((u) => [p.lods.records[u]!.firstDraw, p.lods.records[u]!.drawCount]),
    [
      [0, 1],
      [1, 1],
      [2, 2],
    ],
  );
  assert.equal(p.lods.nextReading, 'record index');
  assert.match(notesOf(p), /draw\(s\) 5 are in no unit/);
});

test('prfb: the tail and the buffers are found by search, uncertain, with how they were found', () => {
  const input = samplePrefabInput();
  const { bytes, layout } = writePrfb(input);
  const p = parsePrfb(bytes, FILE);
  const t = p.tables!;
  assert.ok(t, notesOf(p));
  assert.equal(t.confidence, 'uncertain');
  assert.equal(t.drawsOffset, layout.drawsOffset);
  assert.equal(t.formats!.offset, layout.formatsOffset);
  assert.equal(t.formats!.framing, 'counted');
  assert.deepEqual(
    t.formats!.formats.map((f) => f.entries.map((e) => [e.stream, e.type, e.usage, e.index])),
    SAMPLE_FORMATS.map((f) => f.map((e) => [e.stream, e.type, e.usage, e.index ?? 0])),
  );
  assert.deepEqual(
    t.formats!.formats.map((f) => f.strides),
    [
      [24, 0],
      [8, 8],
    ],
  );
  assert.equal(t.materials!.offset, layout.materialsOffset);
  assert.equal(t.materials!.encoding, 'nul');
  assert.deepEqual(
    t.materials!.paths.map((m) => m.path),
    input.materials,
  );
  assert.deepEqual(
    t.draws.map((d) => [d.word0, d.vertexCount, d.vertexCount2, d.triangles, d.material, d.word7, d.word8, d.format]),
    input.draws.map((d) => [0, 24, 24, 12, d.material, 0, 0, d.format]),
  );
  assert.deepEqual(
    t.draws.map((d) => d.vend),
    layout.blocks.map((b) => b.vend),
  );
  assert.equal(t.draws[0]!.unknown44.asFloat, 1.5);
  assert.equal(t.draws[0]!.unknown48.asFloat, -2);
  assert.deepEqual(p.buffers, {
    countsOffset: layout.countsOffset,
    vertexOffset: layout.vertexOffset,
    vertexBytes: layout.vertexBytes,
    indexOffset: layout.indexOffset,
    indexBytes: layout.indexBytes,
    padding: 0,
  });
  assert.ok(p.geometry!.checkable);
  assert.deepEqual(
    p.geometry!.placements.map((x) => x.streams[0].offset - layout.vertexOffset),
    layout.blocks.map((b) => b.start0),
  );
  const n = notesOf(p);
  assert.match(n, /draw table located by search at 0x[0-9a-f]+: 6 records \(header \[4\]\)/);
  assert.match(n, /framed as \{u32 n, n x 4-byte entries\} \(our reading/);
  assert.match(n, /follow the LOD records directly/);
  assert.match(n, /base = \(stream 0 start\) \/ stride .* on 6 of 6 draws/);
  assert.equal(p.rest, undefined);
  // The JSON form carries no bytes.
  assert.ok(!('bytes' in JSON.parse(JSON.stringify(p))));
});

test('prfb: a model per chain level, finest first, with the draws of each unit', () => {
  const input = samplePrefabInput();
  const p = parsePrfb(writePrfb(input).bytes, FILE);
  const { model, reason } = meshModelFromPrfb(p, 'keepwall_a.inst');
  assert.ok(model, reason);
  assert.deepEqual(
    model.lods.map((l) => l.parts.map((x) => x.name)),
    [['LOD0 draw 2', 'LOD0 draw 3'], ['LOD1 draw 1'], ['LOD2 draw 0']],
  );
  assert.deepEqual(
    model.lods.map((l) => l.triangles),
    [24, 12, 12],
  );
  assert.equal(model.lods[0]!.distance, undefined, 'the stored unit of switch distances is not known');
  // Positions, indices, normals, uvs as written (float3 exact; half4 exact for these values).
  for (const [li, di] of [
    [0, 2],
    [0, 3],
    [1, 1],
    [2, 0],
  ] as const) {
    const part: ModelPart = model.lods[li]!.parts.find((x) => x.name.endsWith(`draw ${di}`))!;
    const d = input.draws[di]!;
    assert.deepEqual([...part.positions], Array.from(d.positions), `draw ${di} positions`);
    assert.deepEqual([...part.indices], Array.from(d.indices), `draw ${di} indices`);
    assert.deepEqual([...part.uvs!], Array.from(d.uvs!), `draw ${di} uvs`);
    if (d.format === 0) assert.deepEqual([...part.normals!], Array.from(d.normals!));
    else assert.deepEqual([...part.colors!], Array.from(d.colors!));
  }
  assert.equal(model.lods[0]!.parts[1]!.material, 'keepwall_trim.mat');
  assert.deepEqual(model.bounds, { min: [-100, 0, -50], max: [100, 340, 50] });
  const notes = model.notes.join('\n');
  assert.match(notes, /LOD group 0xD238B9DD shown .* other group\(s\) not shown: 0x00003249/);
  assert.match(notes, /LOD 0: unit 3 \(finest\) switch distance 8000/);
  assert.match(notes, /1 draw\(s\) are in no unit/);
  assert.match(notes, /UNCERTAIN/);
});

test('prfb: the readings the search accepts: paths with u16 / u32 lengths, next within the group, padding, a gap, a child block', () => {
  const base = samplePrefabInput();
  for (const materialEncoding of ['u16', 'u32'] as const) {
    const p = parsePrfb(writePrfb({ ...base, materialEncoding }).bytes, FILE);
    assert.equal(p.tables?.materials?.encoding, materialEncoding, notesOf(p));
    assert.deepEqual(
      p.tables!.materials!.paths.map((m) => m.path),
      base.materials,
    );
    assert.ok(p.geometry?.checkable);
  }
  const g = parsePrfb(writePrfb({ ...base, nextReading: 'index in group' }).bytes, FILE);
  assert.equal(g.lods.nextReading, 'index in group');
  assert.deepEqual(
    g.lods.groups.map((x) => x.chains.map((c) => c.units)),
    [[[1, 2, 3]], [[5]]],
  );
  assert.ok(meshModelFromPrfb(g, 'x').model);

  for (const tailPadding of [0, 1, 2, 3]) {
    const w = writePrfb({ ...base, tailPadding });
    const p = parsePrfb(w.bytes, FILE);
    assert.equal(p.buffers?.padding, tailPadding, notesOf(p));
    assert.equal(p.tables!.formats!.offset, w.layout.formatsOffset);
  }
  const gap = writePrfb({ ...base, gapAfterLods: 8 });
  const pg = parsePrfb(gap.bytes, FILE);
  assert.equal(pg.buffers?.countsOffset, gap.layout.countsOffset, notesOf(pg));
  assert.match(notesOf(pg), /lie 8 bytes after the LOD records/);

  const child = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const c = writePrfb({ ...base, childPrefabs: 2, childBlock: child });
  const pc = parsePrfb(c.bytes, FILE);
  assert.deepEqual(pc.rest && { offset: pc.rest.offset, size: pc.rest.size }, { offset: c.layout.restOffset, size: 9 });
  assert.match(pc.rest!.note, /header \[6\] = 2 child prefabs .* kept raw/);
});

test('prfb: a flat list of format entries is reported but gives no geometry', () => {
  const p = parsePrfb(writePrfb({ ...samplePrefabInput(), formatFraming: 'flat' }).bytes, FILE);
  assert.equal(p.counts.vertexFormats, 6);
  assert.equal(p.tables?.formats?.framing, 'flat', notesOf(p));
  assert.equal(p.geometry?.checkable, false);
  const { model, reason } = meshModelFromPrfb(p, 'x');
  assert.equal(model, undefined);
  assert.match(reason!, /flat list/);
});

test('prfb: composite and multi-group prefabs: chains of different lengths, a leading group that draws nothing', () => {
  const b = box([0, 0, 0], [10, 10, 10]);
  const input: PrfbWriteInput = {
    groups: [
      { tag: 0x159a, cullDistance: 100, units: [] },
      {
        tag: 0xd238b9de,
        cullDistance: 5000,
        units: [
          { nameHash: 1, firstDraw: 0, drawCount: 1, switchDistance: 300 },
          { nameHash: 2, firstDraw: 1, drawCount: 1, switchDistance: 100 },
        ],
      },
      { tag: 0xd238b9de, cullDistance: 5000, units: [{ nameHash: 3, firstDraw: 2, drawCount: 1, switchDistance: 0 }] },
    ],
    formats: [SAMPLE_FORMATS[0]!],
    draws: [0, 1, 2].map((k) => ({ ...b, positions: b.positions.map((x, i) => (i % 3 === 0 ? x + 20 * k : x)), format: 0, material: 0 })),
    materials: ['a.mat'],
  };
  const p = parsePrfb(writePrfb(input).bytes, FILE);
  assert.deepEqual(
    p.lods.groups.map((g) => [g.tag, g.roots.length, g.units.length]),
    [
      [0x159a, 1, 0],
      [0xd238b9de, 2, 3],
    ],
  );
  assert.deepEqual(
    p.lods.groups[1]!.chains.map((c) => c.units),
    [[2, 3], [5]],
  );
  assert.deepEqual(p.lods.groups[0]!.chains, [{ root: 0, units: [], complete: true }]);
  const { model } = meshModelFromPrfb(p, 'x');
  // Aligned at the finest unit: LOD 0 = draws 1 and 2, LOD 1 = draw 0 and the short chain's only unit (draw 2).
  assert.deepEqual(
    model!.lods.map((l) => l.parts.map((x) => x.name)),
    [
      ['LOD0 draw 1', 'LOD0 draw 2'],
      ['LOD1 draw 0', 'LOD1 draw 2'],
    ],
  );
  assert.match(model!.notes.join('\n'), /LOD group 0xD238B9DE shown .* not shown: 0x0000159A/);
});

test('prfb: when the checks fail the tables are not taken, and the notes say why', () => {
  const base = samplePrefabInput();
  // A material index >= header [5].
  const m = parsePrfb(writePrfb({ ...base, header: { 5: 1 } }).bytes, FILE);
  assert.equal(m.tables, undefined);
  assert.match(notesOf(m), /draw table not located: .*material < 1 \(header \[5\]\)/);
  assert.equal(meshModelFromPrfb(m, 'x').reason, 'the draw table was not located');
  assert.deepEqual(m.rest && [m.rest.offset, m.rest.note], [m.lods.end, 'not located: kept raw']);
  // Header [4] one short of the records present: a run of 5 inside a run of 6 is not taken.
  const d = parsePrfb(writePrfb({ ...base, header: { 4: 5 } }).bytes, FILE);
  assert.equal(d.tables, undefined, notesOf(d));
  assert.match(notesOf(d), /inside a longer run/);
  // Header [9] wrong: no framing meets buffers, so neither formats nor geometry.
  const f = parsePrfb(writePrfb({ ...base, header: { 9: 3 } }).bytes, FILE);
  assert.ok(f.tables, notesOf(f));
  assert.equal(f.tables.formats, undefined);
  assert.equal(f.buffers, undefined);
  assert.match(notesOf(f), /vertex formats not located/);
  assert.match(notesOf(f), /geometry not located/);
  assert.match(meshModelFromPrfb(f, 'x').reason!, /formats were not located/);
  // The material paths cut off.
  const w = writePrfb(base);
  const cut = parsePrfb(w.bytes.subarray(0, w.layout.materialsOffset + 5), FILE);
  assert.equal(cut.tables, undefined);
  assert.match(notesOf(cut), /no such paths after them/);
  // An index beyond its draw's vertices: the tables stand, the geometry is not shown.
  const bad = w.bytes.slice();
  new DataView(bad.buffer).setUint16(w.layout.indexOffset + 2 * 40, 24, true);
  const pb = parsePrfb(bad, FILE);
  assert.ok(pb.tables?.formats);
  assert.equal(pb.geometry?.checkable, false);
  assert.match(meshModelFromPrfb(pb, 'x').reason!, /index 4 \(at 0x[0-9a-f]+\) is 24, not below the draw's 24 vertices/);
});

test('prfb: the LOD walk stops where the pattern ends; chains that do not resolve fall back to file order', () => {
  const w = writePrfb(samplePrefabInput());
  const b = w.bytes.slice();
  // Break the -1.0 of record 2 (the second unit of the keep wall).
  new DataView(b.buffer).setFloat32(PRFB_LOD_OFFSET + 2 * PRFB_LOD_RECORD_SIZE + 28, 1, true);
  const p = parsePrfb(b, FILE);
  assert.equal(p.lods.records.length, 2);
  assert.match(p.lods.stop, /record at 0x90 has no -1\.0 at \+28/);
  assert.equal(p.lods.nextReading, 'file order');
  assert.deepEqual(p.lods.groups[0]!.chains[0]!.units, [1]);
  assert.equal(p.lods.groups[0]!.chains[0]!.complete, false);
  // The tables and the counts are still found (searched after the records that were read).
  assert.ok(p.geometry?.checkable, notesOf(p));
  assert.match(notesOf(p), /lie 176 bytes after the LOD records/);
  const { model } = meshModelFromPrfb(p, 'x');
  assert.deepEqual(
    model!.lods.map((l) => l.parts.map((x) => x.name)),
    [['LOD0 draw 0']],
  );
  // A unit of a tag no root opened ends the walk.
  const u = w.bytes.slice();
  new DataView(u.buffer).setUint32(PRFB_LOD_OFFSET + PRFB_LOD_RECORD_SIZE, 0x77, true);
  const pu = parsePrfb(u, FILE);
  assert.equal(pu.lods.records.length, 1);
  assert.match(pu.lods.stop, /tag 0x00000077, which no root has opened/);
});

test('prfb: header errors are typed', () => {
  const { bytes } = writePrfb(samplePrefabInput());
  const magic = bytes.slice();
  magic[0] = 0x58;
  expectArch06Error(() => parsePrfb(magic, FILE), 'BAD_MAGIC', { field: 'header.magic' });
  const v7 = bytes.slice();
  v7[4] = 7;
  const e = expectArch06Error(() => parsePrfb(v7, FILE), 'UNSUPPORTED_VERSION', { field: 'header.version' });
  assert.equal(e.file, FILE);
  assert.equal(e.offset, 4);
  expectArch06Error(() => parsePrfb(bytes.subarray(0, 0x37), FILE), 'TRUNCATED', { field: 'header.words' });
  expectArch06Error(() => parsePrfb(bytes.subarray(0, 6), FILE), 'TRUNCATED', { field: 'header.version' });
  expectArch06Error(() => parsePrfb(new Uint8Array(0), FILE), 'TRUNCATED', { field: 'header.magic' });
});

/** Parse, convert and describe: anything thrown must be an Arch06Error. Returns the parse or the error. */
function survive(bytes: Uint8Array, what: string): Prfb | Arch06Error {
  try {
    const p = parsePrfb(bytes, FILE);
    prfbSummary(p);
    prfbNotes(p);
    JSON.stringify(p);
    const { model } = meshModelFromPrfb(p, 'x');
    for (const l of model?.lods ?? []) {
      for (const part of l.parts) {
        const n = part.positions.length / 3;
        for (const i of part.indices) assert.ok(i < n, `${what}: index ${i} >= ${n}`);
      }
    }
    return p;
  } catch (e) {
    if (e instanceof Arch06Error) return e;
    assert.fail(`${what}: threw ${e instanceof Error ? e.stack : String(e)}`);
  }
}

test('prfb: truncation at every offset only ever throws Arch06Error (and only inside the header)', () => {
  const { bytes } = writePrfb({ ...samplePrefabInput(), childPrefabs: 1, childBlock: new Uint8Array(12) });
  for (let n = 0; n <= bytes.length; n++) {
    const r = survive(bytes.subarray(0, n), `length ${n}`);
    if (n < PRFB_LOD_OFFSET) assert.ok(r instanceof Arch06Error && r.code === 'TRUNCATED', `length ${n}`);
    else assert.ok(!(r instanceof Arch06Error), `length ${n}: ${r instanceof Arch06Error ? r.message : ''}`);
  }
});

test('prfb: random mutations only ever throw Arch06Error; a 0xFFFFFFFF draw, material or format count is read without throwing and locates neither formats nor geometry', () => {
  const { bytes } = writePrfb(samplePrefabInput());
  const rnd = prng(0x5eed01);
  for (let iter = 0; iter < 1500; iter++) {
    const b = bytes.slice();
    const v = new DataView(b.buffer);
    const k = 1 + Math.floor(rnd() * 6);
    for (let j = 0; j < k; j++) {
      const mode = rnd();
      if (mode < 0.3) v.setUint32(8 + 4 * Math.floor(rnd() * 12), rnd() < 0.5 ? Math.floor(rnd() * 0x100000000) : Math.floor(rnd() * 16), true);
      else if (mode < 0.5) b[Math.floor(rnd() * b.length)] = 0;
      else b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
    }
    survive(b, `mutation ${iter}`);
  }
  for (const word of [4, 5, 9]) {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(4 * word, 0xffffffff, true);
    const p = survive(b, `header [${word}] = 0xFFFFFFFF`);
    assert.ok(!(p instanceof Arch06Error));
    assert.equal(p.tables?.formats, undefined);
    assert.equal(p.geometry, undefined);
  }
});

test('prfb: other position and normal types: half4 positions, ubyte4 normals, float3 uvs are read', () => {
  const b = box([-8, 0, -8], [8, 16, 8]);
  const input: PrfbWriteInput = {
    groups: [{ tag: 0x3249, cullDistance: 9000, units: [{ nameHash: 9, firstDraw: 0, drawCount: 1, switchDistance: 0 }] }],
    formats: [
      [
        { stream: 0, type: VERTEX_TYPE.HALF4, usage: VERTEX_USAGE.POSITION },
        { stream: 1, type: VERTEX_TYPE.UBYTE4, usage: VERTEX_USAGE.NORMAL },
        { stream: 1, type: VERTEX_TYPE.FLOAT3, usage: VERTEX_USAGE.UV },
      ],
    ],
    draws: [{ ...b, format: 0, material: 0 }],
    materials: ['lantern.mat'],
  };
  const p = parsePrfb(writePrfb(input).bytes, FILE);
  const { model, reason } = meshModelFromPrfb(p, 'x');
  assert.ok(model, reason);
  const part = model.lods[0]!.parts[0]!;
  assert.deepEqual([...part.positions], b.positions);
  assert.deepEqual([...part.uvs!], b.uvs);
  for (let i = 0; i < b.normals!.length; i++) assert.ok(Math.abs(part.normals![i]! - b.normals![i]!) < 0.01);
  assert.match(model.notes.join('\n'), /ubyte4 normals read as b \/ 127\.5 - 1 \(UNCERTAIN\)/);
});

// Crafted inputs of about 2 MB where the table search used to be quadratic (a run of matching
// draw records was re-checked from every offset in it; a counted format chain was re-walked from
// every start). Only the results are checked (no timing in unit tests), each against what the
// fixture built here fixes (its layout, its record counts).

const COLOUR_ONLY = [{ stream: 0 as const, type: VERTEX_TYPE.UBYTE4, usage: VERTEX_USAGE.COLOUR }];
const oneUnit = (draws: number): PrfbWriteInput['groups'] => [
  { tag: 0x1234, cullDistance: 100, units: [{ nameHash: 1, firstDraw: 0, drawCount: draws, switchDistance: 0 }] },
];

test('prfb: a 2 MB run of draw records: the table is found once, exactly; a count of half the run is a longer run', () => {
  const N = 18_000;
  const draw = { positions: [0, 0, 0], colors: [1, 2, 3, 4], indices: [0, 0, 0], format: 0, material: 0 };
  // As many bytes after the records as they take, so the scan goes on through the whole run.
  const w = writePrfb({
    groups: oneUnit(N),
    formats: [COLOUR_ONLY],
    draws: new Array(N).fill(draw),
    materials: ['a.mat'],
    childPrefabs: 1,
    childBlock: new Uint8Array(N * 52),
  });
  assert.ok(w.bytes.length > 2_000_000);
  const p = parsePrfb(w.bytes, FILE);
  assert.equal(p.tables?.drawsOffset, w.layout.drawsOffset, notesOf(p));
  assert.equal(p.tables!.draws.length, N);
  assert.equal(p.tables!.formats?.offset, w.layout.formatsOffset);
  assert.deepEqual(
    p.tables!.materials?.paths.map((m) => m.path),
    ['a.mat'],
  );
  assert.equal(p.buffers?.countsOffset, w.layout.countsOffset);
  assert.equal(p.geometry?.checkable, true);
  assert.match(notesOf(p), new RegExp(`${N} records \\(header \\[4\\]\\) .*the only such position`));
  assert.deepEqual(p.rest && [p.rest.offset, p.rest.size], [w.layout.restOffset, N * 52]);

  // Header [4] says half of 2N records: every position inside the run is part of a longer run.
  // From the fixture: record starts k = 0 .. N each begin a run of 2N - k >= N identical records
  // that N undercounts, so at least N + 1 positions are reported. (The records read 1 and 2 bytes
  // early may pass the checks too, their words' high bytes being 0, so the count may be higher.)
  const h = writePrfb({ groups: oneUnit(N), formats: [COLOUR_ONLY], draws: new Array(2 * N).fill(draw), materials: ['a.mat'], header: { 4: N } });
  assert.ok(h.bytes.length > 2_000_000);
  const ph = parsePrfb(h.bytes, FILE);
  assert.equal(ph.tables, undefined);
  const longer = /draw table not located: no run of 18000 .*; (\d+) position\(s\) lie inside a longer run of such records than header \[4\] says/.exec(
    notesOf(ph),
  );
  assert.ok(longer, notesOf(ph));
  assert.ok(Number(longer[1]) >= N + 1, `${longer[1]} positions`);
});

test('prfb: 131072 vertex formats after 1 MB of vertex data that also reads as formats: the one framing that ends at the draws is found', () => {
  const F = 131_072;
  // Colours 01 00 00 00 / 00 04 05 00: the bytes of a counted format {u32 1, s0 ubyte4 colour}, so
  // a counted reading starts at every 8th byte of the vertex buffer (and fails at the indices).
  const draws: PrfbWriteInput['draws'] = [];
  for (let d = 0; d < 4; d++) {
    const n = 65_536;
    const colors = new Uint8Array(4 * n);
    for (let v = 0; v < n; v++) colors.set(v % 2 ? [0, 4, 5, 0] : [1, 0, 0, 0], 4 * v);
    draws.push({ positions: new Float32Array(3 * n), colors, indices: [0, 0, 0], format: 0, material: 0 });
  }
  const w = writePrfb({ groups: oneUnit(draws.length), formats: new Array(F).fill(COLOUR_ONLY), draws, materials: ['a.mat'] });
  assert.ok(w.bytes.length > 2_000_000);
  const formatBytes = w.bytes.subarray(w.layout.formatsOffset, w.layout.formatsOffset + 8);
  assert.deepEqual([...w.bytes.subarray(w.layout.vertexOffset, w.layout.vertexOffset + 8)], [...formatBytes]);
  const p = parsePrfb(w.bytes, FILE);
  const f = p.tables?.formats;
  assert.equal(f?.offset, w.layout.formatsOffset, notesOf(p));
  assert.equal(f!.framing, 'counted');
  assert.equal(f!.formats.length, F);
  assert.deepEqual(
    f!.formats[F - 1]!.entries.map((e) => [e.stream, e.typeName, e.usageName]),
    [[0, 'ubyte4', 'colour']],
  );
  assert.equal(p.tables!.drawsOffset, w.layout.drawsOffset);
  assert.deepEqual(p.buffers, {
    countsOffset: w.layout.countsOffset,
    vertexOffset: w.layout.vertexOffset,
    vertexBytes: w.layout.vertexBytes,
    indexOffset: w.layout.indexOffset,
    indexBytes: w.layout.indexBytes,
    padding: w.layout.formatsOffset - w.layout.indexOffset - w.layout.indexBytes,
  });
  assert.equal(p.geometry?.checkable, true);
  // A line per format: more than a spread into push() takes.
  assert.ok(prfbSummary(p).length > F);
});
