// The registry editor's edits model (registryEdits.ts) on the sample install's world layer: each
// edit of the edit panel, read back by a minimal OBJR / OBJL / SCRB reader written here from seed
// 001 ("The object list (OBJL)", "Group members (ONLS) and script bindings (SCRB)") and
// formats-public.md's 50-byte OBJL record, not by the project's reader; every other record kept;
// each step's inverse gives the original bytes back and the step again gives the edited ones; a
// refused edit names the reader's check and changes nothing; the protocol's edit check.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SAMPLE_LAYER_REGISTRY, sampleLayerRegistry } from '../../../core/sample';
import { openRegistry, saveRegistry } from '../../../core/formats/registry';
import { isArch06Error } from '../../../core/errors';
import { stringHash } from '../../../core/hash';
import { checkViewMessage } from '../../../media/registry/protocol';
import type { RegistryEdit } from '../../../media/registry/protocol';
import { EditableRegistry, applyRegistryEdit, inverseStep } from '../registryEdits';

interface Obj {
  className: string;
  name: string;
  pos: number[];
  rot: number[];
  template: number;
}

/** One NUL-terminated string at `at` of a table. */
function cstr(b: Uint8Array, at: number): string {
  let end = at;
  while (b[end] !== 0) end++;
  return Buffer.from(b.subarray(at, end)).toString('latin1');
}

/** OBJR v13: 'OBJR' | 13 | hash | block count, then {u32 name hash | u32 size | payload} each. */
function payloads(bytes: Uint8Array): Map<string, Uint8Array> {
  const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(cstr(Uint8Array.from([...bytes.subarray(0, 4), 0]), 0), 'OBJR');
  assert.equal(d.getUint32(4, true), 13);
  const out = new Map<string, Uint8Array>();
  let p = 16;
  for (let n = d.getUint32(12, true), i = 0; i < n; i++) {
    const size = d.getUint32(p + 4, true);
    const body = bytes.subarray(p + 8, p + 8 + size);
    out.set(body.length >= 4 ? Buffer.from(body.subarray(0, 4)).toString('latin1') : `#${i}`, body);
    p += 8 + size;
  }
  assert.equal(p, bytes.length);
  return out;
}

/** OBJL v5: counts and three string tables at 0x1C, then per set {hash | count | count x 50 bytes}. */
function objects(objl: Uint8Array): Obj[] {
  const d = new DataView(objl.buffer, objl.byteOffset, objl.byteLength);
  const sets = d.getUint32(8, true);
  const cls = 0x1c;
  const nam = cls + d.getUint32(16, true);
  let p = nam + d.getUint32(20, true) + d.getUint32(24, true);
  const out: Obj[] = [];
  for (let s = 0; s < sets; s++) {
    const n = d.getUint32(p + 4, true);
    p += 8;
    for (let i = 0; i < n; i++, p += 50) {
      out.push({
        className: cstr(objl, cls + d.getUint32(p, true)),
        name: cstr(objl, nam + d.getUint32(p + 4, true)),
        pos: [0, 1, 2].map((k) => d.getFloat32(p + 0x0e + 4 * k, true)),
        rot: [0, 1, 2, 3].map((k) => d.getFloat32(p + 0x1a + 4 * k, true)),
        template: d.getUint32(p + 0x2e, true),
      });
    }
  }
  assert.equal(p, objl.length);
  return out;
}

/** SCRB v1: 'SCRB' | 1 | string bytes | bindings | objects, strings, 16-byte bindings, 12-byte index sorted by hash. */
function bindings(scrb: Uint8Array): Map<number, string[]> {
  const d = new DataView(scrb.buffer, scrb.byteOffset, scrb.byteLength);
  const [sb, nb, no] = [8, 12, 16].map((x) => d.getUint32(x, true));
  const strs = 20;
  const recs = strs + sb;
  const index = recs + 16 * nb;
  assert.equal(index + 12 * no, scrb.length);
  const out = new Map<number, string[]>();
  let last = -1;
  for (let i = 0; i < no; i++) {
    const [hash, first, count] = [0, 4, 8].map((x) => d.getUint32(index + 12 * i + x, true));
    assert.ok(hash > last, 'the index is sorted by hash');
    last = hash;
    const run: string[] = [];
    for (let k = first; k < first + count; k++) {
      const r = recs + 16 * k;
      const event = cstr(scrb, strs + d.getUint32(r + 4, true));
      assert.equal(d.getUint32(r, true), stringHash(event), 'the event hash is the hash of its name');
      run.push(`${event}→${cstr(scrb, strs + d.getUint32(r + 12, true))}`);
    }
    out.set(hash, run);
  }
  return out;
}

