// The four real world layers of ../shared/samples/real/Patch_00.arch06, read as the engine reads
// them: the mount, each layer's bundle, its .objres and .scripts members from the container. The
// issue's acceptance figures: the OBJR chains close, OBJL validates on 248 + 192 + 125 + 223 records,
// the SCRB object indexes give 40, 17, 18 and 19 object-binding rows over 25, 5, 10 and 10 binding
// records, every binding resolves to an OBJL object (name and class) and to a function or hmake
// object of the layer's own script.
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
      // ONLS: owners and members are OBJL objects.
      assert.equal(reg.groups!.confidence, 'confirmed', where);
      assert.equal(res.groups.length, want.groups, where);
      assert.equal(
        res.groups.reduce((n, g) => n + g.members.length, 0),
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
