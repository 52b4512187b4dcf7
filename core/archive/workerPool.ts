/**
 * The one pool of worker threads for whole-game work (issue 25 item 3): `verify`, `extract` of a
 * folder, Find in Files and the language server's cold index (core/scriptIndex/indexPool.ts) hand
 * it numbered tasks of one kind. Each task names the archives it needs; the worker (core/workers/poolWorker.ts, bundled as
 * dist/poolWorker.js) opens them itself, so only task descriptions and results cross threads,
 * never chunk bytes. Each worker holds a few tasks at once (`inFlight`) and gets the next as it
 * finishes one (the threads stay busy whatever the archives' sizes); results come back in any order and are handed on in task order.
 *
 * Workers stay up between runs (what they opened and cached stays warm), and a task a worker did
 * in an earlier run of the same `affinity` key goes to that worker again first (its cache holds
 * the task's text).
 *
 * Foreground runs (the default) go one at a time, queued. A background run (`priority:
 * 'background'`, Find in Files preparing the workers' caches) starts at once beside them, but its
 * tasks go out one per worker and only while no foreground run has a task left to send, and a
 * background task in progress on a worker a foreground task is sent to is asked to end early
 * (`backgroundShouldYield`, a flag shared with the worker): a search arriving during a preparation
 * waits for the item in progress at most, and the preparation goes on after it, its tasks done not redone.
 *
 * Cancelling a foreground run terminates every worker at once, a task in progress included, and
 * the background runs going on end cancelled with it (their caches are gone with the workers);
 * the run resolves once they have all stopped, and the next run starts fresh ones. Cancelling a
 * background run while a foreground one is going only stops its tasks going out (the ones in
 * progress finish and are dropped), so the foreground run is not disturbed; alone, it terminates
 * the workers like a foreground run. A task's error fails its run; a foreground run's failure
 * terminates the workers, a background run's does not.
 */
import { Worker, isMainThread, workerData } from 'node:worker_threads';

/** What travels to a worker: the handler's kind, the task's number (unique in the pool) and its description. */
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

/** In a pool worker: set by the pool while a foreground task waits behind this thread's background task. */
const yieldFlag: Int32Array | undefined = isMainThread ? undefined : (workerData as { yieldFlag?: Int32Array } | undefined)?.yieldFlag;

/**
 * Whether the background task this thread runs should end now: a foreground task waits behind it.
 * A background task that can end early (preparing caches, whose partial work still counts) checks
 * this between its items; false on the calling thread and in foreground tasks' eyes alike.
 */
export function backgroundShouldYield(): boolean {
  return yieldFlag !== undefined && Atomics.load(yieldFlag, 0) === 1;
}

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
   * with other work does not leave the worker idle; a background run's default is 1, counting
   * every run's tasks on the worker). Infinity hands every task out at the start, round robin.
   */
  inFlight?: number;
  /**
   * 'background': starts at once instead of queueing, its tasks go out only while no foreground
   * run has one left to send, and a task another worker did before (affinity) is left to that
   * worker (a run that fills caches gains nothing from a second copy). Default 'foreground'.
   */
  priority?: 'foreground' | 'background';
  /** Task `i` went out to a worker (tests follow the order tasks go out in). */
  onSent?: (i: number) => void;
}

export interface PoolOutcome {
  cancelled: boolean;
  /** Stopped by `onResult` before the last task. */
  stopped: boolean;
  /** Threads that ran tasks. */
  threads: number;
}

/** A run going on: its tasks, what is sent and done, its results waiting for their turn. */
interface Going {
  run: PoolRun<unknown, unknown>;
  background: boolean;
  tasks: unknown[];
  /** Tasks for workers (not `runHere`) not yet sent. */
  unsent: number;
  threads: number;
  depth: number;
  owners: Int32Array | undefined;
  state: Uint8Array; // SENT, then DONE
  results: unknown[];
  /** Tasks of this run in flight on each worker. */
  onWorker: number[];
  merged: number;
  /** No free task before this one. */
  next: number;
  settled: boolean;
  end: (o: Omit<PoolOutcome, 'threads'>, error?: Error) => void;
}

