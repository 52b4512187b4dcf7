/**
 * A `verify` worker thread (core/archive/verifyPool.ts): it opens each archive it is sent itself
 * (read-only, refusing a file that is not the one the mount opened: same device, inode, size and
 * mtime), checks the unit's entries there and sends back only the unit's result: no chunk bytes
 * cross threads. The CLI bundle (dist/cli.js) is its own worker entry: `cli/main.ts` serves here
 * when started as one.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isArch06Error } from '../errors';
import { FileByteSource } from '../io/node/fileSource';
import { type FileStamp, fileChange } from '../io/node/disk';
import { LtarSource } from './ltarSource';
import { type UnitResult, type VerifyUnit, runUnit } from './verifyUnits';

export const VERIFY_WORKER_ROLE = 'arch06-verify-worker';

export interface VerifyTask {
  id: number;
  unit: VerifyUnit;
  name: string;
  diskPath: string;
  stamp: FileStamp;
  block: number;
}

export interface VerifyAnswer {
  id: number;
  result: UnitResult;
  /** The worker's V8 heap in use after the unit, for the memory figure. */
  heapBytes: number;
}

/** Whether this thread was started as a verify worker. */
export function isVerifyWorker(): boolean {
  return !isMainThread && (workerData as { role?: string } | undefined)?.role === VERIFY_WORKER_ROLE;
}

/** The result of a unit whose archive could not be opened here. */
function unopened(task: VerifyTask, e: unknown): UnitResult {
  const r: UnitResult = { entries: 0, bytes: 0, failures: [], unsupportedChunks: {}, unsupportedForms: {}, chunksByCodec: {}, last: `${task.name}` };
  // Said as the calling thread says it: the file against the stamp the mount opened.
  if (isArch06Error(e) && e.code === 'CHANGED_ON_DISK')
    r.changed = { at: task.unit.first, detail: fileChange(task.diskPath, task.stamp)?.detail ?? e.description };
  else {
    r.failures.push({
      source: task.name,
      path: '',
      code: isArch06Error(e) ? e.code : 'ERROR',
      message: `could not be opened on a worker thread: ${(e as Error).message}`,
    });
    if ((task.unit.range?.part ?? 0) === 0) r.entries = task.unit.end - task.unit.first;
  }
  return r;
}

/** Answer tasks until the thread is terminated; each archive is opened once and kept. */
export function serveVerifyWorker(): void {
  const open = new Map<string, LtarSource>();
  parentPort!.on('message', (task: VerifyTask) => {
    let result: UnitResult;
    try {
      let s = open.get(task.diskPath);
      if (!s) open.set(task.diskPath, (s = new LtarSource(task.name, task.diskPath, FileByteSource.open(task.diskPath, task.name, task.stamp))));
      result = runUnit(s, task.unit, task.block);
    } catch (e) {
      result = unopened(task, e);
    }
    const answer: VerifyAnswer = { id: task.id, result, heapBytes: process.memoryUsage().heapUsed };
    parentPort!.postMessage(answer);
  });
}

// Loaded as a worker (the compiled module itself, or a bundle that includes it: dist/cli.js): serve.
if (isVerifyWorker()) serveVerifyWorker();
