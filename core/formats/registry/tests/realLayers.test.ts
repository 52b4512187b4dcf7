// The four real world layers of ../shared/samples/real/Patch_00.arch06, read as the engine reads
// them: the mount, each layer's bundle, its .objres and .scripts members from the container. The
// issue's acceptance figures: the OBJR chains close, OBJL validates on 248 + 192 + 125 + 223 records,
// the SCRB object indexes give 40, 17, 18 and 19 object-binding rows over 25, 5, 10 and 10 binding
// records, every binding resolves to an OBJL object (name and class) and to a function or hmake
// object of the layer's own script. The group and member figures (72/109, 57/28, 32/40, 67/46) are
// the counts of the test's own walk of the raw ONLS blocks (`rawRegistry` below, seed 001's
// layout), which every group, owner, member and SCRB row is also compared with.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readBundleMember, resolveBundle } from '../../../archive/bundles';
import { stringHash } from '../../../hash/stringHash';
import { parseScript } from '../../script/scri';
import { bindableNames, scriptDefinitions } from '../../../havokScript';
import { OBJL_WORLD_SET } from '../layout';
import { parseObjr } from '../objr';
import { bindingRows, ownScriptPath, resolveRegistry } from '../resolve';
import { mountRealPatch, realLayerStem, realPatch } from '../../../../test/support/realLayers';

const patch = realPatch;
const mountPatch = mountRealPatch;

const LAYERS = [
  { layer: 'island', objects: 248, bindings: 25, indexed: 37, rows: 40, groups: 72, members: 109 },
  { layer: 'mtnpass', objects: 192, bindings: 5, indexed: 17, rows: 17, groups: 57, members: 28 },
  { layer: 'snowmtn', objects: 125, bindings: 10, indexed: 18, rows: 18, groups: 32, members: 40 },
  { layer: 'volcano', objects: 223, bindings: 10, indexed: 19, rows: 19, groups: 67, members: 46 },
];
const stem = realLayerStem;

test('real layers: OBJR chains, OBJL records, SCRB rows and ONLS groups of the four layers of Patch_00.arch06', { skip: patch.skip }, () => {
  const m = mountPatch();
  try {
    let records = 0;
    for (const want of LAYERS) {
      const bundle = resolveBundle(m, `${stem(want.layer)}.bndl`);
      const objresPath = `${stem(want.layer)}.objres`;
      const scriptPath = ownScriptPath(objresPath);
      const objresBytes = readBundleMember(m, bundle, objresPath);
      const reg = parseObjr(objresBytes, objresPath);
      const where = want.layer;
      // The chain: 12 blocks ending exactly at the end (the reader refuses anything else).
      assert.equal(reg.version, 13, where);
      assert.equal(reg.blocks.length, 12, where);
      const last = reg.blocks[11];
      assert.equal(last.offset + last.size, objresBytes.length, where);
      assert.deepEqual(
        reg.blocks.map((b) => b.tag ?? b.name),
        ['KEYF', 'SFXS', 'SWFX', 'ONLS', 'NLFE', 'PFDG', 'ObjRes.Clutter', 'SCRB', 'VOLM', 'GADB', 'ObjRes.WorldPhysics', 'OBJL'],
        where,
      );
      assert.equal(reg.blocks.filter((b) => b.name !== undefined).length, 10, `${where}: ten block hashes are known names`);
      assert.equal(reg.confidence, 'confirmed', `${where}: ${reg.notes.join('; ')}`);
      // OBJL: every record validates.
      const l = reg.objectList!;
      assert.deepEqual(l.recordLayout, { validated: true, confidence: 'confirmed' }, where);
      assert.equal(l.objects.length, want.objects, where);
      assert.deepEqual(
        l.sets.map((s) => s.hash),
        [OBJL_WORLD_SET],
        where,
      );
      assert.ok(
        l.objects.every((o) => o.reserved0C === 0 && o.word2A === 0),
        `${where}: u16 @0x0C and u32 @0x2A are 0`,
      );
      assert.deepEqual(
        [l.objects[0].className, l.objects[1].className, l.objects[1].name],
        ['WorldInitializer', 'WorldCollision', 'PhysicsBSP'],
        `${where}: seed 001's opening objects`,
      );
      records += l.objects.length;
      // GADB: the word after recordCount counts the property records the objects use.
      assert.equal(reg.objProps!.version, 17);
      assert.equal(reg.objProps!.words[2].value, new Set(l.objects.map((o) => o.propertyIndex)).size, where);
      // SCRB: binding records, objects, object-binding rows; every event hash its name's.
      const s = reg.bindings!;
      assert.deepEqual([s.bindings.length, s.objects.length, s.rowCount], [want.bindings, want.indexed, want.rows], where);
      assert.deepEqual(s.problems, [], where);
      assert.ok(
        s.bindings.every((b) => b.scriptHash === stringHash(scriptPath)),
        `${where}: script hash = StringHash(${scriptPath})`,
      );
      // The layer's own script: SCRI v1 source; every bound name is one of its definitions.
      const script = parseScript(readBundleMember(m, bundle, scriptPath), scriptPath);
      assert.equal(script.kind, 'source', where);
      assert.deepEqual(script.header, { version: 1, flag: 1, size: script.size - 13 }, where);
      assert.equal(script.nulTerminated, true, where);
      const res = resolveRegistry(reg, { scriptPath, functions: bindableNames(scriptDefinitions(script.source!)) });
      assert.deepEqual(res.problems, [], where);
      assert.ok(res.bindingsResolved, where);
      assert.equal([...bindingRows(res)].length, want.rows, where);
      for (const b of [...bindingRows(res)]) {
        assert.ok(b.object && b.class && b.event && b.function && b.script === scriptPath && b.functionFound, `${where}: ${JSON.stringify(b)}`);
      }
      // ONLS: every group, owner and member as the test's own walk of the raw block gives them;
      // owners and members are OBJL objects.
      assert.equal(reg.groups!.confidence, 'confirmed', where);
      const raw = rawRegistry(objresBytes).groups;
      assert.deepEqual(
        res.groups.map((g) => ({ owner: g.owner, members: [...g.members] })),
        raw,
        where,
      );
      assert.equal(raw.length, want.groups, where);
      assert.equal(
        raw.reduce((n, g) => n + g.members.length, 0),
        want.members,
        where,
      );
      assert.ok(
        res.groups.every((g) => g.owner !== null && g.unknownMembers.length === 0),
        where,
      );
    }
    assert.equal(records, 788);
  } finally {
    m.close();
  }
});