const ORIGINAL = sampleLayerRegistry();
const model = () => openRegistry(ORIGINAL, SAMPLE_LAYER_REGISTRY);
const read = (bytes: Uint8Array) => {
  const p = payloads(bytes);
  return { objects: objects(p.get('OBJL')!), bindings: bindings(p.get('SCRB')!), blocks: p };
};
const without = (list: Obj[], ...names: string[]) => list.filter((o) => !names.includes(o.name));

/** Applies `edit`, checks undo gives the original bytes and redo the edited ones; returns the edited bytes. */
function edited(edit: RegistryEdit): Uint8Array {
  const step = applyRegistryEdit(model(), edit);
  const after = saveRegistry(step.after);
  const undo = inverseStep(step);
  assert.deepEqual(Buffer.from(saveRegistry(undo.after)), Buffer.from(ORIGINAL), 'undo gives every byte back');
  assert.deepEqual(Buffer.from(saveRegistry(inverseStep(undo).after)), Buffer.from(after), 'redo gives the edit again');
  return after;
}

test('move and turn: the oracle reads the new position and a unit quaternion of the degrees; every other record the same', () => {
  const before = read(ORIGINAL);
  const after = read(edited({ kind: 'transform', object: 'GateAlarm_00.SR', position: [10, 20.5, -30] }));
  const o = after.objects.find((x) => x.name === 'GateAlarm_00.SR')!;
  assert.deepEqual(o.pos, [10, 20.5, -30]);
  assert.deepEqual(o.rot, before.objects.find((x) => x.name === 'GateAlarm_00.SR')!.rot, 'a move keeps the rotation bits');
  assert.deepEqual(without(after.objects, 'GateAlarm_00.SR'), without(before.objects, 'GateAlarm_00.SR'));
  assert.deepEqual(after.bindings, before.bindings);
  for (const tag of ['SCRB', 'ONLS']) assert.deepEqual(Buffer.from(after.blocks.get(tag)!), Buffer.from(before.blocks.get(tag)!), `${tag} kept`);

  const turned = read(edited({ kind: 'transform', object: 'GateAlarm_00.SR', rotationDegrees: [0, 90, 0] })).objects.find((x) => x.name === 'GateAlarm_00.SR')!;
  // 90 degrees about Y (the world's up): sin 45°, cos 45° on y and w, by hand.
  assert.deepEqual(turned.rot, [0, Math.fround(Math.SQRT1_2), 0, Math.fround(Math.SQRT1_2)]);
  const tilted = read(edited({ kind: 'transform', object: 'GateCon.SO', rotationDegrees: [30, -120, 10] })).objects.find((x) => x.name === 'GateCon.SO')!;
  assert.ok(Math.abs(Math.hypot(...tilted.rot) - 1) < 1e-6, 'a unit quaternion');
});

test('rename and class: the name and class tables rebuilt; the bindings follow the new name hash', () => {
  const before = read(ORIGINAL);
  const renamed = read(edited({ kind: 'rename', object: 'GateQuest.QR', name: 'GateQuest_Renamed.QR' }));
  assert.ok(renamed.objects.some((o) => o.name === 'GateQuest_Renamed.QR' && o.className === 'QuestRelay'));
  assert.ok(!renamed.objects.some((o) => o.name === 'GateQuest.QR'));
  assert.deepEqual(renamed.bindings.get(stringHash('GateQuest_Renamed.QR')), before.bindings.get(stringHash('GateQuest.QR')));
  assert.equal(renamed.bindings.get(stringHash('GateQuest.QR')), undefined);

  const classed = read(edited({ kind: 'class', object: 'GateRoute_00.RN', className: 'AINodePatrol' }));
  assert.equal(classed.objects.find((o) => o.name === 'GateRoute_00.RN')!.className, 'AINodePatrol');
  assert.deepEqual(without(classed.objects, 'GateRoute_00.RN'), without(before.objects, 'GateRoute_00.RN'));
});

