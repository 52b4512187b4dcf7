/**
 * The record readers the table search (./search.ts) tests candidate offsets with: vertex entries
 * and the two framings of a format list, draw records and their signature, material paths in
 * three encodings (what each rule is and why: ./layout.ts). A search tests every offset, so these
 * read through the file reader's view inside bounds their callers' loops establish, record
 * nothing and never throw; what the search accepts is then read field by field (`readDraws`).
 */
import { FieldReader } from '../../../io/fieldReader';
import { asF32 } from '../../../io/half';
import {
  DRAW_RECORD_SIZE,
  DrawRecord,
  FormatTable,
  MAX_DRAW_VERTICES,
  MAX_FORMAT_ENTRIES,
  MAX_PATH_LENGTH,
  MaterialTable,
  VERTEX_ENTRY_SIZE,
  VERTEX_TYPES,
  VERTEX_USAGES,
  VertexEntry,
  VertexFormat,
} from './layout';

/** Cap on the candidates collected (more than one is already ambiguous). */
export const MAX_CANDIDATES = 8;

/** Whether the 4 bytes at `o` are a vertex entry with the seed's codes (no allocation: the format search asks at every offset). */
function entryOk(v: DataView, o: number): boolean {
  return v.getUint8(o) <= 1 && VERTEX_TYPES[v.getUint8(o + 1)] !== undefined && v.getUint8(o + 2) < VERTEX_USAGES.length && v.getUint8(o + 3) < 8;
}

/** A vertex entry at `o` if it uses the seed's codes, else undefined. */
function entryAt(v: DataView, o: number): Omit<VertexEntry, 'streamOffset'> | undefined {
  if (!entryOk(v, o)) return undefined;
  const stream = v.getUint8(o);
  const type = v.getUint8(o + 1);
  const usage = v.getUint8(o + 2);
  const index = v.getUint8(o + 3);
  const t = VERTEX_TYPES[type]!;
  return { offset: o, stream, type, typeName: t.name, usage, usageName: VERTEX_USAGES[usage]!, index, size: t.size };
}

function formatOf(index: number, offset: number, raw: Omit<VertexEntry, 'streamOffset'>[]): VertexFormat {
  const strides: [number, number] = [0, 0];
  const entries = raw.map((e) => {
    const streamOffset = strides[e.stream as 0 | 1];
    strides[e.stream as 0 | 1] += e.size;
    return { ...e, streamOffset };
  });
  return { index, offset, entries, strides };
}

/** Counted reading at `fs`: `count` x {u32 n, n entries}; undefined unless it ends exactly at `end`. */
function countedFormats(v: DataView, fs: number, count: number, end: number): FormatTable | undefined {
  let o = fs;
  const formats: VertexFormat[] = [];
  for (let i = 0; i < count; i++) {
    if (o + 4 > end) return undefined;
    const n = v.getUint32(o, true);
    if (n < 1 || n > MAX_FORMAT_ENTRIES || o + 4 + n * VERTEX_ENTRY_SIZE > end) return undefined;
    const at = o;
    o += 4;
    const raw: Omit<VertexEntry, 'streamOffset'>[] = [];
    for (let k = 0; k < n; k++, o += VERTEX_ENTRY_SIZE) {
      const e = entryAt(v, o);
      if (!e) return undefined;
      raw.push(e);
    }
    formats.push(formatOf(i, at, raw));
  }
  return o === end ? { offset: fs, size: end - fs, framing: 'counted', formats, count } : undefined;
}

/** Flat reading: `count` entries of 4 bytes ending at `end`. */
function flatFormats(v: DataView, count: number, end: number, from: number): FormatTable | undefined {
  const fs = end - count * VERTEX_ENTRY_SIZE;
  if (fs < from) return undefined;
  const raw: Omit<VertexEntry, 'streamOffset'>[] = [];
  for (let o = fs; o < end; o += VERTEX_ENTRY_SIZE) {
    const e = entryAt(v, o);
    if (!e) return undefined;
    raw.push(e);
  }
  return { offset: fs, size: end - fs, framing: 'flat', formats: [formatOf(0, fs, raw)], count };
}

/**
 * Every framing of `count` formats that ends exactly at `end` and starts at or after `from`
 * (at most `MAX_CANDIDATES` counted ones); with `upTo`, only those starting in [from, upTo].
 */
export function formatCandidates(v: DataView, from: number, end: number, count: number, upTo?: number): FormatTable[] {
  const out: FormatTable[] = [];
  if (count < 1 || count * VERTEX_ENTRY_SIZE > end - from) return out;
  const flat = flatFormats(v, count, end, from);
  if (flat && (upTo === undefined || flat.offset <= upTo)) out.push(flat);
  const lo = Math.max(from, end - count * (4 + MAX_FORMAT_ENTRIES * VERTEX_ENTRY_SIZE));
  const hi = Math.min(end - count * 8, upTo ?? Infinity);
  if (hi < lo) return out;
  // The counted reading from fs is a chain fs -> fs + 4 + 4n -> ... that must take exactly
  // `count` steps to land on `end`. Walking from the right, each offset is given two figures,
  // once: `valid`, the number of consecutive entries with the seed's codes from there (4-byte
  // steps), and `steps`, the number of formats that lead from there exactly to `end` (-1: none).
  // A format is at most 4 + MAX_FORMAT_ENTRIES x 4 bytes, so both look at most that far ahead
  // and a ring buffer holds them. Linear in end - lo; only the framings that pass (at most
  // MAX_CANDIDATES) are built.
  const RING = 2 ** Math.ceil(Math.log2(4 + MAX_FORMAT_ENTRIES * VERTEX_ENTRY_SIZE + 1)); // a power of two beyond the look-ahead
  const valid = new Int32Array(RING);
  const steps = new Int32Array(RING);
  valid[end & (RING - 1)] = 0;
  steps[end & (RING - 1)] = 0;
  for (let o = end - 1; o >= lo && out.length < MAX_CANDIDATES; o--) {
    const at = o & (RING - 1);
    valid[at] = o + VERTEX_ENTRY_SIZE <= end && entryOk(v, o) ? 1 + valid[(o + VERTEX_ENTRY_SIZE) & (RING - 1)]! : 0;
    let k = -1;
    if (o + 4 <= end) {
      const n = v.getUint32(o, true);
      if (n >= 1 && n <= MAX_FORMAT_ENTRIES && o + 4 + n * VERTEX_ENTRY_SIZE <= end && valid[(o + 4) & (RING - 1)]! >= n) {
        const next = steps[(o + 4 + n * VERTEX_ENTRY_SIZE) & (RING - 1)]!;
        if (next >= 0) k = next + 1;
      }
    }
    steps[at] = k;
    if (o <= hi && k === count) {
      const c = countedFormats(v, o, count, end);
      if (c) out.push(c);
    }
  }
  return out;
}

