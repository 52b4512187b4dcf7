/**
 * The tables PRFB v8 prefabs (`.inst`, core/formats/prfb.ts) and MESH v5 world meshes
 * (`.wldmsh`, core/formats/worldMesh.ts) share: vertex formats, 52-byte draw records, material
 * paths, and the vertex / index buffers the draws index. The only description is seed 001
 * ("Prefabs (PRFB, .inst)", "World meshes"); there is no public layout (formats-public §11) and
 * no sample file. Everything located here is therefore `confidence: 'uncertain'`.
 *
 * What the seed fixes (and this module takes as given):
 *   - vertex formats are made of 4-byte entries {u8 stream, u8 type, u8 usage, u8 index};
 *     types 2 float3, 12 half4, 10 half2, 4 ubyte4; usages 0 position, 1 normal, 2 tangent,
 *     3 binormal, 4 uv, 5 colour;
 *   - draw records are 52 bytes {0, n, n, index start, base, triangles, material, 0, 0, format,
 *     vend, f32, f32};
 *   - in a PRFB the tail is: vertex formats, then the draw records, then the material paths;
 *     before it {u32 draws, u32 vertex bytes, u32 index bytes}, the vertex data ("per draw one
 *     vertex block ending at its vend (stream 0 then stream 1, stride-aligned)"), then u16
 *     indices ("idx_min .. idx_max, rebased by idx_min");
 *   - a MESH is "laid out like the PRFB tables with the vertex buffer at 0x2C".
 *
 * What the seed leaves open, and how it is handled (each is a search under explicit checks,
 * reported in the notes; nothing is accepted when the checks fail or when more than one place
 * passes them):
 *   - where the tail starts. The draw table is found by scanning for exactly `draws` consecutive
 *     records (no matching record just before or after) that each show the seed's fixed words
 *     (+0 = 0, +4 = +8 = n, +28 = +32 = 0) plus checks of ours (n in 1..65536 since indices are
 *     u16 and rebased, triangles >= 1, format < the header's format count, material < the
 *     header's material count when the file carries paths, the two f32 finite), followed (PRFB)
 *     by exactly `materials` printable paths.
 *   - how a vertex format is framed. Two readings are tried, and must end exactly where the draw
 *     table begins: "counted" (each format {u32 n, n entries}, as MMSH frames its layouts) and
 *     "flat" (the header's count is a count of 4-byte entries). Entries must use the seed's
 *     codes (stream 0 or 1, a listed type, a listed usage, index < 8). A flat reading of the last
 *     few entries of a list always passes, so a framing is taken only when something else pins
 *     its start: (PRFB) the buffers end exactly there, (MESH) it starts right after the index
 *     buffer. Only the counted reading ties a draw's `format` to a list of entries, so only it
 *     allows geometry.
 *   - how the paths are stored: NUL-terminated, or prefixed by a u16 or a u32 length.
 *   - (PRFB) where the {draws, vertex bytes, index bytes} words are: searched between the LOD
 *     records and the formats; accepted when the first word equals the header's draw count and
 *     12 + vertex bytes + index bytes end exactly at the formats (0-3 zero bytes of padding
 *     allowed).
 *   - how a draw's vertex block is placed. Read as: the block starts at the previous draw's vend
 *     (0 for the first), stream 0 starts at the next multiple of its stride, stream 1 at the next
 *     multiple of its stride after stream 0's n vertices, and the block's data ends at or before
 *     vend. `base` is compared with (stream 0 start) / stride (base-vertex addressing) and the
 *     result is noted, not required. Index start is in indices; indices must be < n.
 *
 * Every count is bounded by the bytes that remain before anything is allocated, and every read
 * is inside the file. Both searches are linear in the bytes they cover: each offset is tested
 * once whatever runs of records or chains of formats pass through it (a 2 MB file of nothing but
 * matching draw records or format-shaped bytes used to take seconds to hours).
 */
import { Arch06Error } from '../errors';
import { Confidence, asF32, halfToFloat, hex32 } from './mmsh';

export const DRAW_RECORD_SIZE = 52;
export const VERTEX_ENTRY_SIZE = 4;
/** Longest vertex format the counted reading accepts (a bound of ours, not the seed's). */
export const MAX_FORMAT_ENTRIES = 32;
/** Longest material path accepted (a bound of ours). */
export const MAX_PATH_LENGTH = 1024;
/** u16 indices rebased by idx_min address at most 65536 vertices per draw. */
export const MAX_DRAW_VERTICES = 0x10000;
/** Block size of the index maxima used to check index ranges. */
const INDEX_BLOCK = 512;

