// Editing a string table in a real VS Code (issue 24 acceptance): with the sample install and an
// active mod, open database\string\enus\string.strdb, change a line of dialogue in the editor,
// undo, redo, save (the file comes from the install: accept saving it into the mod), then see the
// mod's copy win: the Copies view names the mod first, and the table opened again shows the new
// text. The install's files stay byte for byte as they were. Screenshots per step.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parseSkdb } from '../../core/formats/strings';
import { formatHash, stringHash } from '../../core/hash';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { stringTableFrame } from './stringTableFrames';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const TITLE = 'database\\string\\enus\\string.strdb';
const GATE = formatHash(stringHash('UI_Sample_GateOpen'));
const BEFORE = 'The gate opens.';
const AFTER = 'The gate swings open, slowly.';

/** Every file of a folder with its sha256 (the install before and after). */
function fingerprint(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    out.push(`${path.relative(dir, p)} ${createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`);
  }
  return out.sort();
}

/** The opened language's text of the gate key as the table shows it. */
const gateText = (frame: Frame): Promise<string | null> =>
  frame.evaluate((hash) => {
    const doc = (globalThis as unknown as { document: any }).document;
    const cell = doc.querySelector(`#rows .row[data-hash="${hash}"] .c-text`);
    return cell ? (cell.getAttribute('title') ?? cell.textContent) : null;
  }, GATE);

const until = (h: Harness, frame: Frame, text: string, what: string): Promise<true> =>
  h.waitFor(async () => ((await gateText(frame)) === text ? true : undefined), 20_000, what);

const dirty = async (h: Harness): Promise<boolean> => (await h.page.locator('.editor-group-container.active .tab.active.dirty').count()) > 0;

test(
  'a line of dialogue changed in the string-table editor, undone, redone and saved into the mod, where it wins',
  { skip: e2eSkipReason([vsix]), timeout: 600_000 },
  async () => {
    const dir = tempDir('arch06-e2e-stredit-');
    const game = path.join(dir, 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const mods = path.join(dir, 'mods');
    fs.mkdirSync(mods);
    const installBefore = fingerprint(game);
    const h = await Harness.start({ name: 'stringTableEdit', folder: game, vsix, viewport: { width: 1400, height: 900 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.runCommand('arch06: New Mod…');
      await h.quickPick('Dialogue Mod');
      await h.answerFileDialog(mods);
      await h.waitForNotification('Mod Dialogue Mod created');
      const modTable = path.join(mods, 'DialogueMod', 'database', 'string', 'enus', 'string.strdb');

      // 1. Open the English table from the install and change the gate's line.
      await h.openExplorerFile([ROOT, 'database', 'string', 'enus', 'string.strdb'], 30_000);
      const frame = await stringTableFrame(h, TITLE, 'addKey');
      assert.equal(await gateText(frame), BEFORE);
      await frame.click(`#rows .row[data-hash="${GATE}"]`);
      await h.page.keyboard.press('Enter');
      await h.quickPick(AFTER);
      await until(h, frame, AFTER, 'the edited text in the table');
      assert.ok(await dirty(h), 'the tab is dirty after the edit');
      await h.screenshot('string-table-edited');

      // 2. Undo and redo (VS Code's, from the focused table).
      await frame.click(`#rows .row[data-hash="${GATE}"]`);
      await h.page.keyboard.press('Control+Z');
      await until(h, frame, BEFORE, 'undo to bring the old text back');
      await h.waitFor(async () => !(await dirty(h)), 10_000, 'the tab clean again after undo');
      await h.page.keyboard.press('Control+Shift+Z');
      await until(h, frame, AFTER, 'redo to bring the edit back');
      assert.ok(await dirty(h), 'dirty again after redo');

      // 3. Save: the file comes from the install, so it goes into the mod, after asking.
      await h.page.keyboard.press('Control+S');
      const question = await h.clickDialogButton('Save into a Mod');
      assert.match(question, /never writes/);
      await h.waitFor(async () => fs.existsSync(modTable) && !(await dirty(h)), 20_000, 'the table saved into the mod');
      const saved = parseSkdb(fs.readFileSync(modTable), 'mod copy');
      assert.equal(saved.entries.find((e) => e.hash === stringHash('UI_Sample_GateOpen'))?.text, AFTER);
      assert.equal(saved.keyCount, 4);
      assert.deepEqual(fingerprint(game), installBefore, 'the install is not written');

      // 4. The mod's copy wins: the Copies view, and the table opened again shows the new text.
      await h.runCommand('arch06: Show Search Order');
      const copies = await h.waitFor(
        async () => {
          const rows = await h.viewRows('Copies of the Active File');
          return rows.length >= 2 && /Dialogue Mod \(mod\)[\s\S]*wins/.test(rows[0]) ? rows : undefined;
        },
        30_000,
        'the Copies view to show the mod copy winning',
      );
      assert.match(copies[1], /shadowed/);
      await h.runCommand('View: Close All Editors');
      await h.openExplorerFile([ROOT, 'database', 'string', 'enus', 'string.strdb'], 30_000);
      const again = await stringTableFrame(h, TITLE, 'addKey');
      await until(h, again, AFTER, 'the reopened table to show the mod copy');
      await h.screenshot('string-table-edit-saved');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
  },
);
