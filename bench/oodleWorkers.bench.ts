/**
 * Does decoding off the main thread pay on this machine? The same batch of Kraken chunks is
 * decoded on the main thread and by a pool of worker threads (payloads transferred, results
 * transferred back), side by side in one run; the table prints the ratio for 1..N workers.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { decodeOodle } from '../core/oodle';

interface Job {
  id: number;
  payload: Uint8Array;
  rawSize: number;
}

if (!isMainThread) {
  // Worker: decode whatever arrives, send the bytes back without copying.
  parentPort!.on('message', (job: Job) => {
    const out = decodeOodle(job.payload, job.rawSize);
    parentPort!.postMessage({ id: job.id, out }, [out.buffer as ArrayBuffer]);
  });
} else {
  void main();
}

function loadJobs(): Job[] | undefined {
  const dir = [process.env.ARCH06_SHARED, path.resolve(__dirname, '..', '..', '..', 'shared')].find((d) => d && fs.existsSync(path.join(d, 'kraken-vectors')));
  if (!dir) return undefined;
  const v = path.join(dir, 'kraken-vectors');
  const manifest: { compressedFile: string; rawSize: number }[] = JSON.parse(fs.readFileSync(path.join(v, 'manifest.json'), 'utf8'));
  const chunks = manifest
    .filter((m) => m.rawSize === 0x10000)
    .map((m) => ({ payload: fs.readFileSync(path.join(v, m.compressedFile)), rawSize: m.rawSize }))
    .filter((c) => c.payload.length < c.rawSize);
  // About 64 MiB of output: what extracting a large texture archive entry decodes.
  const jobs: Job[] = [];
  for (let i = 0; i < 1024; i++) jobs.push({ id: i, payload: chunks[i % chunks.length].payload, rawSize: 0x10000 });
  return jobs;
}

async function startPool(n: number): Promise<Worker[]> {
  const workers = Array.from({ length: n }, () => new Worker(__filename));
  await Promise.all(workers.map((w) => new Promise((r) => w.once('online', r))));
  return workers;
}

async function withWorkers(jobs: Job[], workers: Worker[]): Promise<number> {
  const t = performance.now();
  let next = 0;
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    const feed = (w: Worker): void => {
      if (next >= jobs.length) return;
      const j = jobs[next++];
      const copy = new Uint8Array(j.payload); // a transferable copy, as a reader would have
      w.postMessage({ id: j.id, payload: copy, rawSize: j.rawSize }, [copy.buffer]);
    };
    for (const w of workers) {
      w.removeAllListeners('message');
      w.removeAllListeners('error');
      w.on('message', () => {
        if (++done === jobs.length) resolve();
        else feed(w);
      });
      w.on('error', reject);
      // Two jobs in flight per worker hide the message latency.
      feed(w);
      feed(w);
    }
  });
  return performance.now() - t;
}

async function main(): Promise<void> {
  const jobs = loadJobs();
  if (!jobs) {
    process.stdout.write('oodle workers bench: ../shared/kraken-vectors absent, skipped\n');
    return;
  }
  const mb = (jobs.length * 0x10000) / 1e6;
  const single = (): number => {
    const t = performance.now();
    for (const j of jobs) decodeOodle(j.payload, j.rawSize);
    return performance.now() - t;
  };
  single(); // warm-up (JIT)
  const rows: string[] = [];
  const base = Math.min(single(), single());
  rows.push(`| main thread | ${base.toFixed(0)} ms | ${(mb / (base / 1000)).toFixed(0)} MB/s | 1.00× |`);
  for (let n = 1; n <= Math.max(2, os.cpus().length); n++) {
    const pool = await startPool(n);
    await withWorkers(jobs, pool); // warm-up: the workers' JIT, like a long-lived pool's
    const t = Math.min(await withWorkers(jobs, pool), await withWorkers(jobs, pool));
    await Promise.all(pool.map((w) => w.terminate()));
    rows.push(`| ${n} worker${n > 1 ? 's' : ''} | ${t.toFixed(0)} ms | ${(mb / (t / 1000)).toFixed(0)} MB/s | ${(base / t).toFixed(2)}× |`);
  }
  process.stdout.write(
    [
      `### Kraken decoding off the main thread (${jobs.length} chunks, ${mb.toFixed(0)} MB out, ${os.cpus().length} cores)`,
      '',
      '| where | time | output | speed-up |',
      '|---|---|---|---|',
      ...rows,
      '',
    ].join('\n') + '\n',
  );
}
