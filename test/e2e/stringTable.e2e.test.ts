// The string-table editor in a real VS Code (code-server + Chromium): open the sample install's
// database\string\enus\string.strdb from the arch06: workspace and see its sibling language
// (frfr) side by side, key names from the mount's hash dictionary (the world layer's script names
// two keys; the other two show "unknown"), search as you type (by text in either language, by
// key name, by 0x hash prefix) with the count, language toggles, the keyboard, and a CSV export
// through the save dialog; a broken table on disk shows the reason and its first bytes.
// Screenshots per step.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { writeSkdb } from '../../core/formats/strings';
import { formatHash, stringHash } from '../../core/hash';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { stringTableFrame } from './stringTableFrames';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const TITLE = 'database\\string\\enus\\string.strdb';
const BIG = 5000;

interface RowText {
  hash: string;
  key: string;
  unknown: boolean;
  texts: string[];
}

async function rowsOf(frame: Frame): Promise<RowText[]> {
  return frame.$$eval('#rows .row[data-hash]', (els) =>
    els.map((e: any) => ({
      hash: e.querySelector('.c-hash').textContent,
      key: e.querySelector('.c-key').textContent,
      unknown: e.querySelector('.c-key').classList.contains('unknown'),
      texts: Array.from(e.querySelectorAll('.c-text')).map((c: any) => c.getAttribute('title') ?? c.textContent),
    })),
  );
}

const dataset = (frame: Frame): Promise<Record<string, string>> =>
  frame.evaluate(() => ({ ...(globalThis as unknown as { document: any }).document.body.dataset }));

/** Wait until the dataset field `field` reads `value`. */
const until = (h: Harness, frame: Frame, field: string, value: string, what: string): Promise<true> =>
  h.waitFor(async () => ((await dataset(frame))[field] === value ? true : undefined), 15_000, what);

