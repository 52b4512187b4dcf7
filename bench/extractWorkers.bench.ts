/**
 * `extract` of a folder across the worker pool (issue 25 item 3), one thread against 2 workers
 * (dist/poolWorker.js, as the CLI and the extension run it), in this run: a folder of Kraken-chunked
 * entries (bench/krakenArchives.ts: decode-bound) and a folder of 11,310 small stored files of the
 * full-scale synthetic install (file-system-bound). Each measure is its best of two interleaved
 * rounds (other work on a shared machine only adds time); the written files are removed after each.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Mount, WorkerPool, collectEntries, extractEntries, extractEntriesParallel } from '../core/archive';
import { krakenArchives, vectors } from './krakenArchives';

const repo = path.resolve(__dirname, '..', '..');
const fullDir = path.join(repo, 'bench-data', 'full');
const outRoot = path.join(repo, 'bench-data', 'extract-out');
const ms = (x: number): string => `${x.toFixed(0)} ms`;

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(fullDir, '.version')) || !fs.existsSync(path.join(vectors, 'manifest.json'))) {
    process.stdout.write('extract workers bench: needs bench-data/full (run archive.bench first) and ../shared/kraken-vectors\n');
    return;
  }
  const m = Mount.open({ root: fullDir, extraArchives: krakenArchives() });
  const pool = new WorkerPool(path.join(repo, 'dist', 'poolWorker.js'), 2);
  const rows: string[] = [];
  const load: number[] = [];
  for (const folder of ['kraken', 'characters\\orcs']) {
    const entries = collectEntries(m, folder);
    const bytes = entries.reduce((n, e) => n + e.size, 0);
    const best = { one: Infinity, two: Infinity };
    for (let round = 0; round < 2; round++) {
      for (const jobs of [1, 2] as const) {
        const out = path.join(outRoot, `${jobs}`);
        fs.rmSync(out, { recursive: true, force: true });
        load.push(os.loadavg()[0]);
        const t = performance.now();
        const r = jobs === 1 ? await extractEntries(m, entries, out) : await extractEntriesParallel(m, entries, out, { pool });
        const took = performance.now() - t;
        if (r.failures.length || r.files !== entries.length) throw new Error(`extract ${folder} on ${jobs}: ${r.failures.length} failures`);
        if (jobs === 1) best.one = Math.min(best.one, took);
        else best.two = Math.min(best.two, took);
        fs.rmSync(out, { recursive: true, force: true });
      }
    }
    rows.push(
      `| ${folder} (${entries.length.toLocaleString('en')} files, ${(bytes / 2 ** 20).toFixed(0)} MiB) | ${ms(best.one)} | ${ms(best.two)} | **${(best.one / best.two).toFixed(2)}×** |`,
    );
  }
  const heaps = pool.heaps.map((h) => `${(h / 2 ** 20).toFixed(0)} MB`).join(' / ');
  await pool.terminate();
  m.close();
  process.stdout.write(
    [
      '### extract of a folder: one thread against 2 workers',
      '',
      `load average while measuring: ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${os.cpus().length} cores; each worker's heap at most ${heaps}`,
      '',
      '| folder | one thread | 2 workers | speed-up |',
      '|---|---|---|---|',
      ...rows,
      '',
    ].join('\n') + '\n',
  );
}

void main();
