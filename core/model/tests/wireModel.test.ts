// MeshModel ⇄ WireModel, the 3D viewer's message shape (media/mesh/protocol.ts re-exports it).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import type { MeshModel } from '../meshModel';
import { fromWireModel, toWireModel, wireTransferables, WIRE_VERSION, type WireModel } from '../wire';
import { cubeModel, skinnedStripModel } from './synthetic';

/** What postMessage does to the message: a structured clone (ArrayBuffers copied). */
const overTheWire = (w: WireModel): unknown => structuredClone(w);

test('round trip keeps every array, its element type, and the plain fields', () => {
  for (const model of [cubeModel(), skinnedStripModel()]) {
    const wire = toWireModel(model);
    assert.equal(wire.wireVersion, WIRE_VERSION);
    for (const lod of wire.lods) for (const p of lod.parts) assert.ok(p.positions instanceof ArrayBuffer);
    const back = fromWireModel(overTheWire(wire));
    assert.deepEqual(back, model);
    // deepEqual checks typed-array types too; make the index width explicit anyway.
    assert.ok(back.lods[1]?.parts[0]?.indices instanceof Uint32Array || model.lods.length === 1);
    assert.ok(back.lods[0]!.parts[0]!.indices instanceof Uint16Array);
  }
});

test('arrays that view part of a larger buffer are sent as exact copies; whole buffers are not copied', () => {
  const model = cubeModel();
  const big = new Float32Array(1000);
  const part = model.lods[0]!.parts[0]!;
  big.set(part.positions, 100);
  part.positions = big.subarray(100, 100 + part.positions.length);
  const wire = toWireModel(model);
  const wp = wire.lods[0]!.parts[0]!;
  assert.equal(wp.positions.byteLength, part.positions.byteLength);
  assert.equal(wp.normals, part.normals!.buffer, 'a whole buffer is passed as is');
  assert.deepEqual(fromWireModel(overTheWire(wire)).lods[0]!.parts[0]!.positions, part.positions);
  const transfer = wireTransferables(wire);
  assert.equal(new Set(transfer).size, transfer.length);
  assert.ok(transfer.includes(wp.positions) && transfer.includes(wp.indices));
});

test('a skeleton-only model (no LODs) crosses too', () => {
  const model: MeshModel = { ...skinnedStripModel(), lods: [] };
  assert.deepEqual(fromWireModel(overTheWire(toWireModel(model))), model);
});

test('malformed wire models are INVALID errors naming the part', () => {
  const expectInvalid = (mutate: (w: WireModel) => void, field: RegExp): void => {
    const w = toWireModel(skinnedStripModel());
    mutate(w);
    assert.throws(
      () => fromWireModel(w),
      (e: unknown) => e instanceof Arch06Error && e.code === 'INVALID' && field.test(e.field ?? '') && /strip/.test(e.file ?? ''),
    );
  };
  expectInvalid((w) => (w.lods[0]!.parts[0]!.positions = new ArrayBuffer(10)), /parts\[0\]\.positions/);
  expectInvalid((w) => (w.lods[0]!.parts[0]!.normals = new ArrayBuffer(12)), /normals/);
  expectInvalid((w) => (w.lods[0]!.parts[0]!.indexType = 'int8' as 'uint16'), /indexType/);
  expectInvalid((w) => new Uint16Array(w.lods[0]!.parts[0]!.indices).set([99], 0), /indices\[0\]/);
  expectInvalid((w) => ((w.lods[0]!.parts[0] as unknown as Record<string, unknown>).joints = [1, 2]), /joints/);
  expectInvalid((w) => (w.wireVersion = 0), /wireVersion/);
  assert.throws(
    () => fromWireModel(null),
    (e: unknown) => e instanceof Arch06Error && e.code === 'INVALID',
  );
});
