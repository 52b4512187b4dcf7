// The script index over a mount: every served script and registry read once, each bound function
// knowing the objects bound to it (seed 001: SCRB binds objects to names of the part's own
// script). On the four real layers of Patch_00.arch06 every binding resolves and the rows per
// layer are the figures; on the sample install the patch rule decides which registry
// counts; a broken mod (a binding to a function its script lacks) is reported.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, verifyMount } from '../../archive';
import { writeRegistry } from '../../formats/registry';
import { SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT } from '../../sample';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { mountSample } from '../../../test/support/sampleMount';
import { CrossScriptIndex, ScriptIndex } from '..';

const REAL_ROWS: Record<string, number> = { island: 40, mtnpass: 17, snowmtn: 18, volcano: 19 };

test('real layers: every binding of the four registries names a function of its own script; rows per layer 40, 17, 18, 19', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  try {
    const index = ScriptIndex.build(m);
    assert.deepEqual(index.failures, []);
    assert.deepEqual(index.problems, []);
    assert.equal(index.registries, 4);
    for (const layer of REAL_LAYER_NAMES) {
      const scriptPath = `${realLayerStem(layer)}.scripts`;
      const script = index.analysed(scriptPath);
      assert.ok(script, `${layer}: the script is indexed`);
      assert.equal(script.from, 'container');
      assert.deepEqual(script.chunk.diagnostics, [], layer);
      let rows = 0;
      for (const [name, sites] of index.bindingsOf(scriptPath)) {
        assert.ok(script.bindable.has(name), `${layer}: ${name} is defined by the script`);
        rows += sites.length;
        for (const s of sites) {
          assert.ok(s.object && s.class, `${layer}: ${s.function} bound to a named object of a known class`);
          assert.equal(s.registry.path.toLowerCase(), `${realLayerStem(layer)}.objres`.toLowerCase());
        }
      }
      assert.equal(rows, REAL_ROWS[layer], `${layer}: object-binding rows`);
    }
    // The usage index knows the engine calls the scripts make.
    const usage = CrossScriptIndex.build(index.scripts()).usage;
    assert.ok((usage.globals.get('LithThreadSleep')?.calls ?? 0) > 0, 'LithThreadSleep is called');
    const create = usage.globals.get('ScriptObject')?.members.get('.Create');
    assert.ok(create && create.calls > 0, 'ScriptObject.Create is called');
    assert.ok(usage.globals.get('System')?.members.has(':IsDayTime'), 'System:IsDayTime is used');
  } finally {
    m.close();
  }
});

test('sample install: the standalone registry in Patch_02 is the one in effect (three alarm relays bound)', () => {
  const m = mountSample('arch06-script-index-');
  try {
    const index = ScriptIndex.build(m);
    assert.deepEqual(index.problems, []);
    const script = index.analysed(SAMPLE_LAYER_SCRIPT);
    assert.ok(script);
    assert.deepEqual(script.chunk.diagnostics, []);
    const alarm = index.boundBy(SAMPLE_LAYER_SCRIPT, '_gatealarm_SR_Script1_0c1d2e3f');
    assert.deepEqual(alarm.map((s) => `${s.object}:${s.class}:${s.event}`).sort(), [
      'GateAlarm_00.SR:ScriptRelay:Script1',
      'GateAlarm_01.SR:ScriptRelay:Script1',
      'GateAlarm_02.SR:ScriptRelay:Script1',
    ]);
    assert.equal(alarm[0].registry.from, 'loose');
    assert.equal(alarm[0].registry.source, 'Patch_02.arch06');
    // Names match case-insensitively, as StringHash does.
    assert.equal(index.boundBy(SAMPLE_LAYER_SCRIPT.toUpperCase(), '_GATEALARM_SR_SCRIPT1_0C1D2E3F').length, 3);
    assert.deepEqual(
      index.boundBy(SAMPLE_LAYER_SCRIPT, '_gatecontroller_SO_Script_7b19c3d5').map((s) => s.object),
      ['GateCon.SO'],
    );
  } finally {
    m.close();
  }
});

test('a broken mod: a registry binding a name its script lacks is reported, naming function, object and registry', () => {
  const m = mountSample('arch06-script-index-broken-');
  const root = m.root;
  m.close();
  // A mod folder listed last in the cfg (searched first) holds a registry binding one object to a
  // function the script lacks.
  const broken = writeRegistry({
    scriptPath: SAMPLE_LAYER_SCRIPT,
    hash: 0x5a3c9e21,
    objects: [{ className: 'ScriptRelay', name: 'Lost.SR' }],
    bindings: [{ name: 'Lost.SR', bindings: [{ event: 'Script1', function: '_lost_SR_Script1_deadbeef' }] }],
    groups: [],
  });
  fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Mods\n');
  const file = path.join(root, 'Mods', ...SAMPLE_LAYER_REGISTRY.split('\\'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, broken);
  const again = Mount.open({ root });
  try {
    const index = ScriptIndex.build(again);
    assert.equal(index.problems.length, 1, JSON.stringify(index.problems));
    const p = index.problems[0];
    assert.equal(p.function, '_lost_SR_Script1_deadbeef');
    assert.match(p.message, /Lost\.SR/);
    assert.match(p.message, /does not define it/);
    assert.equal(p.registry.from, 'loose');
  } finally {
    again.close();
  }
});

test('cancelled builds stop between files and say so', () => {
  const m = mountSample('arch06-script-index-cancel-');
  try {
    let seen = 0;
    const index = ScriptIndex.build(m, { isCancelled: () => seen > 0, onProgress: () => void seen++ });
    assert.equal(index.cancelled, true);
    assert.equal(seen, 1);
  } finally {
    m.close();
  }
});

test('one loose name that cannot be a path costs that file only: hidden, reported by verify, every other script indexed', () => {
  const m = mountSample('arch06-script-index-badname-');
  const root = m.root;
  m.close();
  fs.writeFileSync(path.join(root, 'Game', 'bad\x1b[31mname.scripts'), 'local x = 1\n');
  const again = Mount.open({ root });
  try {
    assert.ok(!again.distinctPaths().some((p) => p.includes('\x1b')), 'hidden from the merged view');
    const index = ScriptIndex.build(again);
    assert.deepEqual(index.failures, []);
    assert.equal(index.boundBy(SAMPLE_LAYER_SCRIPT, '_gatealarm_SR_Script1_0c1d2e3f').length, 3);
    const report = verifyMount(again);
    assert.deepEqual(
      report.failures.map((f) => [f.code, f.path]),
      [['UNSAFE_NAME', 'bad\x1b[31mname.scripts']],
    );
  } finally {
    again.close();
  }
});
