// MESH v5 world meshes. No sample file exists: the files are synthetic (core/formats/prefab/writer.ts).
// Oracles: seed 001 ("vertex buffer at 0x2C", header [3] draws, [4] formats, [9] vertex bytes,
// [10] index bytes, "draws wider than 20 km are sky domes and vista cards") and the writer's layout.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { WORLD_MESH_VERTEX_OFFSET, WorldMesh, parseWorldMesh, worldMeshNotes, worldMeshSummary } from '../worldMesh';
import { box, sampleWorldMeshInput, writeWorldMesh } from '../writer';
import { meshModelFromWorldMesh } from '../../../model/fromPrfb';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';

const FILE = 'worlds/retail/lithlad/lithlad.wldmsh';
const notesOf = (m: WorldMesh): string => worldMeshNotes(m).join('\n');

test('world mesh: header words with the seed labels, vertex buffer at 0x2C, tables right after the index buffer', () => {
  const input = sampleWorldMeshInput();
  const { bytes, layout } = writeWorldMesh(input);
  const m = parseWorldMesh(bytes, FILE);
  assert.equal(m.format, 'MESH');
  assert.equal(m.version, 5);
  assert.equal(m.confidence, 'uncertain');
  assert.equal(m.header.length, 11);
  assert.deepEqual(
    m.header.filter((h) => h.labelled).map((h) => [h.index, h.label]),
    [
      [0, 'magic "MESH"'],
      [1, 'version (5)'],
      [3, 'draws'],
      [4, 'vertex formats'],
      [9, 'vertex bytes'],
      [10, 'index bytes'],
    ],
  );
  assert.deepEqual(m.counts, { draws: 3, vertexFormats: 2, vertexBytes: layout.vertexBytes, indexBytes: layout.indexBytes });
  // Seed: the vertex buffer is at 0x2C; the first float there is draw 0's first x.
  assert.equal(m.buffers.vertexOffset, WORLD_MESH_VERTEX_OFFSET);
  assert.equal(new DataView(bytes.buffer).getFloat32(0x2c, true), input.draws[0]!.positions[0]);
  assert.equal(m.buffers.indexOffset, WORLD_MESH_VERTEX_OFFSET + layout.vertexBytes);
  assert.equal(m.tables?.formats?.offset, layout.formatsOffset, notesOf(m));
  assert.equal(m.tables!.drawsOffset, layout.drawsOffset);
  assert.equal(m.tables!.materials, undefined, 'a MESH carries no paths: its materials index the WDSC list');
  assert.deepEqual(
    m.tables!.draws.map((d) => d.material),
    [3, 7, 0],
  );
  assert.ok(m.geometry?.checkable);
  assert.match(notesOf(m), /the formats start right after the index buffer/);
  assert.equal(m.rest, undefined);
  assert.ok(worldMeshSummary(m).some((l) => /vertex buffer at 0x2c/.test(l)));
});

test('world mesh: one LOD of every draw; the 600 km card is named and left out of the bounds', () => {
  const input = sampleWorldMeshInput();
  const m = parseWorldMesh(writeWorldMesh(input).bytes, FILE);
  const { model, reason } = meshModelFromWorldMesh(m, 'lithlad.wldmsh');
  assert.ok(model, reason);
  assert.equal(model.lods.length, 1);
  assert.deepEqual(
    model.lods[0]!.parts.map((p) => p.name),
    ['draw 0', 'draw 1', 'draw 2 (600 km wide: sky dome or vista card)'],
  );
  assert.deepEqual(
    model.lods[0]!.parts.map((p) => p.material),
    ['material 3', 'material 7', 'material 0'],
  );
  assert.deepEqual(model.bounds, { min: [-10000, -50, -10000], max: [10000, 600, 10000] });
  for (const [i, part] of model.lods[0]!.parts.entries()) {
    assert.deepEqual([...part.positions], Array.from(input.draws[i]!.positions));
    assert.deepEqual([...part.indices], Array.from(input.draws[i]!.indices));
  }
  assert.match(model.notes.join('\n'), /1 draw\(s\) wider than 20 km .* left out of the bounds/);
});

