/**
 * An LTAR archive as a `Source`: lookups go through the archive's own binary searches.
 *
 * Opened one of two ways. Eagerly (the default): header and tables read and validated at once, a
 * bad archive fails the open (the mount lists it as broken). Deferred (`deferTables`, for a mount
 * whose index and catalogue may come from the mount cache, core/archive/mountCache.ts): only the
 * header is read and checked at open; the tables are read and validated the first time anything
 * needs them, exactly as an eager open would, and then checked against what the cache described
 * (`trust`). A warm mount thus reads one header per archive instead of every record (488,751 in
 * the full-scale install), and an archive nobody reads is never validated. A failure at that
 * first use is the same typed error an eager open gives; it sticks (the source serves nothing
 * more, and says it changed on disk, so a remount opens it anew): never a read through tables the
 * mount's cached index was not made from.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { ByteSource } from '../io/byteSource';
import { FileByteSource } from '../io/node/fileSource';
import type { FileChangeKind } from '../io/node/disk';
import { ChunkStream } from '../formats/archive/ltar/chunks';
import { LtarArchive, type LtarHeader } from '../formats/archive/ltar/reader';
import { FNV_OFFSET, KEY_FOLD, Source, SourceEntry, SourceListing, StorageKind, stampKey } from './source';
import { GamePath } from './gamePath';

/** What the mount cache said of a deferred archive's tables: checked on them when first read. */
export interface TablesTrust {
  /** Throws a typed error when `archive`'s tables are not those the cache was made from. */
  check(archive: LtarArchive): void;
  /** The first open failed (validation or `check`): the cache entry must not be used again. */
  failed(error: Arch06Error): void;
}

const BACKSLASH = 0x5c;

/** A game path as archive name bytes, or undefined when it holds a character no archive name can (> 0xFF). */
function nameBytes(p: string): Uint8Array | undefined {
  return /[^\x00-\xff]/.test(p) ? undefined : Buffer.from(p, 'latin1');
}

export class LtarEntry implements SourceEntry {
  readonly size: number;
  readonly storedSize: number;
  readonly storage: StorageKind;
  private readonly dataOffset: number;
  private chunks: ChunkStream | undefined;

  constructor(
    readonly source: LtarSource,
    readonly index: number,
    readonly path: string,
  ) {
    const r = source.archive.fileRecord(index);
    this.storage = r.storage;
    this.size = r.storage === 'empty' ? 0 : r.size;
    this.storedSize = r.storedSize;
    this.dataOffset = r.dataOffset;
  }

  get identity(): string {
    return `${this.source.identity}|${this.index}`;
  }

  /** The record's raw fields, for inspectors and `verify`. */
  get record() {
    return this.source.archive.fileRecord(this.index);
  }

  private checkReadable(start: number, end: number): void {
    const problem = this.source.archive.problemOf(this.index);
    if (problem) throw new Arch06Error('OUT_OF_RANGE', problem, { file: `${this.source.name}:${this.path}`, field: `file[${this.index}]` });
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= this.size)) {
      throw new Arch06Error('OUT_OF_RANGE', 'read range outside the entry', {
        file: `${this.source.name}:${this.path}`,
        expected: `within [0, ${this.size}]`,
        actual: `[${start}, ${end})`,
      });
    }
  }

  /** The entry's chunk stream (chunked entries only), created on first use and kept. */
  chunkStream(): ChunkStream {
    if (this.storage !== 'chunked') throw new Arch06Error('INVALID', 'entry is not a chunk stream', { file: `${this.source.name}:${this.path}` });
    this.chunks ??= new ChunkStream(this.source.bytes, this.path, this.dataOffset, this.storedSize, this.size);
    return this.chunks;
  }

  readSync(start = 0, end = this.size): Uint8Array {
    this.checkReadable(start, end);
    if (start === end) return new Uint8Array(0);
    if (this.storage === 'plain') return this.source.bytes.readSync(this.dataOffset + start, end - start);
    return this.chunkStream().readSync(start, end);
  }

  async read(start = 0, end = this.size): Promise<Uint8Array> {
    this.checkReadable(start, end);
    if (start === end) return new Uint8Array(0);
    if (this.storage === 'plain') return this.source.bytes.read(this.dataOffset + start, end - start);
    return this.chunkStream().read(start, end);
  }
}

export class LtarSource implements Source {
  readonly kind = 'archive' as const;
  /** The header, read and checked at open (the tables may wait: `deferTables`). */
  readonly header: LtarHeader;
  private opened: LtarArchive | undefined;
  private trusted: TablesTrust | undefined;
  /** Why the deferred tables could not be used: thrown again on every use. */
  private failure: Arch06Error | undefined;

  constructor(
    readonly name: string,
    readonly diskPath: string,
    readonly bytes: ByteSource,
    options: { deferTables?: boolean } = {},
  ) {
    try {
      this.header = LtarArchive.readHeader(bytes);
      if (!options.deferTables) this.opened = LtarArchive.open(bytes, {}, this.header);
    } catch (e) {
      if (bytes instanceof FileByteSource) bytes.close();
      throw e;
    }
  }

  static openFile(diskPath: string, name: string, options: { deferTables?: boolean } = {}): LtarSource {
    return new LtarSource(name, diskPath, FileByteSource.open(diskPath, name), options);
  }

