// Smoke test of the packaged extension in a real VS Code workbench (code-server + Chromium):
// the workbench opens a freshly written sample install, the Explorer lists it, and the
// extension's command runs from the palette. Needs `npm run package` first; `npm run test:e2e`
// does everything. Skipped with a message when E2E is not set up, unless ARCH06_E2E=1.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');

test('the extension loads in VS Code and hashes a name from the command palette', { skip: e2eSkipReason([vsix]), timeout: 180_000 }, async () => {
  const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
  const made = spawnSync(process.execPath, [path.join(repoRoot(), 'dist', 'cli.js'), 'make-sample', game], { encoding: 'utf8' });
  assert.equal(made.status, 0, `make-sample failed: ${made.stderr}`);

  const h = await Harness.start({ name: 'smoke', folder: game, vsix });
  try {
    const top = (await h.explorerRows()).map((r) => r.name);
    for (const name of ['Game', 'x64', 'Base.arch06']) assert.ok(top.includes(name), `Explorer shows ${name}; it shows ${top.join(', ')}`);
    await h.screenshot('workbench');

    await h.openExplorerFile(['x64', 'default.archcfg']);
    assert.match(await h.editorText(), /\.\.\\Base\.arch06/);

    await h.runCommand('arch06: Hash a Name (StringHash)');
    await h.quickPick('UI_1Sword_Starting_N');
    const message = await h.waitForNotification('0xDCDB4713');
    assert.match(message, /StringHash\("UI_1Sword_Starting_N"\) = 0xDCDB4713/);
    assert.equal(await h.clipboardText(), '0xDCDB4713');
    await h.screenshot('hash-notification');
  } catch (e) {
    await h.screenshot('failure').catch(() => undefined);
    throw e;
  } finally {
    await h.stop();
  }
});
