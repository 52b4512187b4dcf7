/**
 * The path pool EMBB containers and BNDL manifests share: NUL-terminated paths, NUL-padded to a
 * multiple of 4, offsets following on from 0 (the retail layout, seed 004). A manifest's path area
 * is byte-identical to its container's pool, so both writers build it here and the EMBB reader
 * checks it here.
 */
import { Arch06Error } from '../../errors';

/** Retail paths are NUL-padded to this multiple (seed 004 header rules). */
const EMBB_PATH_ALIGN = 4;

/** Padded length of a path in a retail pool: the string, its NUL, NULs up to a multiple of 4. */
function paddedLength(byteLength: number): number {
  return Math.ceil((byteLength + 1) / EMBB_PATH_ALIGN) * EMBB_PATH_ALIGN;
}

/**
 * Whether a pool and its offsets have the retail layout: offsets start at 0 and follow on by
 * padded length, the pool ends with the last padded path, and every padding byte is NUL.
 */
export function isRetailPathLayout(pool: Uint8Array, offsets: number[]): boolean {
  let expect = 0;
  for (const off of offsets) {
    if (off !== expect) return false;
    const end = pool.indexOf(0, off);
    if (end < 0) return false;
    expect = off + paddedLength(end - off);
    if (expect > pool.length) return false;
    for (let p = end; p < expect; p++) if (pool[p] !== 0) return false;
  }
  return expect === pool.length;
}
/** Refuse strings a pool cannot hold: empty, with NUL or control characters, or beyond one byte per character. */
export function checkMemberPath(path: string, field: string): void {
  if (path.length === 0) throw new Arch06Error('BAD_ARGUMENT', 'pool strings cannot be empty', { field });
  if (/[\x00-\x1f]/.test(path) || /[^\x00-\xff]/.test(path)) {
    throw new Arch06Error('BAD_ARGUMENT', 'pool strings are single-byte text without control characters', { field, actual: JSON.stringify(path) });
  }
}

/** How a pool is built. */
export interface PathPoolOptions {
  /**
   * Let members with one path share one pool string (and its offset), as no retail pool does but
   * the layout allows: for crafted files (issue 21). Default: a repeated path is refused.
   */
  sharePaths?: boolean;
}

/**
 * The retail path pool for `paths` (in order): each path NUL-terminated and NUL-padded to 4,
 * offsets following on from 0. Shared by `writeEmbb` and `writeBndl`, so a manifest's path area
 * is byte-identical to its container's pool. Paths are case-insensitive: duplicates are refused
 * (or, with `sharePaths`, written once and pointed at by every member naming them).
 */
export function buildPathPool(paths: string[], options: PathPoolOptions = {}): { pool: Uint8Array; offsets: number[] } {
  const seen = new Map<string, number>();
  let size = 0;
  const offsets: number[] = [];
  const unique: number[] = [];
  const keys = new Map<string, string>(); // one path string given many times is folded once
  paths.forEach((p, i) => {
    let k = keys.get(p);
    if (k === undefined) keys.set(p, (k = p.toLowerCase()));
    const at = seen.get(k);
    if (at !== undefined) {
      if (!options.sharePaths)
        throw new Arch06Error('BAD_ARGUMENT', 'member path given twice (paths are case-insensitive)', { field: `member[${i}].path`, actual: p });
      offsets.push(at);
      return;
    }
    checkMemberPath(p, `member[${i}].path`);
    seen.set(k, size);
    offsets.push(size);
    unique.push(i);
    size += paddedLength(p.length);
  });
  const pool = new Uint8Array(size); // zero-filled: terminators and padding are NUL
  for (const i of unique) pool.set(Buffer.from(paths[i], 'latin1'), offsets[i]);
  return { pool, offsets };
}

/** A half-open byte range of a path pool. */
export interface Slot {
  start: number;
  end: number;
}

/**
 * The pool slots of the strings at `offsets[i]` for the indices `cut` (ascending) that no other
 * index points at: from a slot's offset to the next distinct offset (or `poolSize`), ascending.
 * In the retail layout a slot is the path, its NUL and the NUL padding to 4 (a manifest member
 * declared with size 0 leaves exactly that out of its container's pool, see ./bndl.ts).
 */
export function cutSlots(offsets: number[], cut: number[], poolSize: number): Slot[] {
  if (cut.length === 0) return [];
  const starts = new Set(cut.map((i) => offsets[i]));
  for (let i = 0, j = 0; i < offsets.length; i++) {
    if (j < cut.length && cut[j] === i) j++;
    else starts.delete(offsets[i]); // a kept string stays in the pool
  }
  const all = [...new Set(offsets)].sort((a, b) => a - b);
  const slots: Slot[] = [];
  all.forEach((start, k) => {
    if (starts.has(start) && start < poolSize) slots.push({ start, end: Math.min(all[k + 1] ?? poolSize, poolSize) });
  });
  return slots;
}
