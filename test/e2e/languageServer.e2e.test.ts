// The language server in a real VS Code (code-server + Chromium) on the sample install: the layer
// script shows "bound by N objects" over each bound function; the lens lists the objects and the
// one picked opens the registry that binds it; in a new Havok Script file, hovering a `hi` hash
// literal names it by the hi hash (a string literal of the mounted scripts) and completion after
// `System:` offers the engine members the scripts call. Screenshots per step; the game folder
// comes out unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { hiHash } from '../../core/hash';
import { SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const LAYER = ['worlds', 'retail', 'sample', 'sectionsandlayers'];

test(
  'language server: bound-by lenses open the registry; a hash hovers as its name; completion knows System:',
  { skip: e2eSkipReason([vsix]), timeout: 300_000 },
  async () => {
    const game = path.join(tempDir('arch06-e2e-lsp-'), 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const before = treeDigest(game);

    const h = await Harness.start({ name: 'language-server', folder: game, vsix, viewport: { width: 1400, height: 1000 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.openExplorerFile([ROOT, ...LAYER, 'fortgate.bndl [bundle]', ...LAYER, 'fortgate.scripts'], 30_000);

      // 1. The lenses: Patch_02's registry binds the alarm function to three relays.
      const lens = h.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'bound by 3 objects' });
      await h.waitFor(async () => (await lens.count()) > 0, 60_000, 'the "bound by 3 objects" lens');
      // Only the lines on screen are rendered: every lens shown counts objects.
      const titles = await h.page.locator('.editor-group-container.active .codelens-decoration a').allInnerTexts();
      for (const t of titles.filter((x) => /^bound by/.test(x))) assert.match(t, /^bound by [13] objects?$/);
      await h.screenshot('bound-by-lenses');

      // 2. The lens lists the objects; picking one opens the registry that binds it (the copy in effect).
      // The alarm function is below the first screen: going to its line brings its lens into view.
      const alarmLine = SAMPLE_LAYER_SOURCE.split('\n').findIndex((l) => l.startsWith('_gatealarm_SR_Script1_0c1d2e3f')) + 1;
      await h.runCommand('Go to Line/Column...');
      await h.page.keyboard.type(String(alarmLine));
      await h.page.keyboard.press('Enter');
      await h.waitFor(() => lens.first().isVisible(), 15_000, 'the "bound by 3 objects" lens on screen');
      await lens.first().click();
      const items = await h.waitFor(
        async () => {
          // Each item's label (its detail line repeats the name, so names are taken once).
          const t = [...new Set((await h.quickInputItems()).filter((x) => /^GateAlarm_\d\d\.SR$/.test(x)))];
          return t.length === 3 ? t : undefined;
        },
        15_000,
        'the three bound objects in a quick pick',
      );
      assert.deepEqual(items.sort(), ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR']);
      await h.screenshot('bound-objects');
      await h.quickPick('GateAlarm_02.SR');
      await h.waitFor(async () => ((await h.activeEditorTitle()) === 'fortgate.objres' ? true : undefined), 30_000, 'the registry to open');
      await h.screenshot('registry-from-lens');

      // 3. A new Havok Script file: a hash literal hovers as its name; `System:` completes.
      // A `hi` literal: the hi hash of the event the sample's event map names.
      const hash = hiHash('OpenGate')!.toString(16).padStart(8, '0');
      await h.runCommand('File: New Untitled Text File');
      await h.runCommand('Change Language Mode');
      await h.quickPick('Havok Script');
      await h.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await h.page.keyboard.type(`local key = 0x${hash}hi\nlocal day = System:`);
      await h.page.keyboard.press('Control+Space');
      const suggestions = await h.waitFor(
        async () => {
          const labels = await h.page.locator('.suggest-widget .monaco-list-row .label-name').allInnerTexts();
          return labels.includes('IsDayTime') ? labels : undefined;
        },
        30_000,
        'IsDayTime among the completions after System:',
      );
      assert.ok(suggestions.includes('LoadWorld'), `LoadWorld (documented by the seeds) is offered: ${suggestions.join(', ')}`);
      await h.screenshot('completion-system');
      await h.page.keyboard.press('Escape');

      const token = h.page.locator('.editor-group-container.active .view-line span span', { hasText: `0x${hash}hi` }).first();
      const box = await h.waitFor(() => token.boundingBox(), 15_000, 'the hash literal on screen');
      const hover = await h.waitFor(
        async () => {
          await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          const text = await h.page
            .locator('.monaco-hover-content')
            .allInnerTexts()
            .catch(() => []);
          return text.find((t) => t.includes('OpenGate'));
        },
        30_000,
        'the hash hover naming OpenGate',
      );
      assert.match(hover, /hi hash/);
      assert.match(hover, /script literal/);
      await h.screenshot('hash-hover');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
    assert.deepEqual(treeDigest(game), before, 'the game folder is unchanged');
  },
);