/** A pool of `size` threads running `workerFile`; size 1 still uses one worker (callers run inline instead when they like). */
export class WorkerPool {
  private workers: Worker[] = [];
  /** Tasks in flight on each worker, every run's, and the background ones among them. */
  private load: number[] = [];
  private backgroundLoad: number[] = [];
  /** Each worker's yield flag (`backgroundShouldYield`), shared with it. */
  private yieldFlags: Int32Array[] = [];
  private readonly owner = new Map<string, Int32Array>();
  /** Runs going on: the foreground one (at most one) first, then the background ones as they came. */
  private going: Going[] = [];
  /** Tasks in flight by their pool-wide number. */
  private sent = new Map<number, { g: Going; i: number; k: number }>();
  private ids = 0;
  /** Each worker's largest V8 heap seen, in start order (for the memory figures). */
  readonly heaps: number[] = [];
  /** Workers started over the pool's life, and those that have exited (terminated or failed). */
  started = 0;
  exited = 0;
  /** Tasks sent to the workers over the pool's life, by run priority (tests count them). */
  readonly tasksSent = { foreground: 0, background: 0 };
  /** Workers being terminated: a run that stopped them resolves once they have exited. */
  private stopping: Promise<void> = Promise.resolve();
  /** The last foreground run queued: the next waits for it. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly workerFile: string,
    readonly size: number,
  ) {}

  private spawn(k: number): Worker {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const w = new Worker(this.workerFile, { workerData: { role: POOL_WORKER_ROLE, yieldFlag: flag } });
    this.started++;
    this.workers[k] = w;
    this.load[k] = 0;
    this.backgroundLoad[k] = 0;
    this.yieldFlags[k] = flag;
    const live = (): boolean => this.workers[k] === w;
    w.on('exit', (code: number) => {
      this.exited++;
      if (live()) this.lost(new Error(`worker ${k} exited (code ${code}) before the run ended`));
    });
    w.on('error', (e: Error) => {
      if (live()) this.lost(e);
    });
    w.on('message', (a: PoolAnswer) => {
      if (live()) this.answered(k, a);
    });
    return w;
  }

  /** Stop every worker now (a task in progress included); the runs going on end cancelled; resolves once all have exited. */
  terminate(): Promise<void> {
    return this.stopAll();
  }

  /** A worker failed or exited by itself: every run going on fails with it. */
  private lost(e: Error): void {
    void this.stopAll(e);
  }

  private stopAll(error?: Error): Promise<void> {
    const ws = this.workers;
    this.workers = [];
    this.load = [];
    this.backgroundLoad = [];
    this.yieldFlags = [];
    this.sent.clear();
    this.stopping = Promise.all([this.stopping, ...ws.map((w) => w.terminate())]).then(() => undefined);
    const stopped = this.stopping;
    const going = this.going;
    this.going = [];
    for (const g of going) g.end({ cancelled: !error, stopped: false }, error && new Error(`${g.run.kind} ${error.message}`, { cause: error }));
    return stopped;
  }

  /**
   * Run `count` tasks; results are handed to `onResult` in task order as they arrive. Foreground
   * runs queue, one at a time; a background run starts at once beside them (see the header).
   */
  run<T, R>(run: PoolRun<T, R>): Promise<PoolOutcome> {
    if (run.priority === 'background') return this.start(run);
    const p = this.tail.then(() => this.start(run));
    this.tail = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  }

  private start<T, R>(run: PoolRun<T, R>): Promise<PoolOutcome> {
    const tasks = Array.from({ length: run.count }, (_, i) => run.task(i));
    const remote = tasks.filter((t) => t !== undefined).length;
    const background = run.priority === 'background';
    return new Promise<PoolOutcome>((resolve, reject) => {
      const g: Going = {
        run: run as PoolRun<unknown, unknown>,
        background,
        tasks,
        unsent: remote,
        threads: Math.max(1, Math.min(this.size, remote)),
        depth: Math.min(run.inFlight ?? (background ? 1 : 2), run.count),
        owners: run.affinity ? this.ownersFor(run.affinity, run.count) : undefined,
        state: new Uint8Array(run.count),
        results: new Array(run.count),
        onWorker: [],
        merged: 0,
        next: 0,
        settled: false,
        end: (o, error) => {
          if (g.settled) return;
          g.settled = true;
          run.signal?.removeEventListener('abort', onAbort);
          this.going = this.going.filter((x) => x !== g);
          // A foreground run's cancel or failure stops every worker; a background run's cancel only
          // when it is alone (what the workers cached is of no more use), its failure never.
          const stopAll = background ? o.cancelled && this.going.length === 0 : o.cancelled || error !== undefined;
          const stopped = stopAll ? this.terminate() : Promise.resolve();
          if (this.going.length === 0)
            for (const w of this.workers) w.unref(); // idle workers do not keep the process alive
          else this.pump();
          void stopped.then(() => {
            if (error) reject(error);
            else resolve({ ...o, threads: remote ? g.threads : 0 });
          }, reject);
        },
      };
      const onAbort = (): void => g.end({ cancelled: true, stopped: false });
      if (run.signal?.aborted) return onAbort();
      run.signal?.addEventListener('abort', onAbort);
      if (background) this.going.push(g);
      else this.going.unshift(g);
      for (const w of this.workers) w?.ref();
      try {
        this.pump();
        this.drain(g);
      } catch (e) {
        g.end({ cancelled: false, stopped: false }, e as Error);
      }
    });
  }

