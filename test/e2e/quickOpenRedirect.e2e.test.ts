// Ctrl+P and Ctrl+Shift+F in the arch06: workspace (code-server + Chromium): once the sample
// install is mounted, Ctrl+P opens arch06's Go to File (which finds data\big_stored.bin, a path
// VS Code's own Quick Open cannot see there) with a one-time hint saying why, and Ctrl+Shift+F
// opens arch06's Find in Files. The hint's "Use VS Code's Keys" turns the setting off, and the keys
// are VS Code's again: Quick Open's file picker and the Search view. Screenshots per step.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
/** VS Code's own Quick Open file picker says this in its placeholder. */
const VSCODE_QUICK_OPEN = /go to line|Search files by name/i;

test(
  'Ctrl+P and Ctrl+Shift+F open arch06 Go to File and Find in Files in the arch06: workspace; the setting gives them back',
  { skip: e2eSkipReason([vsix]), timeout: 300_000 },
  async () => {
    const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const h = await Harness.start({ name: 'quickOpenRedirect', folder: game, vsix, viewport: { width: 1280, height: 800 } });
    const widget = h.page.locator('.quick-input-widget');
    const input = widget.locator('.quick-input-box input');
    /** Press `key` on the workbench (a leftover quick input closed first) until the quick input opens; its placeholder and title. */
    const pressFor = async (
      key: string,
      what: string,
      ok: (placeholder: string, title: string) => boolean,
    ): Promise<{ placeholder: string; title: string }> => {
      let pressed = 0;
      return h.waitFor(
        async () => {
          if (Date.now() - pressed > 3000) {
            pressed = Date.now();
            if (await input.isVisible()) await h.page.keyboard.press('Escape');
            await h.page.keyboard.press(key);
          }
          if (!(await input.isVisible())) return undefined;
          const placeholder = (await input.getAttribute('placeholder')) ?? '';
          const title =
            (await widget
              .locator('.quick-input-title')
              .textContent()
              .catch(() => '')) ?? '';
          return ok(placeholder, title) ? { placeholder, title } : undefined;
        },
        30_000,
        what,
      );
    };
    try {
      await h.mountFromOffer(ROOT);
      await h.screenshot('mounted');

      // Ctrl+P: arch06's Go to File, not VS Code's Quick Open; it finds a path inside an archive.
      const p = await pressFor('Control+p', "Ctrl+P to open arch06's Go to File", (placeholder) => /game paths/i.test(placeholder));
      assert.doesNotMatch(p.placeholder, VSCODE_QUICK_OPEN);
      await input.fill('big_stored');
      await h.waitFor(async () => ((await h.quickInputItems()).includes('big_stored.bin') ? true : undefined), 15_000, 'big_stored.bin in the list');
      const hint = await h.waitForNotification("Ctrl+P opened arch06's Go to File");
      assert.match(hint, /VS Code's Quick Open cannot see inside the game's archives/);
      await h.screenshot('ctrl-p-go-to-file');
      await h.page.keyboard.press('Escape');

      // Ctrl+Shift+F: arch06's Find in Files (its first step asks for the text).
      const f = await pressFor('Control+Shift+f', "Ctrl+Shift+F to open arch06's Find in Files", (_p, title) => /arch06: Find in Files/.test(title));
      assert.match(f.title, /Find in Files \(1\/2\)/);
      await h.screenshot('ctrl-shift-f-find-in-files');
      await h.page.keyboard.press('Escape');

      // The hint's second button turns the setting off: the keys are VS Code's again.
      await h.clickNotificationButton("Ctrl+P opened arch06's Go to File", "Use VS Code's Keys");
      await h.waitForNotification("Ctrl+P and Ctrl+Shift+F are VS Code's again");
      const own = await pressFor('Control+p', "Ctrl+P to open VS Code's Quick Open", (placeholder) => VSCODE_QUICK_OPEN.test(placeholder));
      assert.doesNotMatch(own.placeholder, /game paths/i);
      await h.screenshot('ctrl-p-vscode-quick-open');
      await h.page.keyboard.press('Escape');
      await h.page.keyboard.press('Control+Shift+f');
      await h.waitFor(async () => ((await h.page.locator('.search-view').isVisible()) ? true : undefined), 15_000, "VS Code's Search view");
      assert.equal(await input.isVisible(), false, 'no quick input: the Search view took the key');
      await h.screenshot('ctrl-shift-f-vscode-search');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
  },
);
