/**
 * LTAR v4 reader: validates the header and tables once, then answers lookups the way the
 * engine does (seed 004 "Lookup") straight from the raw tables, without turning every name into
 * a string. Opening an archive of 20,000 entries costs one read and a few integer checks per
 * record; names are decoded only when asked for. The format's sections have their own modules:
 * the header (./header.ts), record fields (./records.ts), the tables' validation (./validate.ts)
 * and the engine's lookups (./lookup.ts).
 */
import { Arch06Error } from '../../../errors';
import { ByteSource, checkRange } from '../../../io/byteSource';
import { ParseOptions } from '../../../io/fieldReader';
import { FILE_RECORD_SIZE, FILE_SIZE, FILE_STORED_SIZE, FOLDER_RECORD_SIZE, NAME_POOL_START } from './layout';
import { LtarHeader, readLtarHeader, tablesSize } from './header';
import { LtarTables, findFolder, findLeaf, findPath, folderOfFile, pathKeys, samePath } from './lookup';
import { compareLeafBytes } from './order';
import { LtarFileRecord, decodeName, folderLinks, folderPath, folderSpan, leafSpan, readFileRecord, u64 } from './records';
import { RecordProblem, validateLtarTables } from './validate';

export type { LtarHeader } from './header';
export type { EntryStorage, LtarFileRecord } from './records';
export type { RecordProblem } from './validate';

export class LtarArchive {
  readonly header: LtarHeader;
  /** The name pool (bytes [0x30, 0x30 + namePoolSize)). */
  private readonly pool: Uint8Array;
  private readonly files: DataView;
  /** Records whose data lies outside the archive: readable as an error, everything else works. */
  readonly problems: RecordProblem[];
  private readonly problemByIndex: Map<number, string>;
  /**
   * Records whose name can never be a path (separators, `..`, control characters, over-long):
   * hidden from listings and lookups, reported by `verify`. A name is data, never a path.
   */
  readonly hiddenRecords: RecordProblem[];
  private readonly hiddenByIndex = new Map<number, string>();
  /** Folders hidden for the same reasons (their files are hidden with them). */
  private readonly folderHidden: Uint8Array;
  /** The folder tree as the links declare it, validated: children of f are childList[childStart[f] … +childCount[f]). */
  private readonly childStart: Uint32Array;
  private readonly childCount: Uint32Array;
  private readonly childList: Uint32Array;
  /** Archive-level findings that leave lookups working (folder links that loop, share or misname children). */
  readonly structureProblems: string[];
  private readonly leafCache = new Map<number, string>();
  /** The validated tables the lookups read (./lookup.ts): pool, record views, name ends, folder starts. */
  private readonly tables: LtarTables;
  /** The table bytes as read (name pool, file records, folder records), for a digest of them (core/archive/mountCache.ts). */
  readonly tableBytes: Uint8Array;

  private constructor(
    readonly source: ByteSource,
    header: LtarHeader,
    tables: Uint8Array,
  ) {
    this.header = header;
    this.tableBytes = tables;
    const { namePoolSize, fileCount, folderCount } = header;
    this.pool = tables.subarray(0, namePoolSize);
    const filesAt = namePoolSize;
    const foldersAt = filesAt + fileCount * FILE_RECORD_SIZE;
    this.files = new DataView(tables.buffer, tables.byteOffset + filesAt, fileCount * FILE_RECORD_SIZE);
    this.tables = {
      fileCount,
      folderCount,
      pool: this.pool,
      files: this.files,
      folders: new DataView(tables.buffer, tables.byteOffset + foldersAt, folderCount * FOLDER_RECORD_SIZE),
      folderFirstFile: new Uint32Array(folderCount + 1),
      folderNameEnd: new Uint32Array(folderCount),
      leafEnd: new Uint32Array(fileCount),
      hidden: this.hiddenByIndex,
    };
    const found = validateLtarTables(this.tables, header, source.name, source.size);
    this.problems = found.problems;
    this.problemByIndex = found.problemByIndex;
    this.hiddenRecords = found.hiddenRecords;
    this.folderHidden = found.folderHidden;
    this.structureProblems = found.structureProblems;
    this.childStart = found.childStart;
    this.childCount = found.childCount;
    this.childList = found.childList;
  }

  get name(): string {
    return this.source.name;
  }
  get fileCount(): number {
    return this.header.fileCount;
  }
  get folderCount(): number {
    return this.header.folderCount;
  }

  /**
   * Read and validate the header and tables of `source`. Throws a typed error naming the archive.
   * The header goes through the field reader; the tables are then validated and looked up in
   * place through DataViews (per-record work is a few integer reads, see the class comment).
   * `header`: the header as read and checked before (a source that opens its tables later).
   */
  static open(source: ByteSource, options: ParseOptions = {}, header: LtarHeader = readLtarHeader(source, options)): LtarArchive {
    // The tables' extent is checked against the file before anything is allocated for them.
    const size = tablesSize(header);
    checkRange(source.name, source.size, NAME_POOL_START, size, 'name pool + file table + folder table');
    return new LtarArchive(source, header, source.readSync(NAME_POOL_START, size));
  }

  /** Read and check only the header (0x30 bytes): a source that opens its tables on first use. */
  static readHeader(source: ByteSource, options: ParseOptions = {}): LtarHeader {
    return readLtarHeader(source, options);
  }

  fileRecord(index: number): LtarFileRecord {
    this.checkFileIndex(index);
    return readFileRecord(this.files, index);
  }

