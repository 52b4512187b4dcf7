/**
 * The tables PRFB v8 prefabs (`.inst`, ../prfb.ts) and MESH v5 world meshes
 * (`.wldmsh`, ../worldMesh.ts) share: vertex formats, 52-byte draw records, material
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
import type { Confidence } from '../../../io/confidence';
import type { FieldReader } from '../../../io/fieldReader';

export const DRAW_RECORD_SIZE = 52;
export const VERTEX_ENTRY_SIZE = 4;
/** Longest vertex format the counted reading accepts (a bound of ours, not the seed's). */
export const MAX_FORMAT_ENTRIES = 32;
/** Longest material path accepted (a bound of ours). */
export const MAX_PATH_LENGTH = 1024;
/** u16 indices rebased by idx_min address at most 65536 vertices per draw. */
export const MAX_DRAW_VERTICES = 0x10000;

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

export interface TableSearch {
  /** The whole file. */
  reader: FieldReader;
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

export const hexOff = (o: number): string => `0x${o.toString(16)}`;