test('binding: one object of a shared run gets its own event and function; the other keeps its binding', () => {
  const before = read(ORIGINAL);
  const after = read(edited({ kind: 'binding', object: 'GateAlarm_00.SR', k: 0, event: 'Script', function: '_gatequest_QR_Script1_48d7e0b6' }));
  assert.deepEqual(after.bindings.get(stringHash('GateAlarm_00.SR')), ['Script→_gatequest_QR_Script1_48d7e0b6']);
  assert.deepEqual(after.bindings.get(stringHash('GateAlarm_01.SR')), before.bindings.get(stringHash('GateAlarm_01.SR')));
  for (const [hash, run] of before.bindings) if (hash !== stringHash('GateAlarm_00.SR')) assert.deepEqual(after.bindings.get(hash), run);
});

test('add and delete: the new object at the end with its position; a deleted one gone with its bindings', () => {
  const before = read(ORIGINAL);
  const added = read(edited({ kind: 'add', name: 'GateAlarm_09.SR', className: 'ScriptRelay', position: [1, 2, 3] }));
  assert.deepEqual(added.objects.slice(0, -1), before.objects);
  const last = added.objects[added.objects.length - 1];
  assert.deepEqual([last.name, last.className, last.pos, last.rot], ['GateAlarm_09.SR', 'ScriptRelay', [1, 2, 3], [0, 0, 0, 1]]);

  const deleted = read(edited({ kind: 'delete', object: 'GateAlarm_01.SR' }));
  assert.deepEqual(deleted.objects, without(before.objects, 'GateAlarm_01.SR'));
  assert.equal(deleted.bindings.get(stringHash('GateAlarm_01.SR')), undefined);
  assert.deepEqual(
    deleted.bindings.get(stringHash('GateAlarm_00.SR')),
    before.bindings.get(stringHash('GateAlarm_00.SR')),
    'the shared run stays for the other',
  );
});

/** ONLS v1: 'ONLS' | 1 | area bytes | index bytes; area groups {u32 n, n x {u16 length, name}}; index {u32 hash(owner), u32 area offset} sorted. */
function groups(onls: Uint8Array): Map<number, string[]> {
  const d = new DataView(onls.buffer, onls.byteOffset, onls.byteLength);
  const area = 16;
  const index = area + d.getUint32(8, true);
  assert.equal(index + d.getUint32(12, true), onls.length);
  const out = new Map<number, string[]>();
  for (let e = index; e < onls.length; e += 8) {
    let p = area + d.getUint32(e + 4, true);
    const members: string[] = [];
    for (let n = d.getUint32(p, true), i = 0, q = p + 4; i < n; i++) {
      const len = d.getUint16(q, true);
      members.push(Buffer.from(onls.subarray(q + 2, q + 2 + len)).toString('latin1'));
      q += 2 + len;
      p = q;
    }
    out.set(d.getUint32(e, true), members);
  }
  return out;
}

test('group members: the oracle reads the owner’s new members; the other groups kept', () => {
  const before = groups(payloads(ORIGINAL).get('ONLS')!);
  const after = groups(payloads(edited({ kind: 'group', owner: 'GateGuards', members: ['GateAlarm_01.SR', 'GateQuest.QR'] })).get('ONLS')!);
  assert.deepEqual(after.get(stringHash('GateGuards')), ['GateAlarm_01.SR', 'GateQuest.QR']);
  assert.deepEqual(after.get(stringHash('GateCon.SO')), before.get(stringHash('GateCon.SO')));
  assert.deepEqual(before.get(stringHash('GateGuards')), ['GateAlarm_00.SR', 'GateAlarm_01.SR']);
});