test('real layers: the island script defines the bound functions and hmake objects at their lines (the parser`s answer)', { skip: patch.skip }, () => {
  const m = mountPatch();
  try {
    const p = `${stem('island')}.scripts`;
    const script = parseScript(readBundleMember(m, resolveBundle(m, `${stem('island')}.bndl`), p), p);
    const fns = scriptDefinitions(script.source!).filter((d) => d.bindable);
    assert.equal(fns.length, 24);
    assert.deepEqual(fns[0], { name: '_ambsentry_Set_OnInitialize_8813e52a', line: 334, kind: 'function', bindable: true });
    assert.deepEqual(fns[1], { name: '_ambsentry_SO_Script_a087b0ce', line: 340, kind: 'hmake', type: '_ambsentry_SO_Script_9dfba427_meta', bindable: true });
    const lines = script.source!.split('\n');
    for (const f of fns) assert.ok(lines[f.line - 1].startsWith(`${f.name} = `), f.name);
    // Every column-0 `name = function` / `name = hmake` line is one of them (the layout's own pattern as the oracle).
    assert.deepEqual(
      fns.map((f) => f.line),
      lines.flatMap((l, i) => (/^[A-Za-z_]\w* = (function\b|hmake )/.test(l) ? [i + 1] : [])),
    );
  } finally {
    m.close();
  }
});

interface RawRegistry {
  rows: { object: string; event: string; function: string }[];
  groups: { owner: string; members: string[] }[];
}

/**
 * A minimal registry reader of the test's own, from seed 001's layouts alone: the OBJR block
 * chain ({u32 name hash, u32 size, payload} after the 16-byte header); the block whose payload
 * starts 'SCRB' (string area, binding records, object index); the block whose payload starts
 * 'ONLS' (groups {u32 n, n x {u16 length, name}}, index {u32 hash(owner), u32 area offset}).
 * Object names come from the raw OBJL block without its layout: every NUL-terminated string in
 * it, keyed by StringHash.
 */
