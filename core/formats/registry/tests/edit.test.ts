// Registry edits (issue 24 item 2): each a pure function over the model, the result read back by
// the registry's own reader and resolver; what no edit touched keeps its bytes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { sampleLayerRegistry } from '../../../sample';
import { stringHash } from '../../../hash/stringHash';
import { isArch06Error } from '../../../errors';
import { RegistryModel, openRegistry, saveRegistry } from '../model';
import { addObject, deleteObject, renameObject, setBindingRecord, setGroupMembers, setObjectBinding, setObjectClass, setObjectTransform } from '../edit';
import { degreesFromQuaternion, quaternionFromDegrees } from '../rotation';
import { parseObjr, ObjectRegistry } from '../objr';
import { resolveRegistry, ownScriptPath, bindingRows } from '../resolve';
import { readRealRegistries, realPatch } from '../../../../test/support/realLayers';

const PATH = 'worlds\\retail\\sample\\sectionsandlayers\\fortgate.objres';
const sample = (): RegistryModel => openRegistry(sampleLayerRegistry(), PATH);
const read = (m: RegistryModel): ObjectRegistry => parseObjr(saveRegistry(m), m.file);
const rows = (reg: ObjectRegistry): string[] =>
  [...bindingRows(resolveRegistry(reg, { scriptPath: ownScriptPath(reg.file) }))].map((r) => `${r.object} ${r.event} ${r.function}`).sort();
const groupsOf = (reg: ObjectRegistry): string[] =>
  resolveRegistry(reg)
    .groups.map((g) => `${g.owner}: ${g.members.join(',')}`)
    .sort();
const rawBlocks = (reg: ObjectRegistry): string[] => reg.blocks.filter((b) => !b.decoded).map((b) => Buffer.from(b.raw).toString('hex'));
const refused = (f: () => unknown, pattern: RegExp): void => assert.throws(f, (e: unknown) => isArch06Error(e) && pattern.test(e.message), String(pattern));

test('rotation: degrees to a unit f32 quaternion and back; 90 degrees of yaw is the sample quest relay', () => {
  assert.deepEqual(quaternionFromDegrees([0, 90, 0]), [0, Math.fround(Math.SQRT1_2), 0, Math.fround(Math.SQRT1_2)]);
  for (const d of [
    [10, 20, 30],
    [-45, 135, 5],
    [0, -170, 0],
    [89, 10, -20],
  ] as [number, number, number][]) {
    const q = quaternionFromDegrees(d);
    assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-6);
    degreesFromQuaternion(q).forEach((x, i) => assert.ok(Math.abs(x - d[i]) < 1e-3, `${d} -> ${degreesFromQuaternion(q)}`));
  }
  // Gimbal lock: pitch 90 keeps the orientation (yaw absorbs roll).
  const locked = quaternionFromDegrees([90, 30, 10]);
  const back = quaternionFromDegrees(degreesFromQuaternion(locked));
  const dot = Math.abs(locked.reduce((n, x, i) => n + x * back[i], 0));
  assert.ok(dot > 1 - 1e-6, `${locked} vs ${back}`);
});

test('edit: move and turn an object; every other record and every undecoded block unchanged', () => {
  const before = read(sample());
  const m = setObjectTransform(sample(), 'GateAlarm_00.SR', { position: [1, 2.5, -3], rotationDegrees: [0, 90, 0] });
  const after = read(m);
  assert.equal(after.confidence, 'confirmed');
  const o = after.objectList!.objects.find((x) => x.name === 'GateAlarm_00.SR')!;
  assert.deepEqual(o.position, [1, 2.5, -3]);
  assert.deepEqual(o.rotation, quaternionFromDegrees([0, 90, 0]));
  const others = (reg: ObjectRegistry): unknown[] => reg.objectList!.objects.filter((x) => x.name !== 'GateAlarm_00.SR').map(({ offset: _o, ...x }) => x);
  assert.deepEqual(others(after), others(before));
  assert.deepEqual(rawBlocks(after), rawBlocks(before));
  assert.deepEqual(rows(after), rows(before));
  refused(() => setObjectTransform(sample(), 'Nobody', { position: [0, 0, 0] }), /no object named/);
  refused(() => setObjectTransform(sample(), 'GateAlarm_00.SR', { position: [NaN, 0, 0] }), /finite/);
});

test('edit: rename carries the bindings and group entries; class change; duplicates refused', () => {
  let m = renameObject(sample(), 'GateCon.SO', 'GateController.SO');
  m = setObjectClass(m, 'GateQuest.QR', 'QuestRelayV2');
  const reg = read(m);
  assert.equal(reg.confidence, 'confirmed');
  assert.ok(rows(reg).includes('GateController.SO Script _gatecontroller_SO_Script_7b19c3d5'));
  assert.ok(groupsOf(reg).includes('GateController.SO: GateCon.SC'));
  assert.equal(reg.objectList!.objects.find((o) => o.name === 'GateQuest.QR')!.className, 'QuestRelayV2');
  assert.ok(reg.bindings!.sortedByHash && reg.groups!.sortedByHash);
  refused(() => renameObject(sample(), 'GateCon.SO', 'GateCon.SC'), /exists already/);
  refused(() => renameObject(sample(), 'GateCon.SO', 'bad\0name'), /without NUL/);
});

