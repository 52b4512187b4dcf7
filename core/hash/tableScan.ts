/**
 * Finding the real StringHash table in the game executable (issue 15, item 7).
 *
 * Seed 000 puts the 256-byte table at 0x1DB50D0 in the ShadowOfWar.exe image and seeds 000/004
 * give 68 of its values (`knownHashTable`). Rather than trust the address (it is a run-time
 * address, and a patched executable moves it), the whole file is scanned for runs of 256 entries
 * that agree with every known value. Exactly one such run is usable; none or several is reported
 * with the reason, never guessed.
 *
 * Cost: one pass over the file comparing two bytes per offset (the first two known entries), and
 * the full comparison only where both agree, so the scan is linear in the file. Memory is bounded
 * by `maxCandidates` kept tables. Pure: the caller reads the bytes (no node:fs here).
 */
import { Arch06Error } from '../errors';
import { HashTable, knownHashTable } from './stringHash';

/** Seed 000's address of the table, relative to the image base (the seed writes globals as base+0x…). Informational. */
export const SEED_TABLE_RVA = 0x1db50d0;

/** Width of one table entry in the file; the seed says a 256-byte table, so 1 unless asked otherwise. */
export type TableElementSize = 1 | 2 | 4;

export interface TableScanOptions {
  /** The values a candidate must agree with (undefined = unconstrained); default `knownHashTable()`. */
  reference?: HashTable;
  /** Bytes per entry, little-endian; default 1. */
  elementSize?: TableElementSize;
  /** At most this many candidate tables are kept (all are counted); default 16. */
  maxCandidates?: number;
}

/** Where a file offset lands in the loaded image, when the file is a PE whose headers parse. Informational. */
export interface ImageAddress {
  /** The section holding the offset, e.g. `.rdata`. */
  section: string;
  /** Offset from the image base (seed addresses read this way). */
  rva: number;
  /** Image base + RVA: the address in the running game when it loads at its preferred base. */
  virtualAddress: number;
}

export interface TableCandidate {
  offset: number;
  table: HashTable;
  image?: ImageAddress;
}

/** The offset that came closest without agreeing everywhere (among offsets where the first two known entries agree). */
export interface NearMiss {
  offset: number;
  agree: number;
  /** The first known entry that disagrees. */
  byte: number;
  expected: number;
  actual: number;
}

export interface HashTableScan {
  candidates: TableCandidate[];
  /** Every offset that agrees, including those beyond `maxCandidates`. */
  total: number;
  elementSize: TableElementSize;
  /** How many entries the reference knows (68 with `knownHashTable`). */
  knownEntries: number;
  /** Offsets whose in-file entries all agree but whose table runs past the end of the file. */
  cutAtEnd: number[];
  /** Only when there is no candidate: the closest miss, if any offset got past the cheap check. */
  closest?: NearMiss;
  /** Whether the file parsed as a PE image (for `image` on the candidates). */
  isPe: boolean;
}

const MAX_CUT_REPORTED = 8;

