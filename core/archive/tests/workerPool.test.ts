// The worker pool's scheduling (core/archive/workerPool.ts), counted in tasks, never timed: a
// foreground run goes before a background run's remaining tasks, each run's results come in task
// order, nothing is done twice; cancelling or failing a background run beside a foreground one
// leaves it alone; alone, a cancelled background run stops every worker before it resolves.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { WorkerPool, type PoolRun } from '../workerPool';
import { SEARCH_KIND, type SearchTask, type SearchUnitResult } from '../../search/searchWorker';

const workerFile = path.join(__dirname, '..', '..', 'workers', 'poolWorker.js');

/** A task that names no file: the worker answers at once. */
const EMPTY: SearchTask = {
  query: 'x',
  isRegExp: false,
  matchCase: false,
  decoded: false,
  maxFileSize: 1,
  maxMatches: 1,
  archives: [],
  paths: [],
  archive: new Int32Array(0),
  file: new Int32Array(0),
};

function emptyRun(
  count: number,
  seen: string[],
  tag: string,
  more: Partial<PoolRun<SearchTask, SearchUnitResult>> = {},
): PoolRun<SearchTask, SearchUnitResult> {
  return { kind: SEARCH_KIND, count, task: () => EMPTY, onResult: (i) => void seen.push(`${tag}${i}`), ...more };
}

const inOrder = (seen: string[], tag: string, count: number): void =>
  assert.deepEqual(
    seen.filter((x) => x.startsWith(tag)),
    Array.from({ length: count }, (_, i) => `${tag}${i}`),
    `${tag}: every result once, in task order`,
  );

test('a foreground run goes before a background run’s remaining tasks; the background goes on after, nothing done twice', async () => {
  const pool = new WorkerPool(workerFile, 2);
  try {
    const seen: string[] = [];
    const sent: string[] = [];
    let foreground: Promise<unknown> | undefined;
    // The foreground run starts once the background one has sent 3 of its 40 tasks.
    const background = pool.run(
      emptyRun(40, seen, 'b', {
        priority: 'background',
        onSent: (i) => {
          sent.push(`b${i}`);
          if (sent.length === 3) {
            sent.push('start');
            foreground = pool.run(emptyRun(12, seen, 'f', { onSent: (j) => void sent.push(`f${j}`) }));
          }
        },
      }),
    );
    const b = await background;
    await foreground;
    assert.deepEqual([b.cancelled, b.stopped, b.threads], [false, false, 2]);
    const after = sent.slice(sent.indexOf('start') + 1);
    assert.deepEqual(
      after.slice(0, 12),
      Array.from({ length: 12 }, (_, j) => `f${j}`),
      'every foreground task went out before the background run sent another',
    );
    assert.equal(after.length, 12 + 37, 'the background run sent its 37 remaining tasks after');
    inOrder(seen, 'b', 40);
    inOrder(seen, 'f', 12);
    assert.deepEqual(pool.tasksSent, { foreground: 12, background: 40 }, 'each task sent once');
    assert.deepEqual([pool.started, pool.exited], [2, 0]);
  } finally {
    await pool.terminate();
  }
});

test('a background run that fails or is cancelled beside a foreground run leaves it alone; alone, its cancel stops every worker', async () => {
  const pool = new WorkerPool(workerFile, 2);
  try {
    const seen: string[] = [];
    const stop = new AbortController();
    let failing: Promise<Error | undefined> | undefined;
    let cancelled: Promise<{ cancelled: boolean }> | undefined;
    const foreground = pool.run(
      emptyRun(30, seen, 'f', {
        onResult: (i) => {
          seen.push(`f${i}`);
          if (i === 0) {
            // Both started while the foreground run is going; the second cancelled at once.
            failing = pool.run({ kind: 'no such kind', count: 4, task: () => ({}), onResult: () => {}, priority: 'background' }).then(
              () => undefined,
              (e: Error) => e,
            );
            cancelled = pool.run(emptyRun(20, seen, 'c', { priority: 'background', signal: stop.signal }));
            stop.abort();
          }
        },
      }),
    );
    const f = await foreground;
    assert.match(String(await failing), /no handler for "no such kind"/);
    assert.equal((await cancelled!).cancelled, true);
    assert.equal(f.cancelled, false);
    inOrder(seen, 'f', 30);
    assert.deepEqual([pool.started, pool.exited], [2, 0], 'no worker stopped');

    // Alone, a cancelled background run terminates the workers before it resolves.
    const alone = new AbortController();
    const r = await pool.run(emptyRun(50, seen, 'a', { priority: 'background', signal: alone.signal, onResult: () => alone.abort() }));
    assert.equal(r.cancelled, true);
    assert.deepEqual([pool.started, pool.exited], [2, 2], 'every worker exited');
  } finally {
    await pool.terminate();
  }
});