  /** Decoded size (0 for an empty record), cheaper than `fileRecord` for listings. */
  fileSize(index: number): number {
    this.checkFileIndex(index);
    const rec = index * FILE_RECORD_SIZE;
    return u64(this.files, rec + FILE_STORED_SIZE) === 0 ? 0 : u64(this.files, rec + FILE_SIZE);
  }

  problemOf(index: number): string | undefined {
    return this.problemByIndex.get(index);
  }

  /** Why record `index` is hidden (its name cannot be a path), or undefined when it is listed. */
  hiddenReason(index: number): string | undefined {
    return this.hiddenByIndex.size === 0 ? undefined : this.hiddenByIndex.get(index);
  }

  /** Whether a folder is hidden (its path cannot be a path on disk). */
  isFolderHidden(folder: number): boolean {
    return this.folderHidden[folder] === 1;
  }

  /** The listed child folders of `folder`, from the validated links. */
  children(folder: number): Uint32Array {
    const start = this.childStart[folder];
    return this.childList.subarray(start, start + this.childCount[folder]);
  }

  private checkFileIndex(index: number): void {
    if (!(index >= 0 && index < this.header.fileCount)) {
      throw new Arch06Error('OUT_OF_RANGE', 'file index out of range', { file: this.name, expected: `< ${this.header.fileCount}`, actual: String(index) });
    }
  }

  // ---- names ----------------------------------------------------------------------------

  /** Pool-relative [start, end) of a file's leaf name. */
  leafSpan(index: number): [number, number] {
    return leafSpan(this.tables, index);
  }

  /** Pool-relative [start, end) of a folder's full path. */
  folderSpan(folder: number): [number, number] {
    return folderSpan(this.tables, folder);
  }

  /** The raw name pool, for hashing and comparing names without decoding them. */
  get namePool(): Uint8Array {
    return this.pool;
  }

  /** A file's leaf name; records sharing a name offset share one string (interned). */
  leafName(index: number): string {
    this.checkFileIndex(index);
    const [s, e] = this.leafSpan(index);
    let name = this.leafCache.get(s);
    if (name === undefined) {
      name = decodeName(this.pool, s, e);
      this.leafCache.set(s, name);
    }
    return name;
  }

  folderPath(folder: number): string {
    return folderPath(this.tables, folder);
  }

  /** The folder a file record belongs to (folders consume file records in table order). */
  folderOf(index: number): number {
    this.checkFileIndex(index);
    return folderOfFile(this.tables, index);
  }

  /** Full path: folder + "\" + leaf, or the leaf alone in the root. */
  filePath(index: number): string {
    const folder = this.folderPath(this.folderOf(index));
    const leaf = this.leafName(index);
    return folder ? `${folder}\\${leaf}` : leaf;
  }

  /** A file's path for messages: at most `max` bytes of folder and of leaf, whatever the tables hold. */
  shortPath(index: number, max = 120): string {
    this.checkFileIndex(index);
    const cut = (s: number, e: number): string => decodeName(this.pool, s, Math.min(e, s + max)) + (e - s > max ? `… (${e - s} bytes)` : '');
    const [fs, fe] = this.folderSpan(this.folderOf(index));
    const [ls, le] = this.leafSpan(index);
    return fe > fs ? `${cut(fs, fe)}\\${cut(ls, le)}` : cut(ls, le);
  }

  /** File records [first, end) of a folder. */
  folderFiles(folder: number): [number, number] {
    return [this.tables.folderFirstFile[folder], this.tables.folderFirstFile[folder + 1]];
  }

  folderLinks(folder: number): { firstChild: number; nextSibling: number } {
    return folderLinks(this.tables.folders, folder);
  }

  /** One 32-bit key per file record for the merged index (./lookup.ts `pathKeys`). */
  pathKeys(fold: Uint8Array, offsetBasis: number): Uint32Array {
    return pathKeys(this.tables, fold, offsetBasis);
  }

  /** Whether file `i` here and file `j` of `other` have the same path under `fold`. */
  samePath(i: number, other: LtarArchive, j: number, fold: Uint8Array): boolean {
    this.checkFileIndex(i);
    other.checkFileIndex(j);
    return samePath(this.tables, i, other.tables, j, fold);
  }

  // ---- lookup, as the engine does it (./lookup.ts) ---------------------------------------

  /** A folder by its full path (bytes, case-insensitive), or -1. */
  findFolder(path: Uint8Array): number {
    return findFolder(this.tables, path);
  }

  /** A folder's leaf by name (bytes, case-insensitive): the file record index or -1. */
  findLeaf(folder: number, leaf: Uint8Array): number {
    return findLeaf(this.tables, folder, leaf);
  }

  /** Whether files i and j have the same leaf name (case-insensitive, as the engine compares). */
  sameLeaf(i: number, j: number): boolean {
    const [as, ae] = this.leafSpan(i);
    const [bs, be] = this.leafSpan(j);
    return compareLeafBytes(this.pool, as, ae, this.pool, bs, be) === 0;
  }

  /** The record the engine's leaf search finds for file i's own name in `folder` (differs from i for a duplicate). */
  findLeafOf(folder: number, i: number): number {
    const [s, e] = this.leafSpan(i);
    return this.findLeaf(folder, this.pool.subarray(s, e));
  }

  /** The engine's lookup of a path (`\\` or `/`, any case): the record index or -1. */
  find(path: string): number {
    return findPath(this.tables, path);
  }
}
