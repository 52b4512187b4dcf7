// The retail archive in a real VS Code (code-server + Chromium): an install whose cfg names
// ../shared's Patch_00.arch06 (copied into this test's own temp folder, never into the project).
// Its four world layers' manifests are LZB16 chunks; once decoded, each `fortwallgameplay.bndl`
// shows a `[bundle]` folder whose members are served from the layer's EMBB container, and the
// member the manifest declares with size 0 (the .wldmsh, which a container never stores) is marked
// empty, not missing; the bundle editor on the manifest flags nothing (issue 20 item 4: the
// identity holds, the manifest mirrors its container). In the island layer's script, F12 on a
// `self:Escape(…)` call inside one `hmake` object lands on that object's own Escape, not the
// other object's of the same name. Screenshots as usual.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, readBundleMember, resolveBundle } from '../../core/archive';
import { parseScript } from '../../core/formats/script';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot, sharedPath } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const PATCH = sharedPath('samples/real/Patch_00.arch06');
const ROOT = 'Shadow of War (arch06)';
const LAYER = ['worlds', 'retail', 'island', 'sectionsandlayers'];
// The island manifest's members (../shared/samples/real/README.md: 9 in the container, plus the
// .wldmsh it declares with size 0 and the container lacks).
const CONTAINER_MEMBERS = ['inst', 'veggrid', 'terrain', 'uiwd', 'objres', 'uis', 'scripts', 'wldclnt', 'hkai'].map((x) => `fortwallgameplay.${x}`);

/** An install whose cfg names a copy of Patch_00.arch06 alone. */
function retailGame(): string {
  const game = path.join(tempDir('arch06-e2e-real-'), 'retail-patch');
  fs.mkdirSync(path.join(game, 'x64'), { recursive: true });
  fs.copyFileSync(PATCH.path, path.join(game, 'Patch_00.arch06'));
  fs.writeFileSync(path.join(game, 'x64', 'default.archcfg'), '; the retail Patch_00 alone\r\n..\\Patch_00.arch06\r\n');
  return game;
}

