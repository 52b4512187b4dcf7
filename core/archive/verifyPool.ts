/**
 * `verify` across threads (issue 25 item 3): the units of core/archive/verifyUnits.ts handed to
 * `jobs` worker threads (core/archive/verifyWorker.ts) one at a time as each finishes one, so the
 * threads stay busy whatever the archives' sizes. Workers open the archives themselves; only unit
 * descriptions and results cross. Results are merged in unit order as they arrive, so progress
 * streams in order and the report is the one `verifyMount` makes on one thread. A loose folder's
 * units run on the calling thread (its listing is the mount's). Cancelling terminates every
 * worker at once (a decode in progress included).
 */
import { Worker } from 'node:worker_threads';
import { FileByteSource } from '../io/node/fileSource';
import { LtarSource } from './ltarSource';
import type { Mount } from './mount';
import { DEFAULT_BLOCK, type VerifyOptions, type VerifyReport, beginSource, endSource, finishReport, startReport, verifyMount } from './verify';
import { type UnitResult, UnitMerger, planUnits, runUnit } from './verifyUnits';
import { VERIFY_WORKER_ROLE, type VerifyAnswer, type VerifyTask } from './verifyWorker';

export interface ParallelVerifyOptions extends VerifyOptions {
  /** Worker threads (1: the calling thread alone, no worker). */
  jobs: number;
  /** The worker entry: a bundle that serves `serveVerifyWorker` when started as one (dist/cli.js). */
  workerFile: string;
  /** Aborting stops every worker at once; the report then holds what was merged. */
  signal?: AbortSignal;
  /** Called with each worker's largest V8 heap once the run ends. */
  onWorkerHeaps?: (bytes: number[]) => void;
}

export interface ParallelVerifyReport extends VerifyReport {
  /** The run was cancelled: the report covers the units merged before. */
  cancelled?: boolean;
  /** Units the work was split into, and threads used. */
  units: number;
  jobs: number;
}

export async function verifyMountParallel(mount: Mount, options: ParallelVerifyOptions): Promise<ParallelVerifyReport> {
  const block = options.blockSize ?? DEFAULT_BLOCK;
  const units = planUnits(mount, block, options.unitBytes);
  if (options.jobs <= 1) return { ...verifyMount(mount, options), units: units.length, jobs: 1 };
  const report = startReport(mount);
  const total = mount.sources.reduce((n, s) => n + s.fileCount, 0);
  const merger = new UnitMerger(mount, report);
  const results: (UnitResult | undefined)[] = new Array(units.length);
  const workers: Worker[] = [];
  const heaps: number[] = [];
  let next = 0;
  let merged = 0;
  let sourceAt = 0; // sources before this one have been begun and ended
  let begun = false; // whether source `sourceAt` has been begun
  let settled = false;
  /** Begin and end every source before `k` (those without units too), then begin `k`. */
  const enter = (k: number): void => {
    for (; sourceAt < k; sourceAt++, begun = false) {
      if (!begun) beginSource(mount.sources[sourceAt], report);
      endSource(mount.sources[sourceAt], report);
    }
    if (k < mount.sources.length && !begun) {
      beginSource(mount.sources[k], report);
      begun = true;
    }
  };

  return new Promise<ParallelVerifyReport>((resolve, reject) => {
    /** Every worker terminated (a decode in progress included); resolves once they have all stopped. */
    const stop = (): Promise<unknown> => {
      options.onWorkerHeaps?.(heaps);
      return Promise.all(workers.map((w) => w.terminate()));
    };
    const finish = (cancelled: boolean): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      const stopped = stop();
      const done = cancelled ? { ...report, cancelled: true } : (enter(mount.sources.length), finishReport(mount, report));
      void stopped.then(() => resolve({ ...done, units: units.length, jobs: workers.length }), reject);
    };
    const fail = (e: Error): void => {
      if (settled) return;
      settled = true;
      void stop().then(() => reject(e), reject);
    };
    const onAbort = (): void => finish(true);
    options.signal?.addEventListener('abort', onAbort);

    /** Merge every unit ready in order; a loose folder's unit runs here when its turn comes. */
    const drain = (): void => {
      while (merged < units.length && !settled) {
        const unit = units[merged];
        const s = mount.sources[unit.source];
        if (!(s instanceof LtarSource) && !results[merged]) results[merged] = runUnit(s, unit, block);
        const r = results[merged];
        if (!r) return;
        enter(unit.source);
        results[merged] = undefined;
        merger.add(unit, r);
        merged++;
        options.onProgress?.(merger.done, total, r.last, report.bytes);
        if (options.isCancelled?.()) return finish(true);
      }
      if (merged === units.length) finish(false);
    };
    const dispatch = (w: Worker): void => {
      while (next < units.length) {
        const id = next++;
        const unit = units[id];
        const s = mount.sources[unit.source];
        if (!(s instanceof LtarSource) || merger.skips(unit)) continue;
        const stamp = s.bytes instanceof FileByteSource ? s.bytes.stamp : undefined;
        if (!stamp) {
          results[id] = runUnit(s, unit, block); // an archive in memory: no file for a worker to open
          continue;
        }
        const task: VerifyTask = { id, unit, name: s.name, diskPath: s.diskPath, stamp, block };
        w.postMessage(task);
        return;
      }
    };
    const jobs = Math.max(1, Math.min(options.jobs, units.length));
    for (let i = 0; i < jobs; i++) {
      const w = new Worker(options.workerFile, { workerData: { role: VERIFY_WORKER_ROLE } });
      heaps.push(0);
      w.on('message', (a: VerifyAnswer) => {
        results[a.id] = a.result;
        heaps[i] = Math.max(heaps[i], a.heapBytes);
        dispatch(w);
        drain();
      });
      w.on('error', fail);
      w.on('exit', (code) => {
        if (!settled) fail(new Error(`verify worker ${i} exited (code ${code}) before the run ended`));
      });
      workers.push(w);
      dispatch(w);
    }
    drain();
  });
}
