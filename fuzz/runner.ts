/**
 * The fuzz runner (main thread): one worker per target, one target at a time (the machines are
 * small), each worker under a memory cap (`resourceLimits`) and watched. A worker that stops
 * making progress is a hang, one that hits its heap cap or pushes the process past its ceiling is
 * over memory, one that dies otherwise a crash: each is counted at the case it was running, and a
 * new worker goes on from the next case. Cases depend only on (seed, target, index), so a report
 * replays with `--seed S --case N`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ERROR_CODES, type Finding, type FindingKind, SLOT, SLOT_COUNT, type TargetReport, hangLimitMs } from './outcomes';
import { loadSeeds, makeCase } from './target';
import { targetByName } from './targets';
import type { WorkerJob, WorkerMessage } from './worker';

export interface RunOptions {
  targets: string[];
  seed: number;
  /** Cases per target (replayable exactly), or a time budget split evenly across the targets. */
  budget: { cases: (target: string) => number; first?: number } | { seconds: number };
  /** No new case for this long (plus 10 ms per KiB of input) is a hang (default 60 s: a watchdog, not a measurement). */
  hangMs?: number;
  /** Building a target's seeds may take this long (default 120 s). */
  setupMs?: number;
  /** The worker's heap cap (default 512 MiB). */
  heapMb?: number;
  /** The process may grow this far past its size at the start (default 1.5 GiB): beyond, the worker is over memory. */
  rssCeilingMb?: number;
  /** Save the inputs of findings here. */
  saveDir?: string;
  onFinding?(f: Finding): void;
  onTarget?(r: TargetReport): void;
}

type WorkerEnd = { end: 'done' } | { end: 'setup'; problem: string } | { end: FindingKind; index: number; problem: string };

const emptyReport = (target: string): TargetReport => ({
  target,
  covers: targetByName(target).covers,
  cases: 0,
  success: 0,
  typed: 0,
  crash: 0,
  invariant: 0,
  hang: 0,
  overMemory: 0,
  figure: 0,
  errors: {},
  seeds: 0,
  findings: [],
  restarts: 0,
  ms: 0,
});

/** Run one worker from `job.start` until it finishes, hangs, outgrows its cap or dies. */
function runWorker(job: WorkerJob, o: RunOptions, onMessage: (m: WorkerMessage) => void): Promise<WorkerEnd> {
  const counters = new Int32Array(job.counters);
  const worker = new Worker(path.join(__dirname, 'worker.js'), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: o.heapMb ?? 512, maxYoungGenerationSizeMb: 32 },
  });
  const hangMs = o.hangMs ?? 60_000;
  const setupMs = o.setupMs ?? 120_000;
  const rssLimit = process.memoryUsage.rss() + (o.rssCeilingMb ?? 1536) * 2 ** 20;
  return new Promise<WorkerEnd>((resolve) => {
    let settled = false;
    let lastStarted = -1;
    let lastChange = Date.now();
    const finish = (e: WorkerEnd): void => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      void worker.terminate();
      resolve(e);
    };
    const at = (): number => Atomics.load(counters, SLOT.current);
    const inSetup = (): boolean => Atomics.load(counters, SLOT.state) === 0;
    const timer = setInterval(() => {
      const started = Atomics.load(counters, SLOT.started);
      if (started !== lastStarted) {
        lastStarted = started;
        lastChange = Date.now();
      }
      const idle = Date.now() - lastChange;
      if (inSetup() && idle > setupMs) finish({ end: 'setup', problem: `building the seeds took over ${setupMs} ms` });
      else if (!inSetup() && idle > hangLimitMs(hangMs, Atomics.load(counters, SLOT.kib)))
        finish({ end: 'hang', index: at(), problem: `no progress for ${idle} ms (${Atomics.load(counters, SLOT.kib)} KiB of input)` });
      else if (process.memoryUsage.rss() > rssLimit)
        finish({ end: 'overMemory', index: at(), problem: `the process passed its ceiling (${o.rssCeilingMb ?? 1536} MiB of growth)` });
    }, 200);
    worker.on('message', (m: WorkerMessage) => {
      onMessage(m);
      if (m.type === 'done') finish({ end: 'done' });
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (inSetup()) finish({ end: 'setup', problem: e.stack ?? String(e) });
      else if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') finish({ end: 'overMemory', index: at(), problem: `heap cap (${o.heapMb ?? 512} MiB) reached` });
      else finish({ end: 'crash', index: at(), problem: `the worker died: ${e.stack ?? String(e)}` });
    });
    worker.on('exit', (code) => {
      if (inSetup()) finish({ end: 'setup', problem: `the worker exited with code ${code} while building its seeds` });
      else if (Atomics.load(counters, SLOT.state) !== 2) finish({ end: 'crash', index: at(), problem: `the worker exited with code ${code}` });
      else finish({ end: 'done' });
    });
  });
}

