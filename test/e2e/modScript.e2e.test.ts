// A game script edited in a mod, in a real VS Code (issue 24 item 3 acceptance): on the sample
// install with an active mod, open the layer script (read-only, from its bundle), "Edit in Mod"
// copies it into the mod and opens the mod's copy as its editable source; rename the function
// Patch_02's registry binds to three alarm relays, save: the mod's file on disk holds the new name
// (SCRI header kept), and the language server reports the broken binding as an error naming the
// three objects and the registry (the Problems panel). The game folder comes out unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const LAYER = ['worlds', 'retail', 'sample', 'sectionsandlayers'];
const BOUND = '_gatealarm_SR_Script1_0c1d2e3f';
const RENAMED = '_gatealarm_SR_Script1_renamed';
const MOD_TAB = 'fortgate.scripts.hks';

/** The Problems panel's markers of the mod's copy (the rows under its resource row; a marker row ends with its [Ln, Col]). */
async function modCopyProblems(h: Harness): Promise<string[]> {
  const rows = await h.page
    .locator('.markers-panel .monaco-list-row')
    .allInnerTexts()
    .catch(() => [] as string[]);
  const out: string[] = [];
  let underModCopy = false;
  for (const r of rows) {
    if (/\[Ln \d+, Col \d+\]/.test(r)) {
      if (underModCopy) out.push(r.replace(/\s+/g, ' '));
    } else underModCopy = r.includes(MOD_TAB);
  }
  return out;
}

/** In the active editor: the first word of `line` replaced by `word`, then saved. */
async function replaceFirstWordAndSave(h: Harness, line: number, word: string): Promise<void> {
  await h.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await h.runCommand('Go to Line/Column...');
  await h.page.keyboard.type(String(line));
  await h.page.keyboard.press('Enter');
  await h.page.keyboard.press('Home');
  await h.page.keyboard.press('Control+Shift+ArrowRight');
  await h.page.keyboard.type(word);
  await h.page.keyboard.press('Control+S');
}

test(
  'a script edited in the mod: Edit in Mod, rename a bound function, save, the binding error names the objects',
  { skip: e2eSkipReason([vsix]), timeout: 600_000 },
  async () => {
    const dir = tempDir('arch06-e2e-mod-script-');
    const game = path.join(dir, 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const before = treeDigest(game);
    const mods = path.join(dir, 'mods');
    fs.mkdirSync(mods);
    const h = await Harness.start({ name: 'mod-script', folder: game, vsix, viewport: { width: 1400, height: 1100 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.runCommand('arch06: New Mod…');
      await h.quickPick('Script Mod');
      await h.answerFileDialog(mods);
      await h.waitForNotification('Mod Script Mod created');
      const mod = path.join(mods, 'ScriptMod');

      // 1. The game's script, read-only, with its "Edit in Mod" lens.
      await h.openExplorerFile([ROOT, ...LAYER, 'fortgate.bndl [bundle]', ...LAYER, 'fortgate.scripts'], 30_000);
      const editLens = h.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'Edit in Mod' });
      await h.waitFor(async () => (await editLens.count()) > 0, 60_000, 'the "Edit in Mod" lens');
      await h.screenshot('game-script-edit-in-mod');
      await editLens.first().click();

      // 2. The mod's copy, as its source, editable.
      const modFile = path.join(mod, ...SAMPLE_LAYER_SCRIPT.split('\\'));
      await h.waitFor(async () => (await h.activeEditorTitle()) === MOD_TAB && fs.existsSync(modFile), 30_000, "the mod's copy to open");
      await h.waitFor(async () => (await h.editorText()).includes('function'), 15_000, 'the source in the editor');
      await h.runCommand('View: Focus Problems (Errors, Warnings, Infos)', 10_000).catch(async () => {
        await h.page.keyboard.press('Escape');
        await h.page.keyboard.press('Control+Shift+M');
      });

      // 3. Rename the bound function on its line and save.
      const line = SAMPLE_LAYER_SOURCE.split('\n').findIndex((l) => l.startsWith(BOUND)) + 1;
      assert.ok(line > 0);
      await replaceFirstWordAndSave(h, line, RENAMED);
      await h.waitFor(async () => (await h.page.locator('.editor-group-container.active .tab.active.dirty').count()) === 0, 15_000, 'the script to be saved');
      await h.waitFor(() => fs.readFileSync(modFile).includes(`${RENAMED} = function`), 20_000, "the mod's file written with the new name");
      const saved = fs.readFileSync(modFile);
      assert.equal(saved.subarray(0, 4).toString('latin1'), 'SCRI', 'the SCRI header kept');
      assert.ok(!saved.includes(`${BOUND} = function`), 'the old name is gone from the file');

      // 4. The binding error on the mod's copy, naming the three relays that lose their binding and the registry.
      const error = await h.waitFor(
        // The final text's (a row made while the name was being typed suggests nothing).
        async () => (await modCopyProblems(h)).find((r) => r.includes(`${BOUND} is bound`) && r.includes(`did you mean ${RENAMED}`)),
        60_000,
        "the binding error on the mod's copy in the Problems panel",
      );
      for (const o of ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR']) assert.ok(error.includes(o), `${o} named: ${error}`);
      assert.match(error, /fortgate\.objres/i);
      assert.match(error, new RegExp(`did you mean ${RENAMED}`));
      // For the picture: the whole message, hovering the renamed definition's squiggle.
      const renamedToken = h.page.locator('.editor-group-container.active .view-line span span', { hasText: RENAMED }).first();
      await h
        .waitFor(
          async () => {
            const box = await renamedToken.boundingBox();
            if (!box) return undefined;
            await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
            const hovers = await h.page
              .locator('.monaco-hover-content')
              .allInnerTexts()
              .catch(() => [] as string[]);
            return hovers.some((t) => t.includes(`${BOUND} is bound`)) || undefined;
          },
          20_000,
          'the diagnostic in a hover',
        )
        .catch(() => undefined);
      await h.screenshot('mod-script-binding-diagnostic');
      await h.page.keyboard.press('Escape');

      // 5. The name back: the error goes.
      await replaceFirstWordAndSave(h, line, BOUND);
      await h.waitFor(async () => !(await modCopyProblems(h)).some((r) => r.includes(`${BOUND} is bound`)), 60_000, 'the binding error to clear');
      await h.screenshot('mod-script-binding-restored');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
    assert.deepEqual(treeDigest(game), before, 'the game folder is unchanged');
  },
);
