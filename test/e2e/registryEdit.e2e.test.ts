// Editing a registry in a real VS Code (issue 24 item 4): with the sample install and an active
// mod, open the world layer's registry from its bundle folder, select GateCon.SO and move it in the
// edit panel (Enter applies), undo and redo (VS Code's Ctrl+Z / Ctrl+Y), see a refused edit's reason
// in the panel, save (Ctrl+S: the install's copy asks, "Save into a Mod"), read the mod's file back
// with the reader, reopen the registry from the merged view (the mod's copy wins) and see the
// moved position. The game folder comes out unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parseObjr } from '../../core/formats/registry';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const LAYER = ['worlds', 'retail', 'sample', 'sectionsandlayers'];

type Doc = { document: any };
const dataset = (frame: Frame): Promise<Record<string, string>> => frame.evaluate(() => ({ ...(globalThis as unknown as Doc).document.body.dataset }));

/** The registry editor webview, once its first rows are in. */
async function registryFrame(h: Harness): Promise<Frame> {
  return h.waitFor(
    async () => {
      for (const f of h.page.frames()) {
        const ok = await f
          .evaluate(() => {
            const doc = (globalThis as unknown as Doc).document;
            return doc.body?.dataset.state === 'ready' && doc.body.dataset.shown !== undefined && doc.querySelector('#rows .row:not(.loading)') !== null;
          })
          .catch(() => false);
        if (ok) return f;
      }
      return undefined;
    },
    30_000,
    'the registry editor webview',
  );
}

/** GateCon.SO's position cell as the table shows it. */
const gatePosition = (frame: Frame): Promise<string | undefined> =>
  frame.$$eval('#rows .row:not(.loading)', (els) => {
    const row = els.find((e: any) => e.children[1]?.textContent === 'GateCon.SO') as any;
    return row ? String(row.children[4].textContent) : undefined;
  });

async function waitPosition(h: Harness, frame: Frame, want: string, what: string): Promise<void> {
  await h.waitFor(async () => (await gatePosition(frame)) === want, 20_000, `${what}: GateCon.SO at ${want} (shows ${await gatePosition(frame)})`);
}

test(
  'the registry editor moves an object, undoes and redoes it, refuses a broken edit, and saves into the active mod',
  { skip: e2eSkipReason([vsix]), timeout: 600_000 },
  async () => {
    const dir = tempDir('arch06-e2e-registry-edit-');
    const game = path.join(dir, 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const mods = path.join(dir, 'mods');
    fs.mkdirSync(mods);
    const before = treeDigest(game);
    const h = await Harness.start({ name: 'registryEdit', folder: game, vsix, viewport: { width: 1400, height: 1000 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.runCommand('arch06: New Mod…');
      await h.quickPick('Registry Mod');
      await h.answerFileDialog(mods);
      await h.waitForNotification('Mod Registry Mod created');
      const mod = path.join(mods, 'RegistryMod');

      const bundle = [ROOT, ...LAYER, 'fortgate.bndl [bundle]', ...LAYER];
      await h.expandExplorerPath(bundle, 30_000);
      await h.openExplorerFile([...bundle, 'fortgate.objres']);
      let frame = await registryFrame(h);
      assert.equal(await gatePosition(frame), '(-1050, 310.5, 4075)');

      // Select with a click; the panel shows the object; Enter in the x field applies the move.
      await frame.click('#rows .row:has-text("GateCon.SO")');
      await h.waitFor(async () => (await dataset(frame)).editing === 'object', 10_000, 'the edit panel to show GateCon.SO');
      assert.equal(await frame.inputValue('#editName'), 'GateCon.SO');
      assert.equal(await frame.inputValue('#posx'), '-1050');
      await frame.fill('#posx', '-1000');
      await frame.press('#posx', 'Enter');
      await h.waitFor(async () => (await dataset(frame)).editing === 'applied', 20_000, 'the move to be applied');
      await waitPosition(h, frame, '(-1000, 310.5, 4075)', 'after the move');
      await h.waitFor(async () => (await h.page.locator('.editor-group-container.active .tab.active.dirty').count()) === 1, 10_000, 'the tab to be dirty');

      // A refused edit: a rename onto another object's name; the reason in the panel, nothing changed.
      await frame.fill('#editName', 'GateCon.SC');
      await frame.press('#editName', 'Enter');
      await h.waitFor(async () => (await dataset(frame)).editing === 'refused', 20_000, 'the rename to be refused');
      assert.match(String(await frame.textContent('#editStatus')), /exists already/);
      await frame.fill('#editName', 'GateCon.SO');

      // Undo and redo: VS Code's, from the keyboard with the table focused.
      await frame.focus('#grid');
      await h.page.keyboard.press('Control+Z');
      await waitPosition(h, frame, '(-1050, 310.5, 4075)', 'after undo');
      await h.page.keyboard.press('Control+Y');
      await waitPosition(h, frame, '(-1000, 310.5, 4075)', 'after redo');

      // Save: the registry is the install's, so it asks; it goes into the mod at the same game path.
      await h.page.keyboard.press('Control+S');
      await h.clickDialogButton('Save into a Mod', 20_000);
      const saved = path.join(mod, ...LAYER, 'fortgate.objres');
      await h.waitFor(() => fs.existsSync(saved), 20_000, 'the registry saved into the mod');
      await h.waitFor(async () => (await h.page.locator('.editor-group-container.active .tab.active.dirty').count()) === 0, 15_000, 'the tab to be clean');
      const reg = parseObjr(fs.readFileSync(saved), 'fortgate.objres');
      assert.deepEqual(reg.objectList!.objects.find((o) => o.name === 'GateCon.SO')!.position, [-1000, 310.5, 4075]);

      // Reopen from the merged view: the mod's copy wins and shows the moved object.
      await h.runCommand('View: Close All Editors');
      await h.openExplorerFile([ROOT, ...LAYER, 'fortgate.objres']);
      frame = await registryFrame(h);
      await waitPosition(h, frame, '(-1000, 310.5, 4075)', 'reopened');
      await frame.click('#rows .row:has-text("GateCon.SO")');
      await h.waitFor(async () => (await dataset(frame)).editing === 'object', 10_000, 'the edit panel to show GateCon.SO');
      // The save's notices (the mod gained a file; the open bundle-view copy changed) cleared for the picture.
      await h.runCommand('Notifications: Clear All Notifications');
      await h.screenshot('registry-edit-saved');
      assert.deepEqual(treeDigest(game), before, 'the game folder is unchanged');
    } finally {
      await h.stop();
    }
  },
);