test('world mesh: padding after the indices, trailing bytes, and what is not accepted', () => {
  const base = sampleWorldMeshInput();
  for (const tailPadding of [0, 1, 2, 3]) {
    const m = parseWorldMesh(writeWorldMesh({ ...base, tailPadding }).bytes, FILE);
    assert.equal(m.buffers.padding, tailPadding, notesOf(m));
    assert.ok(m.geometry?.checkable);
  }
  const t = writeWorldMesh({ ...base, trailing: new Uint8Array([9, 9, 9]) });
  const mt = parseWorldMesh(t.bytes, FILE);
  assert.deepEqual(mt.rest && [mt.rest.offset, mt.rest.size], [t.layout.restOffset, 3]);
  // Four bytes of padding: the formats must start within 3 bytes of the index buffer's end.
  const far = parseWorldMesh(writeWorldMesh({ ...base, tailPadding: 4 }).bytes, FILE);
  assert.equal(far.tables?.formats, undefined);
  assert.equal(meshModelFromWorldMesh(far, 'x').model, undefined);
  // Non-zero padding is not padding.
  const w = writeWorldMesh({ ...base, tailPadding: 2 });
  const nz = w.bytes.slice();
  nz[w.layout.formatsOffset - 1] = 0xaa;
  assert.equal(parseWorldMesh(nz, FILE).tables?.formats, undefined);
  // A flat format list: reported, no geometry.
  const flat = parseWorldMesh(writeWorldMesh({ ...base, formatFraming: 'flat' }).bytes, FILE);
  assert.equal(flat.tables?.formats?.framing, 'flat', notesOf(flat));
  assert.match(meshModelFromWorldMesh(flat, 'x').reason!, /flat list/);
  // A vend past the vertex buffer.
  const v = writeWorldMesh(base);
  const bad = v.bytes.slice();
  new DataView(bad.buffer).setUint32(v.layout.drawsOffset + 52 + 40, v.layout.vertexBytes + 4, true);
  const mb = parseWorldMesh(bad, FILE);
  assert.equal(mb.geometry?.checkable, false);
  assert.match(meshModelFromWorldMesh(mb, 'x').reason!, /draw 1 .*vend \d+ is past the vertex buffer/);
});

test('world mesh: header errors and buffers that do not fit are typed', () => {
  const { bytes, layout } = writeWorldMesh(sampleWorldMeshInput());
  const magic = bytes.slice();
  magic[3] = 0x4b;
  expectArch06Error(() => parseWorldMesh(magic, FILE), 'BAD_MAGIC', { field: 'header.magic' });
  const v4 = bytes.slice();
  v4[4] = 4;
  expectArch06Error(() => parseWorldMesh(v4, FILE), 'UNSUPPORTED_VERSION', { field: 'header.version' });
  expectArch06Error(() => parseWorldMesh(bytes.subarray(0, 0x2b), FILE), 'TRUNCATED', { field: 'header.words' });
  const e = expectArch06Error(() => parseWorldMesh(bytes.subarray(0, 0x2c + layout.vertexBytes - 1), FILE), 'TRUNCATED', { field: 'header[9].vertexBytes' });
  assert.equal(e.offset, 0x24);
  expectArch06Error(() => parseWorldMesh(bytes.subarray(0, 0x2c + layout.vertexBytes + 1), FILE), 'TRUNCATED', { field: 'header[10].indexBytes' });
});

function survive(bytes: Uint8Array, what: string): WorldMesh | Arch06Error {
  try {
    const m = parseWorldMesh(bytes, FILE);
    worldMeshSummary(m);
    JSON.stringify(m);
    const { model } = meshModelFromWorldMesh(m, 'x');
    for (const part of model?.lods[0]?.parts ?? []) {
      const n = part.positions.length / 3;
      for (const i of part.indices) assert.ok(i < n, `${what}: index ${i} >= ${n}`);
    }
    return m;
  } catch (e) {
    if (e instanceof Arch06Error) return e;
    assert.fail(`${what}: threw ${e instanceof Error ? e.stack : String(e)}`);
  }
}

test('world mesh: truncation at every offset and random mutations only ever throw Arch06Error', () => {
  const { bytes, layout } = writeWorldMesh({ ...sampleWorldMeshInput(), trailing: new Uint8Array(7) });
  const buffersEnd = 0x2c + layout.vertexBytes + layout.indexBytes;
  for (let n = 0; n <= bytes.length; n++) {
    const r = survive(bytes.subarray(0, n), `length ${n}`);
    assert.equal(r instanceof Arch06Error, n < buffersEnd, `length ${n}`);
    if (r instanceof Arch06Error) assert.equal(r.code, 'TRUNCATED');
  }
  const rnd = prng(0x5eed02);
  for (let iter = 0; iter < 1500; iter++) {
    const b = bytes.slice();
    const v = new DataView(b.buffer);
    const k = 1 + Math.floor(rnd() * 6);
    for (let j = 0; j < k; j++) {
      const mode = rnd();
      if (mode < 0.3) v.setUint32(8 + 4 * Math.floor(rnd() * 9), rnd() < 0.5 ? Math.floor(rnd() * 0x100000000) : Math.floor(rnd() * 4096), true);
      else if (mode < 0.5) b[Math.floor(rnd() * b.length)] = 0;
      else b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
    }
    survive(b, `mutation ${iter}`);
  }
});

test('world mesh: a single small draw with half4 positions', () => {
  const b = box([0, 0, 0], [4, 4, 4]);
  const w = writeWorldMesh({ formats: [[{ stream: 0, type: 12, usage: 0 }]], draws: [{ ...b, format: 0, material: 0 }] });
  const m = parseWorldMesh(w.bytes, FILE);
  const { model, reason } = meshModelFromWorldMesh(m, 'x');
  assert.ok(model, reason);
  assert.deepEqual([...model.lods[0]!.parts[0]!.positions], b.positions);
  assert.equal(model.lods[0]!.parts[0]!.normals, undefined);
});
