/**
 * Extraction's task on a pool worker (core/archive/workerPool.ts, served by core/workers/poolWorker.ts):
 * a run of entries, each named by its archive and its number there; the worker opens the archives
 * and the output folder itself (the same checks as the calling thread: the folder's real path
 * outside the install and every mounted source) and writes each file through the one write
 * primitive (`OutputFolder`), returning only each entry's outcome: no file bytes cross threads.
 */
import { isArch06Error } from '../errors';
import { fileChange } from '../io/node/disk';
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

/** The output folder a worker holds between tasks of one extraction, closed once idle (it holds the folders open). */
let held: { dir: string; folder: OutputFolder; timer?: NodeJS.Timeout } | undefined;
const IDLE_CLOSE_MS = 500;

function folderFor(task: ExtractTask): OutputFolder {
  if (held) clearTimeout(held.timer);
  const key = [task.outDir, ...task.forbid].join('\0');
  if (held?.dir !== key) {
    held?.folder.close();
    held = undefined;
    held = { dir: key, folder: OutputFolder.open(task.outDir, { forbid: task.forbid }) };
  }
  return held.folder;
}

/** Write a run of entries into the task's folder (opened once for the tasks that follow each other, closed when idle). */
export async function extractTask(archives: WorkerArchives, task: ExtractTask): Promise<EntryOutcome[]> {
  const folder = folderFor(task);
  try {
    return await writeRun(archives, folder, task);
  } finally {
    const h = held;
    if (h)
      h.timer = setTimeout(() => {
        if (held === h) held = undefined;
        h.folder.close();
      }, IDLE_CLOSE_MS).unref();
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
        // Said as the calling thread says it: the file against the stamp the mount opened.
        const changed = e.code === 'CHANGED_ON_DISK' ? { archive: true, detail: fileChange(ref.diskPath, ref.stamp)?.detail ?? e.description } : undefined;
        out.push({ failure: { message: e.message, code: e.code }, ...(changed ? { changed } : {}) });
        continue;
      }
      out.push(await extractOne(folder, entry, task.block));
    }
    return out;
  }
}
