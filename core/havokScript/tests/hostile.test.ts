// Sources the fuzz harness (fuzz/targets/script.ts) found costly: the outline's doc comments kept
// one joined text per comment line of a run (a 730 KB script whose run of 20,000 comment lines
// took the parser target past its 512 MiB heap; the 30,000 lines below need ~4.5e8 characters
// that way, and fail in 96 MiB). Line starts now come from one table, so comments and definitions
// crowded on one long line are checked too. The outline runs in a worker with a small heap, so a
// blow-up fails the test instead of the machine.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { flattenOutline, outline, parseHavokScript } from '..';

/** The outline of `source` in a worker capped at `heapMb`: its symbol count and the first symbol's doc, or why it failed. */
function outlineInSmallHeap(source: string, heapMb: number): Promise<{ symbols: number; doc?: string; docLength?: number } | { failed: string }> {
  const face = path.join(__dirname, '..');
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { parseHavokScript, outline, flattenOutline } = require(${JSON.stringify(face)});
    const symbols = flattenOutline(outline(parseHavokScript(workerData), workerData));
    parentPort.postMessage({ symbols: symbols.length, docLength: symbols[0]?.doc?.length, doc: symbols[0]?.doc?.slice(0, 200) });`;
  return new Promise((resolve) => {
    const w = new Worker(code, { eval: true, workerData: source, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    w.once('message', (m) => resolve(m));
    w.once('error', (e: Error & { code?: string }) => resolve({ failed: e.code ?? e.message }));
  });
}

test('a run of 30,000 comment lines above a definition: its doc is the run, joined once', { timeout: 120_000 }, async () => {
  const lines = Array.from({ length: 30_000 }, (_, i) => `-- comment line number ${i}`);
  const source = `${lines.join('\r\n')}\r\nfunction Documented() end\n`;
  const r = await outlineInSmallHeap(source, 96);
  assert.ok(!('failed' in r), `outline in a 96 MiB heap: ${'failed' in r ? r.failed : ''}`);
  assert.equal(r.symbols, 1);
  assert.equal(r.docLength, lines.map((l) => l.slice(3)).join('\n').length, 'the whole run, one line each');
  assert.ok(r.doc?.startsWith('comment line number 0\ncomment line number 1\n'));
});

test('100,000 comments and 20,000 definitions on one line: the outline is still right', { timeout: 120_000 }, async () => {
  const crowded = 'x = 1 ' + '--[[c]] '.repeat(100_000);
  const defs = 'f = function() end '.repeat(20_000);
  const r = await outlineInSmallHeap(`-- above\n${crowded}\n${defs}\n`, 96);
  assert.ok(!('failed' in r), `outline in a 96 MiB heap: ${'failed' in r ? r.failed : ''}`);
  assert.equal(r.symbols, 20_000);
  assert.equal(r.doc, undefined, 'the comments share their line with code: not documentation');
});

test('doc comments as before: a run directly above, a blank line breaks it, a trailing comment is not one', () => {
  const source = ['-- old run', '', '-- first', '--[[ second ]]', 'function A() end', 'B = function() end -- trailing', 'function C() end'].join('\n');
  const symbols = flattenOutline(outline(parseHavokScript(source), source));
  assert.deepEqual(
    symbols.map((s) => [s.name, s.doc]),
    [
      ['A', 'first\nsecond'],
      ['B', undefined],
      ['C', undefined],
    ],
  );
});
