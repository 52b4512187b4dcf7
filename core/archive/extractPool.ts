/**
 * Extraction across the worker pool (issue 25 item 3): the entries cut into runs in their order
 * (at most `RUN_BYTES` of file or `RUN_FILES` files each), each run a task whose worker opens the
 * archives and the output folder itself and writes the files (./extractWorker.ts); outcomes are
 * merged in entry order into the result one thread makes (`extractEntries`). Paths that differ only
 * in case from an earlier one are refused before any run goes out, so no worker writes them; an
 * entry of a loose folder or an archive in memory is written on the calling thread, first.
 */
import { listDirectory } from '../io/node/disk';
import { OutputFolder } from '../io/node/outputFolder';
import { type EntryOutcome, type ExtractOptions, type ExtractResult, ExtractMerge, extractOne } from './extract';
import { EXTRACT_KIND, type ExtractTask } from './extractWorker';
import { LtarEntry } from './ltarSource';
import type { Mount } from './mount';
import type { SourceEntry } from './source';
import { type ArchiveRef, archiveRef } from './workerArchives';
import type { WorkerPool } from './workerPool';

const RUN_BYTES = 64 << 20;
const RUN_FILES = 256;

export interface ParallelExtractOptions extends ExtractOptions {
  pool: WorkerPool;
  signal?: AbortSignal;
  /** Bytes of file in one run (default 64 MiB). */
  runBytes?: number;
}

interface Run {
  first: number;
  end: number;
  task?: ExtractTask;
}

/** Cut the entries into runs: a run holds entries workers can open, or one entry the calling thread writes. */
function planRuns(mount: Mount, entries: SourceEntry[], clashes: (EntryOutcome | undefined)[], outDir: string, block: number, runBytes: number): Run[] {
  const runs: Run[] = [];
  const forbid = mount.readOnlyPlaces();
  let cur: { first: number; refs: ArchiveRef[]; at: Map<string, number>; archive: number[]; file: number[]; bytes: number } | undefined;
  const close = (end: number): void => {
    if (!cur) return;
    runs.push({
      first: cur.first,
      end,
      task: { outDir, forbid, block, archives: cur.refs, archive: Int32Array.from(cur.archive), file: Int32Array.from(cur.file) },
    });
    cur = undefined;
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const ref = clashes[i] ? undefined : archiveRef(e.source);
    if (!ref || !(e instanceof LtarEntry)) {
      close(i);
      runs.push({ first: i, end: i + 1 });
      continue;
    }
    if (cur && (cur.bytes >= runBytes || cur.archive.length >= RUN_FILES)) close(i);
    cur ??= { first: i, refs: [], at: new Map(), archive: [], file: [], bytes: 0 };
    let a = cur.at.get(ref.diskPath);
    if (a === undefined) {
      cur.at.set(ref.diskPath, (a = cur.refs.length));
      cur.refs.push(ref);
    }
    cur.archive.push(a);
    cur.file.push(e.index);
    cur.bytes += e.size;
  }
  close(entries.length);
  return runs;
}

/** `extractEntries` across the pool: the same files written and the same result, in entry order. */
export async function extractEntriesParallel(mount: Mount, entries: SourceEntry[], outDir: string, options: ParallelExtractOptions): Promise<ExtractResult> {
  // Opened here first: the folder is made and checked (outside the install) before any worker writes.
  const out = OutputFolder.open(outDir, { forbid: mount.readOnlyPlaces() });
  const block = options.blockSize ?? 16 << 20;
  const result: ExtractResult = { files: 0, bytes: 0, failures: [], changed: [], cancelled: false };
  const merge = new ExtractMerge(result);
  const clashes = entries.map((e) => merge.clash(e.path));
  const runs = planRuns(mount, entries, clashes, outDir, block, options.runBytes ?? RUN_BYTES);
  const here = new Map<number, EntryOutcome>();
  const merged = new Set<number>();
  try {
    // The entries the calling thread reads (loose files, archives in memory) are written first;
    // their outcomes are handed on in their turn.
    await writeHere(runs, entries, clashes, out, block, here);
    const outcome = await options.pool.run<ExtractTask, EntryOutcome[]>({
      kind: EXTRACT_KIND,
      count: runs.length,
      task: (k) => runs[k].task,
      // A single entry: a clash (nothing written), or a file the calling thread reads.
      runHere: (k) => [here.get(k) ?? clashes[runs[k].first] ?? { failure: { message: 'internal: not written', code: 'ERROR' } }],
      onResult: (k, outcomes) => {
        merged.add(k);
        const run = runs[k];
        for (let i = run.first; i < run.end; i++) {
          const e = entries[i];
          // What the worker did, as it did it (a file written after its archive was seen changed is still written).
          merge.add(e.path, e.source.name, outcomes[i - run.first]);
          options.onProgress?.(i + 1, entries.length, result.bytes, e.path);
        }
      },
      signal: options.signal,
      isCancelled: options.isCancelled,
    });
    result.cancelled = outcome.cancelled;
  } finally {
    // A cancel terminates the workers at once, a write in progress included: its temp file stays.
    if (merged.size < runs.length) removeLeftTemps(out, runs, entries, merged);
    out.close();
  }
  return result;
}

/** The names the write primitive gives its temp files (core/io/node/outputFolder.ts). */
const TEMP_NAME = /^\.arch06-[0-9a-f]{24}\.tmp$/;

/**
 * Remove the temp files a terminated worker left in the folders of the runs that did not finish
 * (bounded by those runs' entries). Only regular files named as the write primitive names its own
 * temp files are removed, each through the output folder's checked removal.
 */
function removeLeftTemps(out: OutputFolder, runs: Run[], entries: SourceEntry[], merged: Set<number>): void {
  const folders = new Map<string, string[]>();
  for (let k = 0; k < runs.length; k++) {
    if (merged.has(k) || !runs[k].task) continue;
    for (let i = runs[k].first; i < runs[k].end; i++) {
      const dir = entries[i].path.split('\\').slice(0, -1);
      folders.set(dir.join('\\'), dir);
    }
  }
  for (const dir of folders.values()) {
    let listed;
    try {
      listed = listDirectory(out.pathOf(dir));
    } catch {
      continue; // never made: nothing was left there
    }
    for (const { name, isDirectory } of listed) {
      if (isDirectory || !TEMP_NAME.test(name)) continue;
      try {
        out.removeSync([...dir, name]);
      } catch {
        // a folder swapped or a name that is no longer a file: left as it is, not followed
      }
    }
  }
}

/** Write the entries the calling thread reads (loose files, archives in memory) up front; the pool hands their outcomes on in turn. */
async function writeHere(
  runs: Run[],
  entries: SourceEntry[],
  clashes: (EntryOutcome | undefined)[],
  out: OutputFolder,
  block: number,
  here: Map<number, EntryOutcome>,
): Promise<void> {
  for (let k = 0; k < runs.length; k++) {
    const i = runs[k].first;
    if (runs[k].task || clashes[i]) continue;
    here.set(k, await extractOne(out, entries[i], block));
  }
}
