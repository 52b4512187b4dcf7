// The object-registry editor's model (registryModel.ts) in plain node: the sample install's world
// layer read through its bundle folder (Patch_02's standalone registry in effect, the script from
// Base's container), the standalone copy in the merged view and from one source, the container's
// copy when no patch ships one, search as you type against a plain scan, windows, raw records when
// the layout does not validate, a parse failure, the four real layers of Patch_00.arch06, and the
// protocol's message check.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, locateBundleMember, parseUriPath, resolveBundle, toGamePath } from '../../../core/archive';
import { isArch06Error } from '../../../core/errors';
import { formatHash, stringHash } from '../../../core/hash';
import { writeRegistry } from '../../../core/formats/registry';
import type { ObjlWriterObject } from '../../../core/formats/registry';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleGame, sampleLayerRegistry } from '../../../core/sample';
import { MAX_WINDOW, checkViewMessage } from '../../../media/registry/protocol';
import type { ObjectRow, RawRecordRow } from '../../../media/registry/protocol';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { sharedPath } from '../../../test/support/shared';
import { bundleMemberUriPath } from '../bundleRows';
import { blockHex, buildRegistryModel, loadPartScript, patchRuleOf, summaryLine } from '../registryModel';
import { ObjectTable } from '../registryObjectTable';

const BUNDLE = `${SAMPLE_LAYER}.bndl`;
const EMBB = `${SAMPLE_LAYER}.embb`;

