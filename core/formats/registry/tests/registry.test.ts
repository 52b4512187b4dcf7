// OBJR registries (seed 001; layouts settled on the real files, see realLayers.test.ts): the writers
// round-trip through the readers, the OBJL record layout is validated on every read and reported
// (tables and raw records, with the reason) when it does not hold, SCRB and ONLS keys resolve or
// are reported, and truncated or mutated registries end in typed errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { stringHash } from '../../../hash/stringHash';
import { FieldReader, FieldSpan } from '../../../io/fieldReader';
import { OBJL_HEADER_SIZE, OBJL_RECORD, OBJL_RECORD_SIZE, OBJL_WORLD_SET, blockNameHash } from '../layout';
import { readObjl } from '../objl';
import { ObjectRegistry, parseObjr } from '../objr';
import { readOnls } from '../onls';
import { readScrb } from '../scrb';
import { bindingRows, ownScriptPath, resolveRegistry } from '../resolve';
import { ObjlWriterObject, RegistryWriterLayer, writeObjl, writeObjr, writeOnls, writeRegistry, writeScrb } from '../writer';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';

const REGISTRY = 'worlds\\retail\\sample\\sectionsandlayers\\gate.objres';
const SCRIPT = ownScriptPath(REGISTRY);

const objects: ObjlWriterObject[] = [
  { className: 'WorldInitializer', name: 'WorldInitializer', propertyIndex: 0 },
  { className: 'WorldCollision', name: 'PhysicsBSP', propertyIndex: 1 },
  {
    className: 'ScriptObject',
    name: 'Gate_00.SO',
    group: 'Gate_00',
    propertyIndex: 2,
    position: [100.5, -20, 3000],
    rotation: [0, 0.7071067690849304, 0, 0.7071067690849304],
    templateId: 0x63097071,
  },
  { className: 'ScriptRelay', name: 'Gate_00.SR', group: 'Gate_00', propertyIndex: 3, position: [101, -20, 3000], templateId: 0x5e6dea28 },
  { className: 'ScriptRelay', name: 'Gate_01.SR', group: 'Gate_01', propertyIndex: 3, position: [-5, 0, 12.25], templateId: 0x5e6dea28 },
  { className: 'QuestRelay', name: 'Quest_Gate.QR', propertyIndex: 4, templateId: 0x1234 },
  { className: 'StartupCommand', name: 'Gate_00.SC', group: 'Gate_00', propertyIndex: 5, templateId: 0x99 },
  { className: 'Group', name: 'Gate_00.G', propertyIndex: 6 },
];

const layer: RegistryWriterLayer = {
  scriptPath: SCRIPT,
  hash: 0x7c67e876,
  objects,
  bindings: [
    { name: 'Gate_00.SO', bindings: [{ event: 'Script', function: '_gate_SO_Script_3' }] },
    // Two relays bound to the same function share one run of binding records.
    { name: 'Gate_00.SR', bindings: [{ event: 'Script1', function: '_gate_SR_Script1_2' }] },
    { name: 'Gate_01.SR', bindings: [{ event: 'Script1', function: '_gate_SR_Script1_2' }] },
    {
      name: 'Quest_Gate.QR',
      bindings: [
        { event: 'StartQuestScript', function: '_quest_Start_5' },
        { event: 'CompleteQuestScript', function: '_quest_Complete_6' },
      ],
    },
    { name: 'Gate_00.SC', bindings: [{ event: 'Script', function: '_gate_SC_Script_4' }] },
  ],
  groups: [
    { owner: 'Gate_00.G', members: ['Gate_00.SO', 'Gate_00.SR', 'Gate_00.SC'] },
    { owner: 'Gate_00.SO', members: [] },
  ],
};
const FUNCTIONS = new Set(['_gate_SO_Script_3', '_gate_SR_Script1_2', '_quest_Start_5', '_quest_Complete_6', '_gate_SC_Script_4']);

const setU32 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0, true);
const setU16 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset).setUint16(at, v, true);
const setF32 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset).setFloat32(at, v, true);

/** The registry with the payload of the block tagged `tag` replaced by `edit(copy of it)`. */
function withBlock(reg: Uint8Array, tag: string, edit: (payload: Uint8Array) => Uint8Array): Uint8Array {
  const r = parseObjr(reg, 'x');
  return writeObjr(
    r.blocks.map((b) => ({ nameHash: b.nameHash, payload: b.tag === tag ? edit(Uint8Array.from(b.raw)) : b.raw })),
    r.hash,
  );
}