/** Scan `exe` for StringHash tables that agree with every known value. */
export function findHashTables(exe: Uint8Array, options: TableScanOptions = {}): HashTableScan {
  const reference = options.reference ?? knownHashTable();
  const size = options.elementSize ?? 1;
  const maxCandidates = options.maxCandidates ?? 16;
  if (reference.length !== 256) {
    throw new Arch06Error('BAD_ARGUMENT', 'a reference StringHash table must have 256 entries', { expected: '256', actual: String(reference.length) });
  }
  if (!Number.isInteger(maxCandidates) || maxCandidates < 1) {
    // At least one is kept, so a single match always yields its table.
    throw new Arch06Error('BAD_ARGUMENT', 'maxCandidates must be a positive integer', {
      field: 'maxCandidates',
      expected: 'at least 1',
      actual: String(maxCandidates),
    });
  }
  if (size !== 1 && size !== 2 && size !== 4) {
    throw new Arch06Error('BAD_ARGUMENT', 'unsupported table element size', { field: 'elementSize', expected: '1, 2 or 4', actual: String(size) });
  }
  // Known entries as parallel arrays (byte positions in the file, values), ascending by index.
  const idx: number[] = [];
  const val: number[] = [];
  for (let i = 0; i < 256; i++) {
    const v = reference[i];
    if (v !== undefined) {
      idx.push(i);
      val.push(v >>> 0);
    }
  }
  if (idx.length < 2) {
    throw new Arch06Error('BAD_ARGUMENT', 'a reference StringHash table must know at least two entries', {
      expected: 'at least 2',
      actual: String(idx.length),
    });
  }
  const known = idx.length;
  const tableBytes = 256 * size;
  const view = new DataView(exe.buffer, exe.byteOffset, exe.byteLength);
  const at = (o: number): number => (size === 1 ? exe[o] : size === 2 ? view.getUint16(o, true) : view.getUint32(o, true));

  // The cheap check: the low byte of the first two known entries.
  const p0 = idx[0] * size;
  const p1 = idx[1] * size;
  const b0 = val[0] & 0xff;
  const b1 = val[1] & 0xff;
  const lastFull = exe.length - tableBytes; // last offset where a whole table fits
  const lastAnchored = exe.length - 1 - p1; // last offset where both cheap-check bytes are in the file

  const candidates: TableCandidate[] = [];
  const cutAtEnd: number[] = [];
  let total = 0;
  let closest: NearMiss | undefined;
  for (let o = 0; o <= lastAnchored; o++) {
    if (exe[o + p0] !== b0 || exe[o + p1] !== b1) continue;
    if (o > lastFull) {
      // Only the entries inside the file can be compared; a match here is a cut table, not a candidate.
      let ok = true;
      for (let k = 0; k < known && ok; k++) {
        const p = o + idx[k] * size;
        if (p + size > exe.length) break;
        ok = at(p) === val[k];
      }
      if (ok && cutAtEnd.length < MAX_CUT_REPORTED) cutAtEnd.push(o);
      continue;
    }
    // Count every agreement (not just the first failure) so the closest miss can be reported.
    let agree = 0;
    let firstBad = -1;
    for (let k = 0; k < known; k++) {
      if (at(o + idx[k] * size) === val[k]) agree++;
      else if (firstBad < 0) firstBad = k;
    }
    if (agree === known) {
      total++;
      if (candidates.length < maxCandidates) {
        const table = new Array<number>(256);
        for (let i = 0; i < 256; i++) table[i] = at(o + i * size);
        candidates.push({ offset: o, table });
      }
    } else if (closest === undefined || agree > closest.agree) {
      closest = { offset: o, agree, byte: idx[firstBad], expected: val[firstBad], actual: at(o + idx[firstBad] * size) };
    }
  }

  const pe = parsePe(exe);
  if (pe) {
    for (const c of candidates) {
      const image = pe.addressOf(c.offset);
      if (image) c.image = image;
    }
  }
  const scan: HashTableScan = { candidates, total, elementSize: size, knownEntries: known, cutAtEnd, isPe: pe !== undefined };
  if (total === 0 && closest) scan.closest = closest;
  return scan;
}

export interface FoundHashTable {
  table: HashTable;
  offset: number;
  image?: ImageAddress;
  scan: HashTableScan;
}

/**
 * The table when the scan finds exactly one; otherwise an `INVALID` error (returned, not thrown)
 * that says why: no candidate (and the closest miss or a table cut by the end of the file), or
 * several (their offsets, and whether their contents differ).
 */
export function tableFromExecutable(exe: Uint8Array, options: TableScanOptions & { file?: string } = {}): FoundHashTable | Arch06Error {
  const scan = findHashTables(exe, options);
  if (scan.total === 1) {
    const c = scan.candidates[0];
    return { table: c.table, offset: c.offset, ...(c.image ? { image: c.image } : {}), scan };
  }
  return scanError(scan, options.file);
}

