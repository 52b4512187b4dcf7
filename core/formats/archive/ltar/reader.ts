/**
 * LTAR v4 reader: validates the header and tables once, then answers lookups the way the
 * engine does (seed 004 "Lookup") straight from the raw tables, without turning every name into
 * a string. Opening an archive of 20,000 entries costs one read and a few integer checks per
 * record; names are decoded only when asked for.
 */
import { Arch06Error } from '../../../errors';
import { ByteSource, checkRange } from '../../../io/byteSource';
import { FieldReader, ParseOptions } from '../../../io/fieldReader';
import { expectMagicVersion } from '../../../io/magic';
import {
  FILE_DATA_OFFSET,
  FILE_FLAGS,
  FILE_NAME_OFFSET,
  FILE_READER,
  FILE_RECORD_SIZE,
  FILE_SIZE,
  FILE_STORED_SIZE,
  FOLDER_FILE_COUNT,
  FOLDER_FIRST_CHILD,
  FOLDER_NAME_OFFSET,
  FOLDER_NEXT_SIBLING,
  FOLDER_RECORD_SIZE,
  HEADER_SIZE,
  LTAR_VERSION,
  NAME_POOL_START,
  NO_FOLDER,
} from './layout';
import { LtarTables, findFolder, findLeaf, findPath, folderOfFile, pathKeys, samePath } from './lookup';
import { compareLeafBytes, FOLD } from './order';
import { NameEnds } from './names';
import { MAX_GAME_PATH_BYTES, badGamePathReason, badSegmentReason } from '../../../io/safeName';

export interface LtarHeader {
  version: number;
  namePoolSize: number;
  folderCount: number;
  fileCount: number;
  /** +0x14, 1 in every known archive; meaning unknown. */
  unk14: number;
  /** Whether the 24 bytes at +0x18 are all zero, as in every known archive. */
  reservedZero: boolean;
}

/** How an entry's bytes are stored (formats-public §1.4 "Robust decode rule"). */
export type EntryStorage = 'empty' | 'plain' | 'chunked';

export interface LtarFileRecord {
  index: number;
  nameOffset: number;
  dataOffset: number;
  storedSize: number;
  size: number;
  /** +0x1C: 1 selects the chunked reader in the engine, 0 a whole-file read. */
  reader: number;
  /** +0x1D: 0 = plain byte range; 9 on compressed entries. */
  flags: number;
  storage: EntryStorage;
}

/** A problem with one record that leaves the rest of the archive usable. */
export interface RecordProblem {
  index: number;
  message: string;
}

const td = new TextDecoder('latin1');

export class LtarArchive {
  readonly header: LtarHeader;
  /** The name pool (bytes [0x30, 0x30 + namePoolSize)). */
  private readonly pool: Uint8Array;
  private readonly files: DataView;
  private readonly folders: DataView;
  /** First file record of each folder (prefix sums of the folder file counts), plus the total. */
  private readonly folderFirstFile: Uint32Array;
  /** End (exclusive, pool-relative) of each folder's name, computed once at open. */
  private readonly folderNameEnd: Uint32Array;
  /** Records whose data lies outside the archive: readable as an error, everything else works. */
  readonly problems: RecordProblem[] = [];
  private readonly problemByIndex = new Map<number, string>();
  /**
   * Records whose name can never be a path (separators, `..`, control characters, over-long):
   * hidden from listings and lookups, reported by `verify`. A name is data, never a path.
   */
  readonly hiddenRecords: RecordProblem[] = [];
  private readonly hiddenByIndex = new Map<number, string>();
  /** Folders hidden for the same reasons (their files are hidden with them). */
  private readonly folderHidden: Uint8Array;
  /** End (exclusive, pool-relative) of each file's leaf name, computed once at open. */
  private readonly leafEnd: Uint32Array;
  /** The folder tree as the links declare it, validated: children of f are childList[childStart[f] … +childCount[f]). */
  private readonly childStart: Uint32Array;
  private readonly childCount: Uint32Array;
  private readonly childList: Uint32Array;
  /** Archive-level findings that leave lookups working (folder links that loop, share or misname children). */
  readonly structureProblems: string[] = [];
  private readonly leafCache = new Map<number, string>();
  /** The validated tables the lookups read (./lookup.ts), sharing the arrays above. */
  private readonly tables: LtarTables;

