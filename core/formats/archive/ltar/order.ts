/**
 * The two orders an LTAR archive keeps its tables in, which the engine's binary searches rely
 * on (seed 004 "Lookup"): leaf names inside a folder in case-insensitive order (`_stricmp`),
 * and folder records in case-insensitive order of their full paths compared as if each ended
 * in a backslash. The two orders differ only where one folder name is a prefix of another:
 * `bundles\dlc4\` sorts before `bundles\dlc\` (digit 4 < backslash), plain order the other way.
 * The root folder (empty path) is record 0 and outside the order.
 */

/** ASCII lower-casing, as `_stricmp` does in the C locale. */
export const FOLD = (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = i >= 0x41 && i <= 0x5a ? i + 0x20 : i;
  return t;
})();

const BACKSLASH = 0x5c;

/**
 * Compare two byte strings case-insensitively, `a` = bytes[aStart, aEnd) and likewise `b`.
 * `endA`/`endB` is the byte a string behaves as at its end: 0 for leaf order, a backslash for
 * folder order; past that virtual byte the strings compare equal if both ended.
 */
function compareFolded(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number, endByte: number): number {
  const la = aEnd - aStart;
  const lb = bEnd - bStart;
  const n = la < lb ? la : lb;
  for (let i = 0; i < n; i++) {
    const d = FOLD[a[aStart + i]] - FOLD[b[bStart + i]];
    if (d !== 0) return d;
  }
  if (la === lb) return 0;
  // One string is a prefix of the other: the shorter one continues with its end byte, then ends.
  if (la < lb) {
    const d = endByte - FOLD[b[bStart + n]];
    return d !== 0 ? d : la + 1 === lb ? 0 : -1;
  }
  const d = FOLD[a[aStart + n]] - endByte;
  return d !== 0 ? d : lb + 1 === la ? 0 : 1;
}

/** Leaf order: `_stricmp`, where a string ends in NUL. */
export function compareLeafBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  return compareFolded(a, aStart, aEnd, b, bStart, bEnd, 0);
}

/** Folder order: full paths compared as if each ended in a backslash. */
export function compareFolderBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  return compareFolded(a, aStart, aEnd, b, bStart, bEnd, BACKSLASH);
}

const latin1 = (s: string): Uint8Array => Buffer.from(s, 'latin1');

export function compareLeafNames(a: string, b: string): number {
  const x = latin1(a);
  const y = latin1(b);
  return compareLeafBytes(x, 0, x.length, y, 0, y.length);
}

export function compareFolderPaths(a: string, b: string): number {
  const x = latin1(a);
  const y = latin1(b);
  return compareFolderBytes(x, 0, x.length, y, 0, y.length);
}