  /** A worker's answer: the result kept for its turn, the worker given its next task, the results in order handed on. */
  private answered(k: number, a: PoolAnswer): void {
    const s = this.sent.get(a.id);
    if (!s) return;
    this.sent.delete(a.id);
    this.load[k]--;
    const g = s.g;
    g.onWorker[k]--;
    // The worker has no background task left to give way (one at a time goes out).
    if (g.background && --this.backgroundLoad[k] === 0) Atomics.store(this.yieldFlags[k], 0, 0);
    this.heaps[k] = Math.max(this.heaps[k] ?? 0, a.heapBytes);
    if (g.settled) return this.pump(); // a cancelled background run's task: dropped
    if (a.error !== undefined) return g.end({ cancelled: false, stopped: false }, new Error(`${g.run.kind} worker ${k}: ${a.error}`));
    g.results[s.i] = a.result;
    g.state[s.i] = DONE;
    try {
      this.pump();
      this.drain(g);
    } catch (e) {
      g.end({ cancelled: false, stopped: false }, e as Error);
    }
  }

  /** Hand on every result of `g` ready in order; a calling-thread task runs when its turn comes. */
  private drain(g: Going): void {
    const run = g.run;
    while (g.merged < run.count && !g.settled) {
      const i = g.merged;
      if (g.state[i] !== DONE) {
        if (g.tasks[i] !== undefined) return;
        if (!run.runHere) throw new Error(`task ${i} of ${run.kind} has no worker task and no runHere`);
        g.results[i] = run.runHere(i);
      }
      const r = g.results[i];
      g.results[i] = undefined;
      const stop = run.onResult(g.merged++, r);
      if (run.isCancelled?.()) return g.end({ cancelled: true, stopped: false });
      if (stop && g.merged < run.count) return g.end({ cancelled: false, stopped: true });
    }
    if (g.merged === run.count) g.end({ cancelled: false, stopped: false });
  }

  /**
   * Give every worker with room the next tasks, round robin (so the first tasks are spread): the
   * foreground run's first, a background run's only while no foreground run has one left to send.
   */
  private pump(): void {
    const foregroundWaiting = this.going.some((g) => !g.background && g.unsent > 0);
    for (const g of this.going) {
      if (g.background && foregroundWaiting) continue;
      for (let more = true; more && g.unsent > 0 && !g.settled;) {
        more = false;
        for (let k = 0; k < g.threads && g.unsent > 0; k++) {
          const held = g.background ? (this.load[k] ?? 0) : (g.onWorker[k] ?? 0);
          if (held >= g.depth) continue;
          const i = this.pick(g, k);
          if (i < 0) continue;
          this.send(g, k, i);
          more = true;
        }
      }
    }
  }

  /** The next task of `g` for worker `k`: one it did before, else the first nobody owns, else (foreground) the first left; -1: none. */
  private pick(g: Going, k: number): number {
    const free = (i: number): boolean => g.state[i] === 0 && g.tasks[i] !== undefined;
    const count = g.run.count;
    while (g.next < count && !free(g.next)) g.next++;
    if (g.next >= count) return -1;
    const owners = g.owners;
    if (owners) {
      for (let i = g.next; i < count; i++) if (free(i) && owners[i] === k) return i;
      for (let i = g.next; i < count; i++) if (free(i) && (owners[i] < 0 || owners[i] >= g.threads)) return i;
      if (g.background) return -1;
    }
    return g.next;
  }

  private send(g: Going, k: number, i: number): void {
    const w = this.workers[k] ?? this.spawn(k);
    g.state[i] = SENT;
    g.unsent--;
    if (g.owners) g.owners[i] = k;
    const id = ++this.ids;
    this.sent.set(id, { g, i, k });
    this.load[k]++;
    g.onWorker[k] = (g.onWorker[k] ?? 0) + 1;
    if (g.background) this.backgroundLoad[k]++;
    else if (this.backgroundLoad[k] > 0) Atomics.store(this.yieldFlags[k], 0, 1); // the background task in progress gives way
    this.tasksSent[g.background ? 'background' : 'foreground']++;
    const req: PoolRequest = { kind: g.run.kind, id, task: g.tasks[i] };
    w.postMessage(req);
    g.run.onSent?.(i);
  }

  private ownersFor(key: string, count: number): Int32Array {
    let o = this.owner.get(key);
    if (!o || o.length !== count) this.owner.set(key, (o = new Int32Array(count).fill(-1)));
    return o;
  }
}