function objlRecordAt(reg: ObjectRegistry, i: number): number {
  return reg.objectList!.objects[i].offset;
}

test('registry: a written layer reads back: chain, names, objects, bindings, groups, GADB header', () => {
  const bytes = writeRegistry(layer);
  const spans: FieldSpan[] = [];
  const reg = parseObjr(bytes, REGISTRY, { spans });
  assert.equal(reg.version, 13);
  assert.equal(reg.hash, 0x7c67e876);
  assert.equal(reg.confidence, 'confirmed', reg.notes.join('; '));
  assert.deepEqual(reg.notes, []);
  assert.deepEqual(
    reg.blocks.map((b) => b.tag),
    ['KEYF', 'SFXS', 'SWFX', 'ONLS', 'NLFE', null, 'SCRB', 'GADB', 'OBJL'],
  );
  assert.deepEqual(
    reg.blocks.map((b) => b.name ?? null),
    [
      'ObjRes.Keyframer',
      null,
      'ObjRes.WeatherFx',
      'ObjRes.ObjNameList',
      'ObjRes.NativeLife',
      'ObjRes.Clutter',
      'ObjRes.ScriptBind',
      'ObjRes.ObjProps',
      'ObjRes.ObjList',
    ],
  );
  // The chain closes at the end and every block's payload lies where its header says.
  const last = reg.blocks[reg.blocks.length - 1];
  assert.equal(last.offset + last.size, bytes.length);
  for (const b of reg.blocks) assert.equal(b.offset, b.headerOffset + 8);

  const l = reg.objectList!;
  assert.deepEqual(l.recordLayout, { validated: true, confidence: 'confirmed' });
  assert.equal(l.objects.length, objects.length);
  assert.deepEqual(
    l.sets.map((s) => [s.hash, s.count]),
    [[OBJL_WORLD_SET, objects.length]],
  );
  l.objects.forEach((o, i) => {
    const w = objects[i];
    assert.equal(o.className, w.className);
    assert.equal(o.name, w.name);
    assert.equal(o.group, w.group ?? null);
    assert.equal(o.propertyIndex, w.propertyIndex);
    assert.deepEqual(o.position, w.position ?? [0, 0, 0]);
    assert.deepEqual(o.rotation, w.rotation ?? [0, 0, 0, 1]);
    assert.equal(o.templateId, w.templateId ?? 0);
    assert.equal(o.set, OBJL_WORLD_SET);
  });
  // Class and group names are stored once.
  assert.equal(l.classes.byOffset.size, new Set(objects.map((o) => o.className)).size);
  assert.equal(l.groups.byOffset.size, 2);

  const s = reg.bindings!;
  assert.deepEqual(s.problems, []);
  assert.equal(s.objects.length, 5);
  assert.equal(s.bindings.length, 5, 'the two relays share one binding record');
  assert.equal(s.rowCount, 6);
  assert.ok(s.sortedByHash);

  const res = resolveRegistry(reg, { scriptPath: SCRIPT, functions: FUNCTIONS });
  assert.deepEqual(res.problems, []);
  assert.ok(res.bindingsResolved);
  assert.equal([...bindingRows(res)].length, 6);
  const rows = [...bindingRows(res)].map((b) => `${b.object}|${b.class}|${b.event}|${b.function}|${b.script}`).sort();
  assert.deepEqual(rows, [
    `Gate_00.SC|StartupCommand|Script|_gate_SC_Script_4|${SCRIPT}`,
    `Gate_00.SO|ScriptObject|Script|_gate_SO_Script_3|${SCRIPT}`,
    `Gate_00.SR|ScriptRelay|Script1|_gate_SR_Script1_2|${SCRIPT}`,
    `Gate_01.SR|ScriptRelay|Script1|_gate_SR_Script1_2|${SCRIPT}`,
    `Quest_Gate.QR|QuestRelay|CompleteQuestScript|_quest_Complete_6|${SCRIPT}`,
    `Quest_Gate.QR|QuestRelay|StartQuestScript|_quest_Start_5|${SCRIPT}`,
  ]);
  for (const b of [...bindingRows(res)]) assert.equal(b.scriptHash, stringHash(SCRIPT));
  assert.deepEqual(res.groups.map((g) => [g.owner, g.members]).sort(), [
    ['Gate_00.G', ['Gate_00.SO', 'Gate_00.SR', 'Gate_00.SC']],
    ['Gate_00.SO', []],
  ]);

  const g = reg.objProps!;
  assert.equal(g.version, 17);
  assert.deepEqual(
    g.words.map((w) => w.label),
    ['stringTableSize', 'recordCount', 'unknown', 'unknown', 'unknown', 'blockCount', 'unknown', 'unknown', 'stringTableOffset'],
  );
  assert.equal(g.words[2].value, 7, 'the writer puts the property record count where the real headers have it');
  assert.ok(spans.some((x) => x.name === 'block[8].objl.set[0].records'));
});

