/**
 * The path index, `archivepatchloosefiles.txt`, record 0 of 37 shipped archives (seed 004
 * "The path index"):
 *
 *   u32 1 | u32 stringBytes | strings (NUL-terminated full paths) | u32 count |
 *   count x {u32 hash, u32 stringOffset}      (offsets relative to the first string)
 *
 * Rows are sorted by hash and every hash is StringHash of its path. The engine merges every
 * mounted archive's rows into one hash -> path table (fs+0x80).
 */
import { Arch06Error } from '../../errors';
import { StringHasher, defaultHasher, formatHash } from '../../hash/stringHash';
import { ByteWriter } from '../../io/byteWriter';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { MAX_GAME_PATH_BYTES } from '../../io/safeName';

export interface PathIndexRow {
  hash: number;
  path: string;
}

export interface PathIndexProblem {
  row: number;
  message: string;
}

export interface PathIndex {
  rows: PathIndexRow[];
  /** Rows that break a rule (order, hash) without making the file unreadable. */
  problems: PathIndexProblem[];
}

const td = new TextDecoder('latin1');

export function parsePathIndex(
  bytes: Uint8Array,
  file = 'archivepatchloosefiles.txt',
  hasher: StringHasher = defaultHasher,
  options: ParseOptions = {},
): PathIndex {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  r.need(8, 'header');
  const lead = r.u32('lead');
  if (lead !== 1) throw new Arch06Error('INVALID', 'path index does not start with 1', { file, offset: 0, field: 'lead', expected: '1', actual: String(lead) });
  const stringBytes = r.u32('stringBytes');
  const strings = r.bytesOf(stringBytes, 'strings');
  const countAt = r.pos;
  const count = r.u32('count');
  // Checked against the file's length before any row is materialised; the rows are then read
  // through the reader's view (one span for the table: a row per read would cost a name each).
  r.fits(count, 8, 'rows', countAt);
  r.record('rows', countAt + 4, count * 8);
  const dv = r.view;
  const rows: PathIndexRow[] = [];
  const problems: PathIndexProblem[] = [];
  const trailing = bytes.length - (countAt + 4 + count * 8);
  if (trailing > 0) problems.push({ row: -1, message: `${trailing} bytes after the last row` });
  // Rows may share a string (or point into one long string at many offsets): each offset is
  // decoded and hashed once, and string ends come from one backward pass, so the work is linear
  // in the file whatever the rows claim.
  const nextNul = new Int32Array(strings.length + 1);
  nextNul[strings.length] = -1;
  for (let p = strings.length - 1; p >= 0; p--) nextNul[p] = strings[p] === 0 ? p : nextNul[p + 1];
  const byOffset = new Map<number, { path: string; hash: ReturnType<StringHasher['tryHash']> | undefined }>();
  let prev = -1;
  for (let i = 0; i < count; i++) {
    const at = countAt + 4 + i * 8;
    const hash = dv.getUint32(at, true);
    const off = dv.getUint32(at + 4, true);
    const end = off < strings.length ? nextNul[off] : -1;
    if (end < 0) {
      throw new Arch06Error('OUT_OF_RANGE', 'path index row points outside its strings', {
        file,
        offset: at + 4,
        field: `row[${i}].stringOffset`,
        expected: `< ${stringBytes}, NUL-terminated`,
        actual: String(off),
      });
    }
    let s = byOffset.get(off);
    if (!s) {
      const tooLong = end - off > MAX_GAME_PATH_BYTES;
      s = { path: tooLong ? '' : td.decode(strings.subarray(off, end)), hash: undefined };
      if (!tooLong) s.hash = hasher.tryHash(s.path);
      byOffset.set(off, s);
    }
    if (hash < prev) problems.push({ row: i, message: `rows not sorted by hash: ${formatHash(hash)} after ${formatHash(prev)}` });
    prev = hash;
    const h = s.hash;
    if (!h) {
      problems.push({ row: i, message: `path of ${end - off} bytes is longer than ${MAX_GAME_PATH_BYTES}: row left out` });
      continue;
    }
    const shown = JSON.stringify(s.path);
    if (!h.ok) problems.push({ row: i, message: `cannot check the hash of ${shown}: byte 0x${h.byte.toString(16)} is not in the known StringHash table` });
    else if (h.hash !== hash) problems.push({ row: i, message: `hash ${formatHash(hash)} is not StringHash(${shown}) = ${formatHash(h.hash)}` });
    rows.push({ hash, path: s.path });
  }
  return { rows, problems };
}

/** Build a path index for `paths` (rows sorted by StringHash, each string once). */
export function writePathIndex(paths: string[], hasher: StringHasher = defaultHasher): Uint8Array {
  const unique = [...new Set(paths)];
  const offsets = new Map<string, number>();
  const strings = new ByteWriter();
  for (const p of unique) {
    offsets.set(p, strings.length);
    // latin1, as Buffer.from(p, 'latin1') writes it: one byte per character (its low byte).
    strings.latin1(p).u8(0);
  }
  const rows = unique.map((p) => ({ hash: hasher.hash(p), off: offsets.get(p)! })).sort((a, b) => a.hash - b.hash);
  const w = new ByteWriter(12 + strings.length + rows.length * 8).u32(1).u32(strings.length).bytes(strings.toBytes()).u32(rows.length);
  for (const r of rows) w.u32(r.hash).u32(r.off);
  return w.toBytes();
}
