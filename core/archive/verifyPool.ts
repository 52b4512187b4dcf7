/**
 * `verify` across threads (issue 25 item 3): the units of core/archive/verifyUnits.ts run as tasks
 * of the one worker pool (core/archive/workerPool.ts). Workers open the archives themselves; only
 * unit descriptions and results cross. Results are merged in unit order as they arrive, so progress
 * streams in order and the report is the one `verifyMount` makes on one thread. A loose folder's
 * units, and an archive held in memory, run on the calling thread in their turn. Cancelling
 * terminates every worker at once (a decode in progress included).
 */
import type { Mount } from './mount';
import { DEFAULT_BLOCK, type VerifyOptions, type VerifyReport, beginSource, endSource, finishReport, startReport, verifyMount } from './verify';
import { type UnitResult, UnitMerger, planUnits, runUnit } from './verifyUnits';
import { VERIFY_KIND, type VerifyTask } from './verifyWorker';
import { archiveRef } from './workerArchives';
import { WorkerPool } from './workerPool';

export interface ParallelVerifyOptions extends VerifyOptions {
  /** Worker threads (1: the calling thread alone, no worker). */
  jobs: number;
  /** The pool's worker entry (dist/poolWorker.js), for a pool made for this run and stopped after it. */
  workerFile?: string;
  /** A pool to run on (kept up after the run); else one is made from `workerFile`. */
  pool?: WorkerPool;
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
  const pool = options.pool ?? new WorkerPool(mustHave(options.workerFile), options.jobs);
  const report = startReport(mount);
  const total = mount.sources.reduce((n, s) => n + s.fileCount, 0);
  const merger = new UnitMerger(mount, report);
  let sourceAt = 0; // sources before this one have been begun and ended
  let begun = false; // whether source `sourceAt` has been begun
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
  try {
    const outcome = await pool.run<VerifyTask, UnitResult | null>({
      kind: VERIFY_KIND,
      count: units.length,
      task: (id) => {
        const unit = units[id];
        const ref = archiveRef(mount.sources[unit.source]);
        return ref ? { id, unit, ...ref, block } : undefined;
      },
      // A unit after its archive changed on disk is skipped (null), as on one thread.
      runHere: (id) => (merger.skips(units[id]) ? null : runUnit(mount.sources[units[id].source], units[id], block)),
      onResult: (id, r) => {
        const unit = units[id];
        enter(unit.source);
        if (r) merger.add(unit, r);
        options.onProgress?.(merger.done, total, r?.last ?? '', report.bytes);
      },
      signal: options.signal,
      isCancelled: options.isCancelled,
    });
    options.onWorkerHeaps?.(pool.heaps.slice(0, outcome.threads));
    const done = outcome.cancelled ? { ...report, cancelled: true } : (enter(mount.sources.length), finishReport(mount, report));
    return { ...done, units: units.length, jobs: outcome.threads };
  } finally {
    if (!options.pool) await pool.terminate();
  }
}

function mustHave(workerFile: string | undefined): string {
  if (!workerFile) throw new Error('verifyMountParallel needs a pool or a workerFile');
  return workerFile;
}