/** Seed 001: types 2 float3, 12 half4, 10 half2, 4 ubyte4. */
export const VERTEX_TYPES: Readonly<Record<number, { name: string; size: number }>> = {
  2: { name: 'float3', size: 12 },
  12: { name: 'half4', size: 8 },
  10: { name: 'half2', size: 4 },
  4: { name: 'ubyte4', size: 4 },
};
export const VERTEX_TYPE = { FLOAT3: 2, HALF4: 12, HALF2: 10, UBYTE4: 4 } as const;
/** Seed 001: usages 0 position, 1 normal, 2 tangent, 3 binormal, 4 uv, 5 colour. */
export const VERTEX_USAGES = ['position', 'normal', 'tangent', 'binormal', 'uv', 'colour'] as const;
export const VERTEX_USAGE = { POSITION: 0, NORMAL: 1, TANGENT: 2, BINORMAL: 3, UV: 4, COLOUR: 5 } as const;

export interface VertexEntry {
  offset: number;
  stream: number;
  type: number;
  typeName: string;
  usage: number;
  usageName: string;
  index: number;
  size: number;
  /** Byte offset inside its stream's vertex (entries of a stream in file order). */
  streamOffset: number;
}

export interface VertexFormat {
  index: number;
  offset: number;
  entries: VertexEntry[];
  /** Bytes per vertex of stream 0 and stream 1. */
  strides: [number, number];
}

export interface FormatTable {
  offset: number;
  size: number;
  /** How the formats were framed (see the file comment); both are readings of ours. */
  framing: 'counted' | 'flat';
  /** Counted reading: one format per header count. Flat reading: one pseudo-format holding every entry. */
  formats: VertexFormat[];
  count: number;
}

export interface DrawRecord {
  index: number;
  offset: number;
  /** +0 (seed: 0). */
  word0: number;
  /** +4 and +8 (seed: n, n); read as the draw's vertex count. */
  vertexCount: number;
  vertexCount2: number;
  /** +12, in indices from the start of the index buffer. */
  indexStart: number;
  /** +16 (seed: "base"). */
  base: number;
  /** +20. */
  triangles: number;
  /** +24: a material index (PRFB: into the file's paths; MESH: into the part's WDSC list, seed 001). */
  material: number;
  /** +28, +32 (seed: 0, 0). */
  word7: number;
  word8: number;
  /** +36: index of the vertex format. */
  format: number;
  /** +40: byte offset in the vertex buffer where this draw's vertex block ends. */
  vend: number;
  /** +44, +48: f32 the seed does not name; raw u32 and as f32. */
  unknown44: { raw: number; asFloat: number };
  unknown48: { raw: number; asFloat: number };
}

export interface MaterialTable {
  offset: number;
  size: number;
  encoding: 'nul' | 'u16' | 'u32';
  paths: { offset: number; path: string }[];
}

export interface Tables {
  /** Undefined when no framing of the formats ends where the draw table begins (or several do). */
  formats?: FormatTable;
  drawsOffset: number;
  draws: DrawRecord[];
  /** PRFB only (a MESH's materials index the part's WDSC list). */
  materials?: MaterialTable;
  /** First byte after the last table found. */
  end: number;
  confidence: Confidence;
  /** How the tables were located. */
  notes: string[];
}

export interface Buffers {
  /** PRFB: where the {draws, vertex bytes, index bytes} words are (undefined for MESH). */
  countsOffset?: number;
  vertexOffset: number;
  vertexBytes: number;
  indexOffset: number;
  indexBytes: number;
  /** Zero bytes between the index buffer and the formats. */
  padding: number;
}

/** Where one draw's vertices and indices lie (absolute file offsets). */
export interface DrawPlacement {
  draw: number;
  vertexCount: number;
  /** Byte range of the draw's vertex block inside the vertex buffer: [blockStart, vend). */
  blockStart: number;
  blockEnd: number;
  streams: [{ offset: number; stride: number }, { offset: number; stride: number }];
  indexOffset: number;
  indexCount: number;
}

export interface Geometry {
  /** True when every draw's vertex and index ranges lie inside the buffers and every index is < n. */
  checkable: boolean;
  placements: DrawPlacement[];
  confidence: Confidence;
  notes: string[];
}

// ---- small readers -------------------------------------------------------------------------

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const alignUp = (v: number, a: number): number => (a > 0 ? Math.ceil(v / a) * a : v);