test('registry: the OBJL record layout is validated; a failure keeps the tables and the raw records, with the reason', () => {
  const good = writeRegistry(layer);
  const reg = parseObjr(good, 'x');
  const base = reg.blocks.find((b) => b.tag === 'OBJL')!.offset;
  const cases: [string, (b: Uint8Array) => void, RegExp][] = [
    [
      'name offset inside a string',
      (b) => setU32(b, objlRecordAt(reg, 3) + OBJL_RECORD.nameOffset, 1),
      /record 3 .*object name offset 1 is not a string start/,
    ],
    ['class offset past the table', (b) => setU32(b, objlRecordAt(reg, 0) + OBJL_RECORD.classOffset, 9999), /record 0 .*class name offset 9999/],
    ['group offset not 0xFFFF nor a start', (b) => setU16(b, objlRecordAt(reg, 2) + OBJL_RECORD.groupOffset, 3), /record 2 .*group name offset 3/],
    ['a NaN position', (b) => setF32(b, objlRecordAt(reg, 4) + OBJL_RECORD.position + 4, NaN), /record 4 .*position is not finite/],
    ['a rotation that is not unit', (b) => setF32(b, objlRecordAt(reg, 5) + OBJL_RECORD.rotation + 12, 0.5), /record 5 .*not a unit quaternion/],
    ["N not the records' count", (b) => setU32(b, base + 12, objects.length + 1), /the sets hold 8 records, the header says 9/],
    [
      'a set count past the block',
      (b) => setU32(b, base + OBJL_HEADER_SIZE + reg.objectList!.classes.size + reg.objectList!.names.size + reg.objectList!.groups.size + 4, 9),
      /declares 9 records of 50 bytes; 8 fit/,
    ],
  ];
  for (const [what, edit, reason] of cases) {
    const b = Uint8Array.from(good);
    edit(b);
    const r = parseObjr(b, 'x');
    const l = r.objectList!;
    assert.equal(l.recordLayout.validated, false, what);
    assert.match(l.recordLayout.reason!, reason, what);
    assert.equal(l.recordLayout.confidence, 'uncertain');
    assert.deepEqual(l.objects, [], `${what}: no values from a layout that did not fit`);
    assert.equal(l.rawRecords.length, objects.length, what);
    assert.ok(l.rawRecords.every((x) => x.bytes.length === OBJL_RECORD_SIZE));
    assert.deepEqual(
      [...l.names.byOffset.values()],
      objects.map((o) => o.name),
      `${what}: the names are still shown`,
    );
    assert.equal(r.confidence, 'uncertain');
    assert.ok(r.notes.some((n) => /did not validate/.test(n)));
    // Bindings still resolve by name; the class is reported as unknown.
    const res = resolveRegistry(r, { scriptPath: SCRIPT });
    assert.ok([...bindingRows(res)].every((x) => x.object !== null && x.class === null));
    assert.equal(res.bindingsResolved, false);
  }
  // Bytes after the last set inside the block.
  const longer = withBlock(good, 'OBJL', (p) => Uint8Array.from([...p, 0, 0, 0]));
  assert.match(parseObjr(longer, 'x').objectList!.recordLayout.reason!, /3 bytes after the last set/);
  // Nonzero reserved fields are noted, not refused.
  const odd = Uint8Array.from(good);
  setU32(odd, objlRecordAt(reg, 1) + OBJL_RECORD.word2A, 5);
  const o = parseObjr(odd, 'x').objectList!;
  assert.ok(o.recordLayout.validated);
  assert.equal(o.objects[1].word2A, 5);
  assert.ok(o.notes.some((n) => /@0x2A/.test(n)));
});

