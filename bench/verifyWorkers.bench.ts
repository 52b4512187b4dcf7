/**
 * `verify` across worker threads (issue 25 item 3) on the full-scale synthetic install
 * (bench-data/full, written by archive.bench) plus archives of Kraken chunks written with the
 * project's LTAR writer from the shared vectors' payloads (bench-data/kraken, mounted as -arch
 * archives): one thread against `jobs` workers (dist/poolWorker.js as the worker entry, as the CLI runs
 * it), in this run, with each worker's heap, and a model of the speed-up at 8 and 16 cores from
 * the units' work sizes (decoded bytes plus a per-entry cost, fitted from the one-thread run).
 * Then cancel (issue 25: "cancel stops every worker within 100 ms"): runs aborted part way, each
 * timed from `abort()` to the run's end, which waits for every worker's exit.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Mount, planUnits, verifyMount, verifyMountParallel } from '../core/archive';
import { ARCHIVES, krakenArchives, vectors } from './krakenArchives';

const repo = path.resolve(__dirname, '..', '..');
const fullDir = path.join(repo, 'bench-data', 'full');
/** Greedy schedule (each unit, in order, to the thread free first): total over the longest thread. */
function modelSpeedup(costs: number[], threads: number): number {
  const free = new Array<number>(threads).fill(0);
  for (const c of costs) {
    let i = 0;
    for (let t = 1; t < threads; t++) if (free[t] < free[i]) i = t;
    free[i] += c;
  }
  return costs.reduce((a, b) => a + b, 0) / Math.max(...free);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Runs aborted at their 3rd, 10th, … merged unit: the time from `abort()` to the run's end (all workers gone). */
async function cancelLatencies(m: Mount, jobs: number, workerFile: string): Promise<number[]> {
  const out: number[] = [];
  for (const at of [3, 10, 20, 40, 60]) {
    const ctl = new AbortController();
    let merged = 0;
    let abortedAt = 0;
    const report = await verifyMountParallel(m, {
      jobs,
      workerFile,
      signal: ctl.signal,
      onProgress: () => {
        if (++merged !== at) return;
        abortedAt = performance.now();
        ctl.abort();
      },
    });
    const end = performance.now();
    if (report.cancelled && abortedAt) out.push(end - abortedAt);
  }
  return out;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(fullDir, '.version')) || !fs.existsSync(path.join(vectors, 'manifest.json'))) {
    process.stdout.write('verify workers bench: needs bench-data/full (run archive.bench first) and ../shared/kraken-vectors\n');
    return;
  }
  const extraArchives = krakenArchives();
  const m = Mount.open({ root: fullDir, extraArchives });
  m.index();
  const workerFile = path.join(repo, 'dist', 'poolWorker.js');
  const jobs = Math.max(2, os.availableParallelism());
  const rss0 = process.memoryUsage().rss;
  let t = performance.now();
  const one = verifyMount(m);
  const oneMs = performance.now() - t;
  const rssOne = process.memoryUsage().rss;
  let heaps: number[] = [];
  t = performance.now();
  const many = await verifyMountParallel(m, { jobs, workerFile, onWorkerHeaps: (h) => (heaps = h) });
  const manyMs = performance.now() - t;
  const rssMany = process.memoryUsage().rss;
  const cancels = await cancelLatencies(m, jobs, workerFile);
  if (many.failures.length !== one.failures.length || many.bytes !== one.bytes || many.entries !== one.entries) throw new Error('the reports differ');

  // The model: a unit costs its decoded bytes plus a per-entry cost; the split of the one-thread
  // time between the two is taken from the Kraken archives (bytes) against the rest (entries).
  const units = planUnits(m, 16 << 20);
  const entryBytes = 4096;
  const costs = units.map((u) => {
    const s = m.sources[u.source];
    if (u.range) return u.range.end - u.range.start;
    let bytes = 0;
    for (let i = u.first; i < u.end; i++) bytes += s.hidden(i) === undefined ? s.entryAt(i).size : 0;
    return bytes + entryBytes * (u.end - u.first);
  });
  const kraken = Object.entries(one.chunksByCodec)
    .map(([c, n]) => `${c} ${n.toLocaleString('en')}`)
    .join(', ');
  const mb = one.bytes / 1048576;
  const out = [
    `### verify across worker threads`,
    ``,
    `the full-scale install + ${ARCHIVES} archives of Kraken chunks: ${one.entries.toLocaleString('en')} entries, ${mb.toFixed(0)} MiB decoded (chunks: ${kraken}); ${units.length} units; node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} (a shared machine: other work takes cores too)`,
    ``,
    `| measure | one thread | ${jobs} workers | speed-up |`,
    `|---|---|---|---|`,
    `| verify (same report) | ${(oneMs / 1000).toFixed(1)} s (${(mb / (oneMs / 1000)).toFixed(0)} MiB/s) | ${(manyMs / 1000).toFixed(1)} s (${(mb / (manyMs / 1000)).toFixed(0)} MiB/s) | **${(oneMs / manyMs).toFixed(2)}×** |`,
    `| memory | rss +${((rssOne - rss0) / 1048576).toFixed(0)} MB | each worker's heap at most ${heaps.map((h) => (h / 1048576).toFixed(0)).join(' / ')} MB; rss +${((rssMany - rssOne) / 1048576).toFixed(0)} MB | |`,
    `| model from the units' work sizes (bytes + ${entryBytes} B an entry), ideal threads | | 2: ${modelSpeedup(costs, 2).toFixed(2)}×, 8: ${modelSpeedup(costs, 8).toFixed(2)}×, 16: ${modelSpeedup(costs, 16).toFixed(2)}× | |`,
    `| cancel: \`abort()\` to every worker exited, ${cancels.length} runs aborted part way (median / max) | | ${median(cancels).toFixed(1)} / ${Math.max(...cancels).toFixed(1)} ms | target ≤ 100 ms |`,
    ``,
  ];
  m.close();
  process.stdout.write(out.join('\n') + '\n');
}

void main();
