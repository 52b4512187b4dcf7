/**
 * Find in Files as the front ends run it: streamed, in slices on the calling thread, or across the
 * worker pool (core/archive/workerPool.ts) when one is given. On the pool the mounted files are
 * planned once per mount (which paths the include passes and which of them have text: ./fileText.ts
 * decides by type), cut into runs in the search's order, and each run is a task whose worker opens
 * the archives itself (./searchWorker.ts); the results are merged in order into the same
 * `TextSearch` a one-thread search fills, so the result is the same whatever the thread count.
 * Bundle members are searched after the mounted files on the calling thread, as before.
 */
import type { Mount } from '../archive/mount';
import type { MemberRow } from '../archive/memberCatalog';
import { type ArchiveRef, archiveRef } from '../archive/workerArchives';
import type { WorkerPool } from '../archive/workerPool';
import { globToRegExp } from './glob';
import { planFile } from './fileText';
import { SEARCH_KIND, type SearchTask, SearchWorkerState, type SearchUnitResult, nothingSearched } from './searchWorker';
import { TextSearch, type TextSearchOptions, type TextSearchResult } from './textSearch';

export interface StreamingOptions extends TextSearchOptions {
  /** Awaited between slices: the caller's event loop runs there (progress, cancel, the matches sent on). */
  pause: () => Promise<void>;
  /** How long one slice searches (default 30 ms). */
  sliceMs?: number;
  /**
   * Bundle members still being listed: awaited once the mounted paths are searched, so the first
   * results never wait for the member catalogue (undefined: no members).
   */
  laterMembers?: () => Promise<readonly MemberRow[] | undefined>;
  /** Search the mounted files across this pool's workers (none: on this thread, in slices). */
  pool?: WorkerPool;
  /** Aborting stops the pool's workers at once (a file being read included). */
  signal?: AbortSignal;
  /** Bytes of file in one task on the pool (default 1 MiB; the first task 1/16 of it). */
  runBytes?: number;
  /** Preparing the pool (`prepareSearch`): a background run on the pool, texts decoded, nothing matched. */
  prepare?: boolean;
}

/** Run a search, streaming matches through `onMatch`: across `pool` when given, else in slices of `sliceMs` with `pause` between. */
export async function searchTextStreaming(mount: Mount, options: StreamingOptions): Promise<TextSearchResult> {
  const onPool = options.pool !== undefined;
  const paths = options.paths ?? mount.distinctPaths();
  const s = new TextSearch(mount, onPool ? { ...options, paths: [] } : { ...options, paths });
  if (onPool) await searchOnPool(mount, paths, options, s, options.pool!);
  const slice = options.sliceMs ?? 30;
  const run = async (): Promise<void> => {
    while (!s.done) {
      s.step(performance.now() + slice);
      if (!s.done) await options.pause();
    }
  };
  await run();
  if (options.laterMembers && !s.result.cancelled && !s.result.limitHit) {
    const rows = await options.laterMembers();
    if (rows) {
      s.addMembers(rows);
      await run();
    }
  }
  s.settle();
  return s.result;
}

/** The mounted files of one (include, decoded) search cut into runs: planned once per mount. */
interface SearchPlan {
  /** Included files skipped unread by type, by why. */
  unread: [string, number][];
  unreadCount: number;
  runs: SearchTask[];
  /** Runs whose files the calling thread reads (a loose folder, an archive in memory). */
  here: boolean[];
  /** Each run's sources as the mount numbers them (parallel to its `archives`). */
  sources: number[][];
  /** Tells plans apart for the pool's affinity (a worker's cache holds the texts of the runs it did). */
  id: number;
}

let planIds = 0;

const plans = new WeakMap<Mount, Map<string, SearchPlan>>();
/** Bytes of file a run holds (the first run 1/16 of it, so the first results come at once). */
const RUN_BYTES = 1 << 20;
const RUN_FILES = 2048;

function planSearch(mount: Mount, paths: readonly string[], include: string | undefined, decoded: boolean, runBytes: number): SearchPlan {
  const key = `${include ?? ''}\0${decoded ? 1 : 0}\0${paths.length}\0${runBytes}`;
  let byKey = plans.get(mount);
  if (!byKey) plans.set(mount, (byKey = new Map()));
  const had = byKey.get(key);
  if (had) return had;
  const glob = include?.trim() ? globToRegExp(include) : undefined;
  const ix = mount.index();
  const unread = new Map<string, number>();
  const plan: SearchPlan = { unread: [], unreadCount: 0, runs: [], here: [], sources: [], id: ++planIds };
  let cur:
    | { paths: string[]; archive: number[]; file: number[]; refs: ArchiveRef[]; srcs: number[]; at: Map<number, number>; bytes: number; here: boolean }
    | undefined;
  const close = (): void => {
    if (!cur) return;
    const { paths: p, archive, file, refs } = cur;
    plan.runs.push({ ...TASK_DEFAULTS, archives: refs, paths: p, archive: Int32Array.from(archive), file: Int32Array.from(file) });
    plan.here.push(cur.here);
    plan.sources.push(cur.srcs);
    cur = undefined;
  };
  for (let d = 0; d < paths.length; d++) {
    const path = paths[d];
    if (glob && !glob.test(path)) continue;
    const fp = planFile(path, decoded);
    if (fp.read === 'no') {
      plan.unreadCount++;
      unread.set(fp.binary, (unread.get(fp.binary) ?? 0) + 1);
      continue;
    }
    const si = ix.winnerSource[d];
    const src = mount.sources[si];
    const ref = archiveRef(src);
    const here = ref === undefined;
    const limit = plan.runs.length === 0 ? runBytes / 16 : runBytes;
    if (cur && (cur.here !== here || cur.bytes >= limit || cur.paths.length >= RUN_FILES)) close();
    cur ??= { paths: [], archive: [], file: [], refs: [], srcs: [], at: new Map(), bytes: 0, here };
    let a = cur.at.get(si);
    if (a === undefined) {
      cur.at.set(si, (a = cur.refs.length));
      cur.refs.push(ref ?? { name: src.name, diskPath: '', stamp: { dev: 0, ino: 0, size: 0, mtimeMs: 0 } });
      cur.srcs.push(si);
    }
    cur.paths.push(path);
    cur.archive.push(a);
    cur.file.push(ix.winnerFile[d]);
    cur.bytes += fileSize(mount, si, ix.winnerFile[d]);
  }
  close();
  plan.unread = [...unread];
  byKey.set(key, plan);
  return plan;
}

