// The language server following a mod's script (issue 24 item 3), over stdio as the extension
// drives it: the sample install with one active mod holding a copy of the layer script; the mod's
// copy opened at its `arch06-modtext:` URI stands for the game path (bindings apply); renaming
// the function Patch_02's registry binds to three relays is an error at once naming them and the
// registry; the index follows the edit (workspace symbols list the new name), goes back to the
// disk copy when the document closes unsaved, and follows the file when it changes on disk
// (`arch06/modFilesChanged`). The oracle is the sample's registry as written, not the server.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleLayerScript } from '../../core/sample';
import { createMod, modFilePath, scriptWithSource, writeModFile } from '../../core/mod';
import { tempDir } from '../support/fixtures';
import { LspClient } from '../support/lspClient';
import { sampleInstall } from '../support/lspInstall';

const BOUND = '_gatealarm_SR_Script1_0c1d2e3f';
const RENAMED = '_gatealarm_SR_Script1_renamed';
const RELAYS = ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR'];

/** Names of the index's definitions matching `query` (workspace symbols come from the index). */
async function indexed(client: LspClient, query: string): Promise<string[]> {
  const found = await client.request<{ name: string }[]>('workspace/symbol', { query });
  return found.map((s) => s.name);
}

/** Ask until `check` holds (the notification's work is asynchronous); a watchdog, never a timing. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

test("language server: a mod's script edited as arch06-modtext follows in diagnostics and the index, on change, close and disk change", async () => {
  const root = sampleInstall('arch06-lsp-mod-script-');
  const folder = path.join(tempDir('arch06-lsp-mod-folder-'), 'ScriptMod');
  createMod(folder, 'Script Mod');
  const file = writeModFile(folder, SAMPLE_LAYER_SCRIPT, sampleLayerScript());
  assert.equal(file, modFilePath(folder, SAMPLE_LAYER_SCRIPT));
  const uri = `arch06-modtext:${pathToFileURL(file).pathname}.hks`;
  const renamed = SAMPLE_LAYER_SOURCE.replace(`${BOUND} = function`, `${RENAMED} = function`);
  assert.notEqual(renamed, SAMPLE_LAYER_SOURCE);
  const client = await LspClient.start(root, { mods: [{ folder, name: 'Script Mod', position: { kind: 'bottom' } }] });
  try {
    await client.open(uri, SAMPLE_LAYER_SOURCE);
    assert.deepEqual(await client.diagnosticsAt(uri, 1), [], 'the copy as shipped is clean');
    // Bindings apply to the mod's copy: the bound function has its "bound by 3 objects" lens.
    const lenses = await client.request<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(
      lenses.some((l) => l.command?.title === 'bound by 3 objects'),
      JSON.stringify(lenses.map((l) => l.command?.title)),
    );

    // The rename: an error naming the three relays and the registry, on the new name's definition.
    await client.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: renamed }] });
    const errors = (await client.diagnosticsAt(uri, 2)).filter((d) => d.severity === 1);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    const registryName = SAMPLE_LAYER_REGISTRY.split('\\').pop()!;
    assert.ok(errors[0].message.includes(`${BOUND} is bound`), errors[0].message);
    assert.ok(errors[0].message.toLowerCase().includes(registryName.toLowerCase()), errors[0].message);
    for (const o of RELAYS) assert.ok(errors[0].message.includes(o), `${o} in ${errors[0].message}`);
    const line = renamed.split('\n').findIndex((l) => l.startsWith(RENAMED));
    assert.equal(errors[0].range.start.line, line, 'on the renamed definition (the nearest name)');
    // The index follows the edit.
    assert.deepEqual(await indexed(client, RENAMED), [RENAMED]);

    // Closed unsaved: the disk copy is the served script again.
    await client.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await eventually(async () => (await indexed(client, RENAMED)).length === 0, 'the renamed function gone from the index after close');
    assert.ok((await indexed(client, BOUND)).includes(BOUND));

    // Saved by another tool: the file changes on disk, the client says so, the index follows.
    writeModFile(folder, SAMPLE_LAYER_SCRIPT, scriptWithSource(sampleLayerScript(), 'fortgate.scripts', renamed), { overwrite: true });
    await client.rpc.sendNotification('arch06/modFilesChanged', {
      changes: [
        { path: file, kind: 'changed' },
        { path: '/elsewhere/x.scripts', kind: 'created' },
      ],
    });
    await eventually(async () => (await indexed(client, RENAMED)).includes(RENAMED), 'the renamed function in the index after the disk change');
    // A malformed change list costs nothing but itself.
    await client.rpc.sendNotification('arch06/modFilesChanged', { changes: [{ path: 7 }, null, { path: file, kind: 'bogus' }] });
    assert.deepEqual(await indexed(client, RENAMED), [RENAMED]);
  } finally {
    await client.stop();
  }
});
