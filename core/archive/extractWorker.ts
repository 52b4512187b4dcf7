/**
 * Extraction's task on a pool worker (core/archive/workerPool.ts, served by core/workers/poolWorker.ts):
 * a run of entries, each named by its archive and its number there; the worker opens the archives
 * and the output folder itself (the same checks as the calling thread: the folder's real path
 * outside the install and every mounted source) and writes each file through the one write
 * primitive (`OutputFolder`), returning only each entry's outcome: no file bytes cross threads.
 */
import { isArch06Error } from '../errors';
import { OutputFolder } from '../io/node/outputFolder';
import { type EntryOutcome, extractOne } from './extract';
import type { ArchiveRef, WorkerArchives } from './workerArchives';

export const EXTRACT_KIND = 'extract';

export interface ExtractTask {
  outDir: string;
  /** The mount's read-only places (`Mount.readOnlyPlaces`): the folder must be outside them. */
  forbid: string[];
  block: number;
  archives: ArchiveRef[];
  /** Each entry's archive (an index into `archives`) and its number there. */
  archive: Int32Array;
  file: Int32Array;
}

/** Write a run of entries; the output folder is opened for the run and closed after it. */
export async function extractTask(archives: WorkerArchives, task: ExtractTask): Promise<EntryOutcome[]> {
  const folder = OutputFolder.open(task.outDir, { forbid: task.forbid });
  try {
    return await writeRun(archives, folder, task);
  } finally {
    folder.close();
  }
}

async function writeRun(archives: WorkerArchives, folder: OutputFolder, task: ExtractTask): Promise<EntryOutcome[]> {
  {
    const out: EntryOutcome[] = [];
    for (let i = 0; i < task.file.length; i++) {
      const ref = task.archives[task.archive[i]];
      let entry;
      try {
        entry = archives.open(ref.name, ref.diskPath, ref.stamp).entryAt(task.file[i]);
      } catch (e) {
        if (!isArch06Error(e)) throw e;
        const changed = e.code === 'CHANGED_ON_DISK' ? { archive: true, detail: e.description } : undefined;
        out.push({ failure: { message: e.message, code: e.code }, ...(changed ? { changed } : {}) });
        continue;
      }
      out.push(await extractOne(folder, entry, task.block));
    }
    return out;
  }
}
