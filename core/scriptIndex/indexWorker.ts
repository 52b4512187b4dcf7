/**
 * The script index's task on a pool worker (core/archive/workerPool.ts, served by
 * core/workers/poolWorker.ts): a run of served files, each named by its archive, its entry there
 * and the byte range (a bundle member is a range of its container), read with the checks the
 * calling thread would make (./indexRead.ts `readIndexedFile`). The worker opens the archives
 * itself; only each file's reading (text and definitions, a registry's resolved bindings) comes back.
 */
import { headerCheckFor, readEntryChecked } from '../archive/entryRead';
import type { ArchiveRef, WorkerArchives } from '../archive/workerArchives';
import { type FileRead, type IndexedKind, readIndexedFile } from './indexRead';

export const INDEX_KIND = 'scriptIndex';

/** One file of a run: where its bytes are and how they are checked. */
export interface IndexTaskFile {
  kind: IndexedKind;
  path: string;
  /** Index into the task's `archives`, and the entry's number there. */
  archive: number;
  entry: number;
  start: number;
  end: number;
  /** What errors name it (undefined: the entry's source and path, as the calling thread says it). */
  name?: string;
  /** The path whose format the first bytes are checked against. */
  headerPath: string;
}

export interface IndexTask {
  archives: ArchiveRef[];
  files: IndexTaskFile[];
  /** The mount's cap on one entry's bytes, and how a user raises it. */
  maxBytes: number;
  raiseHint?: string;
}

/**
 * A reading handed back as "read it on the calling thread": what it would post is far larger than
 * its file (a crafted registry naming one 300 KB string from 20,000 records shares that string on
 * one thread, but a message copies it per record: gigabytes from a few megabytes).
 */
export interface ReadHere {
  readHere: true;
}

/** What a worker posts for one file. */
export type PostedRead = FileRead | ReadHere;

export const isReadHere = (r: PostedRead): r is ReadHere => 'readHere' in r;

/** The characters a reading's strings would copy into a message. */
function postedChars(read: FileRead): number {
  if ('failure' in read) return read.failure.length;
  if ('script' in read) return read.script.text.length + read.script.definitions.length * 64;
  const r = read.registry;
  let n = r.objectNames.length + r.bindingNames.length;
  for (const o of r.objects) n += (o.object?.length ?? 0) + (o.class?.length ?? 0);
  for (const b of r.records) n += (b.event?.length ?? 0) + (b.function?.length ?? 0) + (b.script?.length ?? 0);
  return n;
}

/** Read a run of files; a file that cannot be opened or read is its failure, like any other. */
export function indexTask(archives: WorkerArchives, task: IndexTask): PostedRead[] {
  return task.files.map((f) => {
    let size = 0;
    const read = readIndexedFile(
      f.kind,
      f.path,
      () => {
        const ref = task.archives[f.archive];
        const entry = archives.open(ref.name, ref.diskPath, ref.stamp).entryAt(f.entry);
        const options = {
          ...(f.name !== undefined ? { name: f.name } : {}),
          checkHeader: headerCheckFor(f.headerPath) ?? null,
          maxBytes: task.maxBytes,
          raiseHint: task.raiseHint,
        };
        const bytes = readEntryChecked(entry, options, f.start, f.end);
        size = bytes.length;
        return bytes;
      },
      true,
    );
    return postedChars(read) > 4 * size + (1 << 20) ? { readHere: true } : read;
  });
}
