/**
 * The one pool of worker threads for whole-game work (issue 25 item 3): `verify`, `extract` of a
 * folder and Find in Files hand it numbered tasks of one kind (the language server's cold index
 * does not run on it yet). Each task names the archives it needs; the worker (core/workers/poolWorker.ts, bundled as
 * dist/poolWorker.js) opens them itself, so only task descriptions and results cross threads,
 * never chunk bytes. Each worker holds a few tasks at once (`inFlight`) and gets the next as it
 * finishes one (the threads stay busy whatever the archives' sizes); results come back in any order and are handed on in task order.
 *
 * Workers stay up between runs (what they opened and cached stays warm), and a task a worker did
 * in an earlier run of the same `affinity` key goes to that worker again first (its cache holds
 * the task's text). Cancelling terminates every worker at once, a task in progress included; the
 * run resolves once they have all stopped, and the next run starts fresh ones.
 */
import { Worker } from 'node:worker_threads';

/** What travels to a worker: the handler's kind, the task's number and its description. */
export interface PoolRequest {
  kind: string;
  id: number;
  task: unknown;
}

/** What comes back: the task's number, its result (or the handler's error) and the worker's heap. */
export interface PoolAnswer {
  id: number;
  result?: unknown;
  error?: string;
  heapBytes: number;
}

export const POOL_WORKER_ROLE = 'arch06-pool-worker';

const SENT = 1;
const DONE = 2;

export interface PoolRun<T, R> {
  /** The worker handler's name (core/workers/poolWorker.ts). */
  kind: string;
  count: number;
  /** Task `i` for a worker, or undefined when the calling thread runs it itself (`runHere`). */
  task: (i: number) => T | undefined;
  /** Run task `i` on the calling thread (an archive in memory, a loose folder): called in its turn. */
  runHere?: (i: number) => R;
  /** Each result in task order; return true to stop the run there (a match limit). */
  onResult: (i: number, result: R) => boolean | void;
  signal?: AbortSignal;
  /** Polled after each result: true cancels like `signal`. */
  isCancelled?: () => boolean;
  /** Tasks of runs with the same key go to the worker that did them before (its cache is warm). */
  affinity?: string;
  /**
   * Tasks a worker holds at once (default 2: one being run, one waiting, so a calling thread busy
   * with other work does not leave the worker idle). Infinity hands every task out at the start,
   * round robin (background work that needs no balancing: the calling thread may stay busy).
   */
  inFlight?: number;
}

export interface PoolOutcome {
  cancelled: boolean;
  /** Stopped by `onResult` before the last task. */
  stopped: boolean;
  /** Threads that ran tasks. */
  threads: number;
}

/** A pool of `size` threads running `workerFile`; size 1 still uses one worker (callers run inline instead when they like). */
export class WorkerPool {
  private workers: Worker[] = [];
  private readonly owner = new Map<string, Int32Array>();
  /** Each worker's largest V8 heap seen, in start order (for the memory figures). */
  readonly heaps: number[] = [];
  /** Workers started over the pool's life, and those that have exited (terminated or failed). */
  started = 0;
  exited = 0;
  /** The last run queued: the next waits for it. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly workerFile: string,
    readonly size: number,
  ) {}

  private spawn(i: number): Worker {
    const w = new Worker(this.workerFile, { workerData: { role: POOL_WORKER_ROLE } });
    this.started++;
    w.on('exit', () => this.exited++);
    this.workers[i] = w;
    return w;
  }

  /** Stop every worker now (a task in progress included); resolves once all have exited. */
  async terminate(): Promise<void> {
    const ws = this.workers;
    this.workers = [];
    await Promise.all(ws.map((w) => w.terminate()));
  }

  /** Run `count` tasks; results are handed to `onResult` in task order as they arrive. Runs queue: one at a time. */
  run<T, R>(run: PoolRun<T, R>): Promise<PoolOutcome> {
    const p = this.tail.then(() => this.runNow(run));
    this.tail = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  }

