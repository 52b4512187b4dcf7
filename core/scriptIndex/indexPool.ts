/**
 * The script index's cold build across the worker pool (issue 25 item 3): the served files, in the
 * index's order (scripts, then registries), cut into runs of about `runBytes`; each run a task whose
 * worker opens the archives itself and reads, parses and resolves its files (./indexWorker.ts).
 * The readings are taken in file order on the calling thread by the same plan as the one-thread
 * build (`ScriptIndex.build`), so any worker count gives the same index. A file of a loose folder
 * or an archive in memory is read on the calling thread, in its turn.
 */
import { LtarEntry, type Mount, type WorkerPool } from '../archive';
import { type ArchiveRef, archiveRef } from '../archive/workerArchives';
import { type IndexPlan, readIndexedFile } from './indexRead';
import { INDEX_KIND, type IndexTask, type IndexTaskFile, type PostedRead, isReadHere } from './indexWorker';
import { ScriptIndex } from './scriptIndex';
import type { ScriptIndexOptions } from './types';

/** Bytes of file in one run (a run is also cut at `RUN_FILES` files). */
const RUN_BYTES = 4 << 20;
const RUN_FILES = 64;

export interface PoolIndexOptions extends ScriptIndexOptions {
  pool: WorkerPool;
  /** Aborting terminates every worker; the index then holds what was taken and says `cancelled`. */
  signal?: AbortSignal;
  runBytes?: number;
}

/** A run of files [first, end): read by a worker (`task`), or one file the calling thread reads. */
interface Run {
  first: number;
  end: number;
  task?: IndexTask;
}

/** Where a worker reads file `i`, or undefined when only the calling thread can (a loose folder, an archive in memory). */
function workerFile(plan: IndexPlan, i: number, archiveOf: (ref: ArchiveRef) => number): IndexTaskFile | undefined {
  const f = plan.files[i];
  let at;
  try {
    at = f.at();
  } catch {
    return undefined; // the calling thread's read says why, in its turn
  }
  const ref = archiveRef(at.entry.source);
  if (!ref || !(at.entry instanceof LtarEntry)) return undefined;
  return {
    kind: f.kind,
    path: f.path,
    archive: archiveOf(ref),
    entry: at.entry.index,
    start: at.start,
    end: at.end,
    ...(at.name !== undefined ? { name: at.name } : {}),
    headerPath: at.headerPath,
  };
}

/** Cut the plan's files into runs in order; files over their size limit are in a run but not read. */
function planRuns(mount: Mount, plan: IndexPlan, runBytes: number): Run[] {
  const runs: Run[] = [];
  let cur: { first: number; task: IndexTask; at: Map<string, number>; bytes: number; count: number } | undefined;
  const close = (end: number): void => {
    if (cur) runs.push({ first: cur.first, end, task: cur.task });
    cur = undefined;
  };
  const archiveOf = (ref: ArchiveRef): number => {
    let a = cur!.at.get(ref.diskPath);
    if (a === undefined) {
      cur!.at.set(ref.diskPath, (a = cur!.task.archives.length));
      cur!.task.archives.push(ref);
    }
    return a;
  };
  for (let i = 0; i < plan.files.length; i++) {
    if (cur && (cur.bytes >= runBytes || cur.count >= RUN_FILES)) close(i);
    cur ??= { first: i, task: { archives: [], files: [], maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint }, at: new Map(), bytes: 0, count: 0 };
    cur.count++;
    if (!plan.wanted(i)) continue;
    const file = workerFile(plan, i, archiveOf);
    if (!file) {
      cur.count--;
      close(i);
      runs.push({ first: i, end: i + 1 });
      continue;
    }
    cur.task.files.push(file);
    cur.bytes += file.end - file.start;
  }
  close(plan.files.length);
  return runs.filter((r) => r.end > r.first);
}

/**
 * `ScriptIndex.build` on the pool: the same index, its files read by the workers. Cancelled (the
 * options' `isCancelled` or `signal`), every worker is terminated before this resolves.
 */
export async function buildIndexParallel(mount: Mount, options: PoolIndexOptions): Promise<ScriptIndex> {
  // An abort stops the taking at once, mid-run too (the pool terminates the workers).
  const isCancelled = (): boolean => options.isCancelled?.() === true || options.signal?.aborted === true;
  const { index, plan } = ScriptIndex.start(mount, { ...options, isCancelled });
  const runs = planRuns(mount, plan, options.runBytes ?? RUN_BYTES);
  const outcome = await options.pool.run<IndexTask, PostedRead[]>({
    kind: INDEX_KIND,
    count: runs.length,
    task: (k) => runs[k].task,
    // The calling thread reads its file when the run is taken (below), not ahead of the budget's decision.
    runHere: () => [],
    onResult: (k, reads) => {
      const run = runs[k];
      let next = 0;
      for (let i = run.first; i < run.end; i++) {
        if (plan.cancelled()) return true;
        const f = plan.files[i];
        const read = run.task ? (plan.wanted(i) ? reads[next++] : undefined) : undefined;
        plan.take(i, () => (read === undefined || isReadHere(read) ? readIndexedFile(f.kind, f.path, f.read) : read));
      }
      return false;
    },
    isCancelled: () => plan.cancelled(),
    signal: options.signal,
  });
  if (outcome.cancelled) index.cancelled = true;
  return index;
}
