// The object-registry editor in a real VS Code (code-server + Chromium): open the sample
// install's world-layer registry (core/sample/sampleGame.ts) from its bundle folder in the arch06:
// workspace. The bundle folder serves Patch_02's standalone copy (the patch rule: it replaces the
// one embedded in Base's container), so the header says so and the table lists its 10 objects
// (one moved, one added). Search as you type and the class filter keep "N of M"; the Bindings tab
// lists the 6 object-binding rows; clicking one opens the layer's script (served from the
// container, through the bundle folder) with the cursor on its function's line; Enter on another
// does the same; the Blocks tab shows a raw block as hex; a registry of 100,000 objects keeps only
// the rows in view in the DOM and searches in the host; a registry that does not parse shows the
// reason and its first bytes. Screenshots per step; the game folder comes out unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { writeRegistry } from '../../core/formats/registry';
import { SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const LAYER = ['worlds', 'retail', 'sample', 'sectionsandlayers'];
const BIG = 100_000;

/** The 1-based line of `name = …` in the sample layer's source. */
const lineOf = (name: string): number => SAMPLE_LAYER_SOURCE.split('\n').findIndex((l) => l.startsWith(`${name} = `)) + 1;

type Doc = { document: any };
const dataset = (frame: Frame): Promise<Record<string, string>> => frame.evaluate(() => ({ ...(globalThis as unknown as Doc).document.body.dataset }));

/** The registry editor webview whose heading ends with `title`, once its first rows are in. */
async function registryFrame(h: Harness, title: string): Promise<Frame> {
  return h.waitFor(
    async () => {
      for (const f of h.page.frames()) {
        const ok = await f
          .evaluate((t) => {
            const doc = (globalThis as unknown as Doc).document;
            return (
              doc.body?.dataset.state === 'ready' &&
              doc.body.dataset.shown !== undefined &&
              String(doc.querySelector('#summary h2')?.textContent ?? '').endsWith(t)
            );
          }, title)
          .catch(() => false);
        if (ok) return f;
      }
      return undefined;
    },
    30_000,
    `the registry editor webview for ${title}`,
  );
}

/** The object rows in the DOM: name, class, position. */
const objectRows = (frame: Frame): Promise<string[][]> =>
  frame.$$eval('#rows .row:not(.loading)', (els) => els.map((e: any) => Array.from(e.children as ArrayLike<any>).map((c: any) => String(c.textContent))));

/** The cursor's line in the active text editor, from the status bar ("Ln 23, Col 1"). */
async function cursorLine(h: Harness): Promise<number | undefined> {
  const item = await h.statusBarItem(/Ln \d+, Col \d+/);
  const m = item && /Ln (\d+), Col \d+/.exec(item.text);
  return m ? Number(m[1]) : undefined;
}

test(
  'the registry editor lists objects, bindings, groups and blocks, and a binding opens the script at its function',
  { skip: e2eSkipReason([vsix]), timeout: 300_000 },
  async () => {
    const game = path.join(tempDir('arch06-e2e-registry-'), 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    // A registry whose block chain runs past its end, beside the install on disk (not mounted).
    const broken = Buffer.alloc(32);
    broken.write('OBJR', 0, 'latin1');
    broken.writeUInt32LE(13, 4);
    broken.writeUInt32LE(1, 12);
    broken.writeUInt32LE(0x12345678, 16);
    broken.writeUInt32LE(4096, 20);
    fs.writeFileSync(path.join(game, 'broken.objres'), broken);
    // 100,000 objects, also on disk: the table holds only the rows in view; search runs in the host.
    const classes = ['ScriptRelay', 'FireProp', 'Group', 'AINodeMenacePlace'];
    const many = Array.from({ length: BIG }, (_, i) => ({ className: classes[i % classes.length], name: `Obj_${i}.${classes[i % classes.length]}` }));
    fs.writeFileSync(path.join(game, 'big.objres'), writeRegistry({ scriptPath: 'big.scripts', objects: many }));
    const kept = many.filter((o) => o.name.toLowerCase().includes('obj_99')).length;
    const before = treeDigest(game);

    const h = await Harness.start({ name: 'registry', folder: game, vsix, viewport: { width: 1400, height: 900 } });
    try {
      await h.mountFromOffer(ROOT);
      const bundle = [ROOT, ...LAYER, 'fortgate.bndl [bundle]', ...LAYER];
      await h.expandExplorerPath(bundle, 30_000);
      const chosen = performance.now();
      await h.openExplorerFile([...bundle, 'fortgate.objres']);
      let frame = await registryFrame(h, 'fortgate.objres');
      console.log(`[e2e] registry tab: first rows ${Math.round(performance.now() - chosen)} ms after clicking the file in the Explorer (tree expanded)`);

      // The header: counts, the layout validated, the patch rule naming Patch_02 and the container's copy.
      const summary = String(await frame.$eval('#summary', (e: any) => e.innerText));
      assert.match(summary, /OBJR v13 · [\d,]+ bytes · 9 blocks · 10 objects in 8 classes · 6 binding rows over 4 records · 2 groups/);
      assert.match(summary, /OBJL record layout: validated on every record confirmed/);
      assert.match(
        summary,
        /Patch rule: A standalone copy in Patch_02\.arch06 is in effect: the engine loads it instead of the copy embedded in .*fortgate\.embb \(Base\.arch06\)/,
      );
      assert.match(summary, /every binding resolves/);
      let ds = await dataset(frame);
      assert.deepEqual([ds.tab, ds.total, ds.shown], ['objects', '10', '10']);
      const rows = await objectRows(frame);
      assert.equal(rows.length, 10);
      const gate = rows.find((r) => r[1] === 'GateCon.SO')!;
      assert.deepEqual(gate.slice(2, 5), ['ScriptObject', 'GateCon', '(-1050, 310.5, 4075)']);
      assert.ok(
        rows.some((r) => r[1] === 'GateAlarm_02.SR'),
        'the object Patch_02 adds',
      );
      await h.screenshot('registry-objects');

      // Search as you type: "N of M".
      await frame.click('#search');
      await h.page.keyboard.type('gatealarm');
      await h.waitFor(async () => ((await dataset(frame)).shown === '3' ? true : undefined), 10_000, 'the search to keep the three alarms');
      assert.equal(await frame.$eval('#shownText', (e: any) => e.textContent), '3 of 10 objects');
      assert.deepEqual(
        (await objectRows(frame)).map((r) => r[1]),
        ['GateAlarm_00.SR', 'GateAlarm_01.SR', 'GateAlarm_02.SR'],
      );
      await h.screenshot('registry-search');
      // The class filter, with the search cleared.
      await frame.fill('#search', '');
      await frame.selectOption('#classFilter', 'ScriptObject');
      await h.waitFor(async () => ((await dataset(frame)).shown === '1' ? true : undefined), 10_000, 'the class filter to keep one object');
      assert.deepEqual(
        (await objectRows(frame)).map((r) => r[1]),
        ['GateCon.SO'],
      );
      await frame.selectOption('#classFilter', '');

      // Bindings: one row per object and binding; a click opens the script at the function's line.
      await frame.click('#tab-bindings');
      await h.waitFor(async () => ((await dataset(frame)).tab === 'bindings' ? true : undefined), 10_000, 'the Bindings tab');
      const bindings = await frame.$$eval('#bindings tbody tr', (els) => els.map((e: any) => String(e.innerText)));
      assert.equal(bindings.length, 6);
      assert.ok(
        bindings.every((b) => /resolved/.test(b)),
        bindings.join('\n'),
      );
      await h.screenshot('registry-bindings');
      const quest = '_gatequest_QR_Script1_48d7e0b6';
      await frame.click(`#bindings tbody tr:has-text("GateQuest.QR")`);
      await h.waitFor(
        async () => ((await h.activeEditorTitle()) === 'fortgate.scripts (text in sample)' ? true : undefined),
        20_000,
        'the layer script in an editor',
      );
      await h.waitFor(async () => ((await cursorLine(h)) === lineOf(quest) ? true : undefined), 15_000, `the cursor on line ${lineOf(quest)}`);
      assert.match(await h.editorText(), new RegExp(`${quest} = function \\(self, threadId, scriptId\\)`));
      await h.screenshot('registry-binding-opens-script');

      // Back to the registry (its tab was kept): Enter on the hmake binding opens its line.
      await h.page.locator('.tabs-container .tab', { hasText: 'fortgate.objres' }).first().click();
      frame = await registryFrame(h, 'fortgate.objres');
      ds = await dataset(frame);
      assert.equal(ds.tab, 'bindings', 'the tab is kept when the webview reloads');
      const hmake = '_gatecontroller_SO_Script_7b19c3d5';
      await frame.press(`#bindings tbody tr:has-text("GateCon.SO")`, 'Enter');
      await h.waitFor(async () => ((await cursorLine(h)) === lineOf(hmake) ? true : undefined), 20_000, `the cursor on line ${lineOf(hmake)}`);
      assert.equal(await h.activeEditorTitle(), 'fortgate.scripts (text in sample)');
      await h.screenshot('registry-binding-enter');

      // Groups and blocks: owner → members; a raw block's bytes as hex.
      await h.page.locator('.tabs-container .tab', { hasText: 'fortgate.objres' }).first().click();
      frame = await registryFrame(h, 'fortgate.objres');
      await frame.click('#tab-groups');
      const groups = String(await frame.$eval('#groups', (e: any) => e.innerText));
      assert.match(groups, /GateGuards\s+3\s+GateAlarm_00\.SR, GateAlarm_01\.SR, GateAlarm_02\.SR/);
      await frame.click('#tab-blocks');
      await frame.click('#blocks button[data-hex="0"]');
      const hex = await h.waitFor(
        async () => {
          const t = String(await frame.$eval('#hexView', (e: any) => e.innerText).catch(() => ''));
          return /4b 45 59 46/.test(t) ? t : undefined;
        },
        10_000,
        'the hex view of the KEYF block',
      );
      assert.match(hex, /Block 0 · KEYF · 16 bytes/);
      assert.equal((await dataset(frame)).tab, 'blocks');
      await h.screenshot('registry-blocks-hex');

      // 100,000 objects: a window of rows in the DOM, the search answered by the host, End reaches the last.
      await h.openExplorerFile(['sample-game', 'big.objres']);
      const big = await registryFrame(h, 'big.objres');
      assert.deepEqual([(await dataset(big)).total, (await dataset(big)).shown], [String(BIG), String(BIG)]);
      const inDom = await big.$$eval('#rows .row', (els) => els.length);
      assert.ok(inDom > 10 && inDom < 200, `${inDom} rows in the DOM for ${BIG} objects`);
      await big.click('#search');
      await h.page.keyboard.type('obj_99');
      await h.waitFor(async () => ((await dataset(big)).shown === String(kept) ? true : undefined), 10_000, `the search to keep ${kept}`);
      assert.equal(await big.$eval('#shownText', (e: any) => e.textContent), `${kept.toLocaleString('en-US')} of ${BIG.toLocaleString('en-US')} objects`);
      await big.fill('#search', '');
      await h.waitFor(async () => ((await dataset(big)).shown === String(BIG) ? true : undefined), 10_000, 'every object again');
      await big.click('#rows .row');
      await h.page.keyboard.press('End');
      await h.waitFor(
        async () => ((await objectRows(big)).some((r) => r[1] === `Obj_${BIG - 1}.${classes[(BIG - 1) % classes.length]}`) ? true : undefined),
        10_000,
        'the last object drawn after End',
      );
      await h.screenshot('registry-100k-end');

      // A registry that does not parse: the reason and its first bytes.
      await h.openExplorerFile(['sample-game', 'broken.objres']);
      const failure = await h.waitFor(
        async () => {
          for (const f of h.page.frames()) {
            const text = await f
              .evaluate(() => {
                const doc = (globalThis as unknown as Doc).document;
                return doc.body?.dataset.state === 'failed' ? String(doc.body.innerText) : undefined;
              })
              .catch(() => undefined);
            if (text) return text;
          }
          return undefined;
        },
        30_000,
        'the failure page of broken.objres',
      );
      assert.match(failure, /could not be read as an object registry/);
      assert.match(failure, /block 0 runs past the end of the file/);
      assert.match(failure, /00000000 {2}4f 42 4a 52 0d 00 00 00/);
      await h.screenshot('registry-parse-failure');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
    assert.deepEqual(treeDigest(game), before);
  },
);