  private runNow<T, R>(run: PoolRun<T, R>): Promise<PoolOutcome> {
    const tasks = Array.from({ length: run.count }, (_, i) => run.task(i));
    const remote = tasks.filter((t) => t !== undefined).length;
    const threads = Math.max(1, Math.min(this.size, remote));
    const owners = run.affinity ? this.ownersFor(run.affinity, run.count) : undefined;
    const results: (R | undefined)[] = new Array(run.count);
    const state = new Uint8Array(run.count); // SENT, then DONE
    const listeners: { w: Worker; event: string; f: (...a: never[]) => void }[] = [];
    let merged = 0;
    let next = 0;
    let settled = false;
    return new Promise<PoolOutcome>((resolve, reject) => {
      const end = (o: Omit<PoolOutcome, 'threads'>, error?: Error): void => {
        if (settled) return;
        settled = true;
        run.signal?.removeEventListener('abort', onAbort);
        for (const l of listeners) l.w.off(l.event, l.f as (...a: unknown[]) => void);
        const stopped = o.cancelled || error ? this.terminate() : Promise.resolve();
        for (const w of this.workers) w.unref(); // idle workers do not keep the process alive
        void stopped.then(() => {
          if (error) reject(error);
          else resolve({ ...o, threads: remote ? threads : 0 });
        }, reject);
      };
      const onAbort = (): void => end({ cancelled: true, stopped: false });
      if (run.signal?.aborted) return onAbort();
      run.signal?.addEventListener('abort', onAbort);

      /** Hand on every result ready in order; a calling-thread task runs when its turn comes. */
      const drain = (): void => {
        while (merged < run.count && !settled) {
          if (state[merged] !== DONE) {
            if (tasks[merged] !== undefined) return;
            if (!run.runHere) throw new Error(`task ${merged} of ${run.kind} has no worker task and no runHere`);
            results[merged] = run.runHere(merged);
          }
          const r = results[merged] as R;
          results[merged] = undefined;
          const stop = run.onResult(merged++, r);
          if (run.isCancelled?.()) return end({ cancelled: true, stopped: false });
          if (stop && merged < run.count) return end({ cancelled: false, stopped: true });
        }
        if (merged === run.count) end({ cancelled: false, stopped: false });
      };
      const free = (i: number): boolean => state[i] === 0 && tasks[i] !== undefined;
      /** The next task for worker `k`: one it did before, else the first nobody owns, else the first left. */
      const pick = (k: number): number => {
        while (next < run.count && !free(next)) next++;
        if (owners) {
          for (let i = next; i < run.count; i++) if (free(i) && owners[i] === k) return i;
          for (let i = next; i < run.count; i++) if (free(i) && (owners[i] < 0 || owners[i] >= threads)) return i;
        }
        return next;
      };
      const dispatch = (k: number): void => {
        const id = pick(k);
        if (id >= run.count) return;
        state[id] = SENT;
        if (owners) owners[id] = k;
        const req: PoolRequest = { kind: run.kind, id, task: tasks[id] };
        this.workers[k].postMessage(req);
      };
      const on = (w: Worker, event: string, f: (...a: never[]) => void): void => {
        w.on(event, f as (...a: unknown[]) => void);
        listeners.push({ w, event, f });
      };
      try {
        for (let k = 0; remote && k < threads; k++) {
          const w = this.workers[k] ?? this.spawn(k);
          w.ref();
          on(w, 'message', (a: PoolAnswer) => {
            if (settled) return;
            this.heaps[k] = Math.max(this.heaps[k] ?? 0, a.heapBytes);
            if (a.error !== undefined) return end({ cancelled: false, stopped: false }, new Error(`${run.kind} worker ${k}: ${a.error}`));
            results[a.id] = a.result as R;
            state[a.id] = DONE;
            dispatch(k);
            drain();
          });
          on(w, 'error', (e: Error) => end({ cancelled: false, stopped: false }, e));
          on(w, 'exit', (code: number) =>
            end({ cancelled: false, stopped: false }, new Error(`${run.kind} worker ${k} exited (code ${code}) before the run ended`)),
          );
        }
        // Round robin, so the first tasks are spread over the workers.
        const depth = Math.min(run.inFlight ?? 2, run.count);
        for (let r = 0; remote && r < depth; r++) for (let k = 0; k < threads; k++) dispatch(k);
        drain();
      } catch (e) {
        end({ cancelled: false, stopped: false }, e as Error);
      }
    });
  }

  private ownersFor(key: string, count: number): Int32Array {
    let o = this.owner.get(key);
    if (!o || o.length !== count) this.owner.set(key, (o = new Int32Array(count).fill(-1)));
    return o;
  }
}