test('refused edits name the check and change nothing', () => {
  const m = model();
  const refused = (edit: RegistryEdit, pattern: RegExp) =>
    assert.throws(
      () => applyRegistryEdit(m, edit),
      (e: unknown) => isArch06Error(e) && pattern.test(e.message),
    );
  refused({ kind: 'rename', object: 'GateAlarm_00.SR', name: 'GateAlarm_01.SR' }, /exists already/);
  refused({ kind: 'transform', object: 'Nobody', position: [0, 0, 0] }, /no object named/);
  refused({ kind: 'binding', object: 'GateAlarm_00.SR', k: 3, event: 'Script', function: 'f' }, /has 1 bindings/);
  refused({ kind: 'add', name: 'GateCon.SO', className: 'X', position: [0, 0, 0] }, /exists already/);
  refused({ kind: 'class', object: 'GateCon.SO', className: 'bad\u0100name' }, /single-byte/);
  refused({ kind: 'group', owner: 'GateGuards', members: ['NoSuchObject'] }, /breaks a rule the reader checks/);
  assert.deepEqual(Buffer.from(saveRegistry(m)), Buffer.from(ORIGINAL));
});

test('protocol: edits are checked before use', () => {
  const ok = checkViewMessage({ type: 'edit', seq: 1, edit: { kind: 'transform', object: 'A', position: [1, 2, 3] } });
  assert.deepEqual(ok, { type: 'edit', seq: 1, edit: { kind: 'transform', object: 'A', position: [1, 2, 3] } });
  for (const edit of [
    { kind: 'transform', object: 'A', position: [1, 2] },
    { kind: 'transform', object: 'A', rotationDegrees: [1, 2, NaN] },
    { kind: 'rename', object: '', name: 'B' },
    { kind: 'binding', object: 'A', k: -1, event: 'e', function: 'f' },
    { kind: 'group', owner: 'A', members: [1] },
    { kind: 'add', name: 'A', className: 'C' },
    { kind: 'explode', object: 'A' },
    null,
    'delete',
  ])
    assert.equal(checkViewMessage({ type: 'edit', seq: 1, edit }), undefined, JSON.stringify(edit));
  assert.deepEqual(checkViewMessage({ type: 'edit', seq: 2, edit: { kind: 'group', owner: 'G', members: ['a', 'b'], extra: 1 } }), {
    type: 'edit',
    seq: 2,
    edit: { kind: 'group', owner: 'G', members: ['a', 'b'] },
  });
});

test('EditableRegistry: an edit changes the view and the saved bytes; its undo closure gives the file back', () => {
  const doc = EditableRegistry.open(ORIGINAL, { path: SAMPLE_LAYER_REGISTRY, patch: { state: 'unresolved', text: 'test' } });
  assert.equal(doc.blocked, null);
  const shownAt = (): number[] => {
    const row = doc.current.objects.window('GateCon.SO', '', 0, 10).rows.find((r) => 'name' in r && r.name === 'GateCon.SO');
    assert.ok(row && 'position' in row);
    return row.position;
  };
  assert.deepEqual(shownAt(), [-1250, 310.5, 4075]);
  const undo = doc.apply({ kind: 'transform', object: 'GateCon.SO', position: [-1000, 310.5, 4075] });
  assert.equal(doc.select, 'GateCon.SO');
  assert.deepEqual(shownAt(), [-1000, 310.5, 4075]);
  assert.deepEqual(read(doc.serialize()).objects.find((o) => o.name === 'GateCon.SO')!.pos, [-1000, 310.5, 4075]);
  // A refused edit leaves the document as it was.
  assert.throws(() => doc.apply({ kind: 'rename', object: 'GateCon.SO', name: 'GateCon.SC' }), /exists already/);
  assert.deepEqual(shownAt(), [-1000, 310.5, 4075]);
  undo();
  assert.deepEqual(Buffer.from(doc.serialize()), Buffer.from(ORIGINAL));
  assert.deepEqual(shownAt(), [-1250, 310.5, 4075]);
});