  /** The validated tables; a deferred source reads and validates them now (then `trust.check`s them). */
  get archive(): LtarArchive {
    if (this.opened) return this.opened;
    if (this.failure) throw this.failure;
    try {
      const archive = LtarArchive.open(this.bytes, {}, this.header);
      this.trusted?.check(archive);
      this.opened = archive;
      return archive;
    } catch (e) {
      // An unreadable moment (an I/O error) is tried again next time; a typed finding sticks.
      if (!isArch06Error(e)) throw e;
      this.failure = e;
      this.trusted?.failed(e);
      throw e;
    } finally {
      if (this.opened) this.trusted = undefined;
    }
  }

  /** Whether the tables have been read and validated (a deferred source: not until first used). */
  get tablesOpen(): boolean {
    return this.opened !== undefined;
  }

  /**
   * Check the tables against `trust` when they are first read (the mount cache's description);
   * a source whose tables are already open is checked now.
   */
  trust(trust: TablesTrust): void {
    if (this.opened) trust.check(this.opened);
    else this.trusted = trust;
  }

  get fileCount(): number {
    return this.header.fileCount;
  }

  /** The archive file as opened (an in-memory archive: its name and size). */
  get identity(): string {
    return this.bytes instanceof FileByteSource ? `${this.diskPath}|${stampKey(this.bytes.stamp)}` : `${this.diskPath}|memory:${this.bytes.size}`;
  }

  changedOnDisk(): { kind: FileChangeKind; detail: string } | undefined {
    const c = this.bytes instanceof FileByteSource ? this.bytes.change() : undefined;
    // Same stamp, but the tables failed their first read: the file is not the one the cache knew.
    return c ?? (this.failure ? { kind: 'modified', detail: `not the archive the mount cache knew (${this.failure.message})` } : undefined);
  }

  entry(index: number): LtarEntry {
    return new LtarEntry(this, index, this.archive.filePath(index));
  }

  entryAt(index: number): LtarEntry {
    return this.entry(index);
  }

  /** The engine's lookup; a record whose name cannot be a path is not served. */
  lookup(path: GamePath): LtarEntry | undefined {
    const i = this.archive.find(path);
    return i < 0 || this.archive.hiddenReason(i) !== undefined ? undefined : new LtarEntry(this, i, this.archive.filePath(i));
  }

  private findFolder(folder: GamePath): number {
    const bytes = nameBytes(folder);
    const f = bytes ? this.archive.findFolder(bytes) : -1;
    return f >= 0 && !this.archive.isFolderHidden(f) ? f : -1;
  }

  hasFolder(folder: GamePath): boolean {
    return this.findFolder(folder) >= 0;
  }

  list(folder: GamePath): SourceListing | undefined {
    const a = this.archive;
    const f = this.findFolder(folder);
    if (f < 0) return undefined;
    const folders: string[] = [];
    // The validated tree: each folder reached once, a direct child by path, never hidden.
    for (const c of a.children(f)) {
      const p = a.folderPath(c);
      folders.push(p.slice(p.lastIndexOf('\\') + 1));
    }
    const [first, end] = a.folderFiles(f);
    const prefix = a.folderPath(f);
    const files: SourceEntry[] = [];
    for (let i = first; i < end; i++) {
      if (a.hiddenReason(i) !== undefined) continue;
      // Two records of one name: list the one the engine's lookup finds (sorted leaves sit side by side).
      const twin = (i > first && a.sameLeaf(i - 1, i)) || (i + 1 < end && a.sameLeaf(i, i + 1));
      if (twin && a.findLeafOf(f, i) !== i) continue;
      const leaf = a.leafName(i);
      files.push(new LtarEntry(this, i, prefix ? `${prefix}\\${leaf}` : leaf));
    }
    return { folders, files };
  }

  hidden(i: number): string | undefined {
    return this.archive.hiddenReason(i);
  }

  allPaths(): string[] {
    const a = this.archive;
    const pool = a.namePool;
    // latin1 slices of one Buffer view are far cheaper than a TextDecoder call per name.
    const text = Buffer.from(pool.buffer, pool.byteOffset, pool.byteLength);
    const out: string[] = new Array(a.fileCount);
    for (let f = 0; f < a.folderCount; f++) {
      const [fs, fe] = a.folderSpan(f);
      const prefix = fe > fs ? text.toString('latin1', fs, fe) + '\\' : '';
      const [first, end] = a.folderFiles(f);
      for (let i = first; i < end; i++) {
        const [ls, le] = a.leafSpan(i);
        out[i] = prefix + text.toString('latin1', ls, le);
      }
    }
    return out;
  }

  pathAt(i: number): string {
    return this.archive.filePath(i);
  }

  pathKeys(): Uint32Array {
    return this.archive.pathKeys(KEY_FOLD, FNV_OFFSET);
  }

  foldedPath(i: number): Uint8Array {
    const a = this.archive;
    const pool = a.namePool;
    const [fs, fe] = a.folderSpan(a.folderOf(i));
    const [ls, le] = a.leafSpan(i);
    const sep = fe > fs ? 1 : 0;
    const out = new Uint8Array(fe - fs + sep + le - ls);
    for (let p = fs; p < fe; p++) out[p - fs] = KEY_FOLD[pool[p]];
    if (sep) out[fe - fs] = BACKSLASH;
    for (let p = ls, o = fe - fs + sep; p < le; p++, o++) out[o] = KEY_FOLD[pool[p]];
    return out;
  }

  close(): void {
    if (this.bytes instanceof FileByteSource) this.bytes.close();
  }
}
