/**
 * Fuzz test for the Oodle/Kraken decoder: mutated vectors (bit flips, byte sets,
 * truncation, splices, inserted/deleted bytes, raw-size lies, random bytes after a valid
 * header) must end in a typed `Arch06Error` or decode to exactly the requested size,
 * without writing outside the destination. The loop runs in a worker thread; a watchdog
 * kills it and fails the test if one case takes too long (a hang).
 * Budget: ARCH06_FUZZ_SECONDS (default 4). Seed: ARCH06_FUZZ_SEED (default: time-based);
 * the seed and case count are printed so a failure can be replayed.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sharedPath } from '../../../test/support/shared';
import { loadFuzzVectors, makeCase } from './fuzzCases';
import type { FuzzJob, FuzzSummary } from './fuzzWorker';

/** A single decode of at most a few MiB takes milliseconds; this long without progress is a hang. */
const HANG_MS = 10_000;

const vectorsDir = sharedPath('kraken-vectors');
const realDir = sharedPath('kraken-real-oodle');

test('Kraken decoder: mutated input ends in a typed error or an exact-size result', { skip: vectorsDir.skip, timeout: 30 * 60_000 }, async (t) => {
  const seconds = Number(process.env.ARCH06_FUZZ_SECONDS ?? 4);
  const seed = process.env.ARCH06_FUZZ_SEED !== undefined ? Number(process.env.ARCH06_FUZZ_SEED) >>> 0 : (Date.now() ^ (process.pid << 16)) >>> 0;
  const dirs = [vectorsDir.path, ...(realDir.skip ? [] : [realDir.path])];
  const heartbeat = new SharedArrayBuffer(4);
  const job: FuzzJob = { seed, seconds, dirs, heartbeat };
  const beat = new Int32Array(heartbeat);
  const worker = new Worker(path.join(__dirname, 'fuzzWorker.js'), { workerData: job });

  const summary = await new Promise<FuzzSummary>((resolve, reject) => {
    let last = -1;
    let lastChange = Date.now();
    let settled = false;
    const finish = (err: Error | undefined, value?: FuzzSummary): void => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      if (err) reject(err);
      else resolve(value as FuzzSummary);
    };
    const timer = setInterval(() => {
      const now = Atomics.load(beat, 0);
      if (now !== last) {
        last = now;
        lastChange = Date.now();
        return;
      }
      if (Date.now() - lastChange > HANG_MS) {
        void worker.terminate();
        const c = makeCase(seed, now, loadFuzzVectors(dirs));
        finish(new Error(`decoder hang: seed ${seed}, case ${now} (${c.label}) made no progress for ${HANG_MS} ms`));
      }
    }, 200);
    worker.on('message', (m: FuzzSummary) => finish(undefined, m));
    worker.on('error', (e) => finish(new Error(`fuzz worker crashed (seed ${seed}, near case ${Atomics.load(beat, 0)}): ${e.stack ?? e}`)));
    worker.on('exit', (code) => finish(new Error(`fuzz worker exited with code ${code} (seed ${seed})`)));
  });

  const line = `fuzz seed ${seed}: ${summary.cases} cases in ~${seconds}s, ${summary.decoded} decoded, errors ${JSON.stringify(summary.errors)}`;
  t.diagnostic(line);
  console.log(line);
  for (const f of summary.failures) console.log(`  FAIL seed ${seed} case ${f.index}: ${f.label}: ${f.problem}`);
  assert.ok(summary.cases > 0, 'ran at least one case');
  assert.deepEqual(summary.failures, [], `fuzz failures (seed ${seed}); replay with ARCH06_FUZZ_SEED=${seed}`);
});