test('registry: bindings and groups that do not resolve are reported, not thrown', () => {
  const bytes = writeRegistry({
    ...layer,
    bindings: [...layer.bindings!, { name: 'Nobody.SR', bindings: [{ event: 'Script1', function: '_missing_7' }] }],
    groups: [{ owner: 'Ghost.G', members: ['Gate_00.SO', 'Phantom'] }],
  });
  const reg = parseObjr(bytes, 'x');
  const res = resolveRegistry(reg, { scriptPath: SCRIPT, functions: FUNCTIONS });
  assert.equal(res.bindingsResolved, false);
  const nobody = [...bindingRows(res)].find((b) => b.objectHash === stringHash('Nobody.SR'))!;
  assert.equal(nobody.object, null);
  assert.equal(nobody.functionFound, false);
  assert.ok(nobody.problems.some((p) => /no OBJL name/.test(p)));
  assert.ok(nobody.problems.some((p) => /neither a function nor an hmake object/.test(p)));
  assert.ok(res.problems.some((p) => /ONLS owner .* is no OBJL name/.test(p)));
  assert.deepEqual(res.groups[0].unknownMembers, ['Phantom']);
  // Another part's script path: every row says its hash is not the part's own.
  const other = resolveRegistry(reg, { scriptPath: 'worlds\\retail\\other.scripts' });
  assert.ok([...bindingRows(other)].every((b) => b.script === null && b.problems.some((p) => /not StringHash of the part's own script/.test(p))));
});

test('registry: SCRB rules: an unsorted index, a run past the bindings, names off string starts, a wrong event hash', () => {
  const payload = writeScrb(SCRIPT, layer.bindings!);
  const read = (p: Uint8Array): ReturnType<typeof readScrb> => readScrb(new FieldReader(p, 's'));
  const good = read(payload);
  const objAt = (i: number): number => good.objects[i].offset;
  const unsorted = Uint8Array.from(payload);
  setU32(unsorted, objAt(0), 0xffffffff);
  assert.ok(read(unsorted).problems.includes('the object index is not sorted by hash (the engine binary-searches it)'));
  const past = Uint8Array.from(payload);
  setU32(past, objAt(1) + 8, 50);
  assert.match(read(past).problems.join(), /run past the 5 binding records/);
  const offName = Uint8Array.from(payload);
  setU32(offName, good.bindings[0].offset + 4, 2);
  setU32(offName, good.bindings[1].offset + 12, 99999);
  const p = read(offName).problems.join('\n');
  assert.match(p, /binding 0: event name offset 2 is not a string start/);
  assert.match(p, /binding 1: function name offset 99999/);
  const badHash = Uint8Array.from(payload);
  setU32(badHash, good.bindings[2].offset, 1);
  assert.match(read(badHash).problems.join(), /binding 2: event hash 0x00000001 is not StringHash/);
  // Sizes that do not close are typed errors.
  expectArch06Error(() => read(Uint8Array.from([...payload, 0])), 'INVALID', { field: 'scrb.end' });
  const tooMany = Uint8Array.from(payload);
  setU32(tooMany, 12, 1000);
  expectArch06Error(() => read(tooMany), 'TRUNCATED', { field: 'scrb.bindings' });
});

test('registry: ONLS rules: sizes that do not close, an index offset between groups, a walk past the area', () => {
  const payload = writeOnls(layer.groups!);
  const read = (p: Uint8Array): ReturnType<typeof readOnls> => readOnls(new FieldReader(p, 'o'));
  const good = read(payload);
  assert.deepEqual(good.problems, []);
  assert.equal(good.confidence, 'confirmed');
  assert.deepEqual(
    good.groups.map((g) => g.members.length),
    [3, 0],
  );
  const mid = Uint8Array.from(payload);
  setU32(mid, good.index[0].offset + 4, 1);
  assert.match(read(mid).problems.join(), /offset 1 is not the start of a group/);
  expectArch06Error(() => read(Uint8Array.from([...payload, 0])), 'INVALID', { field: 'onls.areaBytes' });
  const odd = Uint8Array.from(payload);
  setU32(odd, 8, good.areaSize + 4);
  setU32(odd, 12, good.indexSize - 4);
  expectArch06Error(() => read(odd), 'INVALID', { field: 'onls.indexBytes' });
  const many = Uint8Array.from(payload);
  setU32(many, 16, 1000); // the first group's member count
  expectArch06Error(() => read(many), 'OUT_OF_RANGE', { field: 'onls.group[0].count' });
});

test('registry: chain errors are typed and name the field; a broken block is recorded on it, the rest stays readable', () => {
  const good = writeRegistry(layer);
  const mutate = (f: (b: Uint8Array) => void): Uint8Array => {
    const b = Uint8Array.from(good);
    f(b);
    return b;
  };
  expectArch06Error(
    () =>
      parseObjr(
        mutate((b) => (b[0] = 0x58)),
        'x',
      ),
    'BAD_MAGIC',
    { field: 'header.magic' },
  );
  expectArch06Error(
    () =>
      parseObjr(
        mutate((b) => setU32(b, 4, 12)),
        'x',
      ),
    'UNSUPPORTED_VERSION',
    { field: 'header.version' },
  );
  expectArch06Error(
    () =>
      parseObjr(
        mutate((b) => setU32(b, 12, 0x10000000)),
        'x',
      ),
    'TRUNCATED',
    { field: 'header.blockCount' },
  );
  expectArch06Error(
    () =>
      parseObjr(
        mutate((b) => setU32(b, 12, 8)),
        'x',
      ),
    'INVALID',
    { field: 'blocks.end' },
  );
  expectArch06Error(() => parseObjr(Uint8Array.from([...good, 0]), 'x'), 'INVALID', { field: 'blocks.end' });
  expectArch06Error(
    () =>
      parseObjr(
        mutate((b) => setU32(b, 20, 0x7fffffff)),
        'x',
      ),
    'TRUNCATED',
    { field: 'block[0].size' },
  );
  // A broken SCRB: recorded on its block; OBJL and ONLS still read.
  const broken = withBlock(good, 'SCRB', (p) => {
    setU32(p, 4, 2);
    return p;
  });
  const reg = parseObjr(broken, 'x');
  const scrb = reg.blocks.find((b) => b.tag === 'SCRB')!;
  assert.equal(scrb.error?.code, 'UNSUPPORTED_VERSION');
  assert.equal(reg.bindings, undefined);
  assert.ok(reg.objectList?.recordLayout.validated);
  assert.ok(reg.groups);
  assert.equal(reg.confidence, 'uncertain');
  assert.ok(reg.notes.some((n) => /block 6 \(SCRB\) could not be read/.test(n)));
  // A block whose name hash is not its tag's registered name is noted.
  const renamed = parseObjr(writeObjr([{ nameHash: 1, payload: writeObjl([{ objects }]) }]), 'x');
  assert.ok(renamed.notes.some((n) => /not the hash of its registered name/.test(n)));
  assert.equal(blockNameHash('OBJL'), stringHash('ObjRes.ObjList'));
});

test('registry: every truncation of a registry is a typed error', () => {
  const good = writeRegistry(layer);
  for (let n = 0; n < good.length; n++) {
    const e = expectArch06Error(() => parseObjr(good.subarray(0, n), 'r.objres'), 'TRUNCATED');
    assert.equal(e.file, 'r.objres');
  }
});

test('registry: seeded mutations end in a registry or a typed error; block readers on mutated payloads too', () => {
  const rnd = prng(0x0b1e);
  const good = writeRegistry(layer);
  const payloads = parseObjr(good, 'x')
    .blocks.filter((b) => b.decoded)
    .map((b) => ({ tag: b.tag!, raw: Uint8Array.from(b.raw) }));
  const readers: Record<string, (r: FieldReader) => unknown> = { OBJL: readObjl, SCRB: readScrb, ONLS: readOnls };
  let parsed = 0;
  let errors = 0;
  const mutateBytes = (src: Uint8Array): Uint8Array => {
    const b = Uint8Array.from(src);
    const edits = 1 + ((rnd() * 4) | 0);
    for (let j = 0; j < edits; j++) {
      const at = (rnd() * b.length) | 0;
      if (rnd() < 0.5 && b.length >= 4) setU32(b, Math.min(at, b.length - 4), rnd() < 0.5 ? (rnd() * 0x100000000) >>> 0 : (rnd() * 300) | 0);
      else b[at] = (rnd() * 256) | 0;
    }
    return rnd() < 0.2 ? b.subarray(0, (rnd() * b.length) | 0) : b;
  };
  const typed = (e: unknown): void => {
    assert.ok(e instanceof Arch06Error, String(e));
    assert.ok(['TRUNCATED', 'BAD_MAGIC', 'UNSUPPORTED_VERSION', 'OUT_OF_RANGE', 'INVALID'].includes(e.code), e.code);
  };
  for (let k = 0; k < 3000; k++) {
    try {
      const reg = parseObjr(mutateBytes(good), 'm.objres');
      parsed++;
      for (const b of reg.blocks) if (b.error) typed(b.error);
      resolveRegistry(reg, { scriptPath: SCRIPT, functions: FUNCTIONS });
    } catch (e) {
      typed(e);
      errors++;
    }
    const p = payloads[k % payloads.length];
    if (readers[p.tag]) {
      try {
        readers[p.tag](new FieldReader(mutateBytes(p.raw), 'b'));
      } catch (e) {
        typed(e);
      }
    }
  }
  assert.ok(parsed > 0 && errors > 0, `${parsed} parsed, ${errors} refused`);
});
