/**
 * A directory on disk as a `Source` (the engine's DirectorySource: it answers by the file
 * existing, GetFileAttributesW(directory + path)). Paths resolve case-insensitively, as on
 * Windows. Files are listed lazily and cached; `refresh()` forgets the cache.
 */
import * as path from 'node:path';
import { Arch06Error } from '../errors';
import { FileByteSource } from '../io/node/fileSource';
import { FileStamp, diskKind, fileStamp, listDirectory, resolveCaseInsensitive, walkFiles } from '../io/node/disk';
import { errnoSummary, isErrnoException } from '../io/node/errno';
import { FNV_OFFSET, KEY_FOLD, Source, SourceEntry, SourceListing, foldKeyStep, stampKey } from './source';
import { GamePath } from './gamePath';
import { badGamePathReason, badSegmentReason } from '../io/safeName';

export class LooseEntry implements SourceEntry {
  readonly storage = 'loose' as const;
  readonly storedSize: number;
  readonly size: number;
  constructor(
    readonly source: DirectorySource,
    readonly path: string,
    readonly diskPath: string,
    /** The file as listed: a read of a file changed since fails with CHANGED_ON_DISK. */
    readonly stamp: FileStamp,
  ) {
    this.size = stamp.size;
    this.storedSize = stamp.size;
  }
  get identity(): string {
    return `${this.diskPath}|${stampKey(this.stamp)}`;
  }
  private open(start: number, end: number): FileByteSource {
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= this.size)) {
      throw new Arch06Error('OUT_OF_RANGE', 'read range outside the file', {
        file: this.diskPath,
        expected: `within [0, ${this.size}]`,
        actual: `[${start}, ${end})`,
      });
    }
    return FileByteSource.open(this.diskPath, `${this.source.name}\\${this.path}`, this.stamp);
  }
  readSync(start = 0, end = this.size): Uint8Array {
    const b = this.open(start, end);
    try {
      return b.readSync(start, end - start);
    } finally {
      b.close();
    }
  }
  async read(start = 0, end = this.size): Promise<Uint8Array> {
    const b = this.open(start, end);
    try {
      return await b.read(start, end - start);
    } finally {
      b.close();
    }
  }
}

export class DirectorySource implements Source {
  readonly kind = 'directory' as const;
  private files: { path: string; size: number; stamp?: FileStamp }[] | undefined;
  private readonly dirCache = new Map<string, Map<string, string>>();

  constructor(
    readonly name: string,
    readonly diskPath: string,
  ) {}

  /** Subfolders that could not be listed (permissions, a vanished folder): skipped, reported by `verify`. */
  readonly unreadable: { path: string; reason: string }[] = [];

  private listing(): { path: string; size: number; stamp?: FileStamp }[] {
    if (!this.files) {
      this.unreadable.length = 0;
      this.files = walkFiles(this.diskPath, undefined, (path, reason) => this.unreadable.push({ path, reason }));
    }
    return this.files;
  }

  get fileCount(): number {
    return this.listing().length;
  }

  refresh(): void {
    this.files = undefined;
    this.dirCache.clear();
  }

  lookup(p: GamePath): SourceEntry | undefined {
    if (!p) return undefined;
    const abs = resolveCaseInsensitive(this.diskPath, p, this.dirCache);
    const stamp = abs ? fileStamp(abs) : undefined;
    if (!abs || !stamp) return undefined;
    // Report the path as spelled on disk; a name that cannot be a path is hidden (see `hidden`).
    const rel = path.relative(this.diskPath, abs).split(path.sep).join('\\');
    if (badGamePathReason(rel) !== undefined) return undefined;
    return new LooseEntry(this, rel, abs, stamp);
  }

  hasFolder(folder: GamePath): boolean {
    const abs = folder ? resolveCaseInsensitive(this.diskPath, folder, this.dirCache) : this.diskPath;
    return abs !== undefined && diskKind(abs) === 'directory';
  }

  list(folder: GamePath): SourceListing | undefined {
    const abs = folder ? resolveCaseInsensitive(this.diskPath, folder, this.dirCache) : this.diskPath;
    if (!abs || diskKind(abs) !== 'directory') return undefined;
    const rel = path.relative(this.diskPath, abs).split(path.sep).join('\\');
    const folders: string[] = [];
    const files: SourceEntry[] = [];
    let entries;
    try {
      entries = listDirectory(abs);
    } catch (e) {
      // One unreadable folder must not take the merged view down with it: it lists as empty.
      if (!isErrnoException(e)) throw e;
      if (!this.unreadable.some((u) => u.path === rel)) this.unreadable.push({ path: rel, reason: errnoSummary(e) });
      return { folders, files };
    }
    for (const e of entries) {
      if (badSegmentReason(e.name) !== undefined) continue; // hidden, as `hidden` says for its files
      if (e.isDirectory) folders.push(e.name);
      else if (e.stamp) files.push(new LooseEntry(this, rel ? `${rel}\\${e.name}` : e.name, path.join(abs, e.name), e.stamp));
    }
    return { folders, files };
  }

  allPaths(): string[] {
    return this.listing().map((f) => f.path);
  }

  pathAt(i: number): string {
    return this.listing()[i].path;
  }

  entryAt(i: number): SourceEntry {
    const f = this.listing()[i];
    const stamp = f.stamp ?? { dev: -1, ino: -1, size: f.size, mtimeMs: -1 };
    return new LooseEntry(this, f.path, path.join(this.diskPath, ...f.path.split('\\')), stamp);
  }

  pathKeys(): Uint32Array {
    const files = this.listing();
    const keys = new Uint32Array(files.length);
    files.forEach((f, i) => {
      const b = Buffer.from(f.path, 'latin1');
      let h = FNV_OFFSET;
      for (let p = 0; p < b.length; p++) h = foldKeyStep(h, b[p]);
      keys[i] = h;
    });
    return keys;
  }

  foldedPath(i: number): Uint8Array {
    return Buffer.from(this.listing()[i].path, 'latin1').map((c) => KEY_FOLD[c]);
  }

  /**
   * Why file `i` is left out of the view, as the archive reader hides records: a name on disk that
   * cannot be a game path (a control character, `:`, a separator inside a name, over-long). One bad
   * name costs that file only: it is in no listing, lookup or index, and `verify` reports it.
   */
  hidden(i: number): string | undefined {
    return badGamePathReason(this.pathAt(i));
  }

  /** A folder's files are checked one by one, each against its own listing. */
  changedOnDisk(): undefined {
    return undefined;
  }

  close(): void {}
}
