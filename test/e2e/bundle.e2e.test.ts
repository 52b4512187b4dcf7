// The bundle editor in a real VS Code (code-server + Chromium): open the sample install's
// bundles\characters\orc_sample.bndl from the arch06: workspace and check its table: three members
// served from Base's container, one loose in Patch_02, one shipped nowhere, the container-size
// identity failing (the patched manifest declares two members more than the container holds).
// Type in the filter, open the one row left with Enter (a text editor with the member's bytes as
// the container holds them), clear the filter and open the loose member with a double-click, move
// the selection with the arrow keys to the missing member (Enter says why nothing opens), and open
// the .embb of the same stem (the same table); a broken manifest on disk shows the reason and its
// first bytes; a container of 3,000 members keeps only the rows in view in the DOM, and a sort shows
// the top of the new order unless the user chose a row, which stays in view. Prints the time from choosing the file to the first
// rows. Screenshots per step.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { writeEmbb } from '../../core/formats/bundle';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const MANIFEST = 'bundles\\characters\\orc_sample.bndl';

interface RowText {
  path: string;
  served: string;
  source: string;
  declared: string;
  container: string;
  copies: string;
  mismatch: boolean;
}

/** The bundle editor webview whose heading starts with `title`, once its rows are in (a tab shown again reloads its webview). */
async function bundleFrame(h: Harness, title: string): Promise<Frame> {
  return h.waitFor(
    async () => {
      for (const f of h.page.frames()) {
        const ok = await f
          .evaluate((t) => {
            const doc = (globalThis as unknown as { document: any }).document;
            return (
              !!doc.getElementById('grid') && doc.body.dataset.state === 'rows' && String(doc.querySelector('#summary h2')?.textContent ?? '').startsWith(t)
            );
          }, title)
          .catch(() => false);
        if (ok) return f;
      }
      return undefined;
    },
    30_000,
    `the bundle editor webview for ${title}`,
  );
}

/** The table rows in the DOM (the virtualised table renders those in view; the sample's five all are). */
async function rowsOf(frame: Frame): Promise<RowText[]> {
  return frame.$$eval('#rows .row', (els) =>
    els.map((e: any) => ({
      path: e.querySelector('.c-path').getAttribute('title'),
      served: e.querySelector('.c-served .mark').textContent,
      source: e.querySelector('.c-served .src')?.textContent ?? '',
      declared: e.querySelector('.c-declared').textContent.trim(),
      container: e.querySelector('.c-container').textContent.trim(),
      copies: e.querySelector('.c-copies').textContent.trim(),
      mismatch: e.classList.contains('mismatch'),
    })),
  );
}

const dataset = (frame: Frame): Promise<Record<string, string>> =>
  frame.evaluate(() => ({ ...(globalThis as unknown as { document: any }).document.body.dataset }));

