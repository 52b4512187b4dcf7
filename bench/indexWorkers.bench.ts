/**
 * The language server's cold index across the worker pool (issue 25 item 3), one thread
 * (`ScriptIndex.build`) against 2 workers (`buildIndexParallel`, dist/poolWorker.js as the server
 * runs it) on the full-scale synthetic install of the language-server bench (1,310 registries,
 * 1.25 M objects, 1,310 scripts; bench/lspInstall.ts), in this run. Each measure is its best of
 * three interleaved rounds (other work on a shared machine only adds time); the first 2-worker
 * build starts the workers (said apart). Both indexes' snapshots are compared (a digest).
 */
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { Mount, WorkerPool } from '../core/archive';
import { ScriptIndex, buildIndexParallel } from '../core/scriptIndex';
import { ensureLspInstall } from './lspInstall';

const repo = path.resolve(__dirname, '..', '..');
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const digest = (i: ScriptIndex): string => createHash('sha256').update(JSON.stringify(i.toSnapshot())).digest('hex').slice(0, 16);

async function main(): Promise<void> {
  const dataDir = ensureLspInstall();
  const m = Mount.open({ root: dataDir });
  const pool = new WorkerPool(path.join(repo, 'dist', 'poolWorker.js'), 2);
  const load: number[] = [];
  const best = { one: Infinity, two: Infinity, first: 0, oneCpu: 0, twoCpu: 0, twoCalling: 0 };
  const digests = new Set<string>();
  let shape = '';
  for (let round = 0; round < 3; round++) {
    for (const jobs of [1, 2] as const) {
      load.push(os.loadavg()[0]);
      const cpu = process.cpuUsage();
      const loop = performance.eventLoopUtilization();
      const t = performance.now();
      const index = jobs === 1 ? ScriptIndex.build(m) : await buildIndexParallel(m, { pool });
      const took = performance.now() - t;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      // The calling thread's busy time (taking the results in order): what the workers cannot split.
      const callingMs = performance.eventLoopUtilization(loop).active;
      if (round === 0) digests.add(digest(index));
      shape = `${index.registries.toLocaleString('en')} registries, ${index.scripts().length.toLocaleString('en')} scripts`;
      if (jobs === 1 && took < best.one) Object.assign(best, { one: took, oneCpu: cpuMs });
      if (jobs === 2 && round === 0) best.first = took;
      else if (jobs === 2 && took < best.two) Object.assign(best, { two: took, twoCpu: cpuMs, twoCalling: callingMs });
    }
  }
  // Cancel in the middle of a build: from the abort to every worker exited (the build resolved).
  const abort = new AbortController();
  let abortedAt = 0;
  const exitedBefore = pool.exited;
  const cancelled = await buildIndexParallel(m, {
    pool,
    signal: abort.signal,
    onProgress: (done, total) => {
      if (done === Math.floor(total / 2)) {
        abortedAt = performance.now();
        abort.abort();
      }
    },
  });
  const cancelMs = performance.now() - abortedAt;
  const cancelNote = `cancelled half-way: ${cancelled.cancelled ? 'said so' : 'NOT CANCELLED'}, ${pool.exited - exitedBefore} workers exited ${cancelMs.toFixed(1)} ms after the abort`;
  const heaps = pool.heaps.map((h) => `${(h / 2 ** 20).toFixed(0)} MB`).join(' / ');
  await pool.terminate();
  m.close();
  process.stdout.write(
    [
      '### cold index: one thread against 2 workers',
      '',
      `${shape}; load average while measuring: ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${os.cpus().length} cores; ` +
        `each worker's heap at most ${heaps}; the snapshots ${digests.size === 1 ? 'equal' : 'DIFFER'}`,
      '',
      '| measure | wall | CPU (all threads) | calling thread busy | speed-up |',
      '|---|---|---|---|---|',
      `| one thread (best of 3) | ${ms(best.one)} | ${ms(best.oneCpu)} | | |`,
      `| 2 workers, the first build (starting them) | ${ms(best.first)} | | | ${(best.one / best.first).toFixed(2)}× |`,
      `| 2 workers, later builds (best of 2) | ${ms(best.two)} | ${ms(best.twoCpu)} | ${ms(best.twoCalling)} | **${(best.one / best.two).toFixed(2)}×** |`,
      '',
      cancelNote,
      '',
    ].join('\n') + '\n',
  );
}

void main();