export const hexOff = (o: number): string => `0x${o.toString(16)}`;

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
function formatCandidates(v: DataView, from: number, end: number, count: number, upTo?: number): FormatTable[] {
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

function drawAt(v: DataView, o: number, index: number): DrawRecord {
  const u = (k: number): number => v.getUint32(o + 4 * k, true);
  return {
    index, offset: o, word0: u(0), vertexCount: u(1), vertexCount2: u(2), indexStart: u(3), base: u(4), triangles: u(5), material: u(6),
    word7: u(7), word8: u(8), format: u(9), vend: u(10), unknown44: { raw: u(11), asFloat: asF32(u(11)) }, unknown48: { raw: u(12), asFloat: asF32(u(12)) },
  };
}

/** The draw signature of the file comment (seed words plus our checks). */
function drawMatches(v: DataView, o: number, formatCount: number, materialCount: number | undefined): boolean {
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
function pathsAt(bytes: Uint8Array, o: number, count: number, encoding: MaterialTable['encoding']): MaterialTable | undefined {
  const paths: { offset: number; path: string }[] = [];
  let at = o;
  const v = viewOf(bytes);
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

function materialsAt(bytes: Uint8Array, o: number, count: number): MaterialTable[] {
  if (count === 0) return [{ offset: o, size: 0, encoding: 'nul', paths: [] }];
  if (count * 2 > bytes.length - o) return [];
  return (['nul', 'u16', 'u32'] as const).map((e) => pathsAt(bytes, o, count, e)).filter((m): m is MaterialTable => !!m);
}

// ---- the search ----------------------------------------------------------------------------

export interface TableSearch {
  bytes: Uint8Array;
  file: string;
  /** The tables lie at or after this offset. */
  from: number;
  /** The header's draw count. */
  drawCount: number;
  /** The header's vertex-format count. */
  formatCount: number;
  /** The header's material count when the file carries material paths after the draws (PRFB). */
  materialCount?: number;
  /** Where the formats should start when the layout says so (MESH: right after the index buffer). */
  formatsAt?: number;
  /** PRFB: look for the {draws, vertex bytes, index bytes} words before the formats. */
  findCounts?: boolean;
  /** MESH: the buffers the header places. */
  buffers?: Buffers;
  /** Header field names for the notes ("header [4]"). */
  labels: { draws: string; formats: string; materials?: string };
}

export interface TableSearchResult {
  tables?: Tables;
  buffers?: Buffers;
  geometry?: Geometry;
  /** What was tried and why it was or was not accepted. */
  notes: string[];
}

/** Cap on the draw-table positions collected (more than one is already ambiguous). */
const MAX_CANDIDATES = 8;

interface Candidate {
  drawsOffset: number;
  materials: MaterialTable[];
}

/**
 * Locate the formats, draw records and (PRFB) material paths, then the buffers and the draws'
 * placement in them, as the file comment describes. Never throws for data that does not fit:
 * what could not be located is said in `notes`.
 */
export function locateTables(s: TableSearch): TableSearchResult {
  const { bytes, drawCount: D, formatCount: F, materialCount: M, labels } = s;
  const v = viewOf(bytes);
  const notes: string[] = [];
  const size = bytes.length;
  if (D === 0) {
    notes.push(`${labels.draws} = 0 draws: there is no draw table to look for`);
    return { notes };
  }
  if (F === 0) {
    notes.push(`${labels.formats} = 0 vertex formats: no draw can name a format, so the draw table was not looked for`);
    return { notes };
  }
  if (D * DRAW_RECORD_SIZE > size - s.from) {
    notes.push(`${labels.draws} = ${D} draws of ${DRAW_RECORD_SIZE} bytes do not fit in the ${Math.max(0, size - s.from)} bytes after ${hexOff(s.from)}: draw table not located`);
    return { notes };
  }
  if (M !== undefined && M === 0) {
    notes.push(`${labels.materials} = 0 materials: no draw can name a material, so the draw table was not looked for`);
    return { notes };
  }

  // 1. Draw tables: D consecutive records with the signature (+ the paths after them).
  const found: Candidate[] = [];
  let signatureOnly = 0;
  let longer = 0;
  const scanFrom = s.formatsAt !== undefined ? s.formatsAt : s.from;
  // Each offset is tested once: per residue class modulo the record size, the run of matching
  // records the current offset lies in is walked once, forward, and remembered (its start and
  // the first offset after it), so a long run costs its length, not its length times D.
  const runStart = new Array<number>(DRAW_RECORD_SIZE).fill(-1);
  const runEnd = new Array<number>(DRAW_RECORD_SIZE).fill(-1);
  for (let o = scanFrom; o + D * DRAW_RECORD_SIZE <= size && found.length < MAX_CANDIDATES; o++) {
    const k = (o - scanFrom) % DRAW_RECORD_SIZE;
    // runEnd[k] is a record that does not match (or past the last whole record); after it, a new run.
    if (o === runEnd[k]) continue;
    if (o > runEnd[k]!) {
      let e = o;
      while (e + DRAW_RECORD_SIZE <= size && drawMatches(v, e, F, M)) e += DRAW_RECORD_SIZE;
      runStart[k] = o;
      runEnd[k] = e;
    }
    const run = (runEnd[k]! - o) / DRAW_RECORD_SIZE;
    if (run < D) continue;
    const end = o + D * DRAW_RECORD_SIZE;
    // Exactly D records: a matching record just before (the run started earlier) or just after
    // (the run is longer than D from here) means a longer run.
    if (o > runStart[k]! || run > D) {
      longer++;
      continue;
    }
    const materials = M === undefined ? [] : materialsAt(bytes, end, M);
    if (M !== undefined && !materials.length) {
      signatureOnly++;
      continue;
    }
    found.push({ drawsOffset: o, materials });
  }
  if (!found.length) {
    notes.push(
      `draw table not located: no run of ${D} (${labels.draws}) 52-byte records after ${hexOff(scanFrom)} with the seed's fixed words (+0 = 0, +4 = +8 = n, +28 = +32 = 0) and our checks ` +
        `(1 <= n <= 65536, triangles >= 1, format < ${F} (${labels.formats})${M !== undefined ? `, material < ${M} (${labels.materials})` : ''}, finite f32 at +44/+48)` +
        (M !== undefined ? ` followed by ${M} printable material paths (NUL-terminated, u16- or u32-length-prefixed)` : '') +
        (signatureOnly ? `; ${signatureOnly} position(s) had the draw records but no such paths after them` : '') +
        (longer ? `; ${longer} position(s) lie inside a longer run of such records than ${labels.draws} says` : ''),
    );
    return { notes };
  }

  // 2. For each draw table: framings of the formats that end where it begins.
  interface Combo {
    c: Candidate;
    formats?: FormatTable;
    buffers?: Buffers;
  }
  const combos: Combo[] = [];
  const formatFloor = (s.formatsAt ?? s.from);
  const countsAt = new Map<number, Buffers[]>();
  for (const c of found) {
    let fcs = formatCandidates(v, formatFloor, c.drawsOffset, F, s.formatsAt === undefined ? undefined : s.formatsAt + 3);
    if (s.formatsAt !== undefined) {
      // The formats must start at formatsAt (after 0-3 zero bytes of padding).
      fcs = fcs.filter((f) => zeros(bytes, s.formatsAt!, f.offset));
    }
    if (!fcs.length) {
      combos.push({ c });
      continue;
    }
    for (const f of fcs) {
      if (s.findCounts) {
        let counts = countsAt.get(f.offset);
        if (!counts) countsAt.set(f.offset, (counts = findCounts(v, s.from, f.offset, D)));
        if (counts.length) for (const b of counts) combos.push({ c, formats: f, buffers: b });
        else combos.push({ c, formats: f });
      } else combos.push({ c, formats: f, buffers: s.buffers });
    }
  }
  const complete = combos.filter((x) => x.formats && x.buffers);
  // With findCounts (PRFB) a framing of the formats is taken only when buffers end exactly at it:
  // a flat reading of the last few entries of a format list would otherwise pass on its own.
  const withFormats = s.findCounts ? complete : combos.filter((x) => x.formats);
  const framings = combos.filter((x) => x.formats);
  let chosen: Combo | undefined;
  /** Why the formats are missing from the chosen tables, when they are. */
  let formatsWhy = '';
  if (complete.length === 1) chosen = complete[0];
  else if (complete.length === 0 && withFormats.length === 1) chosen = withFormats[0];
  else if (found.length === 1) {
    chosen = { c: found[0]! };
    formatsWhy = complete.length > 1
      ? `${complete.length} framings of the formats each meet a set of buffers exactly (formats at ${complete.map((x) => hexOff(x.formats!.offset)).join(', ')}): ambiguous, none taken`
      : framings.length > 1 || (s.findCounts && framings.length)
        ? `the formats frame ${framings.length} way(s) before the draw table (${framings.map((x) => `${x.formats!.framing} at ${hexOff(x.formats!.offset)}`).join(', ')}) and no {draws, vertex bytes, index bytes} words end exactly at ${framings.length > 1 ? 'just one of them' : 'it'}: not taken`
        : `no framing (counted {u32 n, entries} or ${F} flat entries, seed codes only${s.formatsAt !== undefined ? `, starting at ${hexOff(s.formatsAt)} after 0-3 zero bytes` : ''}) ends exactly at the draw table`;
  } else {
    notes.push(
      `tables not located: draw tables match at ${found.length}${found.length >= MAX_CANDIDATES ? ' or more' : ''} positions (${found.map((c) => hexOff(c.drawsOffset)).join(', ')}) and ` +
        `${complete.length + (s.findCounts ? 0 : withFormats.length - complete.length)} placement(s) pass every further check: ambiguous, none taken`,
    );
    return { notes };
  }

  // 3. The tables chosen.
  const { c, formats } = chosen;
  const draws: DrawRecord[] = [];
  for (let i = 0; i < D; i++) draws.push(drawAt(v, c.drawsOffset + i * DRAW_RECORD_SIZE, i));
  const tableNotes: string[] = [];
  tableNotes.push(
    `draw table located by search at ${hexOff(c.drawsOffset)}: ${D} records (${labels.draws}) with the seed's fixed words and our checks` +
      (found.length === 1 ? ', the only such position' : ''),
  );
  let materials: MaterialTable | undefined;
  if (M !== undefined) {
    materials = c.materials[0]!;
    tableNotes.push(
      `material paths: ${M} (${labels.materials}) printable paths right after the draws, ${materials.encoding === 'nul' ? 'NUL-terminated' : `${materials.encoding}-length-prefixed`}` +
        (c.materials.length > 1 ? ` (they also read as ${c.materials.slice(1).map((m) => m.encoding).join(', ')}: the first reading is kept)` : ''),
    );
  }
  if (formats) {
    tableNotes.push(
      formats.framing === 'counted'
        ? `vertex formats at ${hexOff(formats.offset)}: ${F} formats (${labels.formats}) framed as {u32 n, n x 4-byte entries} (our reading; the seed gives the entries only), ending exactly at the draw table`
        : `vertex formats at ${hexOff(formats.offset)}: ${F} 4-byte entries (${labels.formats} read as an entry count; our reading), ending exactly at the draw table; this reading does not say which entries a draw's format uses`,
    );
    if (framings.length > 1 && chosen.buffers) tableNotes.push(`the bytes before the draw table also frame as formats ${framings.length - 1} other way(s); the framing the buffers end at exactly was kept`);
  } else {
    tableNotes.push(`vertex formats not located: ${formatsWhy}`);
  }
  if (s.formatsAt !== undefined && formats) tableNotes.push(`the formats start ${formats.offset === s.formatsAt ? 'right' : `${formats.offset - s.formatsAt} zero byte(s)`} after the index buffer`);
  const end = materials ? materials.offset + materials.size : c.drawsOffset + D * DRAW_RECORD_SIZE;
  const tables: Tables = { formats, drawsOffset: c.drawsOffset, draws, materials, end, confidence: 'uncertain', notes: tableNotes };

  // 4. Buffers and placement.
  const buffers = chosen.buffers;
  if (s.findCounts && !buffers) {
    notes.push(
      `geometry not located: no {u32 draws = ${D}, u32 vertex bytes, u32 index bytes} words after ${hexOff(s.from)} whose buffers end exactly where a framing of the formats begins (0-3 zero bytes of padding allowed)`,
    );
  } else if (!formats) {
    notes.push('geometry not shown: the vertex formats were not located, so strides are unknown');
  }
  if (buffers && s.findCounts) {
    tableNotes.push(
      `{draws, vertex bytes, index bytes} = {${D}, ${buffers.vertexBytes}, ${buffers.indexBytes}} at ${hexOff(buffers.countsOffset!)}: the only such words whose buffers end exactly at the formats` +
        (buffers.padding ? ` (after ${buffers.padding} zero byte(s) of padding)` : ''),
    );
  }
  const geometry = buffers && formats ? placeDraws(bytes, tables, buffers) : undefined;
  return { tables, buffers, geometry, notes };
}

function zeros(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** PRFB: {u32 D, u32 vb, u32 ib} words at p >= from whose buffers end at fs (0-3 zero bytes of padding). */
function findCounts(v: DataView, from: number, fs: number, D: number): Buffers[] {
  const out: Buffers[] = [];
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  for (let p = from; p + 12 <= fs && out.length < MAX_CANDIDATES; p++) {
    if (v.getUint32(p, true) !== D) continue;
    const vb = v.getUint32(p + 4, true);
    const ib = v.getUint32(p + 8, true);
    const end = p + 12 + vb + ib;
    if (end > fs || fs - end > 3 || ib % 2 !== 0 || !zeros(bytes, end, fs)) continue;
    out.push({ countsOffset: p, vertexOffset: p + 12, vertexBytes: vb, indexOffset: p + 12 + vb, indexBytes: ib, padding: fs - end });
  }
  return out;
}

/**
 * Place every draw in the buffers (the reading of the file comment) and check that each vertex
 * block and index range lies inside its buffer and every index is < n. The result says why when
 * it is not checkable; it never throws for data that does not fit.
 */
export function placeDraws(bytes: Uint8Array, tables: Tables, buffers: Buffers): Geometry {
  const notes: string[] = [];
  const placements: DrawPlacement[] = [];
  const fail = (why: string): Geometry => {
    notes.push(`geometry not shown: ${why}`);
    return { checkable: false, placements: [], confidence: 'uncertain', notes };
  };
  const { formats } = tables;
  if (!formats) return fail('the vertex formats were not located');
  if (formats.framing !== 'counted') return fail("the formats read only as a flat list of entries, which does not say which entries a draw's format uses");
  if (buffers.vertexOffset + buffers.vertexBytes > bytes.length || buffers.indexOffset + buffers.indexBytes > bytes.length) {
    return fail('the buffers run past the end of the file');
  }
  const v = viewOf(bytes);
  const indexTotal = Math.floor(buffers.indexBytes / 2);
  // Draws may share index ranges (a shadow caster may reuse a visible draw's), so the largest
  // index of a range comes from block maxima: linear in the buffer plus the draws, whatever overlaps.
  const blockMax = new Uint16Array(Math.ceil(indexTotal / INDEX_BLOCK));
  for (let i = 0; i < indexTotal; i++) {
    const x = v.getUint16(buffers.indexOffset + 2 * i, true);
    const b = (i / INDEX_BLOCK) | 0;
    if (x > blockMax[b]!) blockMax[b] = x;
  }
  const maxIndex = (from: number, to: number): number => {
    let m = 0;
    let i = from;
    while (i < to && i % INDEX_BLOCK) m = Math.max(m, v.getUint16(buffers.indexOffset + 2 * i++, true));
    while (i + INDEX_BLOCK <= to) (m = Math.max(m, blockMax[i / INDEX_BLOCK]!)), (i += INDEX_BLOCK);
    while (i < to) m = Math.max(m, v.getUint16(buffers.indexOffset + 2 * i++, true));
    return m;
  };
  let prevVend = 0;
  let baseAgrees = 0;
  let slack = 0;
  let coveredIndices = 0;
  let maxIndexEnd = 0;
  for (const d of tables.draws) {
    const f = `draw ${d.index} (record at ${hexOff(d.offset)})`;
    const fmt = formats.formats[d.format];
    if (!fmt) return fail(`${f} names format ${d.format}, there are ${formats.formats.length}`);
    const [s0, s1] = fmt.strides;
    if (d.vend < prevVend) return fail(`${f}: vend ${d.vend} is before the previous draw's vend ${prevVend} (blocks are read as consecutive)`);
    if (d.vend > buffers.vertexBytes) return fail(`${f}: vend ${d.vend} is past the vertex buffer's ${buffers.vertexBytes} bytes`);
    const n = d.vertexCount;
    const start0 = alignUp(prevVend, s0);
    const end0 = start0 + n * s0;
    const start1 = alignUp(end0, s1);
    const end1 = start1 + n * s1;
    if (end1 > d.vend) {
      return fail(`${f}: ${n} vertices of ${s0} + ${s1} bytes (streams 0 and 1, each stride-aligned) from ${prevVend} end at ${end1}, past its vend ${d.vend}`);
    }
    slack += d.vend - end1;
    if (s0 > 0 && d.base * s0 === start0) baseAgrees++;
    const indexCount = d.triangles * 3;
    if (d.indexStart + indexCount > indexTotal) return fail(`${f}: indices ${d.indexStart} .. ${d.indexStart + indexCount} run past the index buffer's ${indexTotal} indices`);
    const iAt = buffers.indexOffset + d.indexStart * 2;
    if (indexCount && maxIndex(d.indexStart, d.indexStart + indexCount) >= n) {
      for (let i = 0; i < indexCount; i++) {
        const x = v.getUint16(iAt + 2 * i, true);
        if (x >= n) return fail(`${f}: index ${i} (at ${hexOff(iAt + 2 * i)}) is ${x}, not below the draw's ${n} vertices (indices are read as rebased by idx_min)`);
      }
    }
    coveredIndices += indexCount;
    maxIndexEnd = Math.max(maxIndexEnd, d.indexStart + indexCount);
    placements.push({
      draw: d.index, vertexCount: n, blockStart: prevVend, blockEnd: d.vend,
      streams: [{ offset: buffers.vertexOffset + start0, stride: s0 }, { offset: buffers.vertexOffset + start1, stride: s1 }],
      indexOffset: iAt, indexCount,
    });
    prevVend = d.vend;
  }
  notes.push(
    `every draw's vertex block (from the previous vend, streams stride-aligned) and index range lie inside the buffers, and every index is below its draw's n`,
  );
  notes.push(prevVend === buffers.vertexBytes ? 'the last vend closes the vertex buffer exactly' : `the last vend is ${prevVend}, the vertex buffer has ${buffers.vertexBytes} bytes`);
  notes.push(
    maxIndexEnd === indexTotal && coveredIndices === indexTotal
      ? 'the draws\' index ranges cover the index buffer exactly'
      : `the draws use ${coveredIndices} indices, ending at ${maxIndexEnd}; the index buffer holds ${indexTotal}`,
  );
  if (slack) notes.push(`${slack} bytes of the vertex blocks lie after their stream data (padding before vend)`);
  const withStride = tables.draws.filter((d) => (formats.formats[d.format]?.strides[0] ?? 0) > 0).length;
  notes.push(`base = (stream 0 start) / stride (base-vertex addressing) on ${baseAgrees} of ${withStride} draws`);
  return { checkable: true, placements, confidence: 'uncertain', notes };
}

// ---- vertex decoding -------------------------------------------------------------------------

export interface DecodedDraw {
  draw: number;
  vertexCount: number;
  positions?: Float32Array;
  normals?: Float32Array;
  /** First uv channel (index 0, else the lowest). */
  uvs?: Float32Array;
  colors?: Uint8Array;
  indices: Uint16Array;
  notes: string[];
}

/**
 * Decode one placed draw: positions (float3, or half4 with w dropped), normals (float3, half4,
 * or ubyte4 read as b / 127.5 - 1: UNCERTAIN), the first uv channel (half2, float3 x/y), colours
 * (ubyte4). Reads are checked against the buffers (OUT_OF_RANGE).
 */
export function decodeDraw(bytes: Uint8Array, file: string, tables: Tables, buffers: Buffers, p: DrawPlacement): DecodedDraw {
  const d = tables.draws[p.draw]!;
  const fmt = tables.formats!.formats[d.format]!;
  const v = viewOf(bytes);
  const n = p.vertexCount;
  const notes: string[] = [];
  const vEnd = buffers.vertexOffset + buffers.vertexBytes;
  const out: DecodedDraw = { draw: p.draw, vertexCount: n, indices: new Uint16Array(p.indexCount), notes };
  for (let i = 0; i < p.indexCount; i++) out.indices[i] = v.getUint16(p.indexOffset + 2 * i, true);
  const uvEntries = fmt.entries.filter((e) => e.usage === VERTEX_USAGE.UV).sort((a, b) => a.index - b.index);
  for (const e of fmt.entries) {
    const st = p.streams[e.stream as 0 | 1];
    const at = (k: number): number => st.offset + k * st.stride + e.streamOffset;
    if (n > 0 && at(n - 1) + e.size > vEnd) {
      throw new Arch06Error('OUT_OF_RANGE', 'vertex data runs past the vertex buffer', { file, offset: at(n - 1), field: `draws[${d.index}].${e.usageName}`, expected: `<= ${hexOff(vEnd)}`, actual: hexOff(at(n - 1) + e.size) });
    }
    const read = (comps: 2 | 3 | 4, kind: 'f32' | 'f16'): Float32Array => {
      const r = new Float32Array(n * comps);
      for (let k = 0; k < n; k++) {
        const o = at(k);
        for (let c = 0; c < comps; c++) r[k * comps + c] = kind === 'f32' ? v.getFloat32(o + 4 * c, true) : halfToFloat(v.getUint16(o + 2 * c, true));
      }
      return r;
    };
    const xyz = (): Float32Array | undefined => {
      if (e.type === VERTEX_TYPE.FLOAT3) return read(3, 'f32');
      if (e.type === VERTEX_TYPE.HALF4) {
        const r4 = read(4, 'f16');
        const r = new Float32Array(n * 3);
        for (let k = 0; k < n; k++) for (let c = 0; c < 3; c++) r[k * 3 + c] = r4[k * 4 + c]!;
        return r;
      }
      return undefined;
    };
    switch (e.usage) {
      case VERTEX_USAGE.POSITION:
        if (e.index !== 0 || out.positions) break;
        out.positions = xyz();
        if (!out.positions) notes.push(`position stored as ${e.typeName} is not read (float3 or half4 only)`);
        break;
      case VERTEX_USAGE.NORMAL: {
        if (e.index !== 0 || out.normals) break;
        let nrm = xyz();
        if (!nrm && e.type === VERTEX_TYPE.UBYTE4) {
          nrm = new Float32Array(n * 3);
          for (let k = 0; k < n; k++) for (let c = 0; c < 3; c++) nrm[k * 3 + c] = v.getUint8(at(k) + c) / 127.5 - 1;
          notes.push('ubyte4 normals read as b / 127.5 - 1 (UNCERTAIN)');
        }
        if (nrm) out.normals = nrm;
        else notes.push(`normal stored as ${e.typeName} is not read`);
        break;
      }
      case VERTEX_USAGE.UV:
        if (e !== uvEntries[0]) break;
        if (e.type === VERTEX_TYPE.HALF2) out.uvs = read(2, 'f16');
        else if (e.type === VERTEX_TYPE.FLOAT3) {
          const r3 = read(3, 'f32');
          out.uvs = new Float32Array(n * 2);
          for (let k = 0; k < n; k++) (out.uvs[2 * k] = r3[3 * k]!), (out.uvs[2 * k + 1] = r3[3 * k + 1]!);
        } else notes.push(`uv stored as ${e.typeName} is not read`);
        break;
      case VERTEX_USAGE.COLOUR:
        if (e.index !== 0 || out.colors || e.type !== VERTEX_TYPE.UBYTE4) break;
        out.colors = new Uint8Array(n * 4);
        for (let k = 0; k < n; k++) out.colors.set(bytes.subarray(at(k), at(k) + 4), k * 4);
        break;
      default:
        break;
    }
  }
  return out;
}

// ---- summaries -----------------------------------------------------------------------------

/** Lines describing located tables and geometry (for the CLI summary and the editor message). */
export function tableSummary(r: TableSearchResult): string[] {
  const lines: string[] = [];
  const t = r.tables;
  if (!t) {
    lines.push('tables (vertex formats, draws, materials): not located');
  } else {
    lines.push(`draw table at ${hexOff(t.drawsOffset)}: ${t.draws.length} draws (uncertain: located by search)`);
    for (const d of t.draws.slice(0, 64)) {
      lines.push(`  draw ${d.index}: n ${d.vertexCount}, ${d.triangles} triangles, index start ${d.indexStart}, base ${d.base}, material ${d.material}${t.materials?.paths[d.material] ? ` (${t.materials.paths[d.material]!.path})` : ''}, format ${d.format}, vend ${d.vend}, f32 ${round(d.unknown44.asFloat)}, ${round(d.unknown48.asFloat)}`);
    }
    if (t.draws.length > 64) lines.push(`  … ${t.draws.length - 64} more draws`);
    if (t.formats) {
      lines.push(`vertex formats at ${hexOff(t.formats.offset)} (${t.formats.framing} reading):`);
      for (const f of t.formats.formats) {
        lines.push(`  format ${f.index}: ${f.entries.map((e) => `s${e.stream} ${e.usageName}${e.index ? e.index : ''} ${e.typeName}`).join(', ')} (strides ${f.strides[0]} + ${f.strides[1]})`);
      }
    } else lines.push('vertex formats: not located');
    if (t.materials) {
      lines.push(`materials at ${hexOff(t.materials.offset)} (${t.materials.encoding}):`);
      for (const [i, m] of t.materials.paths.entries()) lines.push(`  ${i}: ${m.path}`);
    }
  }
  if (r.buffers) {
    lines.push(`vertex buffer at ${hexOff(r.buffers.vertexOffset)} (${r.buffers.vertexBytes} bytes), index buffer at ${hexOff(r.buffers.indexOffset)} (${r.buffers.indexBytes} bytes)`);
  }
  if (r.geometry) lines.push(r.geometry.checkable ? 'geometry: every draw fits its buffers' : 'geometry: not shown (see notes)');
  return lines;
}

const round = (x: number): string => (Number.isFinite(x) ? String(Math.round(x * 1000) / 1000) : String(x));

/** A header word as reported: value, hex, and the seed's label (or "unknown"). */
export interface HeaderWord {
  index: number;
  offset: number;
  value: number;
  hex: string;
  label: string;
  /** True when the label comes from the seed. */
  labelled: boolean;
}

export function headerWords(bytes: Uint8Array, count: number, labels: Readonly<Record<number, string>>): HeaderWord[] {
  const v = viewOf(bytes);
  const out: HeaderWord[] = [];
  for (let i = 0; i < count; i++) {
    const value = v.getUint32(4 * i, true);
    const label = labels[i];
    out.push({ index: i, offset: 4 * i, value, hex: hex32(value), label: label ?? 'unknown', labelled: label !== undefined });
  }
  return out;
}
