// A broken mod archive is loud in VS Code (code-server + Chromium): the sample install with one
// more cfg line, at the bottom (where a mod goes, consulted first), naming a file of random bytes.
// Mounting warns once, naming it; the Search Order view lists it with its reason; the status bar
// says the mount is incomplete and clicking it shows the Search Order view. The rest of the
// install still mounts. A screenshot is saved at each step; the game folder comes out unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prng, randomBytes, tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const BROKEN = 'Broken_Mod.arch06';

test('a broken archive in the cfg: warned, listed with its reason, status bar incomplete', { skip: e2eSkipReason([vsix]), timeout: 240_000 }, async () => {
  const game = path.join(tempDir('arch06-e2e-broken-'), 'sample-game');
  const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  // This test's own copy of the sample: a file of random bytes named by a new last cfg line.
  fs.writeFileSync(path.join(game, BROKEN), randomBytes(4096, prng(0xb40c3)));
  const cfgFile = path.join(game, 'x64', 'default.archcfg');
  const cfg = fs.readFileSync(cfgFile, 'utf8');
  fs.writeFileSync(cfgFile, `${cfg}${cfg.endsWith('\n') ? '' : '\n'}..\\${BROKEN}\n`);
  const brokenLine = fs.readFileSync(cfgFile, 'utf8').split('\n').indexOf(`..\\${BROKEN}`) + 1;
  assert.ok(brokenLine > 0);
  const before = treeDigest(game);

  const h = await Harness.start({ name: 'broken-source', folder: game, vsix, viewport: { width: 1280, height: 800 } });
  try {
    // 1. Mount from the offer. The window reloads into the arch06 workspace and mounts again there;
    // each mount warns once, naming the broken archive.
    await h.mountFromOffer(ROOT);
    const warning = await h.waitForNotification('the mount is incomplete');
    assert.match(warning, new RegExp(`${BROKEN.replace('.', '\\.')} \\(cfg line ${brokenLine}\\)`));
    await h.page.waitForTimeout(2000); // a second toast for the same mount would show by now
    const toasts = (await h.notifications()).filter((n) => /mount is incomplete/.test(n));
    assert.equal(toasts.length, 1, `one warning per mount: ${toasts.join(' | ')}`);
    await h.screenshot('broken-warning');

    // 2. The status bar says the mount is incomplete, with the warning background.
    const status = await h.waitFor(() => h.statusBarItem(/SoW:/), 20_000, 'the arch06 status bar item');
    assert.match(status.text, /1 broken/);
    assert.ok(status.warning, `the status bar item has the warning background: ${JSON.stringify(status)}`);

    // 3. Clicking it shows the Search Order view: the broken archive first, with its reason, then
    // the sources that did mount (the rest of the install).
    await h.clickStatusBarItem(/SoW:/);
    const order = await h.waitFor(
      async () => {
        const rows = await h.viewRows('Search Order');
        return rows.some((r) => r.includes(BROKEN)) && rows.some((r) => /HotChunk\.arch06/.test(r)) ? rows : undefined;
      },
      20_000,
      'the Search Order view to list the broken source',
    );
    // The summary line first (the broken count in it), then the broken group.
    assert.match(order[0], /\d+ sources · 1 broken · /);
    assert.match(order[1], /Broken sources \(1\)/);
    const row = order.find((r) => r.includes(BROKEN))!;
    assert.match(row, new RegExp(`line ${brokenLine}: \\S`), `the row gives the cfg line and the reason: ${row}`);
    assert.ok(
      order.some((r) => /1\. HotChunk\.arch06/.test(r)),
      `the other sources mounted: ${order.join(' | ')}`,
    );
    // The error icon on the broken row.
    const pane = h.page.locator('.pane', { has: h.page.locator('.pane-header', { hasText: 'Search Order' }) });
    const icon = pane.locator('.monaco-list-row', { hasText: BROKEN }).locator('.codicon-error');
    assert.equal(await icon.count(), 1, 'the broken source has an error icon');
    await h.screenshot('broken-in-search-order');

    // 4. The merged view still serves the install's files.
    await h.openExplorerFile([ROOT, 'config', 'game.cfg']);
    assert.match(await h.editorText(), /Patch_02 copy/);
    await h.screenshot('rest-of-install-mounted');
  } catch (e) {
    await h.screenshot('failure').catch(() => undefined);
    throw e;
  } finally {
    await h.stop();
  }
  assert.deepEqual(treeDigest(game), before);
});