/** A finding the runner itself saw (the worker could not report it): its case rebuilt here for the label. */
async function outsideFinding(o: RunOptions, target: string, kind: FindingKind, index: number, problem: string): Promise<Finding> {
  const t = targetByName(target);
  const c = makeCase(t, await loadSeeds(t), o.seed, index);
  const finding: Finding = { kind, target, seed: o.seed, index, label: c.label, problem };
  if (o.saveDir) {
    fs.mkdirSync(o.saveDir, { recursive: true });
    finding.saved = path.join(o.saveDir, `${target}-${o.seed}-${index}.bin`);
    fs.writeFileSync(finding.saved, c.bytes);
  }
  return finding;
}

/** Fuzz one target within its budget. */
async function runTarget(o: RunOptions, target: string, seconds: number | undefined): Promise<TargetReport> {
  const report = emptyReport(target);
  const began = Date.now();
  const counters = new SharedArrayBuffer(4 * SLOT_COUNT);
  const c = new Int32Array(counters);
  const first = 'cases' in o.budget ? (o.budget.first ?? 0) : 0;
  const end = 'cases' in o.budget ? first + o.budget.cases(target) : Infinity;
  const deadline = seconds === undefined ? Infinity : Date.now() + seconds * 1000;
  const addFinding = (f: Finding): void => {
    report.findings.push(f);
    o.onFinding?.(f);
  };
  let start = first;
  while (start < end && Date.now() < deadline) {
    Atomics.store(c, SLOT.state, 0);
    const job: WorkerJob = { target, seed: o.seed, start, end, deadline, counters, saveDir: o.saveDir };
    const e = await runWorker(job, o, (m) => {
      if (m.type === 'seeds') report.seeds = m.count;
      else if (m.type === 'finding') addFinding(m.finding);
      else if (m.type === 'done' && m.slowest && (!report.slowest || m.slowest.ms > report.slowest.ms)) report.slowest = m.slowest;
    });
    if (e.end === 'done') break;
    if (e.end === 'setup') {
      addFinding({ kind: 'crash', target, seed: o.seed, index: -1, label: 'building the seeds', problem: e.problem });
      report.crash++;
      break;
    }
    if (e.end === 'hang' || e.end === 'overMemory') report[e.end]++;
    else report.crash++;
    addFinding(await outsideFinding(o, target, e.end, e.index, e.problem));
    report.restarts++;
    start = e.index + 1;
  }
  report.cases = Atomics.load(c, SLOT.started);
  for (const k of ['success', 'typed', 'crash', 'invariant', 'figure'] as const) report[k] += Atomics.load(c, SLOT[k]);
  ERROR_CODES.forEach((code, i) => {
    const n = Atomics.load(c, SLOT.codes + i);
    if (n > 0) report.errors[code] = n;
  });
  report.ms = Date.now() - began;
  o.onTarget?.(report);
  return report;
}

/** Fuzz every target in `o.targets`, one after the other. */
export async function runFuzz(o: RunOptions): Promise<TargetReport[]> {
  const out: TargetReport[] = [];
  const share = 'seconds' in o.budget ? o.budget.seconds / o.targets.length : undefined;
  for (const t of o.targets) out.push(await runTarget(o, t, share));
  return out;
}
