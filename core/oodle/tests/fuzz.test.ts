/**
 * Fuzz test for the Oodle decoders (Kraken, both engines, and LZB16): mutated vectors (bit flips, byte sets,
 * truncation, splices, inserted/deleted bytes, raw-size lies, random bytes after a valid
 * header) must end in a typed `Arch06Error` or decode to exactly the requested size,
 * without writing outside the destination. The loop runs in a worker thread; a watchdog
 * kills it and fails the test if one case takes too long (a hang).
 * In `npm test`: a fixed seed and a fixed number of cases, so a failure replays exactly. `npm run
 * fuzz` sets ARCH06_FUZZ_SECONDS: a time budget and a time-based seed (ARCH06_FUZZ_SEED replays
 * one); the seed and case count are printed either way.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sharedPath } from '../../../test/support/shared';
import { FuzzVector, loadFuzzVectors, loadLzb16FuzzVectors, makeCase } from './fuzzCases';
import type { FuzzJob, FuzzSummary } from './fuzzWorker';

/** A watchdog, not a measurement: a single decode of at most a few MiB takes milliseconds, so a minute without progress is a hang on any machine. */
const HANG_MS = 60_000;

const vectorsDir = sharedPath('kraken-vectors');
const realDir = sharedPath('kraken-real-oodle');
const patchArchive = sharedPath('samples/real/Patch_00.arch06');

/** The fixed slice `npm test` runs (a few seconds each on this project's 2-core machines). */
const SLICE = { seed: 0x0a2c0006, krakenCases: 40_000, lzb16Cases: 100_000 };

/** The seed and budget: fixed in npm test, timed (and time-seeded unless ARCH06_FUZZ_SEED) in npm run fuzz. */
function plan(fixedCases: number): Pick<FuzzJob, 'seed' | 'budget'> {
  const timed = process.env.ARCH06_FUZZ_SECONDS !== undefined;
  const given = process.env.ARCH06_FUZZ_SEED;
  const seed = given !== undefined ? Number(given) >>> 0 : timed ? (Date.now() ^ (process.pid << 16)) >>> 0 : SLICE.seed;
  return { seed, budget: timed ? { seconds: Number(process.env.ARCH06_FUZZ_SECONDS) } : { cases: fixedCases } };
}

test('Kraken decoder: mutated input ends in a typed error or an exact-size result', { skip: vectorsDir.skip, timeout: 30 * 60_000 }, async (t) => {
  const dirs = [vectorsDir.path, ...(realDir.skip ? [] : [realDir.path])];
  const patch = patchArchive.skip ? undefined : patchArchive.path;
  const heartbeat = new SharedArrayBuffer(4);
  const job: FuzzJob = { ...plan(SLICE.krakenCases), dirs, heartbeat, patchArchive: patch };
  const summary = await runFuzz(t, job, () => loadFuzzVectors(dirs, patch));
  // Both engines were exercised: the dispatch ran WebAssembly, and the engines were compared.
  assert.equal(summary.krakenEngine, 'wasm', 'the dispatch decodes Kraken with WebAssembly');
  assert.ok(summary.compared > summary.cases / 2, `engines compared on ${summary.compared} of ${summary.cases} cases`);
});

// LZB16: writer-made streams always, the four real chunks of Patch_00.arch06 when ../shared has them.
test('LZB16 decoder: mutated input ends in a typed error or an exact-size result', { timeout: 30 * 60_000 }, async (t) => {
  const patch = patchArchive.skip ? undefined : patchArchive.path;
  if (!patch) t.diagnostic(`LZB16 fuzz without the real chunks: ${patchArchive.skip}`);
  const heartbeat = new SharedArrayBuffer(4);
  const job: FuzzJob = { ...plan(SLICE.lzb16Cases), dirs: [], heartbeat, target: 'lzb16', patchArchive: patch };
  await runFuzz(t, job, () => loadLzb16FuzzVectors(patch));
});

/** Run `job` in the fuzz worker under the hang watchdog; fail on any reported failure. */
async function runFuzz(t: { diagnostic(m: string): void }, job: FuzzJob, loadVectors: () => FuzzVector[]): Promise<FuzzSummary> {
  const { seed, budget, heartbeat } = job;
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
        const c = makeCase(seed, now, loadVectors());
        finish(new Error(`decoder hang: seed ${seed}, case ${now} (${c.label}) made no progress for ${HANG_MS} ms`));
      }
    }, 200);
    worker.on('message', (m: FuzzSummary) => finish(undefined, m));
    worker.on('error', (e) => finish(new Error(`fuzz worker crashed (seed ${seed}, near case ${Atomics.load(beat, 0)}): ${e.stack ?? e}`)));
    worker.on('exit', (code) => finish(new Error(`fuzz worker exited with code ${code} (seed ${seed})`)));
  });

  const how = 'seconds' in budget ? `in ~${budget.seconds}s` : '(fixed slice)';
  const engines = job.target === 'lzb16' ? '' : `, engine ${summary.krakenEngine}, ${summary.compared} compared with the reference`;
  const line = `${job.target ?? 'kraken'} fuzz seed ${seed}: ${summary.cases} cases ${how}, ${summary.decoded} decoded${engines}, errors ${JSON.stringify(summary.errors)}`;
  t.diagnostic(line);
  console.log(line);
  for (const f of summary.failures) console.log(`  FAIL seed ${seed} case ${f.index}: ${f.label}: ${f.problem}`);
  assert.ok(summary.cases > 0, 'ran at least one case');
  assert.deepEqual(summary.failures, [], `fuzz failures (seed ${seed}); replay with ARCH06_FUZZ_SEED=${seed}`);
  return summary;
}