test(
  'Patch_00.arch06: the LZB16 manifests resolve, each layer shows its bundle folder served from the container',
  { skip: e2eSkipReason([vsix]) || PATCH.skip, timeout: 240_000 },
  async () => {
    const game = retailGame();
    const before = treeDigest(game);

    const h = await Harness.start({ name: 'real-archive', folder: game, vsix, viewport: { width: 1280, height: 900 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.expandExplorerPath([ROOT, ...LAYER]);
      const layer = (await h.explorerRows()).map((r) => r.name);
      for (const n of ['fortwallgameplay.bndl', 'fortwallgameplay.bndl [bundle]', 'fortwallgameplay.embb'])
        assert.ok(layer.includes(n), `the layer folder shows ${n}: ${layer.join(', ')}`);

      // The bundle folder lists the manifest's members under their own game paths.
      const bundle = [ROOT, ...LAYER, 'fortwallgameplay.bndl [bundle]'];
      await h.expandExplorerPath([...bundle, ...LAYER]);
      const rows = await h.explorerRows();
      const names = rows.map((r) => r.name);
      for (const m of [...CONTAINER_MEMBERS, 'fortwallgameplay.wldmsh']) assert.ok(names.includes(m), `the bundle folder lists ${m}: ${names.join(', ')}`);
      // Served from the container (badge C) or empty (badge 0): the Explorer draws a decoration's
      // badge as the ::after content of the row's label.
      const badge = (name: string): Promise<string> =>
        h.page
          .locator('.explorer-folders-view .monaco-list-row', { hasText: name })
          .last()
          .evaluate((row) => {
            // Runs in the page (the tests are compiled without the DOM library).
            const style = (globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } }).getComputedStyle;
            for (const e of Array.from(row.querySelectorAll('*'))) {
              const c = style(e, '::after').content;
              if (c && c !== 'none' && c !== 'normal' && c !== '""') return c.replace(/^"|"$/g, '');
            }
            return '';
          });
      for (const m of CONTAINER_MEMBERS) assert.equal(await badge(m), 'C', `${m} is served from the container`);
      assert.equal(await badge('fortwallgameplay.wldmsh'), '0', 'the .wldmsh the manifest declares with 0 bytes is empty, not missing');
      await h.screenshot('island-bundle-folder');

      // The bundle editor on the retail manifest: the identity holds, the manifest mirrors its container, nothing in red.
      await h.openExplorerFile([ROOT, ...LAYER, 'fortwallgameplay.bndl']);
      const frame = await h.waitFor(
        async () => {
          for (const f of h.page.frames()) {
            const ok = await f.evaluate(() => (globalThis as unknown as { document: any }).document.body?.dataset.state === 'rows').catch(() => false);
            if (ok) return f;
          }
          return undefined;
        },
        30_000,
        'the bundle editor webview',
      );
      const summary = await frame.evaluate(() => {
        const doc = (globalThis as unknown as { document: any }).document;
        return {
          identity: String(doc.getElementById('identity')?.textContent ?? ''),
          mirror: String(doc.querySelector('.mirror')?.className ?? ''),
          bad: doc.querySelectorAll('#summary .bad, #rows .row.mismatch').length as number,
          counts: String(doc.getElementById('counts')?.textContent ?? ''),
        };
      });
      assert.match(summary.identity, /✓ the identity holds/);
      assert.match(summary.identity, /1 member declared with 0 bytes, not stored/);
      assert.equal(summary.mirror, 'mirror ok');
      assert.equal(summary.bad, 0, 'nothing flagged');
      assert.match(summary.counts, /9 container/);
      assert.match(summary.counts, /1 empty/);
      await h.screenshot('island-bundle-editor');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
    assert.deepEqual(treeDigest(game), before);
  },
);

/** The cursor's line in the active text editor, from the status bar ("Ln 23, Col 1"). */
async function cursorLine(h: Harness): Promise<number | undefined> {
  const item = await h.statusBarItem(/Ln \d+, Col \d+/);
  const m = item && /Ln (\d+), Col \d+/.exec(item.text);
  return m ? Number(m[1]) : undefined;
}

/**
 * In the island script, a `self:Escape(` call inside the second object that defines Escape, and
 * that object's own Escape: 1-based lines and the call's column, read from the archive's bytes by
 * the layout (an object from its column-0 `name = hmake` line to its column-0 `}`; its methods its
 * one-tab `Name = function` lines).
 */
function escapeCall(game: string): { callLine: number; column: number; ownLine: number; otherLine: number } {
  const m = Mount.open({ root: game });
  try {
    const stem = `${LAYER.join('\\')}\\fortwallgameplay`;
    const text = parseScript(readBundleMember(m, resolveBundle(m, `${stem}.bndl`), `${stem}.scripts`), `${stem}.scripts`).source!;
    const lines = text.split('\n');
    const objects: { first: number; last: number; escape?: number }[] = [];
    lines.forEach((l, i) => {
      if (/^[A-Za-z_]\w* = hmake /.test(l)) objects.push({ first: i + 1, last: lines.length });
      const o = objects[objects.length - 1];
      if (o && /^,?\tEscape = function/.test(l)) o.escape = i + 1;
      if (o && o.last === lines.length && /^,?\}/.test(l)) o.last = i + 1;
    });
    const [other, own] = objects.filter((o) => o.escape !== undefined);
    const callLine = lines.findIndex((l, i) => i + 1 > own.first && i + 1 < own.last && l.includes('self:Escape(')) + 1;
    return { callLine, column: lines[callLine - 1].indexOf('self:Escape(') + 'self:'.length + 3, ownLine: own.escape!, otherLine: other.escape! };
  } finally {
    m.close();
  }
}

test(
  'Patch_00.arch06: F12 on a self: call in the island script lands on the enclosing object`s own method',
  { skip: e2eSkipReason([vsix]) || PATCH.skip, timeout: 300_000 },
  async () => {
    const game = retailGame();
    const call = escapeCall(game);
    assert.ok(call.callLine > 0 && call.ownLine !== call.otherLine, JSON.stringify(call));
    const before = treeDigest(game);
    const h = await Harness.start({ name: 'real-self-definition', folder: game, vsix, viewport: { width: 1400, height: 1000 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.openExplorerFile([ROOT, ...LAYER, 'fortwallgameplay.bndl [bundle]', ...LAYER, 'fortwallgameplay.scripts'], 30_000);
      // The language server has indexed the install once the bound functions show their lenses.
      const lens = h.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /^bound by \d+ objects?$/ });
      await h.waitFor(async () => (await lens.count()) > 0, 90_000, 'a "bound by N objects" lens');
      const goTo = async (line: number, column: number): Promise<void> => {
        await h.runCommand('Go to Line/Column...');
        await h.page.keyboard.type(`${line}:${column}`);
        await h.page.keyboard.press('Enter');
        await h.waitFor(async () => ((await cursorLine(h)) === line ? true : undefined), 15_000, `the cursor on line ${line}`);
      };
      await goTo(call.callLine, call.column);
      await h.screenshot('self-call');
      await h.page.keyboard.press('F12');
      await h.waitFor(
        async () => ((await cursorLine(h)) === call.ownLine ? true : undefined),
        30_000,
        `F12 to land on line ${call.ownLine} (not ${call.otherLine})`,
      );
      // One definition: the editor jumped, no peek view listing two.
      assert.equal(await h.page.locator('.peekview-widget').count(), 0);
      await h.screenshot('self-call-definition');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
    assert.deepEqual(treeDigest(game), before);
  },
);