/** Names of the 13 words of a draw record, in order (./layout.ts `DrawRecord`). */
const DRAW_WORDS = [
  'word0',
  'vertexCount',
  'vertexCount2',
  'indexStart',
  'base',
  'triangles',
  'material',
  'word7',
  'word8',
  'format',
  'vend',
  'unknown44',
  'unknown48',
] as const;

/** The `count` draw records at `o`, read through the reader (their fields are recorded as spans). */
export function readDraws(r: FieldReader, o: number, count: number): DrawRecord[] {
  const draws: DrawRecord[] = [];
  const u: number[] = new Array(DRAW_WORDS.length);
  for (let i = 0; i < count; i++) {
    const at = o + i * DRAW_RECORD_SIZE;
    for (let k = 0; k < DRAW_WORDS.length; k++) u[k] = r.u32At(at + 4 * k, `draws[${i}].${DRAW_WORDS[k]}`);
    draws.push({
      index: i,
      offset: at,
      word0: u[0]!,
      vertexCount: u[1]!,
      vertexCount2: u[2]!,
      indexStart: u[3]!,
      base: u[4]!,
      triangles: u[5]!,
      material: u[6]!,
      word7: u[7]!,
      word8: u[8]!,
      format: u[9]!,
      vend: u[10]!,
      unknown44: { raw: u[11]!, asFloat: asF32(u[11]!) },
      unknown48: { raw: u[12]!, asFloat: asF32(u[12]!) },
    });
  }
  return draws;
}

/** The draw signature of the file comment (seed words plus our checks). */
export function drawMatches(v: DataView, o: number, formatCount: number, materialCount: number | undefined): boolean {
  if (v.getUint32(o, true) !== 0) return false;
  const n = v.getUint32(o + 4, true);
  if (n < 1 || n > MAX_DRAW_VERTICES || v.getUint32(o + 8, true) !== n) return false;
  if (v.getUint32(o + 28, true) !== 0 || v.getUint32(o + 32, true) !== 0) return false;
  if (v.getUint32(o + 20, true) < 1) return false;
  if (v.getUint32(o + 36, true) >= formatCount) return false;
  if (materialCount !== undefined && v.getUint32(o + 24, true) >= materialCount) return false;
  return Number.isFinite(v.getFloat32(o + 44, true)) && Number.isFinite(v.getFloat32(o + 48, true));
}

function printable(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return false;
  return true;
}
const latin1 = (bytes: Uint8Array, from: number, to: number): string => {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(bytes[i]!);
  return s;
};

/** `count` printable paths at `o` in one encoding, or undefined. */
function pathsAt(r: FieldReader, o: number, count: number, encoding: MaterialTable['encoding']): MaterialTable | undefined {
  const { bytes, view: v } = r;
  const paths: { offset: number; path: string }[] = [];
  let at = o;
  for (let i = 0; i < count; i++) {
    if (encoding === 'nul') {
      let e = at;
      const max = Math.min(bytes.length, at + MAX_PATH_LENGTH + 1);
      while (e < max && bytes[e] !== 0) e++;
      if (e >= max || e === at || !printable(bytes, at, e)) return undefined;
      paths.push({ offset: at, path: latin1(bytes, at, e) });
      at = e + 1;
    } else {
      const w = encoding === 'u16' ? 2 : 4;
      if (at + w > bytes.length) return undefined;
      const len = w === 2 ? v.getUint16(at, true) : v.getUint32(at, true);
      if (len < 1 || len > MAX_PATH_LENGTH || at + w + len > bytes.length) return undefined;
      // A terminating NUL counted in the length is accepted.
      const textEnd = bytes[at + w + len - 1] === 0 ? at + w + len - 1 : at + w + len;
      if (textEnd === at + w || !printable(bytes, at + w, textEnd)) return undefined;
      paths.push({ offset: at, path: latin1(bytes, at + w, textEnd) });
      at += w + len;
    }
  }
  return { offset: o, size: at - o, encoding, paths };
}

export function materialsAt(r: FieldReader, o: number, count: number): MaterialTable[] {
  const bytes = r.bytes;
  if (count === 0) return [{ offset: o, size: 0, encoding: 'nul', paths: [] }];
  if (count * 2 > bytes.length - o) return [];
  return (['nul', 'u16', 'u32'] as const).map((e) => pathsAt(r, o, count, e)).filter((m): m is MaterialTable => !!m);
}
