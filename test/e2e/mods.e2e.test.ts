// Mod projects in a real VS Code (issue 23 acceptance): on the sample install, create a mod; Copy
// to Mod a text file, a bundle member and a string table; change all three (the member's new size
// brings a patched manifest into the mod; the string table is edited as text); see the mod's copies
// win in the Explorer, the Copies view, Search Order and Mod Changes before anything is packed;
// build the archive; install it through the separate list and check that `arch06 mount --cfg
// x64/arch06-mods.archcfg` shows it first; uninstall and find the lists byte for byte as before.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_STRINGS } from '../../core/sample';
import { formatHash, stringHash } from '../../core/hash';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';

const cliJson = (...args: string[]): any => {
  const r = spawnSync(process.execPath, [cli, ...args, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

/** Replace the active text editor's whole text and save it. */
async function replaceAndSave(h: Harness, text: string): Promise<void> {
  const editor = h.page.locator('.editor-group-container.active .monaco-editor textarea').first();
  await editor.focus();
  await h.page.keyboard.press('Control+A');
  await h.page.keyboard.press('Delete');
  await h.page.keyboard.insertText(text);
  await h.page.keyboard.press('Control+S');
  await h.waitFor(async () => (await h.page.locator('.editor-group-container.active .tab.active.dirty').count()) === 0, 15_000, 'the file to be saved');
}

test(
  'a mod from creation to uninstall: Copy to Mod, the overlay, build, install through the separate list, uninstall',
  { skip: e2eSkipReason([vsix]), timeout: 600_000 },
  async () => {
    const dir = tempDir('arch06-e2e-mods-');
    const game = path.join(dir, 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const mods = path.join(dir, 'mods');
    fs.mkdirSync(mods);
    const x64 = path.join(game, 'x64');
    const defaultBefore = fs.readFileSync(path.join(x64, 'default.archcfg'));
    const rootBefore = fs.readdirSync(game).sort();
    const h = await Harness.start({ name: 'mods', folder: game, vsix, viewport: { width: 1400, height: 900 } });
    try {
      await h.mountFromOffer(ROOT);

      // 1. New Mod: a name, then the folder to create it in.
      await h.runCommand('arch06: New Mod…');
      await h.quickPick('My Mod');
      await h.answerFileDialog(mods);
      await h.waitForNotification('Mod My Mod created');
      const mod = path.join(mods, 'MyMod');
      assert.ok(fs.existsSync(path.join(mod, 'arch06-mod.json')));
      await h.waitFor(async () => (await h.viewRows('Search Order')).some((r) => /My Mod \(mod\)/.test(r)), 30_000, 'the mod as a source in Search Order');

      // 2. Copy to Mod a text file, then change it.
      await h.explorerContextMenu([ROOT, 'config', 'game.cfg'], 'Copy to Mod');
      await h.waitFor(
        async () => (await h.activeEditorTitle()) === 'game.cfg' && fs.existsSync(path.join(mod, 'config', 'game.cfg')),
        20_000,
        'the copy to open',
      );
      await replaceAndSave(h, '; My Mod copy\nDifficulty=Easy\nSubtitles=1\n');

      // 3. A bundle member: copied from its bundle folder; a longer text changes its size, so the mod
      //    gains the winning manifest with that member's size patched.
      await h.explorerContextMenu([ROOT, 'bundles', 'characters', 'orc_sample.bndl [bundle]', 'characters', 'orcs', 'orc_sample', 'head.txt'], 'Copy to Mod');
      await h.waitFor(async () => (await h.activeEditorTitle()) === 'head.txt', 20_000, 'the member copy to open');
      await replaceAndSave(h, 'orc_sample head: the My Mod version, longer than the container copy\n');
      await h.waitForNotification('the mod now ships that manifest');
      assert.ok(fs.existsSync(path.join(mod, 'bundles', 'characters', 'orc_sample.bndl')), 'the patched manifest is in the mod');

      // 4. A string table: copied, opened as editable text, one text changed, saved back as SKDB.
      await h.explorerContextMenu([ROOT, 'database', 'string', 'enus', 'string.strdb'], 'Copy to Mod');
      await h.waitFor(async () => (await h.activeEditorTitle()) === 'string.strdb.txt', 20_000, 'the string table as text');
      await h.waitFor(async () => /The gate opens\./.test(await h.editorText()), 15_000, 'the table text');
      const tableText = fs.readFileSync(path.join(mod, 'database', 'string', 'enus', 'string.strdb'));
      assert.equal(tableText.subarray(0, 4).toString('latin1'), 'SKDB');
      // The whole table typed anew (no key names: a key is its hash), one text changed.
      const edited = Object.entries(SAMPLE_STRINGS.enus)
        .map(([key, text]) => `${formatHash(stringHash(key))} = ${JSON.stringify(text === 'The gate opens.' ? 'The gate swings open!' : text)}`)
        .join('\n');
      await replaceAndSave(h, edited + '\n');
      await h.waitFor(
        () => {
          const b = fs.readFileSync(path.join(mod, 'database', 'string', 'enus', 'string.strdb'));
          return Buffer.from(b).toString('utf16le').includes('The gate swings open!');
        },
        20_000,
        'the string table written back with the new text',
      );

      // 5. Before packing: the mod's copies win in the Explorer, the Copies view, Search Order and Mod Changes.
      await h.openExplorerFile([ROOT, 'config', 'game.cfg']);
      await h.waitFor(async () => /My Mod copy/.test(await h.editorText()), 20_000, 'the merged view to serve the mod copy');
      await h.runCommand('arch06: Show Search Order');
      const copies = await h.waitFor(
        async () => {
          const rows = await h.viewRows('Copies of the Active File');
          return rows.length >= 2 && /My Mod \(mod\)[\s\S]*wins/.test(rows[0]) ? rows : undefined;
        },
        20_000,
        'the Copies view to show the mod copy winning',
      );
      assert.match(copies[1], /Patch_02\.arch06[\s\S]*shadowed/);
      const order = await h.viewRows('Search Order');
      assert.match(order[1], /1\. My Mod \(mod\)/, order.join(' | '));
      const changes = await h.waitFor(
        async () => {
          const rows = await h.viewRows('Mod Changes');
          return rows.some((r) => /head\.txt[\s\S]*replaces the copy in orc_sample\.embb/.test(r)) &&
            rows.some((r) => /string\.strdb[\s\S]*overrides HotChunk/.test(r))
            ? rows
            : undefined;
        },
        30_000,
        'Mod Changes to list the three files',
      );
      assert.ok(
        changes.some((r) => /game\.cfg[\s\S]*overrides Patch_02\.arch06/.test(r)),
        changes.join(' | '),
      );
      assert.ok(
        changes.some((r) => /orc_sample\.bndl[\s\S]*overrides Patch_02\.arch06/.test(r)),
        changes.join(' | '),
      );
      await h.screenshot('mod-overlay');

      // The diff against the replaced copy: the container's head.txt on the left, the mod's on the right.
      await h.page
        .locator('.pane', { has: h.page.locator('.pane-header', { hasText: 'Mod Changes' }) })
        .locator('.monaco-list-row', { hasText: 'head.txt' })
        .first()
        .click();
      const diff = h.page.locator('.monaco-diff-editor').first();
      await diff.waitFor({ state: 'visible', timeout: 20_000 });
      await h.waitFor(
        async () => {
          const text = async (side: string): Promise<string> => (await diff.locator(`.editor.${side} .view-lines`).innerText()).replace(/\u00a0/g, ' ');
          return /served from the container in Base/.test(await text('original')) && /My Mod version/.test(await text('modified'));
        },
        20_000,
        'the diff of the member against the container copy',
      );
      await h.screenshot('mod-changes-diff');

      // 6. Build the archive.
      const built = path.join(dir, 'build', 'My_Mod.arch06');
      fs.mkdirSync(path.dirname(built));
      await h.runCommand('arch06: Build Mod Archive');
      await h.answerFileDialog(built, 15_000, 'file');
      await h.waitForNotification('Built My_Mod.arch06');
      assert.ok(fs.statSync(built).size > 0);

      // 7. Install it through the separate list: the diff, a confirmation, the launch option.
      await h.runCommand('arch06: Install Mod…');
      await h.quickPick('As an archive, through arch06-mods.archcfg');
      const dialog = await h.clickDialogButton('Install');
      assert.match(dialog, /\+\.\.\\My_Mod\.arch06 ; arch06 mod: My Mod/);
      await h.waitForNotification('-archcfg arch06-mods.archcfg');
      await h.screenshot('mod-installed');
      const mounted = cliJson('mount', game, '--cfg', 'x64/arch06-mods.archcfg');
      assert.equal(mounted.sources[0].name, 'My_Mod.arch06', 'the separate list puts the mod first');
      assert.deepEqual(fs.readFileSync(path.join(x64, 'default.archcfg')), defaultBefore, 'the game list untouched');
      const which = spawnSync(process.execPath, [cli, 'cat', game, 'config\\game.cfg', '--cfg', path.join(x64, 'arch06-mods.archcfg')], { encoding: 'utf8' });
      assert.match(which.stdout, /My Mod copy/);

      // 8. Uninstall: the lists as before, byte for byte; the archive gone.
      await h.runCommand('arch06: Uninstall Mod…');
      await h.quickPick('My Mod');
      await h.clickDialogButton('Uninstall');
      await h.waitForNotification('My Mod is uninstalled');
      assert.deepEqual(fs.readFileSync(path.join(x64, 'default.archcfg')), defaultBefore);
      assert.ok(!fs.existsSync(path.join(x64, 'arch06-mods.archcfg')));
      assert.deepEqual(fs.readdirSync(game).sort(), rootBefore);
      await h.screenshot('mod-uninstalled');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
  },
);
