/**
 * Lookups over the validated LTAR tables, read in place (seed 004 "Lookup"): the engine's binary
 * searches for folders and leaves, and the path keys and comparisons the merged index uses. The
 * reader (./reader.ts) validates the tables once at open; these functions then trust what it
 * checked (every name offset ends in a NUL inside the pool, folder file counts add up) and build
 * no strings.
 */
import { FILE_NAME_OFFSET, FILE_RECORD_SIZE, FOLDER_NAME_OFFSET, FOLDER_RECORD_SIZE } from './layout';
import { compareFolderBytes, compareLeafBytes } from './order';

/** The raw tables of an open archive, shared by reference with the reader that validated them. */
export interface LtarTables {
  fileCount: number;
  folderCount: number;
  /** The name pool (bytes [0x30, 0x30 + namePoolSize)). */
  pool: Uint8Array;
  files: DataView;
  folders: DataView;
  /** First file record of each folder (prefix sums of the folder file counts), plus the total. */
  folderFirstFile: Uint32Array;
  /** End (exclusive, pool-relative) of each folder's name. */
  folderNameEnd: Uint32Array;
  /** End (exclusive, pool-relative) of each file's leaf name. */
  leafEnd: Uint32Array;
  /** Records hidden because their names cannot be paths, with why. */
  hidden: Map<number, string>;
}

const leafStart = (t: LtarTables, i: number): number => t.files.getUint32(i * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
const folderStart = (t: LtarTables, f: number): number => t.folders.getUint32(f * FOLDER_RECORD_SIZE + FOLDER_NAME_OFFSET, true);

/** The folder a file record belongs to: the last folder whose first file is <= index (empty folders share starts). */
export function folderOfFile(t: LtarTables, index: number): number {
  let lo = 0;
  let hi = t.folderCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (t.folderFirstFile[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * One 32-bit key per file record, FNV-1a over the full path's bytes mapped through `fold`
 * (folder + "\\" + leaf), computed straight from the name pool: the folder's state is
 * hashed once and continued over each leaf, with no string built. For the merged index.
 */
export function pathKeys(t: LtarTables, fold: Uint8Array, offsetBasis: number): Uint32Array {
  const { pool, hidden } = t;
  const keys = new Uint32Array(t.fileCount);
  for (let f = 0; f < t.folderCount; f++) {
    const first = t.folderFirstFile[f];
    const end = t.folderFirstFile[f + 1];
    if (first === end) continue;
    let h = offsetBasis;
    const fs = folderStart(t, f);
    const fe = t.folderNameEnd[f];
    for (let p = fs; p < fe; p++) h = Math.imul(h ^ fold[pool[p]], 0x01000193);
    if (fe > fs) h = Math.imul(h ^ fold[0x5c], 0x01000193);
    for (let i = first; i < end; i++) {
      if (hidden.size && hidden.has(i)) continue; // hidden: never keyed (its name may be long)
      let k = h;
      // Validated at open: every name offset is followed by a NUL inside the pool.
      for (let p = leafStart(t, i), c = pool[p]; c !== 0; c = pool[++p]) k = Math.imul(k ^ fold[c], 0x01000193);
      keys[i] = k >>> 0;
    }
  }
  return keys;
}

/** Whether file `i` of `a` and file `j` of `b` have the same path under `fold`. */
export function samePath(a: LtarTables, i: number, b: LtarTables, j: number, fold: Uint8Array): boolean {
  const fa = folderOfFile(a, i);
  const fb = folderOfFile(b, j);
  const afs = folderStart(a, fa);
  const afe = a.folderNameEnd[fa];
  const bfs = folderStart(b, fb);
  const bfe = b.folderNameEnd[fb];
  if (afe - afs !== bfe - bfs) return false;
  const pa = a.pool;
  const pb = b.pool;
  for (let k = 0; k < afe - afs; k++) if (fold[pa[afs + k]] !== fold[pb[bfs + k]]) return false;
  let x = leafStart(a, i);
  let y = leafStart(b, j);
  for (;;) {
    const ca = pa[x++];
    const cb = pb[y++];
    if (fold[ca] !== fold[cb]) return false;
    if (ca === 0) return true;
  }
}

/**
 * Find a folder by its full path (backslash-separated, no leading or trailing separator;
 * bytes, compared case-insensitively). Binary search over records 1..n-1 in the on-disk
 * order, comparing as if each path ended in a backslash. Returns -1 when absent.
 */
export function findFolder(t: LtarTables, path: Uint8Array): number {
  if (path.length === 0) return 0;
  let lo = 1;
  let hi = t.folderCount - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareFolderBytes(t.pool, folderStart(t, mid), t.folderNameEnd[mid], path, 0, path.length);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Binary-search a folder's leaf names (case-insensitive). Returns the file record index or -1. */
export function findLeaf(t: LtarTables, folder: number, leaf: Uint8Array): number {
  let lo = t.folderFirstFile[folder];
  let hi = t.folderFirstFile[folder + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareLeafBytes(t.pool, leafStart(t, mid), t.leafEnd[mid], leaf, 0, leaf.length);
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
export function findPath(t: LtarTables, path: string): number {
  // Names are single bytes; a character beyond 0xFF cannot be in any archive (and latin1
  // encoding would silently truncate it to another byte).
  if (/[^\x00-\xff]/.test(path)) return -1;
  const bytes = Buffer.from(path.replace(/\//g, '\\'), 'latin1');
  const cut = bytes.lastIndexOf(0x5c);
  const folder = findFolder(t, cut < 0 ? bytes.subarray(0, 0) : bytes.subarray(0, cut));
  return folder < 0 ? -1 : findLeaf(t, folder, bytes.subarray(cut + 1));
}