/** What a scan that did not find exactly one table means, as the error a caller reports. */
export function scanError(scan: HashTableScan, file?: string): Arch06Error {
  const expected = `exactly one run of 256 ${scan.elementSize}-byte entries agreeing with the ${scan.knownEntries} known StringHash values (a-z, A-Z, 0-9, space _ - . \\ /)`;
  if (scan.total === 0) {
    const why: string[] = [];
    if (scan.cutAtEnd.length > 0) why.push(`a table at 0x${hex(scan.cutAtEnd[0])} is cut by the end of the file`);
    if (scan.closest) {
      const m = scan.closest;
      why.push(
        `closest at 0x${hex(m.offset)}: ${m.agree} of ${scan.knownEntries} agree, entry 0x${m.byte.toString(16).padStart(2, '0')} is ${m.actual} not ${m.expected}`,
      );
    }
    if (why.length === 0) why.push('no offset holds even the first two known values');
    return new Arch06Error('INVALID', 'no StringHash table in this executable', { file, expected, actual: `none (${why.join('; ')})` });
  }
  const shown = scan.candidates.map((c) => '0x' + hex(c.offset)).join(', ');
  const more = scan.total > scan.candidates.length ? ` and ${scan.total - scan.candidates.length} more` : '';
  const first = scan.candidates[0].table;
  const differ = scan.candidates.some((c) => c.table.some((v, i) => v !== first[i]));
  return new Arch06Error('INVALID', `${scan.total} StringHash table candidates, cannot choose one`, {
    file,
    offset: scan.candidates[0].offset,
    expected,
    actual: `${scan.total} at ${shown}${more} (${differ ? 'their contents differ' : 'identical contents'})`,
  });
}

function hex(n: number): string {
  return n.toString(16).toUpperCase();
}

interface PeImage {
  addressOf(fileOffset: number): ImageAddress | undefined;
}

/**
 * The image base and section table of a PE file, for `ImageAddress`; undefined when anything
 * does not parse (the address is informational, so a malformed header is not an error). Every
 * read is checked against the file length.
 */
export function parsePe(exe: Uint8Array): PeImage | undefined {
  const view = new DataView(exe.buffer, exe.byteOffset, exe.byteLength);
  const fits = (o: number, n: number): boolean => o >= 0 && o + n <= exe.length;
  if (!fits(0, 0x40) || exe[0] !== 0x4d || exe[1] !== 0x5a) return undefined; // "MZ"
  const pe = view.getUint32(0x3c, true);
  if (!fits(pe, 24) || view.getUint32(pe, true) !== 0x00004550) return undefined; // "PE\0\0"
  const sectionCount = view.getUint16(pe + 6, true);
  const optSize = view.getUint16(pe + 20, true);
  const opt = pe + 24;
  if (!fits(opt, Math.max(optSize, 32))) return undefined;
  const magic = view.getUint16(opt, true);
  let imageBase: number;
  if (magic === 0x20b) {
    // PE32+: a 64-bit base; beyond 2^53 it cannot be a JS number exactly, so no address.
    const lo = view.getUint32(opt + 24, true);
    const hi = view.getUint32(opt + 28, true);
    if (hi >= 0x200000) return undefined;
    imageBase = hi * 0x100000000 + lo;
  } else if (magic === 0x10b) imageBase = view.getUint32(opt + 28, true);
  else return undefined;
  const table = opt + optSize;
  if (!fits(table, sectionCount * 40)) return undefined;
  const sections: { name: string; va: number; raw: number; rawSize: number }[] = [];
  for (let s = 0; s < sectionCount; s++) {
    const h = table + s * 40;
    let name = '';
    for (let i = 0; i < 8 && exe[h + i] !== 0; i++) name += String.fromCharCode(exe[h + i]);
    sections.push({ name, va: view.getUint32(h + 12, true), raw: view.getUint32(h + 20, true), rawSize: view.getUint32(h + 16, true) });
  }
  return {
    addressOf(fileOffset: number): ImageAddress | undefined {
      const s = sections.find((x) => fileOffset >= x.raw && fileOffset < x.raw + x.rawSize);
      if (!s) return undefined;
      const rva = s.va + (fileOffset - s.raw);
      return { section: s.name, rva, virtualAddress: imageBase + rva };
    },
  };
}