  private constructor(
    readonly source: ByteSource,
    header: LtarHeader,
    tables: Uint8Array,
  ) {
    this.header = header;
    const { namePoolSize, fileCount, folderCount } = header;
    this.pool = tables.subarray(0, namePoolSize);
    const filesAt = namePoolSize;
    const foldersAt = filesAt + fileCount * FILE_RECORD_SIZE;
    this.files = new DataView(tables.buffer, tables.byteOffset + filesAt, fileCount * FILE_RECORD_SIZE);
    this.folders = new DataView(tables.buffer, tables.byteOffset + foldersAt, folderCount * FOLDER_RECORD_SIZE);
    this.folderFirstFile = new Uint32Array(folderCount + 1);
    this.folderNameEnd = new Uint32Array(folderCount);
    this.folderHidden = new Uint8Array(folderCount);
    this.leafEnd = new Uint32Array(fileCount);
    this.childStart = new Uint32Array(folderCount);
    this.childCount = new Uint32Array(folderCount);
    this.childList = new Uint32Array(folderCount);
    // Name ends and forbidden bytes, in one look at each name (see names.ts).
    const pool = this.pool;
    const ends = new NameEnds(pool);
    this.tables = {
      fileCount,
      folderCount,
      pool,
      files: this.files,
      folders: this.folders,
      folderFirstFile: this.folderFirstFile,
      folderNameEnd: this.folderNameEnd,
      leafEnd: this.leafEnd,
      hidden: this.hiddenByIndex,
    };
    this.validate(ends);
    this.checkNames(ends);
    this.buildTree();
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
   */
  static open(source: ByteSource, options: ParseOptions = {}): LtarArchive {
    const name = source.name;
    const h = new FieldReader(source.readSync(0, Math.min(HEADER_SIZE, source.size)), name, { fileSize: source.size, spans: options.spans });
    const version = expectMagicVersion(h, 'LTAR', [LTAR_VERSION], 'LTAR', {
      what: 'an LTAR archive',
      bigEndian: 'LTAR archives',
      headerSize: HEADER_SIZE,
      versionHint: (v) => (v === 3 ? " (version 3 is Shadow of Mordor's .arch05)" : ''),
    });
    const header: LtarHeader = {
      version,
      namePoolSize: h.u32('header.namePoolSize'),
      folderCount: h.u32('header.folderCount'),
      fileCount: h.u32('header.fileCount'),
      unk14: h.u32('header.unk14'),
      reservedZero: h.bytesOf(HEADER_SIZE - 0x18, 'header.reserved').every((b) => b === 0),
    };
    if (header.folderCount === 0) {
      throw new Arch06Error('INVALID', 'an LTAR archive has at least the root folder', {
        file: name,
        offset: 12,
        field: 'header.folderCount',
        expected: '>= 1',
        actual: '0',
      });
    }
    // The tables' extent is checked against the file before anything is allocated for them.
    const tablesSize = header.namePoolSize + header.fileCount * FILE_RECORD_SIZE + header.folderCount * FOLDER_RECORD_SIZE;
    checkRange(name, source.size, NAME_POOL_START, tablesSize, 'name pool + file table + folder table');
    return new LtarArchive(source, header, source.readSync(NAME_POOL_START, tablesSize));
  }

  private tablesOffset(part: 'files' | 'folders', index: number, size: number): number {
    const base = NAME_POOL_START + this.header.namePoolSize + (part === 'folders' ? this.header.fileCount * FILE_RECORD_SIZE : 0);
    return base + index * size;
  }

  private fail(message: string, offset: number, field: string, expected?: string, actual?: string): never {
    throw new Arch06Error('INVALID', message, { file: this.name, offset, field, expected, actual });
  }

  /** Structural checks that every lookup depends on. Per-record data ranges only mark the record. */
  private validate(ends: NameEnds): void {
    const { fileCount, folderCount, namePoolSize } = this.header;
    const pool = this.pool;
    // Any name offset before the pool's last NUL is terminated inside the pool.
    const lastNul = pool.lastIndexOf(0);
    const checkName = (off: number, at: number, field: string): void => {
      if (off > lastNul)
        this.fail('name offset outside the name pool (or unterminated name)', at, field, `< ${lastNul + 1} (pool size ${namePoolSize})`, String(off));
    };

    let total = 0;
    for (let i = 0; i < folderCount; i++) {
      const rec = i * FOLDER_RECORD_SIZE;
      const at = this.tablesOffset('folders', i, FOLDER_RECORD_SIZE);
      const nameOff = this.folders.getUint32(rec + FOLDER_NAME_OFFSET, true);
      checkName(nameOff, at, `folder[${i}].nameOffset`);
      this.folderNameEnd[i] = ends.end(nameOff);
      for (const [fieldOff, field] of [
        [FOLDER_FIRST_CHILD, 'firstChild'],
        [FOLDER_NEXT_SIBLING, 'nextSibling'],
      ] as const) {
        const link = this.folders.getUint32(rec + fieldOff, true);
        if (link !== NO_FOLDER && link >= folderCount)
          this.fail('folder link out of range', at + fieldOff, `folder[${i}].${field}`, `< ${folderCount} or 0xFFFFFFFF`, String(link));
      }
      this.folderFirstFile[i] = total;
      total += this.folders.getUint32(rec + FOLDER_FILE_COUNT, true);
      if (total > fileCount)
        this.fail('folder file counts exceed the file count', at + FOLDER_FILE_COUNT, `folder[${i}].fileCount`, `a total of ${fileCount}`, `${total} so far`);
    }
    this.folderFirstFile[folderCount] = total;
    if (total !== fileCount) this.fail('folder file counts do not add up to the file count', 0x10, 'header.fileCount', String(total), String(fileCount));
    if (this.folderNameEnd[0] !== this.folders.getUint32(FOLDER_NAME_OFFSET, true)) {
      this.fail(
        'folder record 0 is not the root (its name is not empty)',
        this.tablesOffset('folders', 0, FOLDER_RECORD_SIZE),
        'folder[0].nameOffset',
        '""',
        JSON.stringify(this.folderPath(0)),
      );
    }

    const archiveSize = this.source.size;
    for (let i = 0; i < fileCount; i++) {
      const rec = i * FILE_RECORD_SIZE;
      checkName(this.files.getUint32(rec + FILE_NAME_OFFSET, true), this.tablesOffset('files', i, FILE_RECORD_SIZE), `file[${i}].nameOffset`);
      const dataOffset = this.u64(rec + FILE_DATA_OFFSET);
      const storedSize = this.u64(rec + FILE_STORED_SIZE);
      const size = this.u64(rec + FILE_SIZE);
      if (storedSize === 0) continue; // empty or absent: nothing is read
      const plain = this.isPlain(rec, storedSize, size);
      const extent = plain ? size : storedSize;
      if (!(dataOffset >= 0 && extent >= 0 && dataOffset + extent <= archiveSize)) {
        this.addProblem(i, `data [${dataOffset}, +${extent}) lies outside the archive (${archiveSize} bytes)`);
      } else if (!plain && size === -1) {
        this.addProblem(i, 'decoded size does not fit in 53 bits');
      }
    }
  }

  private addProblem(index: number, message: string): void {
    this.problems.push({ index, message });
    this.problemByIndex.set(index, message);
  }

  private hide(index: number, message: string): void {
    this.hiddenRecords.push({ index, message: `name of file[${index}] ${message}: hidden from listings and lookups` });
    this.hiddenByIndex.set(index, message);
  }

  /**
   * Names are data: find every folder and leaf whose name cannot be a path. Checked on the bytes,
   * never decoding a name (names.ts: one look at each name, bounded by the longest path accepted),
   * so the work stays linear in the tables however long the names are or however many records
   * point into one.
   */
  private checkNames(ends: NameEnds): void {
    const { folderCount } = this.header;
    const pool = this.pool;
    for (let f = 0; f < folderCount; f++) {
      const [fs, fe] = this.folderSpan(f);
      if (fe === fs) continue;
      const reason = fe - fs > MAX_GAME_PATH_BYTES ? `longer than ${MAX_GAME_PATH_BYTES} bytes (${fe - fs})` : badGamePathReason(this.folderPath(f));
      if (reason) {
        this.folderHidden[f] = 1;
        this.structureProblems.push(`folder[${f}] path ${reason}: the folder and its files are hidden`);
      }
    }
    for (let f = 0; f < folderCount; f++) {
      const [fs, fe] = this.folderSpan(f);
      const prefix = fe > fs ? fe - fs + 1 : 0;
      for (let i = this.folderFirstFile[f]; i < this.folderFirstFile[f + 1]; i++) {
        const s = this.files.getUint32(i * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
        const end = ends.end(s);
        const stop = ends.forbiddenAt >= 0 ? ends.forbiddenAt : end;
        this.leafEnd[i] = end;
        if (this.folderHidden[f]) this.hide(i, 'lies in a hidden folder');
        else if (prefix + end - s > MAX_GAME_PATH_BYTES) this.hide(i, `makes a path longer than ${MAX_GAME_PATH_BYTES} bytes (${prefix + end - s})`);
        else {
          // Checked on the bytes, without decoding the name: empty, "." / "..", a forbidden byte.
          const dots = (end - s === 1 || end - s === 2) && pool[s] === 0x2e && pool[end - 1] === 0x2e;
          const reason =
            stop < end
              ? `holds byte 0x${pool[stop]!.toString(16).padStart(2, '0')} (a separator, colon or control character)`
              : end === s || dots
                ? badSegmentReason(this.leafName(i))
                : undefined;
          if (reason) this.hide(i, reason);
        }
      }
    }
  }

  /**
   * The folder tree from the links, visiting each record at most once (iterative, so no depth or
   * cycle in the tables can hang or overflow the stack). A child must be a direct child of its
   * parent by path; links that loop, reach a folder twice or misname a child are cut and reported.
   */
  private buildTree(): void {
    const n = this.header.folderCount;
    const visited = new Uint8Array(n);
    visited[0] = 1;
    const queue = new Uint32Array(n);
    let head = 0;
    let tail = 0;
    let listed = 0;
    queue[tail++] = 0;
    while (head < tail) {
      const f = queue[head++];
      this.childStart[f] = listed;
      for (let c = this.folderLinks(f).firstChild; c >= 0; c = this.folderLinks(c).nextSibling) {
        if (visited[c]) {
          this.structureProblems.push(`folder[${f}]'s child links reach folder[${c}] a second time (a loop or a shared child): cut there`);
          break;
        }
        visited[c] = 1;
        if (!this.isDirectChild(f, c)) {
          this.structureProblems.push(
            `folder[${c}] (${JSON.stringify(this.folderPath(c).slice(0, 80))}) is linked under folder[${f}] (${JSON.stringify(this.folderPath(f).slice(0, 80))}) but is not its direct child by path: not listed there`,
          );
          continue;
        }
        if (this.folderHidden[c]) continue;
        this.childList[listed++] = c;
        this.childCount[f]++;
        queue[tail++] = c;
      }
    }
    for (let f = 1; f < n; f++) {
      if (!visited[f] && this.folderFirstFile[f + 1] > this.folderFirstFile[f]) {
        this.structureProblems.push(
          `folder[${f}] (${JSON.stringify(this.folderPath(f).slice(0, 80))}) is not linked from the root: its files are found by lookup but not listed`,
        );
      }
    }
  }

  /** Whether folder c's path is folder f's path plus one segment (compared as the engine does, case-insensitively). */
  private isDirectChild(f: number, c: number): boolean {
    const [ps, pe] = this.folderSpan(f);
    const [cs, ce] = this.folderSpan(c);
    const pool = this.pool;
    const segStart = pe > ps ? cs + (pe - ps) + 1 : cs;
    if (segStart >= ce) return false;
    if (pe > ps) {
      for (let k = 0; k < pe - ps; k++) if (FOLD[pool[ps + k]] !== FOLD[pool[cs + k]]) return false;
      if (pool[cs + (pe - ps)] !== 0x5c) return false;
    }
    for (let p = segStart; p < ce; p++) if (pool[p] === 0x5c) return false;
    return true;
  }

  /** An unaligned little-endian u64 of the file table, or -1 when it exceeds 2^53. */
  private u64(at: number): number {
    const lo = this.files.getUint32(at, true);
    const hi = this.files.getUint32(at + 4, true);
    return hi >= 0x200000 ? -1 : hi * 0x100000000 + lo;
  }

  private isPlain(rec: number, storedSize: number, size: number): boolean {
    return this.files.getUint8(rec + FILE_READER) === 0 || this.files.getUint8(rec + FILE_FLAGS) === 0 || storedSize === size;
  }

  fileRecord(index: number): LtarFileRecord {
    this.checkFileIndex(index);
    const rec = index * FILE_RECORD_SIZE;
    const storedSize = this.u64(rec + FILE_STORED_SIZE);
    const size = this.u64(rec + FILE_SIZE);
    const storage: EntryStorage = storedSize === 0 ? 'empty' : this.isPlain(rec, storedSize, size) ? 'plain' : 'chunked';
    return {
      index,
      nameOffset: this.files.getUint32(rec + FILE_NAME_OFFSET, true),
      dataOffset: this.u64(rec + FILE_DATA_OFFSET),
      storedSize,
      size,
      reader: this.files.getUint8(rec + FILE_READER),
      flags: this.files.getUint8(rec + FILE_FLAGS),
      storage,
    };
  }

  /** Decoded size (0 for an empty record), cheaper than `fileRecord` for listings. */
  fileSize(index: number): number {
    this.checkFileIndex(index);
    const rec = index * FILE_RECORD_SIZE;
    return this.u64(rec + FILE_STORED_SIZE) === 0 ? 0 : this.u64(rec + FILE_SIZE);
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
    return [this.files.getUint32(index * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true), this.leafEnd[index]];
  }

  /** Pool-relative [start, end) of a folder's full path. */
  folderSpan(folder: number): [number, number] {
    return [this.folders.getUint32(folder * FOLDER_RECORD_SIZE + FOLDER_NAME_OFFSET, true), this.folderNameEnd[folder]];
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
      name = td.decode(this.pool.subarray(s, e));
      this.leafCache.set(s, name);
    }
    return name;
  }

  folderPath(folder: number): string {
    const [s, e] = this.folderSpan(folder);
    return td.decode(this.pool.subarray(s, e));
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
    const cut = (s: number, e: number): string => td.decode(this.pool.subarray(s, Math.min(e, s + max))) + (e - s > max ? `… (${e - s} bytes)` : '');
    const [fs, fe] = this.folderSpan(this.folderOf(index));
    const [ls, le] = this.leafSpan(index);
    return fe > fs ? `${cut(fs, fe)}\\${cut(ls, le)}` : cut(ls, le);
  }

  /** File records [first, end) of a folder. */
  folderFiles(folder: number): [number, number] {
    return [this.folderFirstFile[folder], this.folderFirstFile[folder + 1]];
  }

  folderLinks(folder: number): { firstChild: number; nextSibling: number } {
    const rec = folder * FOLDER_RECORD_SIZE;
    const norm = (v: number): number => (v === NO_FOLDER ? -1 : v);
    return {
      firstChild: norm(this.folders.getUint32(rec + FOLDER_FIRST_CHILD, true)),
      nextSibling: norm(this.folders.getUint32(rec + FOLDER_NEXT_SIBLING, true)),
    };
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