test('the bundle editor lists the sample bundle, filters as you type and opens members', { skip: e2eSkipReason([vsix]), timeout: 300_000 }, async () => {
  const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
  const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  // A manifest whose count runs past its end, beside the install on disk (not mounted): read on its own, it fails.
  const broken = Buffer.alloc(24);
  broken.write('BNDL', 0, 'latin1');
  broken.writeUInt32LE(6, 4);
  broken.writeUInt32LE(1000, 0x10);
  fs.writeFileSync(path.join(game, 'broken.bndl'), broken);
  // A container of 3,000 members, also on disk: the table is virtualised.
  const big = Array.from({ length: 3000 }, (_, i) => ({ path: `big\\m${String(i).padStart(5, '0')}.tex`, bytes: Buffer.from(String(i)) }));
  fs.writeFileSync(path.join(game, 'big.embb'), writeEmbb(big));
  const h = await Harness.start({ name: 'bundle', folder: game, vsix, viewport: { width: 1280, height: 800 } });
  try {
    await h.mountFromOffer(ROOT);
    await h.runCommand('arch06: Go to File…');
    await h.quickPick('orc_sample.bndl');
    const opened = performance.now();
    let frame = await bundleFrame(h, MANIFEST);
    console.log(`[e2e] bundle tab: first rows ${Math.round(performance.now() - opened)} ms after choosing the file`);

    // The table: manifest order, where each member is served from, sizes, loose copies.
    const rows = await rowsOf(frame);
    const leaf = (p: string): string => p.split('\\').pop()!;
    assert.deepEqual(
      rows.map((r) => [leaf(r.path), r.served, r.source, r.copies]),
      [
        ['body.txt', 'container', 'Base.arch06', '0'],
        ['head.txt', 'container', 'Base.arch06', '0'],
        ['weapon.txt', 'container', 'Base.arch06', '0'],
        ['banner.txt', 'loose', 'Patch_02.arch06', '1'],
        ['voice.txt', 'missing', '', '0'],
      ],
    );
    assert.ok(
      rows.slice(0, 3).every((r) => r.declared === r.container && /^\d+$/.test(r.container)),
      'container members: declared size = container size',
    );
    assert.deepEqual(
      rows.slice(3).map((r) => r.container),
      ['—', '—'],
    );
    const summary = await frame.$eval('#summary', (e: any) => e.innerText as string);
    assert.match(summary, /manifest from Patch_02\.arch06 \(2 copies: Patch_02\.arch06, Base\.arch06\)/);
    assert.match(summary, /5 members: 3 container 1 loose 1 missing/);
    assert.match(summary, /Container size: 16 header \+ .* = [\d,]+; the container is [\d,]+ bytes: ✗ off by -\d+/);
    assert.equal((await dataset(frame)).total, '5');
    await h.screenshot('bundle-table');

    // Filter as you type, then Enter opens the one row left: a text editor with the container's bytes.
    await frame.click('#filter');
    await h.page.keyboard.type('HEAD');
    await h.waitFor(async () => ((await dataset(frame)).shown === '1' ? true : undefined), 10_000, 'the filter to keep one row');
    assert.match((await dataset(frame)).selected, /head\.txt$/);
    assert.equal((await rowsOf(frame)).length, 1);
    await h.screenshot('bundle-filtered');
    await h.page.keyboard.press('Enter');
    await h.waitFor(async () => ((await h.activeEditorTitle()) === 'head.txt' ? true : undefined), 15_000, 'head.txt in an editor');
    await h.waitFor(
      async () => ((await h.editorText()).includes('orc_sample head: served from the container in Base') ? true : undefined),
      15_000,
      'the member text',
    );
    await h.screenshot('bundle-member-opened-with-enter');

    // Back to the bundle: the filter is kept; clear it and double-click the loose member.
    await h.page.locator('.tabs-container .tab', { hasText: 'orc_sample.bndl' }).first().click();
    frame = await bundleFrame(h, MANIFEST);
    assert.equal(await frame.inputValue('#filter'), 'HEAD');
    await frame.fill('#filter', '');
    await h.waitFor(async () => ((await dataset(frame)).shown === '5' ? true : undefined), 10_000, 'every row again');
    await frame.dblclick('#rows .row:has-text("banner.txt")');
    await h.waitFor(async () => ((await h.activeEditorTitle()) === 'banner.txt' ? true : undefined), 15_000, 'banner.txt in an editor');
    await h.waitFor(async () => ((await h.editorText()).includes('ships loose in Patch_02') ? true : undefined), 15_000, 'the loose member text');
    await h.screenshot('bundle-member-opened-with-double-click');

    // Keyboard only: the arrow keys move the selection to the missing member; Enter says why nothing opens.
    await h.page.locator('.tabs-container .tab', { hasText: 'orc_sample.bndl' }).first().click();
    frame = await bundleFrame(h, MANIFEST);
    await frame.click('#rows .row:has-text("body.txt")');
    for (let i = 0; i < 4; i++) await h.page.keyboard.press('ArrowDown');
    await h.waitFor(async () => ((await dataset(frame)).selected.endsWith('voice.txt') ? true : undefined), 10_000, 'voice.txt selected');
    await h.page.keyboard.press('Enter');
    await h.waitForNotification('no source ships it');
    await h.screenshot('bundle-missing-member');

    // Sorting: the Served from column puts loose first, missing last.
    await frame.click('#head button[data-sort="served"]');
    await h.waitFor(
      async () => {
        const served = (await rowsOf(frame)).map((r) => r.served);
        return served.join(',') === 'loose,container,container,container,missing' ? true : undefined;
      },
      10_000,
      'rows sorted by where they are served from',
    );

    // The container of the same stem shows the same table.
    await h.runCommand('arch06: Go to File…');
    await h.quickPick('orc_sample.embb');
    const embb = await bundleFrame(h, MANIFEST);
    assert.equal((await h.activeEditorTitle()) ?? '', 'orc_sample.embb');
    assert.equal((await rowsOf(embb)).length, 5);
    await h.screenshot('bundle-embb');

    // A file that does not parse: the reason (file, offset, field) and a hex view of its first bytes.
    await h.openExplorerFile(['sample-game', 'broken.bndl']);
    const failure = await h.waitFor(
      async () => {
        for (const f of h.page.frames()) {
          const text = await f
            .evaluate(() => {
              const doc = (globalThis as unknown as { document: any }).document;
              return doc.body?.dataset.state === 'failed' ? String(doc.body.innerText) : undefined;
            })
            .catch(() => undefined);
          if (text) return text;
        }
        return undefined;
      },
      30_000,
      'the failure page of broken.bndl',
    );
    assert.match(failure, /could not be read as a bundle manifest or container/);
    assert.match(failure, /declared sizes run past the end of the file/);
    assert.match(failure, /00000000 {2}42 4e 44 4c 06 00 00 00/);
    assert.match(failure, /24 in all/);
    await h.screenshot('bundle-parse-failure');

    // Thousands of members: only the rows in view (and a few beyond) are in the DOM; End reaches the last.
    await h.openExplorerFile(['sample-game', 'big.embb']);
    const bigFrame = await bundleFrame(h, 'big.embb');
    assert.equal((await dataset(bigFrame)).total, '3000');
    const inDom = (await rowsOf(bigFrame)).length;
    assert.ok(inDom > 10 && inDom < 100, `${inDom} rows in the DOM for 3,000 members`);
    await bigFrame.click('#rows .row:has-text("m00000.tex")');
    await h.page.keyboard.press('End');
    await h.waitFor(async () => ((await dataset(bigFrame)).selected === 'big\\m02999.tex' ? true : undefined), 10_000, 'the last member selected');
    assert.ok(
      (await rowsOf(bigFrame)).some((r) => r.path === 'big\\m02999.tex'),
      'the last row is drawn after End',
    );
    await h.page.keyboard.type('m0150');
    await h.waitFor(async () => ((await dataset(bigFrame)).shown === '10' ? true : undefined), 10_000, 'the filter to keep m01500-m01509');
    await h.screenshot('bundle-thousands-filtered');

    // Sorting (issue 20 item 11): scrolled down with no row chosen, a sort shows the top of the new order;
    // with a row the user clicked, that row stays in view.
    await h.page.keyboard.press('Escape');
    await h.waitFor(async () => ((await dataset(bigFrame)).shown === '3000' ? true : undefined), 10_000, 'the filter cleared');
    const scrollTop = (): Promise<number> =>
      bigFrame.evaluate(() => Number((globalThis as unknown as { document: any }).document.getElementById('viewport').scrollTop));
    await bigFrame.evaluate(() => {
      (globalThis as unknown as { document: any }).document.getElementById('viewport').scrollTop = 30_000;
    });
    await h.waitFor(async () => ((await scrollTop()) > 20_000 ? true : undefined), 5_000, 'the table scrolled down');
    await bigFrame.click('#head button[data-sort="declared"]');
    await h.waitFor(async () => ((await scrollTop()) === 0 ? true : undefined), 5_000, 'the sorted table shown from its top');
    // The rows are drawn on the frame after the scroll: wait until none of the top rows is drawn.
    const top = new Set((await rowsOf(bigFrame)).map((r) => r.path));
    await bigFrame.evaluate(() => {
      (globalThis as unknown as { document: any }).document.getElementById('viewport').scrollTop = 30_000;
    });
    await h.waitFor(
      async () => {
        const rows = await rowsOf(bigFrame);
        return rows.length > 0 && !rows.some((r) => top.has(r.path)) && (await scrollTop()) > 20_000 ? true : undefined;
      },
      5_000,
      'scrolled down again, the rows there drawn',
    );
    const picked = (await rowsOf(bigFrame))[15]!.path;
    await bigFrame.click(`#rows .row:has-text("${picked.slice(4)}")`);
    await bigFrame.click('#head button[data-sort="path"]');
    await h.waitFor(
      async () => ((await rowsOf(bigFrame)).some((r) => r.path === picked) && (await dataset(bigFrame)).selected === picked ? true : undefined),
      5_000,
      `the chosen row ${picked} kept in view after the sort`,
    );
    assert.ok((await scrollTop()) > 0, 'the chosen row is far down the path order');
    await h.screenshot('bundle-sorted');
  } catch (e) {
    await h.screenshot('failure').catch(() => undefined);
    throw e;
  } finally {
    await h.stop();
  }
});