test('edit: a binding of one object of a shared run gets its own run; the others keep theirs', () => {
  const before = read(sample());
  assert.equal(before.bindings!.bindings.length, 4, 'the two alarm relays share one record');
  const m = setObjectBinding(sample(), 'GateAlarm_01.SR', 0, { function: '_gatequest_QR_Script1_48d7e0b6' });
  const reg = read(m);
  assert.equal(reg.bindings!.bindings.length, 4, 'the new run is the quest relay’s equal record: no record added');
  assert.ok(rows(reg).includes('GateAlarm_01.SR Script1 _gatequest_QR_Script1_48d7e0b6'));
  assert.ok(rows(reg).includes('GateAlarm_00.SR Script1 _gatealarm_SR_Script1_0c1d2e3f'));
  // A new function for a shared run: one record appended; for an unshared run: edited in place.
  const m2 = setObjectBinding(sample(), 'GateAlarm_01.SR', 0, { event: 'OnEnterScript', function: 'NewFunction' });
  assert.equal(read(m2).bindings!.bindings.length, 5);
  const m3 = setObjectBinding(m2, 'GateAlarm_01.SR', 0, { function: 'Renamed' });
  assert.equal(read(m3).bindings!.bindings.length, 5);
  assert.ok(rows(read(m3)).includes('GateAlarm_01.SR OnEnterScript Renamed'));
  // Back to the shared function: the run is shared again and the orphaned record dropped.
  const m4 = setObjectBinding(m3, 'GateAlarm_01.SR', 0, { event: 'Script1', function: '_gatealarm_SR_Script1_0c1d2e3f' });
  assert.deepEqual(saveRegistry(m4), sampleLayerRegistry());
  // A record for every object sharing it.
  const shared = read(
    setBindingRecord(sample(), before.bindings!.objects.find((o) => o.hash === stringHash('GateAlarm_00.SR'))!.firstBinding, { function: 'Both' }),
  );
  assert.ok(rows(shared).includes('GateAlarm_00.SR Script1 Both') && rows(shared).includes('GateAlarm_01.SR Script1 Both'));
  refused(() => setObjectBinding(sample(), 'GateGuards', 0, { function: 'x' }), /has no bindings/);
});

test('edit: group members; an unknown member is refused by the re-validation', () => {
  const reg = read(setGroupMembers(sample(), 'GateGuards', ['GateAlarm_01.SR', 'GateQuest.QR']));
  assert.ok(groupsOf(reg).includes('GateGuards: GateAlarm_01.SR,GateQuest.QR'));
  const added = read(setGroupMembers(sample(), 'GateRoute_00.RN', ['GateGuards']));
  assert.ok(groupsOf(added).includes('GateRoute_00.RN: GateGuards'));
  refused(() => setGroupMembers(sample(), 'GateGuards', ['NoSuchObject']), /breaks a rule the reader checks: ONLS group of "?GateGuards"?/);
});

test('edit: add an object with a binding (it shares the equal run), then delete it: the original bytes again', () => {
  const m = addObject(
    sample(),
    { name: 'GateAlarm_02.SR', className: 'ScriptRelay', group: 'GateAlarm_02', propertyIndex: 4, position: [-1250, 296, 4500], templateId: 0x5e6dea28 },
    { bindings: [{ event: 'Script1', function: '_gatealarm_SR_Script1_0c1d2e3f' }] },
  );
  const reg = read(m);
  assert.equal(reg.objectList!.objects.length, 10);
  assert.equal(reg.bindings!.bindings.length, 4, 'shares the alarm relays’ record');
  assert.ok(rows(reg).includes('GateAlarm_02.SR Script1 _gatealarm_SR_Script1_0c1d2e3f'));
  const withMember = setGroupMembers(m, 'GateGuards', ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR']);
  // The Patch_02 copy of the sample is exactly this edit and a 2 m move of the gate controller.
  assert.deepEqual(saveRegistry(setObjectTransform(withMember, 'GateCon.SO', { position: [-1050, 310.5, 4075] })), sampleLayerRegistry(true));
  assert.deepEqual(saveRegistry(deleteObject(withMember, 'GateAlarm_02.SR')), sampleLayerRegistry());
  refused(() => addObject(sample(), { name: 'GateCon.SO', className: 'X' }), /exists already/);
  // Deleting a bound object that owns a group takes both with it.
  const gone = read(deleteObject(sample(), 'GateCon.SO'));
  assert.ok(!rows(gone).some((r) => r.startsWith('GateCon.SO ')));
  assert.ok(!groupsOf(gone).some((g) => g.startsWith('GateCon.SO:')));
  assert.equal(gone.bindings!.bindings.length, 3);
});

test('edit: on each real registry, a move, a rebind of a shared run and a delete keep the reader’s checks and the raw blocks', { skip: realPatch.skip }, () => {
  for (const r of readRealRegistries()) {
    const model = openRegistry(r.bytes, r.path);
    const before = parseObjr(r.bytes, r.path);
    const o = before.objectList!.objects[5];
    const s = before.bindings!;
    const bound = before.objectList!.objects.find((x) => x.name && s.objects.some((e) => e.hash === stringHash(x.name)))!;
    let m = setObjectTransform(model, o.name, { position: [o.position[0] + 100, o.position[1], o.position[2]] });
    m = setObjectBinding(m, bound.name, 0, { function: 'arch06_test_function' });
    m = deleteObject(m, before.objectList!.objects[before.objectList!.objects.length - 1].name);
    const after = read(m);
    assert.equal(after.confidence, 'confirmed', `${r.layer}: ${after.notes.join('; ')}`);
    assert.deepEqual(rawBlocks(after), rawBlocks(before), r.layer);
    assert.equal(after.objectList!.objects.length, before.objectList!.objects.length - 1);
    assert.ok(
      rows(after).some((x) => x.startsWith(`${bound.name} `) && x.endsWith(' arch06_test_function')),
      r.layer,
    );
  }
});
