/**
 * Field reads of one LTAR file or folder record (./layout.ts), straight from the tables'
 * DataViews: the unaligned u64s, how an entry is stored, a record's name span and folder links.
 */
import {
  FILE_DATA_OFFSET,
  FILE_FLAGS,
  FILE_NAME_OFFSET,
  FILE_READER,
  FILE_RECORD_SIZE,
  FILE_SIZE,
  FILE_STORED_SIZE,
  FOLDER_FIRST_CHILD,
  FOLDER_NAME_OFFSET,
  FOLDER_NEXT_SIBLING,
  FOLDER_RECORD_SIZE,
  NO_FOLDER,
} from './layout';
import { LtarTables } from './lookup';

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

const td = new TextDecoder('latin1');

/** An unaligned little-endian u64 of the file table, or -1 when it exceeds 2^53. */
export function u64(files: DataView, at: number): number {
  const lo = files.getUint32(at, true);
  const hi = files.getUint32(at + 4, true);
  return hi >= 0x200000 ? -1 : hi * 0x100000000 + lo;
}

/** Whether the record at byte `rec` of the file table is a plain byte range (read whole, not as chunks). */
export function isPlain(files: DataView, rec: number, storedSize: number, size: number): boolean {
  return files.getUint8(rec + FILE_READER) === 0 || files.getUint8(rec + FILE_FLAGS) === 0 || storedSize === size;
}

/** Every field of file record `index` (the index is checked by the caller). */
export function readFileRecord(files: DataView, index: number): LtarFileRecord {
  const rec = index * FILE_RECORD_SIZE;
  const storedSize = u64(files, rec + FILE_STORED_SIZE);
  const size = u64(files, rec + FILE_SIZE);
  const storage: EntryStorage = storedSize === 0 ? 'empty' : isPlain(files, rec, storedSize, size) ? 'plain' : 'chunked';
  return {
    index,
    nameOffset: files.getUint32(rec + FILE_NAME_OFFSET, true),
    dataOffset: u64(files, rec + FILE_DATA_OFFSET),
    storedSize,
    size,
    reader: files.getUint8(rec + FILE_READER),
    flags: files.getUint8(rec + FILE_FLAGS),
    storage,
  };
}

/** Pool-relative [start, end) of a file's leaf name. */
export function leafSpan(t: LtarTables, index: number): [number, number] {
  return [t.files.getUint32(index * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true), t.leafEnd[index]];
}

/** Pool-relative [start, end) of a folder's full path. */
export function folderSpan(t: LtarTables, folder: number): [number, number] {
  return [t.folders.getUint32(folder * FOLDER_RECORD_SIZE + FOLDER_NAME_OFFSET, true), t.folderNameEnd[folder]];
}

/** Pool bytes [s, e) as a string (names are Latin-1 bytes). */
export function decodeName(pool: Uint8Array, s: number, e: number): string {
  return td.decode(pool.subarray(s, e));
}

export function folderPath(t: LtarTables, folder: number): string {
  const [s, e] = folderSpan(t, folder);
  return decodeName(t.pool, s, e);
}

/** A folder's first child and next sibling, -1 for none. */
export function folderLinks(folders: DataView, folder: number): { firstChild: number; nextSibling: number } {
  const rec = folder * FOLDER_RECORD_SIZE;
  const norm = (v: number): number => (v === NO_FOLDER ? -1 : v);
  return {
    firstChild: norm(folders.getUint32(rec + FOLDER_FIRST_CHILD, true)),
    nextSibling: norm(folders.getUint32(rec + FOLDER_NEXT_SIBLING, true)),
  };
}