function rawRegistry(bytes: Uint8Array): RawRegistry {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));
  assert.equal(tag(0), 'OBJR');
  const payloads = new Map<string, [number, number]>();
  let at = 16;
  for (let i = 0, n = dv.getUint32(12, true); i < n; i++) {
    const size = dv.getUint32(at + 4, true);
    payloads.set(tag(at + 8), [at + 8, at + 8 + size]);
    at += 8 + size;
  }
  assert.equal(at, bytes.length, 'the chain ends at the end');
  const cString = (from: number, limit = bytes.length): string => {
    let end = from;
    while (end < limit && bytes[end] !== 0) end++;
    assert.ok(end < limit, `a NUL ends the string at ${from}`);
    return Buffer.from(bytes.subarray(from, end)).toString('latin1');
  };
  const [objl, objlEnd] = payloads.get('OBJL')!;
  const names = new Map<number, string>();
  for (let i = objl; i < objlEnd; i++) {
    if (bytes[i] < 0x20 || bytes[i] > 0x7e || (i > objl && bytes[i - 1] !== 0)) continue;
    let end = i;
    while (end < objlEnd && bytes[end] !== 0) end++;
    if (end === objlEnd) break;
    const s = Buffer.from(bytes.subarray(i, end)).toString('latin1');
    if (s.length < 2 || !/^[\w .\-\\/]+$/.test(s)) continue;
    const h = stringHash(s);
    if (names.has(h)) assert.equal(names.get(h)!.toLowerCase(), s.toLowerCase(), 'one name per hash');
    names.set(h, s);
  }
  const [scrb] = payloads.get('SCRB')!;
  const stringBytes = dv.getUint32(scrb + 8, true);
  const bindingCount = dv.getUint32(scrb + 12, true);
  const objectCount = dv.getUint32(scrb + 16, true);
  const strings = scrb + 20;
  const records = strings + stringBytes;
  const index = records + 16 * bindingCount;
  const rows = [];
  for (let o = 0; o < objectCount; o++) {
    const hash = dv.getUint32(index + 12 * o, true);
    const first = dv.getUint32(index + 12 * o + 4, true);
    const count = dv.getUint32(index + 12 * o + 8, true);
    const object = names.get(hash);
    assert.ok(object !== undefined, `object hash 0x${hash.toString(16)} is a string of the OBJL block`);
    for (let k = first; k < first + count; k++) {
      const r = records + 16 * k;
      rows.push({ object, event: cString(strings + dv.getUint32(r + 4, true)), function: cString(strings + dv.getUint32(r + 12, true)) });
    }
  }
  const [onls] = payloads.get('ONLS')!;
  const area = onls + 16;
  const indexAt = area + dv.getUint32(onls + 8, true);
  const groups = [];
  for (let e = 0, n = dv.getUint32(onls + 12, true) / 8; e < n; e++) {
    const ownerHash = dv.getUint32(indexAt + 8 * e, true);
    let at = area + dv.getUint32(indexAt + 8 * e + 4, true);
    const members: string[] = [];
    for (let k = 0, count = dv.getUint32(at, true); k < count; k++) {
      const length = dv.getUint16(at + 4, true);
      members.push(Buffer.from(bytes.subarray(at + 6, at + 6 + length)).toString('latin1'));
      at += 2 + length;
    }
    const owner = names.get(ownerHash);
    assert.ok(owner !== undefined, `owner hash 0x${ownerHash.toString(16)} is a string of the OBJL block`);
    groups.push({ owner, members });
  }
  return { rows, groups };
}

test('real layers: every SCRB row is exactly the (object, event, function) the raw bytes give, in order', { skip: patch.skip }, () => {
  const m = mountPatch();
  try {
    let rows = 0;
    let distinct = 0;
    for (const want of LAYERS) {
      const objresPath = `${stem(want.layer)}.objres`;
      const bytes = readBundleMember(m, resolveBundle(m, `${stem(want.layer)}.bndl`), objresPath);
      const expected = rawRegistry(bytes).rows;
      assert.equal(expected.length, want.rows, want.layer);
      const res = resolveRegistry(parseObjr(bytes, objresPath), { scriptPath: ownScriptPath(objresPath) });
      const got = [...bindingRows(res)].map((r) => ({ object: r.object, event: r.event, function: r.function }));
      assert.deepEqual(got, expected, want.layer);
      rows += got.length;
      // The check has teeth: an object's rows name different functions (a row taking its object's first binding would not).
      distinct += new Set(expected.map((r) => `${r.object}\0${r.function}`)).size;
    }
    assert.equal(rows, 40 + 17 + 18 + 19);
    assert.equal(distinct, rows, 'no object binds one function twice');
  } finally {
    m.close();
  }
});