function fileSize(mount: Mount, source: number, file: number): number {
  try {
    return mount.sources[source].entryAt(file).size;
  } catch {
    return 0;
  }
}

const TASK_DEFAULTS = { query: '', isRegExp: false, matchCase: false, decoded: false, maxFileSize: 16 << 20, maxMatches: 10_000 };

async function searchOnPool(mount: Mount, paths: readonly string[], options: StreamingOptions, s: TextSearch, pool: WorkerPool): Promise<void> {
  const decoded = options.decoded ?? false;
  const plan = planSearch(mount, paths, options.include, decoded, options.runBytes ?? RUN_BYTES);
  const r = s.result;
  r.filesTotal += paths.length;
  s.absorb({ ...nothingSearched(), included: plan.unreadCount, binary: plan.unread });
  const asked = {
    query: options.query,
    isRegExp: options.isRegExp ?? false,
    matchCase: options.matchCase ?? false,
    decoded,
    maxFileSize: options.maxFileSize ?? TASK_DEFAULTS.maxFileSize,
    maxMatches: options.maxMatches ?? TASK_DEFAULTS.maxMatches,
  };
  const local = new SearchWorkerState(undefined, 0); // the calling thread's own sources, nothing cached
  let done = 0;
  const outcome = await pool.run<SearchTask, SearchUnitResult>({
    kind: SEARCH_KIND,
    count: plan.runs.length,
    task: (i) => (plan.here[i] ? undefined : { ...plan.runs[i], ...asked, ...(options.prepare ? { warm: true } : {}) }),
    // The calling thread keeps no texts: preparing has nothing to do there.
    runHere: (i) =>
      options.prepare
        ? { ...nothingSearched(), included: plan.runs[i].paths.length }
        : local.run(
            { ...plan.runs[i], ...asked },
            plan.sources[i].map((k) => mount.sources[k]),
          ),
    onResult: (i, u) => {
      s.absorb(u);
      done += plan.runs[i].paths.length;
      options.onProgress?.(done, r.filesTotal);
      return r.limitHit;
    },
    isCancelled: options.isCancelled,
    signal: options.signal,
    affinity: `search ${plan.id}`,
    ...(options.prepare ? { priority: 'background' as const } : {}),
  });
  if (outcome.cancelled) r.cancelled = true;
}

/**
 * Fill the pool's text caches for searches of every file (no include) of `mount`, in the
 * background: a search that cannot match, run as a real one would be (the same runs, so each later
 * search's run goes to the worker that holds its texts), as a background run on the pool: a search
 * arriving meanwhile goes first, and the preparation goes on after it. Resolves with the
 * preparation's counts (`cancelled` when aborted, or ended by a cancelled search).
 */
export async function prepareSearch(
  mount: Mount,
  paths: readonly string[],
  pool: WorkerPool,
  decoded = false,
  signal?: AbortSignal,
  more: { runBytes?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<TextSearchResult> {
  return searchTextStreaming(mount, {
    query: '(?!)',
    isRegExp: true,
    decoded,
    paths,
    pool,
    keepMatches: false,
    prepare: true,
    pause: async () => {},
    ...more,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The front end's one preparation at a time: preparing a new mount (or none) cancels the previous
 * one, whose workers are then terminated unless a search is running on them (their caches hold
 * the old mount's texts, which the new one cannot use).
 */
export class SearchPreparation {
  private abort: AbortController | undefined;
  /** The preparation going on or last done (tests await it). */
  going: Promise<TextSearchResult> | undefined;

  /** Cancel the previous preparation; prepare `mount` on `pool` when both are given. */
  start(mount: Mount | undefined, paths: () => readonly string[], pool: WorkerPool | undefined, decoded = false): void {
    this.abort?.abort();
    this.abort = undefined;
    this.going = undefined;
    if (!mount || !pool) return;
    const abort = (this.abort = new AbortController());
    this.going = prepareSearch(mount, paths(), pool, decoded, abort.signal);
  }

  dispose(): void {
    this.abort?.abort();
  }
}
