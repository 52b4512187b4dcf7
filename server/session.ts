/**
 * What opening an install means for the language server, without LSP: the workspace made from the
 * settings under the memory ceiling (the index keeps to half of it, the hash names' reads to a
 * quarter, and the live heap is checked between files, so a process fuller than counted stops the
 * index early), and the lines the edge shows: what was indexed, what was left out and why, what
 * could not be mounted. The edge (server.ts) sends them.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkerPool } from '../core/archive';
import { ScriptWorkspace } from './analysis/workspace';
import { type ServerSettings, memoryCeilingBytes, readDictionaryFiles } from './settings';

export interface OpenedInstall {
  ws: ScriptWorkspace;
  /** For the log. */
  info?: string;
  /** For a warning notification: files left out to stay under the ceiling. */
  warning?: string;
  /** For an error notification: the install could not be mounted (`ws` then has none). */
  error?: string;
}

/** How the cold index runs: on a worker pool and cancellable, or on this thread. */
export interface IndexRun {
  pool?: WorkerPool;
  signal?: AbortSignal;
}

/**
 * Mount and index the install `s` names (none without `installRoot`); with `run.pool`, the index is
 * built on the workers while this thread answers requests. Cancelled by `run.signal`: undefined
 * (the mount closed).
 */
export async function openInstall(
  s: ServerSettings,
  onProgress: (done: number, total: number) => void,
  log: (line: string) => void,
  run: IndexRun = {},
): Promise<OpenedInstall | undefined> {
  const started = Date.now();
  const ceiling = memoryCeilingBytes(s);
  let ws: ScriptWorkspace;
  try {
    ws = await ScriptWorkspace.createAsync(
      s.installRoot ? { installRoot: s.installRoot, cfg: s.cfg, extraArchives: s.extraArchives, mods: s.mods } : undefined,
      {
        onProgress,
        cacheFolder: s.cacheFolder,
        log,
        maxRetainedBytes: ceiling / 2,
        namesBudgetBytes: ceiling / 4,
        overMemory: () => overMemory(ceiling),
        ...run,
      },
    );
  } catch (e) {
    return {
      ws: ScriptWorkspace.create(undefined),
      error: `arch06 language server: could not mount ${s.installRoot}: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const i = ws.index;
  if (i?.cancelled) {
    ws.dispose();
    return undefined;
  }
  if (!i) return { ws };
  const left = i.skipped.filter((x) => x.reason.startsWith('not indexed')).length;
  const threads = run.pool ? ` on ${run.pool.size} workers` : '';
  return {
    ws,
    info:
      `${ws.indexedFrom === 'cache' ? 'read the index from the cache' : `indexed${threads}`}: ${i.scripts().length} scripts and ${i.registries} registries of ${s.installRoot} in ${Date.now() - started} ms` +
      (i.failures.length ? `; ${i.failures.length} could not be read (first: ${i.failures[0].path}: ${i.failures[0].reason})` : ''),
    ...(i.degraded
      ? { warning: `arch06 language server: ${left} files left out of the index: ${i.degraded} (setting arch06.languageServer.maxMemoryMB)` }
      : {}),
  };
}

/**
 * The server's cold indexes, one at a time: each `open` cancels the one before it (a new mount),
 * `stop` cancels the last (shutdown); a cancelled build's workers are terminated before its
 * `open` resolves (undefined). The pool is sized by the settings' `workers` (0: the cores; 1 or
 * unset: no pool, today's build on this thread) and kept between mounts.
 */
export class Indexing {
  private pool: WorkerPool | undefined;
  private current: AbortController | undefined;
  /** Files taken of the build in progress, or undefined when none is. */
  progress: { done: number; total: number } | undefined;

  /** `workerFile`: dist/server.js bundles this module beside dist/poolWorker.js. */
  constructor(private readonly workerFile = path.join(__dirname, 'poolWorker.js')) {}

  async open(s: ServerSettings, onProgress: (done: number, total: number) => void, log: (line: string) => void): Promise<OpenedInstall | undefined> {
    this.current?.abort();
    const mine = (this.current = new AbortController());
    const pool = this.poolFor(s);
    this.progress = { done: 0, total: 0 };
    try {
      const opened = await openInstall(
        s,
        (done, total) => {
          if (this.current === mine) this.progress = { done, total };
          onProgress(done, total);
        },
        log,
        { ...(pool ? { pool } : {}), signal: mine.signal },
      );
      // A newer mount (or shutdown) came while this one was read: it is not the server's any more.
      if (this.current === mine) return opened;
      opened?.ws.dispose();
      return undefined;
    } finally {
      if (this.current === mine) this.progress = this.current = undefined;
    }
  }

  /** Cancel the build in progress and stop every worker (resolves once they have exited). */
  async stop(): Promise<void> {
    this.current?.abort();
    await this.pool?.terminate();
  }

  /** For the status request: the build in progress, the pool's size and its workers started and exited. */
  status(): { indexing: { done: number; total: number } | null; workers: number; workersStarted: number; workersExited: number } {
    const p = this.pool;
    return { indexing: this.progress ?? null, workers: p?.size ?? 1, workersStarted: p?.started ?? 0, workersExited: p?.exited ?? 0 };
  }

  private poolFor(s: ServerSettings): WorkerPool | undefined {
    const n = s.workers === 0 ? os.availableParallelism() : (s.workers ?? 1);
    if (n <= 1) return undefined;
    if (this.pool?.size !== n) {
      void this.pool?.terminate();
      this.pool = new WorkerPool(this.workerFile, n);
    }
    return this.pool;
  }
}

/** Why the process is over its memory ceiling (heap and buffers past 80% of it), or undefined. */
export function overMemory(ceiling: number): string | undefined {
  const m = process.memoryUsage();
  const used = m.heapUsed + m.arrayBuffers;
  return used > ceiling * 0.8 ? `the server uses ${Math.round(used / 2 ** 20)} MiB of its ${Math.round(ceiling / 2 ** 20)} MiB ceiling` : undefined;
}

/** Give `ws` the names of the settings' dictionary files; the warnings about files not read. */
export function setUserNames(ws: ScriptWorkspace, s: ServerSettings): string[] {
  const { names, warnings } = readDictionaryFiles(s.dictionaryFiles ?? []);
  ws.setUserNames(names);
  return warnings.map((w) => `arch06: dictionary file ${w}`);
}

/** Build (or read back) the cross-script facts of `ws` (globals across scripts, the API's usage): the log line. */
export function crossScriptFacts(ws: ScriptWorkspace): string {
  const x = ws.cross();
  return `cross-script index (globals, API usage) ${ws.crossFrom === 'cache' ? 'read from the cache' : 'built'} in ${x.buildMs.toFixed(0)} ms`;
}

/**
 * The cross-script facts (globals across scripts, the API's usage) in the background, so the first
 * completion or reference does not wait for the pass: the log line to `info`, a failure to `fail`.
 */
export function crossScriptFactsLater(ws: ScriptWorkspace, info: (line: string) => void, fail: (e: unknown) => void): void {
  setTimeout(() => {
    try {
      info(crossScriptFacts(ws));
    } catch (e) {
      fail(e);
    }
  }, 0);
}
