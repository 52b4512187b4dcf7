/**
 * The archives a pool worker has opened (core/workers/poolWorker.ts): each opened once, by its own
 * read-only handle, and refused when the file is not the one the calling thread's mount opened
 * (same device, inode, size and mtime: `FileByteSource.open` checks the stamp).
 */
import type { FileStamp } from '../io/node/disk';
import { FileByteSource } from '../io/node/fileSource';
import { LtarSource } from './ltarSource';
import type { Source } from './source';

/** How a worker finds an archive the calling thread mounted: its name, its file and that file's stamp. */
export interface ArchiveRef {
  name: string;
  diskPath: string;
  stamp: FileStamp;
}

/** The reference a worker needs to open `s` itself, or undefined (an archive in memory, a loose folder: the calling thread reads those). */
export function archiveRef(s: Source): ArchiveRef | undefined {
  if (!(s instanceof LtarSource) || !(s.bytes instanceof FileByteSource)) return undefined;
  const stamp = s.bytes.stamp;
  return stamp ? { name: s.name, diskPath: s.diskPath, stamp } : undefined;
}

export class WorkerArchives {
  private readonly opened = new Map<string, LtarSource>();

  open(name: string, diskPath: string, stamp: FileStamp): LtarSource {
    const key = `${diskPath}\0${stamp.dev}:${stamp.ino}:${stamp.size}:${stamp.mtimeMs}`;
    let s = this.opened.get(key);
    if (!s) this.opened.set(key, (s = new LtarSource(name, diskPath, FileByteSource.open(diskPath, name, stamp))));
    return s;
  }
}
