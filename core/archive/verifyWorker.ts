/**
 * `verify`'s task on a pool worker (core/archive/workerPool.ts, served by core/workers/poolWorker.ts):
 * it opens each archive it is sent itself (read-only, refusing a file that is not the one the mount
 * opened: same device, inode, size and mtime), checks the unit's entries there and returns only the
 * unit's result: no chunk bytes cross threads.
 */
import { isArch06Error } from '../errors';
import { type FileStamp, fileChange } from '../io/node/disk';
import { type UnitResult, type VerifyUnit, runUnit } from './verifyUnits';
import type { WorkerArchives } from './workerArchives';

export const VERIFY_KIND = 'verify';

export interface VerifyTask {
  id: number;
  unit: VerifyUnit;
  name: string;
  diskPath: string;
  stamp: FileStamp;
  block: number;
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

/** Check one unit in the archive the task names (opened once per worker and kept). */
export function verifyTask(archives: WorkerArchives, task: VerifyTask): UnitResult {
  try {
    return runUnit(archives.open(task.name, task.diskPath, task.stamp), task.unit, task.block);
  } catch (e) {
    return unopened(task, e);
  }
}
