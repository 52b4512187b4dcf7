/**
 * One target's fuzz loop, in a worker thread (fuzz/runner.ts starts it with a memory cap and
 * watches its heartbeat). Before each case it publishes the case index; it counts each outcome in
 * shared memory and posts each finding at once, so a worker killed for a hang or the cap loses
 * nothing already counted.
 *
 * Memory: what a case keeps alive is measured as the heap and external (array buffer) bytes grown
 * while it ran, holding its result. When that passes the figure (20x the input + 32 MiB) the case
 * runs again between full collections, and only the growth that survives them is a finding.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { Arch06Error } from '../core/errors';
import { ERROR_CODES, type Finding, type FindingKind, SLOT, type SlowCase, figureBound } from './outcomes';
import { FuzzInvariant, type FuzzCase, type FuzzTarget, loadSeeds, makeCase } from './target';
import { targetByName } from './targets';

export interface WorkerJob {
  target: string;
  seed: number;
  /** First case index, and one past the last (cases mode) or Infinity (time mode). */
  start: number;
  end: number;
  /** Epoch ms after which no case starts (time mode), or Infinity. */
  deadline: number;
  counters: SharedArrayBuffer;
  /** Where inputs of findings are saved (first few per kind), or undefined. */
  saveDir?: string;
}

export type WorkerMessage = { type: 'seeds'; count: number } | { type: 'finding'; finding: Finding } | { type: 'done'; slowest?: SlowCase };

const heapNow = (): number => {
  const s = v8.getHeapStatistics();
  return s.used_heap_size + s.external_memory;
};

let gc: (() => void) | undefined;
function collect(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}

const saved = new Map<FindingKind, number>();

function report(job: WorkerJob, c: FuzzCase, kind: FindingKind, problem: string): void {
  const finding: Finding = { kind, target: job.target, seed: job.seed, index: c.index, label: c.label, problem };
  const n = saved.get(kind) ?? 0;
  if (job.saveDir && n < 5) {
    saved.set(kind, n + 1);
    fs.mkdirSync(job.saveDir, { recursive: true });
    finding.saved = path.join(job.saveDir, `${job.target}-${job.seed}-${c.index}.bin`);
    fs.writeFileSync(finding.saved, c.bytes);
  }
  parentPort!.postMessage({ type: 'finding', finding } satisfies WorkerMessage);
}

/** Run one case; its outcome (a finding kind, or success / a typed error code) and what it built. */
async function attempt(target: FuzzTarget, c: FuzzCase): Promise<{ outcome: 'success' | Arch06Error | FindingKind; problem?: string; built?: unknown }> {
  try {
    const built = await target.run(c);
    return { outcome: 'success', built };
  } catch (e) {
    if (e instanceof Arch06Error) return { outcome: e };
    if (e instanceof FuzzInvariant) return { outcome: 'invariant', problem: e.message };
    return { outcome: 'crash', problem: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

/** What case `index` keeps alive once collections have run (the second, careful measure). */
async function retainedAfterCollection(target: FuzzTarget, seeds: Parameters<typeof makeCase>[1], job: WorkerJob, index: number): Promise<number> {
  const c = makeCase(target, seeds, job.seed, index);
  collect();
  const before = heapNow();
  const r = await attempt(target, c);
  collect();
  const after = heapNow();
  void r.built;
  return after - before;
}

async function main(job: WorkerJob): Promise<void> {
  const counters = new Int32Array(job.counters);
  const target = targetByName(job.target);
  const seeds = await loadSeeds(target);
  if (seeds.length === 0) throw new Error(`${job.target}: no seeds`);
  parentPort!.postMessage({ type: 'seeds', count: seeds.length } satisfies WorkerMessage);
  Atomics.store(counters, SLOT.state, 1);
  let slowest: SlowCase | undefined;
  for (let index = job.start; index < job.end && Date.now() < job.deadline; index++) {
    const c = makeCase(target, seeds, job.seed, index);
    Atomics.store(counters, SLOT.kib, Math.ceil(c.bytes.length / 1024));
    Atomics.store(counters, SLOT.current, index);
    Atomics.add(counters, SLOT.started, 1);
    const basis = target.memoryBasis?.(c) ?? c.bytes.length;
    const before = heapNow();
    const began = performance.now();
    const r = await attempt(target, c);
    const ms = performance.now() - began;
    const grown = heapNow() - before;
    if (!slowest || ms > slowest.ms) slowest = { index, ms: Math.round(ms), bytes: c.bytes.length, label: c.label };
    void r.built;
    if (r.outcome === 'success') Atomics.add(counters, SLOT.success, 1);
    else if (r.outcome instanceof Arch06Error) {
      Atomics.add(counters, SLOT.typed, 1);
      Atomics.add(counters, SLOT.codes + ERROR_CODES.indexOf(r.outcome.code), 1);
    } else {
      Atomics.add(counters, SLOT[r.outcome as 'crash' | 'invariant'], 1);
      report(job, c, r.outcome, r.problem ?? '');
    }
    if (grown > figureBound(basis)) {
      const retained = await retainedAfterCollection(target, seeds, job, index);
      if (retained > figureBound(basis)) {
        Atomics.add(counters, SLOT.figure, 1);
        report(job, c, 'figure', `kept ${retained} bytes alive for a ${basis}-byte input (figure: ${figureBound(basis)})`);
      }
    }
  }
  Atomics.store(counters, SLOT.state, 2);
  parentPort!.postMessage({ type: 'done', slowest } satisfies WorkerMessage);
}

if (parentPort) void main(workerData as WorkerJob);