test(
  'the string-table editor shows both languages, names keys, searches as you type and exports CSV',
  { skip: e2eSkipReason([vsix]), timeout: 300_000 },
  async () => {
    const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    // A table whose key count runs past its end, on disk beside the install: it fails to parse.
    const broken = Buffer.alloc(0x1c);
    broken.write('SKDB', 0, 'latin1');
    broken.writeUInt32LE(9, 4);
    broken.writeUInt32LE(0x1c, 8);
    broken.writeUInt32LE(5000, 12);
    fs.writeFileSync(path.join(game, 'broken.strdb'), broken);
    // Thousands of keys, also on disk: the table is virtualised.
    const bigHashes = Array.from({ length: BIG }, (_, i) => stringHash(`Big_Key_${i}`));
    fs.writeFileSync(path.join(game, 'big.strdb'), writeSkdb(bigHashes.map((hash, i) => ({ hash, text: `Big text number ${i}` }))));
    const h = await Harness.start({ name: 'stringTable', folder: game, vsix, viewport: { width: 1280, height: 800 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.openExplorerFile([ROOT, 'database', 'string', 'enus', 'string.strdb'], 30_000);
      const opened = performance.now();
      const frame = await stringTableFrame(h, TITLE);
      console.log(`[e2e] string table: first rows ${Math.round(performance.now() - opened)} ms after the tab opened`);

      // Both languages side by side, the opened one first; four keys.
      const d = await dataset(frame);
      assert.equal(d.total, '4');
      assert.equal(d.shown, '4');
      assert.equal(d.languages, 'enus,frfr');
      assert.deepEqual(await frame.$$eval('#head .c-text', (els) => els.map((e: any) => e.textContent)), ['enus', 'frfr']);
      // Key names arrive with the mount's dictionary: the layer script's literals name two keys.
      await until(h, frame, 'named', '2', 'two keys named by the hash dictionary');
      await h.waitFor(async () => ((await rowsOf(frame)).filter((r) => !r.unknown).length === 2 ? true : undefined), 15_000, 'the named rows drawn');
      const rows = await rowsOf(frame);
      const byKey = new Map(rows.map((r) => [r.key, r]));
      assert.deepEqual(byKey.get('UI_Sample_GateOpen')?.texts, ['The gate opens.', 'La porte s\u2019ouvre.']);
      assert.equal(byKey.get('UI_Sample_GateOpen')?.hash, formatHash(stringHash('UI_Sample_GateOpen')));
      assert.deepEqual(byKey.get('UI_Sample_GateAlarm')?.texts, ['Alarm at the gate!', 'Alerte \u00e0 la porte\u00a0!']);
      assert.equal(rows.filter((r) => r.unknown && r.key === 'unknown').length, 2);
      assert.ok(rows.some((r) => r.hash === '0xDCDB4713' && r.texts[0] === 'Urfael'));
      assert.match(await frame.innerText('#count'), /^4 keys$/);
      await h.screenshot('string-table');

      // Search as you type: a French word, then a key name, then a hash prefix.
      await frame.click('#search');
      await h.page.keyboard.type('porte', { delay: 60 });
      await until(h, frame, 'shown', '2', 'the search for "porte" to keep two keys');
      assert.match(await frame.innerText('#count'), /^2 of 4 keys$/);
      assert.equal((await rowsOf(frame)).length, 2);
      await h.screenshot('string-table-search-text');
      await frame.fill('#search', '');
      await h.page.keyboard.type('gatealarm', { delay: 40 });
      await until(h, frame, 'shown', '1', 'the search by key name');
      assert.equal((await rowsOf(frame))[0].key, 'UI_Sample_GateAlarm');
      await frame.fill('#search', '');
      await h.page.keyboard.type('0xdcdb', { delay: 40 });
      await until(h, frame, 'shown', '1', 'the search by hash prefix');
      assert.equal((await rowsOf(frame))[0].hash, '0xDCDB4713');
      await h.screenshot('string-table-search-hash');

      // Escape clears the search; the arrow keys and End move the selection in the table.
      await h.page.keyboard.press('Escape');
      await until(h, frame, 'shown', '4', 'every key again');
      await frame.click('#rows .row[data-pos="0"]');
      await h.page.keyboard.press('ArrowDown');
      const second = (await rowsOf(frame))[1].hash;
      await until(h, frame, 'selected', second, 'the second row selected');
      await h.page.keyboard.press('End');
      await until(h, frame, 'selected', (await rowsOf(frame))[3].hash, 'the last row selected');
      // Ctrl+F from the table focuses the search box.
      await h.page.keyboard.press('Control+f');
      await h.waitFor(
        () => frame.evaluate(() => (globalThis as unknown as { document: any }).document.activeElement?.id === 'search'),
        10_000,
        'Ctrl+F to focus the search',
      );

      // Language toggles: French off leaves one text column, and a French word finds nothing.
      await frame.uncheck('#languages input[data-language="frfr"]');
      await until(h, frame, 'languages', 'enus', 'French hidden');
      assert.deepEqual(await frame.$$eval('#head .c-text', (els) => els.map((e: any) => e.textContent)), ['enus']);
      await frame.fill('#search', 'porte');
      await until(h, frame, 'shown', '0', 'no English text holds "porte"');
      await frame.check('#languages input[data-language="frfr"]');
      await until(h, frame, 'shown', '2', 'French back: two keys');
      await h.screenshot('string-table-languages');

      // Export what the search keeps as CSV, outside the install.
      const out = path.join(tempDir('arch06-e2e-csv-'), 'porte.csv');
      await frame.click('#exportCsv');
      await h.answerFileDialog(out, 15_000, 'file');
      await h.waitForNotification('Exported 2 keys');
      const csv = fs.readFileSync(out, 'utf8');
      const lines = csv.split('\r\n');
      assert.equal(lines[0], 'hash,key,enus,frfr');
      assert.equal(lines.length, 4); // header, two rows, the final CRLF
      assert.ok(lines.includes(`${formatHash(stringHash('UI_Sample_GateOpen'))},UI_Sample_GateOpen,The gate opens.,La porte s\u2019ouvre.`), csv);

      // Thousands of keys, on disk (one language): only the rows in view are in the DOM, the host
      // sends windows as the table scrolls; End reaches the last key; a search; a JSON export.
      await h.openExplorerFile(['sample-game', 'big.strdb']);
      const bigFrame = await stringTableFrame(h, 'big.strdb');
      assert.equal((await dataset(bigFrame)).total, String(BIG));
      assert.equal((await dataset(bigFrame)).languages, 'text');
      const inDom = await bigFrame.$$eval('#rows .row', (els) => els.length);
      assert.ok(inDom > 10 && inDom < 100, `${inDom} rows in the DOM for ${BIG} keys`);
      await bigFrame.click('#rows .row[data-pos="0"]');
      await h.page.keyboard.press('End');
      const last = formatHash(Math.max(...bigHashes));
      await until(h, bigFrame, 'selected', last, 'the last key selected');
      await h.waitFor(async () => ((await rowsOf(bigFrame)).some((r) => r.hash === last) ? true : undefined), 10_000, 'the last row drawn');
      await h.page.keyboard.press('PageUp');
      await h.waitFor(
        async () => ((await dataset(bigFrame)).selected.startsWith('0x') && (await dataset(bigFrame)).selected !== last ? true : undefined),
        10_000,
        'PageUp to move up',
      );
      await h.screenshot('string-table-thousands-end');
      await h.page.keyboard.type('number 42');
      await until(h, bigFrame, 'shown', '111', 'the search to keep 42, 420-429 and 4200-4299');
      const jsonOut = path.join(tempDir('arch06-e2e-json-'), 'big.json');
      await bigFrame.click('#exportJson');
      await h.answerFileDialog(jsonOut, 15_000, 'file');
      await h.waitForNotification('Exported 111 keys');
      const exported = JSON.parse(fs.readFileSync(jsonOut, 'utf8'));
      assert.equal(exported.keys, 111);
      assert.deepEqual(exported.languages, ['text']);
      assert.ok(exported.entries.every((e: any) => /^Big text number 42\d*$/.test(e.texts.text) && e.key === null));
      await h.screenshot('string-table-thousands-search');

      // A table that does not parse: the reason and a hex view of its first bytes.
      await h.openExplorerFile(['sample-game', 'broken.strdb']);
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
        'the failure page of broken.strdb',
      );
      assert.match(failure, /could not be read as an SKDB string table/);
      assert.match(failure, /header\.keyCount/);
      assert.match(failure, /00000000 {2}53 4b 44 42 09 00 00 00/);
      await h.screenshot('string-table-parse-failure');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
  },
);
