// Exact round trip of every real and sample registry (issue 24 item 1): open → save without a
// change gives the same bytes (sha256 compared), and so does regenerating every decoded block from
// its values (the model carries everything those blocks hold). Blocks nobody decodes stay bytes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sampleLayerRegistry } from '../../../sample';
import { ModelBlock, openRegistry, saveRegistry } from '../model';
import { parseObjr } from '../objr';
import { writeObjr } from '../writer';
import { readRealRegistries, realPatch } from '../../../../test/support/realLayers';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const regenerated = (b: ModelBlock): ModelBlock => (b.kind === 'raw' ? b : { ...b, bytes: undefined });

const real = realPatch.skip ? [] : readRealRegistries();
const SAMPLES = [
  { name: 'sample layer (Base container copy)', path: 'worlds\\retail\\sample\\sectionsandlayers\\fortgate.objres', bytes: sampleLayerRegistry(false) },
  { name: 'sample layer (Patch_02 standalone copy)', path: 'worlds\\retail\\sample\\sectionsandlayers\\fortgate.objres', bytes: sampleLayerRegistry(true) },
];

for (const layer of ['island', 'mtnpass', 'snowmtn', 'volcano']) {
  test(`round trip: the real ${layer} registry saves to the same sha256, kept and regenerated`, { skip: realPatch.skip }, () => {
    const r = real.find((x) => x.layer === layer)!;
    const model = openRegistry(r.bytes, r.path);
    assert.equal(sha(saveRegistry(model)), sha(r.bytes));
    assert.deepEqual(
      model.blocks.map((b) => b.kind),
      ['raw', 'raw', 'raw', 'ONLS', 'raw', 'raw', 'raw', 'SCRB', 'raw', 'raw', 'raw', 'OBJL'],
    );
    assert.ok(
      model.blocks.every((b) => b.kind !== 'raw' || b.why === undefined),
      'no decoded block fell back to bytes',
    );
    const fromValues = saveRegistry({ ...model, blocks: model.blocks.map(regenerated) });
    assert.equal(sha(fromValues), sha(r.bytes), 'OBJL, SCRB and ONLS written from their values');
  });
}

for (const s of SAMPLES) {
  test(`round trip: ${s.name} saves to the same sha256, kept and regenerated`, () => {
    const model = openRegistry(s.bytes, s.path);
    assert.equal(sha(saveRegistry(model)), sha(s.bytes));
    assert.deepEqual(
      model.blocks.filter((b) => b.kind !== 'raw').map((b) => b.kind),
      ['ONLS', 'SCRB', 'OBJL'],
    );
    assert.equal(sha(saveRegistry({ ...model, blocks: model.blocks.map(regenerated) })), sha(s.bytes));
  });
}

test('round trip: blocks this writer would not produce stay bytes, with the reason, and still save exactly', () => {
  const reg = parseObjr(sampleLayerRegistry(), 'x.objres');
  const objl = reg.blocks.find((b) => b.tag === 'OBJL')!;
  const scrb = reg.blocks.find((b) => b.tag === 'SCRB')!;
  // An OBJL whose class table holds a string no record names, and an SCRB with 4 trailing bytes.
  const l = reg.objectList!;
  const view = new DataView(objl.raw.buffer, objl.raw.byteOffset, objl.raw.byteLength);
  const classBytes = view.getUint32(16, true);
  const padded = new Uint8Array(objl.raw.length + 4);
  padded.set(objl.raw.subarray(0, 0x1c + classBytes));
  padded.set([0x5a, 0x5a, 0x5a, 0], 0x1c + classBytes);
  padded.set(objl.raw.subarray(0x1c + classBytes), 0x1c + classBytes + 4);
  new DataView(padded.buffer).setUint32(16, classBytes + 4, true);
  // The records' class offsets still point at the same strings (the extra one is at the end).
  assert.ok(l.objects.length > 0);
  const blocks = reg.blocks.map((b) => ({ nameHash: b.nameHash, payload: b === objl ? padded : b.raw }));
  const bytes = writeObjr(blocks, reg.hash);
  const model = openRegistry(bytes, 'x.objres');
  const kept = model.blocks[objl.index];
  assert.equal(kept.kind, 'raw');
  assert.match(kept.kind === 'raw' ? (kept.why ?? '') : '', /does not give its bytes/);
  assert.equal(model.blocks[scrb.index].kind, 'SCRB');
  assert.equal(sha(saveRegistry(model)), sha(bytes));
});