function sampleRoot(extra: Record<string, Uint8Array | string> = {}): string {
  const root = tempDir('arch06-registry-model-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  writeTree(root, extra);
  return root;
}

/** The 1-based line of `name = …` in the sample layer's source, found by a plain scan. */
const lineOf = (name: string): number => SAMPLE_LAYER_SOURCE.split('\n').findIndex((l) => l.startsWith(`${name} = `)) + 1;

async function readServed(m: Mount, member: string): Promise<Uint8Array> {
  const b = resolveBundle(m, BUNDLE);
  const { entry, start, end } = locateBundleMember(m, b, member);
  return entry.read(start, end);
}

test('sample layer through its bundle folder: Patch_02’s standalone copy in effect, bindings open the container’s script at their lines', async () => {
  const m = Mount.open({ root: sampleRoot() });
  try {
    const u = parseUriPath(bundleMemberUriPath(BUNDLE, SAMPLE_LAYER_REGISTRY));
    assert.equal(u.view, 'bundle');
    const patch = patchRuleOf(m, u);
    assert.equal(patch.state, 'standalone');
    assert.match(
      patch.text,
      /A standalone copy in Patch_02\.arch06 is in effect: the engine loads it instead of the copy embedded in .*fortgate\.embb \(Base\.arch06\)/,
    );

    const script = await loadPartScript(m, SAMPLE_LAYER_REGISTRY);
    assert.equal(script.path, SAMPLE_LAYER_SCRIPT);
    // No loose copy of the script: it opens through the bundle folder, from Base's container.
    assert.equal(script.uriPath, bundleMemberUriPath(BUNDLE, SAMPLE_LAYER_SCRIPT));
    assert.equal(script.from, `in ${EMBB} (Base.arch06)`);
    // Every definition of the source, at its line, as a plain scan of the sample's source finds them.
    assert.ok(script.functions !== undefined, 'the script was read');
    const defined = SAMPLE_LAYER_SOURCE.split('\n').flatMap((l, i) => {
      const d = /^([A-Za-z_]\w*) = (function|hmake)\b/.exec(l);
      return d ? [[d[1], i + 1]] : [];
    });
    assert.equal(defined.length, 4, 'the sample source defines four functions and hmake objects');
    assert.deepEqual(
      script.functions.map((f) => [f.name, f.line]),
      defined,
    );

    const bytes = await readServed(m, SAMPLE_LAYER_REGISTRY);
    assert.ok(Buffer.from(bytes).equals(Buffer.from(sampleLayerRegistry(true))), 'the bundle folder serves Patch_02’s copy');
    const model = buildRegistryModel({ bytes, path: SAMPLE_LAYER_REGISTRY, script, patch });
    const v = model.view;
    assert.equal(v.objectKind, 'objects');
    assert.equal(v.objectCount, 10);
    assert.deepEqual(v.layout, { present: true, validated: true, confidence: 'confirmed', reason: null });
    assert.equal(v.confidence, 'confirmed');
    assert.deepEqual(v.classes[0], { name: 'ScriptRelay', count: 3 });
    assert.equal(
      v.classes.reduce((n, c) => n + c.count, 0),
      10,
    );
    // The chain in the writer's order, each decoded or raw, names where registered.
    assert.deepEqual(
      v.blocks.map((b) => [b.tag ?? b.name, b.state]),
      [
        ['KEYF', 'raw'],
        ['SFXS', 'raw'],
        ['SWFX', 'raw'],
        ['ONLS', 'decoded'],
        ['NLFE', 'raw'],
        ['ObjRes.Clutter', 'raw'],
        ['SCRB', 'decoded'],
        ['GADB', 'decoded'],
        ['OBJL', 'decoded'],
      ],
    );
    assert.equal(v.blocks[8].hash, formatHash(stringHash('ObjRes.ObjList')));
    // One row per object and binding; each resolves and opens the script at its function's line.
    assert.equal(v.bindings.length, 6);
    assert.equal(v.bindingRecords, 4);
    assert.ok(v.bindingsResolved);
    for (const [i, b] of v.bindings.entries()) {
      assert.deepEqual(b.problems, [], `${b.object}`);
      assert.equal(b.script, SAMPLE_LAYER_SCRIPT);
      // The row's tooltip previews the function's first lines.
      assert.ok(b.preview?.startsWith(`${b.function} = `), `${b.object}: ${b.preview}`);
      assert.equal(b.preview?.split('\n').length, 8);
      assert.ok(b.openable);
      assert.equal(b.line, lineOf(b.function!));
      assert.deepEqual(model.targets[i], { uriPath: script.uriPath, line: lineOf(b.function!) });
    }
    const so = v.bindings.find((b) => b.object === 'GateCon.SO')!;
    assert.deepEqual([so.className, so.event, so.kind], ['ScriptObject', 'Script', 'hmake']);
    assert.deepEqual(
      v.bindings.filter((b) => b.function === '_gatealarm_SR_Script1_0c1d2e3f').map((b) => b.object),
      ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR'].sort((a, b) => stringHash(a) - stringHash(b)),
    );
    // Groups: owner → members.
    const guards = v.groups.find((g) => g.owner === 'GateGuards')!;
    assert.deepEqual(guards.members, ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR']);
    assert.deepEqual(guards.unknownMembers, []);
    assert.equal(v.groups.length, 2);
    // The first window: every object, in list order, the moved one at its patched position.
    const w = model.objects.window('', '', 0, 50);
    assert.equal(w.shown, 10);
    const rows = w.rows as ObjectRow[];
    assert.equal(rows[0].name, 'WorldInitializer');
    const gate = rows.find((r) => r.name === 'GateCon.SO')!;
    assert.deepEqual(gate.position, [-1050, 310.5, 4075]);
    assert.equal(gate.nameHash, formatHash(stringHash('GateCon.SO')));
    assert.equal(gate.templateId, '0xF2F65363');
    assert.match(summaryLine(v), /^9 blocks, 10 objects, 6 binding rows, 2 groups; A standalone copy in Patch_02/);
    // A raw block's hex view; no block past the chain.
    const keyf = blockHex(model, 0)!;
    assert.equal(keyf.size, 16);
    assert.match(keyf.text, /^00000000 {2}4b 45 59 46 01 00 00 00/);
    assert.equal(blockHex(model, 99), undefined);
  } finally {
    m.close();
  }
});

test('the standalone copy in the merged view replaces the embedded one; a copy another source shadows is not in effect', () => {
  // A third copy, loose in the Game folder (consulted last): Patch_02's still wins.
  const m = Mount.open({ root: sampleRoot({ [`Game/${SAMPLE_LAYER_REGISTRY.replace(/\\/g, '/')}`]: sampleLayerRegistry() }) });
  try {
    const merged = patchRuleOf(m, { view: 'merged', path: toGamePath(SAMPLE_LAYER_REGISTRY) });
    assert.equal(merged.state, 'standalone');
    assert.match(
      merged.text,
      /^This standalone copy \(Patch_02\.arch06\) is in effect: it replaces the copy embedded in .*fortgate\.embb \(Base\.arch06\); it shadows the standalone copy in Game$/,
    );
    const fromPatch = patchRuleOf(m, { view: 'source', source: 'Patch_02.arch06', path: toGamePath(SAMPLE_LAYER_REGISTRY) });
    assert.equal(fromPatch.state, 'standalone');
    const fromGame = patchRuleOf(m, { view: 'source', source: 'Game', path: toGamePath(SAMPLE_LAYER_REGISTRY) });
    assert.deepEqual(fromGame, { state: 'shadowed', text: 'Not in effect: the engine loads the standalone copy in Patch_02.arch06, not this one (Game)' });
  } finally {
    m.close();
  }
});

test('without a patch the container’s copy is in effect; a loose script wins over the container’s', async () => {
  const root = sampleRoot({
    'x64/default.archcfg': '..\\Game\n..\\Base.arch06\n',
    [`Game/${SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/')}`]: '-- loose\n\n_gatequest_QR_Script1_48d7e0b6 = function (self)\nend\n',
  });
  const m = Mount.open({ root });
  try {
    const u = parseUriPath(bundleMemberUriPath(BUNDLE, SAMPLE_LAYER_REGISTRY));
    const patch = patchRuleOf(m, u);
    assert.equal(patch.state, 'embedded');
    assert.match(patch.text, /^The copy embedded in .*fortgate\.embb \(Base\.arch06\) is in effect: no mounted source ships a standalone copy$/);
    const script = await loadPartScript(m, SAMPLE_LAYER_REGISTRY);
    assert.equal(script.uriPath, '/' + SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/'));
    assert.equal(script.from, 'loose in Game');
    const model = buildRegistryModel({ bytes: await readServed(m, SAMPLE_LAYER_REGISTRY), path: SAMPLE_LAYER_REGISTRY, script, patch });
    assert.equal(model.view.objectCount, 9);
    // The loose script defines one of the four bound functions: that row opens at line 3, the others say why not.
    const quest = model.view.bindings.findIndex((b) => b.object === 'GateQuest.QR');
    assert.deepEqual(model.targets[quest], { uriPath: script.uriPath, line: 3 });
    const other = model.targets.find((_, i) => i !== quest)!;
    assert.ok('reason' in other && /is not defined in .*fortgate\.scripts \(loose in Game\)/.test(other.reason), JSON.stringify(other));
    assert.equal(model.view.bindingsResolved, false);
  } finally {
    m.close();
  }
});

test('outside the mount: no patch rule, no script; bindings say why they do not open', () => {
  const model = buildRegistryModel({ bytes: sampleLayerRegistry(), path: 'fortgate.objres', patch: { state: 'unresolved', text: 'opened outside the mount' } });
  assert.equal(model.view.script.path, 'fortgate.scripts');
  assert.equal(model.view.script.functions, null);
  assert.ok(model.view.bindings.every((b) => !b.openable && b.line === null));
  assert.ok(model.targets.every((t) => 'reason' in t && /outside the mounted install/.test(t.reason)));
});

/** Objects of several classes, names with a running number (a plain scan is the oracle). */
function manyObjects(n: number): ObjlWriterObject[] {
  const classes = ['ScriptRelay', 'AINodeMenacePlace', 'FireProp', 'Group', 'VolumeController'];
  return Array.from({ length: n }, (_, i) => ({
    className: classes[i % classes.length],
    name: `Obj_${i}.${classes[i % classes.length].slice(0, 2)}`,
    position: [i, 0, -i] as [number, number, number],
    templateId: (i * 2654435761) >>> 0,
  }));
}

test('search as you type matches group names too: every object of a group whose name holds the text', () => {
  const objects: ObjlWriterObject[] = Array.from({ length: 300 }, (_, i) => ({
    className: i % 2 ? 'ScriptRelay' : 'FireProp',
    name: `Obj_${i}`,
    position: [i, 0, 0] as [number, number, number],
    group: i % 3 === 0 ? 'GateCon_Alarm' : i % 3 === 1 ? 'Bridge_North' : null,
  }));
  const model = buildRegistryModel({ bytes: writeRegistry({ scriptPath: 'x.scripts', objects }), path: 'x.objres', patch: { state: 'unresolved', text: '' } });
  const scan = (q: string): number[] => objects.flatMap((o, i) => ([o.name, o.className, o.group ?? ''].some((x) => x.toLowerCase().includes(q)) ? [i] : []));
  // Typed a key at a time (narrowing the last result) and fresh: both equal the scan, groups included.
  for (const word of ['gatecon', 'bridge_n', 'obj_1']) {
    for (let k = 1; k <= word.length; k++) {
      const q = word.slice(0, k);
      assert.deepEqual(Array.from(model.objects.filter(q, '')), scan(q), q);
      assert.deepEqual(Array.from(new ObjectTable(model.registry.objectList).filter(q, '')), scan(q), `fresh ${q}`);
    }
  }
  assert.equal(model.objects.filter('GATECON_ALARM', '').length, 100);
  assert.equal(model.objects.filter('alarm', 'FireProp').length, 50, 'with the class filter');
  assert.deepEqual(
    model.objects.window('bridge', '', 0, 1).rows.map((r) => ('group' in r ? r.group : null)),
    ['Bridge_North'],
  );
});

test('search as you type: substrings of name or class, 0x hashes and template ids, the class filter, narrowing equals a fresh scan', () => {
  const objects = manyObjects(5000);
  const bytes = writeRegistry({ scriptPath: 'x.scripts', objects });
  const model = buildRegistryModel({ bytes, path: 'x.objres', patch: { state: 'unresolved', text: '' } });
  const t = model.objects;
  assert.equal(t.total, 5000);
  assert.deepEqual(
    t.classes.map((c) => c.count),
    [1000, 1000, 1000, 1000, 1000],
  );
  const scan = (f: (o: ObjlWriterObject) => boolean): number[] => objects.flatMap((o, i) => (f(o) ? [i] : []));
  const has = (q: string) => (o: ObjlWriterObject) => o.name.toLowerCase().includes(q) || o.className.toLowerCase().includes(q);
  // Typing "obj_12" one key at a time narrows the previous result; each equals a fresh table's scan.
  const word = 'OBJ_12';
  for (let k = 1; k <= word.length; k++) {
    const q = word.slice(0, k);
    const want = scan(has(q.toLowerCase()));
    assert.deepEqual(Array.from(t.filter(q, '')), want, q);
    assert.deepEqual(Array.from(new ObjectTable(model.registry.objectList).filter(q, '')), want, `fresh ${q}`);
  }
  // With the class filter, and after backspacing.
  assert.deepEqual(
    Array.from(t.filter('obj_12', 'FireProp')),
    scan((o) => has('obj_12')(o) && o.className === 'FireProp'),
  );
  assert.deepEqual(
    Array.from(t.filter('obj_1', 'FireProp')),
    scan((o) => has('obj_1')(o) && o.className === 'FireProp'),
  );
  assert.equal(t.filter('', 'NoSuchClass').length, 0);
  assert.equal(t.filter('menace', '').length, 1000);
  // 0x: a name hash or template id starting with the digits.
  const target = objects[4321];
  const hash = stringHash(target.name).toString(16).padStart(8, '0');
  const byHash = Array.from(t.filter(`0x${hash}`, ''));
  assert.ok(byHash.includes(4321));
  assert.deepEqual(
    byHash,
    scan((o) => stringHash(o.name).toString(16).padStart(8, '0') === hash || (o.templateId! >>> 0).toString(16).padStart(8, '0') === hash),
  );
  const tpl = (target.templateId! >>> 0).toString(16).padStart(8, '0').slice(0, 5).toUpperCase();
  assert.ok(Array.from(t.filter(`0X${tpl}`, '')).includes(4321));
  // Windows: bounded by the result and by the request.
  const w = t.window('obj_12', '', 5, 3);
  const want = scan(has('obj_12'));
  assert.equal(w.shown, want.length);
  assert.deepEqual(
    (w.rows as ObjectRow[]).map((r) => r.index),
    want.slice(5, 8),
  );
  assert.equal(t.window('obj_12', '', want.length + 10, 50).rows.length, 0);
  assert.equal(t.window('', '', 0, 100_000).rows.length, 5000);
});

test('a record layout that does not validate: the reason, and the records raw, searchable by their bytes', () => {
  const objects = manyObjects(20);
  objects[7].rotation = [0, 0, 0, 2];
  const model = buildRegistryModel({ bytes: writeRegistry({ scriptPath: 'x.scripts', objects }), path: 'x.objres', patch: { state: 'unresolved', text: '' } });
  const v = model.view;
  assert.equal(v.objectKind, 'raw');
  assert.equal(v.layout.validated, false);
  assert.equal(v.layout.confidence, 'uncertain');
  assert.match(v.layout.reason!, /record 7 .*not a unit quaternion/);
  assert.equal(v.confidence, 'uncertain');
  assert.deepEqual(v.classes, []);
  const rows = model.objects.window('', '', 0, 50).rows as RawRecordRow[];
  assert.equal(rows.length, 20);
  assert.equal(rows[0].hex.split(' ').length, 50);
  // The quaternion w = 2.0 of record 7, as bytes: the rows whose bytes hold it.
  const q = '00 00 00 00 00 00 00 40';
  const hits = (model.objects.window(q, '', 0, 50).rows as RawRecordRow[]).map((r) => r.index);
  assert.ok(hits.includes(7));
  assert.deepEqual(
    hits,
    rows.filter((r) => r.hex.includes(q)).map((r) => r.index),
  );
});

test('a registry that does not parse throws the reader’s typed error (the failure page)', () => {
  const bytes = sampleLayerRegistry().subarray(0, 100);
  assert.throws(
    () => buildRegistryModel({ bytes, path: 'cut.objres', patch: { state: 'unresolved', text: '' } }),
    (e) => isArch06Error(e) && e.code === 'TRUNCATED',
  );
});

const patch00 = sharedPath('samples/real/Patch_00.arch06');
const REAL = [
  { layer: 'island', objects: 248, rows: 40 },
  { layer: 'mtnpass', objects: 192, rows: 17 },
  { layer: 'snowmtn', objects: 125, rows: 18 },
  { layer: 'volcano', objects: 223, rows: 19 },
];

test('the four real layers of Patch_00.arch06 through their bundle folders', { skip: patch00.skip }, async () => {
  const root = tempDir('arch06-registry-model-real-');
  fs.mkdirSync(path.join(root, 'x64'));
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(patch00.path, path.join(root, 'Patch_00.arch06'));
  const m = Mount.open({ root });
  try {
    for (const want of REAL) {
      const stem = `worlds\\retail\\${want.layer}\\sectionsandlayers\\fortwallgameplay`;
      const registry = `${stem}.objres`;
      const u = parseUriPath(bundleMemberUriPath(`${stem}.bndl`, registry));
      const patch = patchRuleOf(m, u);
      assert.equal(patch.state, 'embedded', want.layer);
      const script = await loadPartScript(m, registry);
      assert.equal(script.uriPath, bundleMemberUriPath(`${stem}.bndl`, `${stem}.scripts`), want.layer);
      const b = resolveBundle(m, `${stem}.bndl`);
      const { entry, start, end } = locateBundleMember(m, b, registry);
      const model = buildRegistryModel({ bytes: await entry.read(start, end), path: registry, script, patch });
      const v = model.view;
      assert.equal(v.objectCount, want.objects, want.layer);
      assert.ok(v.layout.validated, want.layer);
      assert.equal(v.blocks.length, 12, want.layer);
      assert.equal(v.bindings.length, want.rows, want.layer);
      assert.ok(v.bindingsResolved, want.layer);
      // Every binding opens the layer's script on the line that defines its function.
      const lines = new Map(script.functions!.map((f) => [f.name, f.line]));
      for (const [i, row] of v.bindings.entries()) {
        assert.ok(row.openable, `${want.layer} ${row.object}`);
        assert.deepEqual(model.targets[i], { uriPath: script.uriPath, line: lines.get(row.function!) });
      }
      assert.ok(v.groups.length > 0 && v.groups.every((g) => g.unknownMembers.length === 0), want.layer);
      // The raw blocks (PFDG, VOLM, WorldPhysics, …) have hex views.
      for (const blk of v.blocks.filter((x) => x.state === 'raw')) assert.equal(blockHex(model, blk.index)!.size, blk.size);
      assert.equal(model.objects.window('', '', 0, 50).rows.length, Math.min(50, want.objects));
      assert.equal(model.objects.filter('', 'WorldInitializer').length, 1, want.layer);
    }
  } finally {
    m.close();
  }
});

test('protocol: only the union’s messages, with their fields checked and windows bounded', () => {
  assert.deepEqual(checkViewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(checkViewMessage({ type: 'query', seq: 3, text: 'gate', className: '', start: 0, count: 10_000 }), {
    type: 'query',
    seq: 3,
    text: 'gate',
    className: '',
    start: 0,
    count: MAX_WINDOW,
  });
  assert.equal(checkViewMessage({ type: 'query', seq: 3, text: 7, className: '', start: 0, count: 1 }), undefined);
  assert.equal(checkViewMessage({ type: 'query', seq: -1, text: '', className: '', start: 0, count: 1 }), undefined);
  assert.equal(checkViewMessage({ type: 'query', seq: 1, text: 'x'.repeat(5000), className: '', start: 0, count: 1 }), undefined);
  assert.deepEqual(checkViewMessage({ type: 'openBinding', row: 2 }), { type: 'openBinding', row: 2 });
  assert.equal(checkViewMessage({ type: 'openBinding', row: 1.5 }), undefined);
  assert.deepEqual(checkViewMessage({ type: 'hex', block: 4 }), { type: 'hex', block: 4 });
  assert.deepEqual(checkViewMessage({ type: 'firstRows', rows: 'x' }), { type: 'firstRows', rows: 0 });
  assert.equal(checkViewMessage({ type: 'init' }), undefined);
  assert.equal(checkViewMessage(null), undefined);
});
