// `arch06 scripts`: a script's definitions with 1-based lines and the objects bound to each (the
// registry copy in effect), and its problems; on the sample install and on the real layers.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleGame } from '../../core/sample';
import { cliJson, runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../support/realLayers';

test('arch06 scripts on the sample layer: functions with lines, bound objects from Patch_02, no problems', () => {
  const root = tempDir('arch06-scripts-cli-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const out = cliJson('scripts', root, SAMPLE_LAYER_SCRIPT);
  const lines = SAMPLE_LAYER_SOURCE.split('\n');
  const lineOf = (name: string): number => lines.findIndex((l) => l.startsWith(`${name} = `)) + 1;
  assert.deepEqual(
    out.functions.map((f: { name: string; line: number; kind: string; boundBy: unknown[] }) => [f.name, f.line, f.kind, f.boundBy.length]),
    [
      ['_gatecontroller_SC_Script_2f4e8a10', lineOf('_gatecontroller_SC_Script_2f4e8a10'), 'function', 1],
      ['_gatecontroller_SO_Script_7b19c3d5', lineOf('_gatecontroller_SO_Script_7b19c3d5'), 'hmake', 1],
      ['_gatealarm_SR_Script1_0c1d2e3f', lineOf('_gatealarm_SR_Script1_0c1d2e3f'), 'function', 3],
      ['_gatequest_QR_Script1_48d7e0b6', lineOf('_gatequest_QR_Script1_48d7e0b6'), 'function', 1],
    ],
  );
  const alarm = out.functions[2].boundBy
    .map((b: { object: string; class: string; registrySource: string }) => `${b.object} ${b.class} ${b.registrySource}`)
    .sort();
  assert.deepEqual(alarm, [
    'GateAlarm_00.SR ScriptRelay Patch_02.arch06',
    'GateAlarm_01.SR ScriptRelay Patch_02.arch06',
    'GateAlarm_02.SR ScriptRelay Patch_02.arch06',
  ]);
  assert.deepEqual(out.diagnostics, []);
  assert.equal(out.servedFrom, 'container');
  // The index read on 1 or 3 worker threads: the same answer, byte for byte.
  assert.deepEqual(cliJson('scripts', root, SAMPLE_LAYER_SCRIPT, '--jobs', '1'), out);
  assert.deepEqual(cliJson('scripts', root, SAMPLE_LAYER_SCRIPT, '--jobs', '3'), out);
  const text = runCli('scripts', root, SAMPLE_LAYER_SCRIPT);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /_gatealarm_SR_Script1_0c1d2e3f {2}bound by 3/);
  assert.match(text.stdout, /no problems/);
  const missing = runCli('scripts', root, 'worlds\\nowhere.scripts');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no mounted source serves this script/);
});

test('arch06 scripts on the real layers: bound objects per layer 40, 17, 18, 19; no problems', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  const root = m.root;
  m.close();
  const rows: number[] = [];
  for (const layer of REAL_LAYER_NAMES) {
    const out = cliJson('scripts', root, `${realLayerStem(layer)}.scripts`);
    assert.deepEqual(out.diagnostics, [], layer);
    rows.push(out.functions.reduce((n: number, f: { boundBy: unknown[] }) => n + f.boundBy.length, 0));
  }
  assert.deepEqual(rows, [40, 17, 18, 19]);
});
