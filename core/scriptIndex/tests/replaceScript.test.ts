// An edited script replaces the served copy in the index (the mod's copy being edited, issue 24
// item 3): a bound function renamed away is a missing-function problem naming the objects that
// lose their binding and the registry, at once; the name back (or the served copy restored)
// clears it. The oracle is the sample's registry as written (three GateAlarm relays bound to
// `_gatealarm_SR_Script1_0c1d2e3f`), not the index's own reading.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT } from '../../sample';
import { mountSample } from '../../../test/support/sampleMount';
import { ScriptIndex, scriptDiagnostics } from '..';

const BOUND = '_gatealarm_SR_Script1_0c1d2e3f';

test('replaceScript: a bound function renamed is a problem naming the three relays and the registry; restoreScript clears it', () => {
  const m = mountSample('arch06-replace-script-');
  try {
    const index = ScriptIndex.build(m);
    assert.equal(index.problems.length, 0);
    const served = index.script(SAMPLE_LAYER_SCRIPT);
    assert.ok(served && served.text.includes(`${BOUND} = function`));
    const renamed = served.text.replace(`${BOUND} = function`, '_gatealarm_renamed = function');
    assert.equal(index.replaceScript(SAMPLE_LAYER_SCRIPT, renamed), true);
    assert.equal(index.script(SAMPLE_LAYER_SCRIPT)?.text, renamed);
    assert.equal(index.problems.length, 1, JSON.stringify(index.problems));
    const p = index.problems[0];
    assert.equal(p.kind, 'missing-function');
    assert.equal(p.function, BOUND);
    assert.equal(p.registry.path.toLowerCase(), SAMPLE_LAYER_REGISTRY.toLowerCase());
    for (const o of ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR']) assert.ok(p.message.includes(o), `${o} in ${p.message}`);
    // The analysis follows the replaced text, and the diagnostics name the objects too.
    const analysed = index.analysed(SAMPLE_LAYER_SCRIPT);
    assert.ok(analysed && !analysed.bindable.has(BOUND.toLowerCase()));
    const errors = scriptDiagnostics(index, analysed).filter((d) => d.severity === 'error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /GateAlarm_00\.SR/);
    // Replacing again with the name back clears the problem, as does restoring the served copy.
    assert.equal(index.replaceScript(SAMPLE_LAYER_SCRIPT.toUpperCase(), served.text), true);
    assert.equal(index.problems.length, 0);
    index.replaceScript(SAMPLE_LAYER_SCRIPT, renamed);
    assert.equal(index.problems.length, 1);
    assert.equal(index.restoreScript(SAMPLE_LAYER_SCRIPT), true);
    assert.equal(index.problems.length, 0);
    assert.equal(index.script(SAMPLE_LAYER_SCRIPT), served, 'the served copy itself is back');
    assert.equal(index.restoreScript(SAMPLE_LAYER_SCRIPT), false, 'nothing left to restore');
  } finally {
    m.close();
  }
});

test('replaceScript refuses a path the index does not serve, and a removed function counts like a renamed one', () => {
  const m = mountSample('arch06-replace-script-2-');
  try {
    const index = ScriptIndex.build(m);
    assert.equal(index.replaceScript('no\\such.scripts', 'x = 1'), false);
    assert.equal(index.script('no\\such.scripts'), undefined);
    assert.equal(index.replaceScript(SAMPLE_LAYER_SCRIPT, ''), true);
    // Every bound name of the script is now missing: one problem per name.
    const bound = [...index.boundNames(SAMPLE_LAYER_SCRIPT)];
    assert.ok(bound.length >= 2);
    assert.deepEqual(index.problems.map((p) => p.function?.toLowerCase()).sort(), bound.sort());
  } finally {
    m.close();
  }
});
