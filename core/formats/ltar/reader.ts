/**
 * LTAR v4 reader: validates the header and tables once, then answers lookups the way the
 * engine does (seed 004 "Lookup") straight from the raw tables, without turning every name into
 * a string. Opening an archive of 20,000 entries costs one read and a few integer checks per
 * record; names are decoded only when asked for.
 */
import { Arch06Error } from '../../errors';
import { ByteSource, checkRange } from '../../io/byteSource';
import {
  FILE_DATA_OFFSET, FILE_FLAGS, FILE_NAME_OFFSET, FILE_READER, FILE_RECORD_SIZE, FILE_SIZE, FILE_STORED_SIZE,
  FOLDER_FILE_COUNT, FOLDER_FIRST_CHILD, FOLDER_NAME_OFFSET, FOLDER_NEXT_SIBLING, FOLDER_RECORD_SIZE,
  HEADER_SIZE, LTAR_MAGIC, LTAR_MAGIC_BIG_ENDIAN, LTAR_VERSION, NAME_POOL_START, NO_FOLDER,
} from './layout';
import { compareFolderBytes, compareLeafBytes } from './order';

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

  private constructor(readonly source: ByteSource, header: LtarHeader, tables: Uint8Array) {
    this.header = header;
    const { namePoolSize, fileCount, folderCount } = header;
    this.pool = tables.subarray(0, namePoolSize);
    const filesAt = namePoolSize;
    const foldersAt = filesAt + fileCount * FILE_RECORD_SIZE;
    this.files = new DataView(tables.buffer, tables.byteOffset + filesAt, fileCount * FILE_RECORD_SIZE);
    this.folders = new DataView(tables.buffer, tables.byteOffset + foldersAt, folderCount * FOLDER_RECORD_SIZE);
    this.folderFirstFile = new Uint32Array(folderCount + 1);
    this.folderNameEnd = new Uint32Array(folderCount);
    this.validate();
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

  /** Read and validate the header and tables of `source`. Throws a typed error naming the archive. */
  static open(source: ByteSource): LtarArchive {
    const name = source.name;
    // The magic first, so a short file that is no archive at all is called that.
    const h = source.readSync(0, Math.min(HEADER_SIZE, source.size));
    const dv = new DataView(h.buffer, h.byteOffset, h.length);
    const magic = h.length >= 4 ? dv.getUint32(0, true) : -1;
    if (magic === LTAR_MAGIC_BIG_ENDIAN) {
      throw new Arch06Error('UNSUPPORTED_VERSION', 'big-endian (console) LTAR archives are not supported', { file: name, offset: 0, field: 'header.magic', expected: 'LTAR', actual: 'RATL' });
    }
    if (magic !== LTAR_MAGIC) {
      throw new Arch06Error('BAD_MAGIC', 'not an LTAR archive', { file: name, offset: 0, field: 'header.magic', expected: 'LTAR', actual: JSON.stringify(td.decode(h.subarray(0, 4))) });
    }
    checkRange(name, source.size, 0, HEADER_SIZE, 'header');
    const version = dv.getUint32(4, true);
    if (version !== LTAR_VERSION) {
      const hint = version === 3 ? ' (version 3 is Shadow of Mordor\'s .arch05)' : '';
      throw new Arch06Error('UNSUPPORTED_VERSION', `unsupported LTAR version ${version}${hint}`, { file: name, offset: 4, field: 'header.version', expected: '4', actual: String(version) });
    }
    const header: LtarHeader = {
      version,
      namePoolSize: dv.getUint32(8, true),
      folderCount: dv.getUint32(12, true),
      fileCount: dv.getUint32(16, true),
      unk14: dv.getUint32(20, true),
      reservedZero: h.subarray(0x18, 0x30).every((b) => b === 0),
    };
    if (header.folderCount === 0) {
      throw new Arch06Error('INVALID', 'an LTAR archive has at least the root folder', { file: name, offset: 12, field: 'header.folderCount', expected: '>= 1', actual: '0' });
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
  private validate(): void {
    const { fileCount, folderCount, namePoolSize } = this.header;
    const pool = this.pool;
    // Any name offset before the pool's last NUL is terminated inside the pool.
    const lastNul = pool.lastIndexOf(0);
    const checkName = (off: number, at: number, field: string): void => {
      if (off > lastNul) this.fail('name offset outside the name pool (or unterminated name)', at, field, `< ${lastNul + 1} (pool size ${namePoolSize})`, String(off));
    };

    let total = 0;
    for (let i = 0; i < folderCount; i++) {
      const rec = i * FOLDER_RECORD_SIZE;
      const at = this.tablesOffset('folders', i, FOLDER_RECORD_SIZE);
      const nameOff = this.folders.getUint32(rec + FOLDER_NAME_OFFSET, true);
      checkName(nameOff, at, `folder[${i}].nameOffset`);
      this.folderNameEnd[i] = pool.indexOf(0, nameOff);
      for (const [fieldOff, field] of [[FOLDER_FIRST_CHILD, 'firstChild'], [FOLDER_NEXT_SIBLING, 'nextSibling']] as const) {
        const link = this.folders.getUint32(rec + fieldOff, true);
        if (link !== NO_FOLDER && link >= folderCount) this.fail('folder link out of range', at + fieldOff, `folder[${i}].${field}`, `< ${folderCount} or 0xFFFFFFFF`, String(link));
      }
      this.folderFirstFile[i] = total;
      total += this.folders.getUint32(rec + FOLDER_FILE_COUNT, true);
      if (total > fileCount) this.fail('folder file counts exceed the file count', at + FOLDER_FILE_COUNT, `folder[${i}].fileCount`, `a total of ${fileCount}`, `${total} so far`);
    }
    this.folderFirstFile[folderCount] = total;
    if (total !== fileCount) this.fail('folder file counts do not add up to the file count', 0x10, 'header.fileCount', String(total), String(fileCount));
    if (this.folderNameEnd[0] !== this.folders.getUint32(FOLDER_NAME_OFFSET, true)) {
      this.fail('folder record 0 is not the root (its name is not empty)', this.tablesOffset('folders', 0, FOLDER_RECORD_SIZE), 'folder[0].nameOffset', '""', JSON.stringify(this.folderPath(0)));
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
        this.problems.push({ index: i, message: `data [${dataOffset}, +${extent}) lies outside the archive (${archiveSize} bytes)` });
      } else if (!plain && size === -1) {
        this.problems.push({ index: i, message: 'decoded size does not fit in 53 bits' });
      }
    }
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
    return this.problems.find((p) => p.index === index)?.message;
  }

  private checkFileIndex(index: number): void {
    if (!(index >= 0 && index < this.header.fileCount)) {
      throw new Arch06Error('OUT_OF_RANGE', 'file index out of range', { file: this.name, expected: `< ${this.header.fileCount}`, actual: String(index) });
    }
  }

  // ---- names ----------------------------------------------------------------------------

  /** Pool-relative [start, end) of a file's leaf name. */
  leafSpan(index: number): [number, number] {
    const start = this.files.getUint32(index * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
    return [start, this.pool.indexOf(0, start)];
  }

  /** Pool-relative [start, end) of a folder's full path. */
  folderSpan(folder: number): [number, number] {
    return [this.folders.getUint32(folder * FOLDER_RECORD_SIZE + FOLDER_NAME_OFFSET, true), this.folderNameEnd[folder]];
  }

  /** The raw name pool, for hashing and comparing names without decoding them. */
  get namePool(): Uint8Array {
    return this.pool;
  }

  leafName(index: number): string {
    this.checkFileIndex(index);
    const [s, e] = this.leafSpan(index);
    return td.decode(this.pool.subarray(s, e));
  }

  folderPath(folder: number): string {
    const [s, e] = this.folderSpan(folder);
    return td.decode(this.pool.subarray(s, e));
  }

  /** The folder a file record belongs to (folders consume file records in table order). */
  folderOf(index: number): number {
    this.checkFileIndex(index);
    // Binary search for the last folder whose first file is <= index (empty folders share starts).
    let lo = 0;
    let hi = this.header.folderCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.folderFirstFile[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Full path: folder + "\" + leaf, or the leaf alone in the root. */
  filePath(index: number): string {
    const folder = this.folderPath(this.folderOf(index));
    const leaf = this.leafName(index);
    return folder ? `${folder}\\${leaf}` : leaf;
  }

  /** File records [first, end) of a folder. */
  folderFiles(folder: number): [number, number] {
    return [this.folderFirstFile[folder], this.folderFirstFile[folder + 1]];
  }

  folderLinks(folder: number): { firstChild: number; nextSibling: number } {
    const rec = folder * FOLDER_RECORD_SIZE;
    const norm = (v: number): number => (v === NO_FOLDER ? -1 : v);
    return { firstChild: norm(this.folders.getUint32(rec + FOLDER_FIRST_CHILD, true)), nextSibling: norm(this.folders.getUint32(rec + FOLDER_NEXT_SIBLING, true)) };
  }

  /**
   * One 32-bit key per file record, FNV-1a over the full path's bytes mapped through `fold`
   * (folder + "\\" + leaf), computed straight from the name pool: the folder's state is
   * hashed once and continued over each leaf, with no string built. For the merged index.
   */
  pathKeys(fold: Uint8Array, offsetBasis: number): Uint32Array {
    const pool = this.pool;
    const files = this.files;
    const keys = new Uint32Array(this.header.fileCount);
    for (let f = 0; f < this.header.folderCount; f++) {
      const first = this.folderFirstFile[f];
      const end = this.folderFirstFile[f + 1];
      if (first === end) continue;
      let h = offsetBasis;
      const fs = this.folders.getUint32(f * FOLDER_RECORD_SIZE + FOLDER_NAME_OFFSET, true);
      const fe = this.folderNameEnd[f];
      for (let p = fs; p < fe; p++) h = Math.imul(h ^ fold[pool[p]], 0x01000193);
      if (fe > fs) h = Math.imul(h ^ fold[0x5c], 0x01000193);
      for (let i = first; i < end; i++) {
        let k = h;
        // Validated at open: every name offset is followed by a NUL inside the pool.
        for (let p = files.getUint32(i * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true), c = pool[p]; c !== 0; c = pool[++p]) k = Math.imul(k ^ fold[c], 0x01000193);
        keys[i] = k >>> 0;
      }
    }
    return keys;
  }

  /** Whether file `i` here and file `j` of `other` have the same path under `fold`. */
  samePath(i: number, other: LtarArchive, j: number, fold: Uint8Array): boolean {
    const [afs, afe] = this.folderSpan(this.folderOf(i));
    const [bfs, bfe] = other.folderSpan(other.folderOf(j));
    if (afe - afs !== bfe - bfs) return false;
    const pa = this.pool;
    const pb = other.pool;
    for (let k = 0; k < afe - afs; k++) if (fold[pa[afs + k]] !== fold[pb[bfs + k]]) return false;
    let a = this.files.getUint32(i * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
    let b = other.files.getUint32(j * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
    for (;;) {
      const ca = pa[a++];
      const cb = pb[b++];
      if (fold[ca] !== fold[cb]) return false;
      if (ca === 0) return true;
    }
  }

  // ---- lookup, as the engine does it ----------------------------------------------------

  /**
   * Find a folder by its full path (backslash-separated, no leading or trailing separator;
   * bytes, compared case-insensitively). Binary search over records 1..n-1 in the on-disk
   * order, comparing as if each path ended in a backslash. Returns -1 when absent.
   */
  findFolder(path: Uint8Array): number {
    if (path.length === 0) return 0;
    const pool = this.pool;
    let lo = 1;
    let hi = this.header.folderCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.folders.getUint32(mid * FOLDER_RECORD_SIZE + FOLDER_NAME_OFFSET, true);
      const c = compareFolderBytes(pool, s, this.folderNameEnd[mid], path, 0, path.length);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Binary-search a folder's leaf names (case-insensitive). Returns the file record index or -1. */
  findLeaf(folder: number, leaf: Uint8Array): number {
    let lo = this.folderFirstFile[folder];
    let hi = this.folderFirstFile[folder + 1] - 1;
    const pool = this.pool;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.files.getUint32(mid * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
      const c = compareLeafBytes(pool, s, pool.indexOf(0, s), leaf, 0, leaf.length);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * The engine's lookup (0x3DDAD8): split at the last separator, find the folder, then the leaf.
   * `path` uses backslashes or slashes; case does not matter. Returns the record index or -1.
   */
  find(path: string): number {
    // Names are single bytes; a character beyond 0xFF cannot be in any archive (and latin1
    // encoding would silently truncate it to another byte).
    if (/[^\x00-\xff]/.test(path)) return -1;
    const bytes = Buffer.from(path.replace(/\//g, '\\'), 'latin1');
    const cut = bytes.lastIndexOf(0x5c);
    const folder = this.findFolder(cut < 0 ? bytes.subarray(0, 0) : bytes.subarray(0, cut));
    return folder < 0 ? -1 : this.findLeaf(folder, bytes.subarray(cut + 1));
  }
}
