/**
 * Synthetic PRFB v8 prefabs and MESH v5 world meshes for tests, built from seed 001's
 * description (see ./prfb.ts, ./worldMesh.ts, ./tables/layout.ts). Not a re-encoder of game
 * files: no sample exists, so wherever the seed leaves the layout open this writer picks a
 * framing OF ITS OWN, marked "OUR FRAMING" below. The readers do not depend on those choices
 * beyond what the seed states and what their searches check; several are switchable here so the
 * tests can show the readers finding the tables under each reading they accept.
 *
 * From the seed:
 *   - PRFB: 'PRFB' | 8 | hash | header words [4] draws, [5] materials, [6] child prefabs,
 *     [9] vertex formats; LOD records at 0x38, 44 bytes, -1.0 at +28: roots {tag, -1, 0, 0,
 *     next = first unit, f32 cull distance, ..} and units {tag, name hash, first draw, draw count,
 *     next (-1 = finest), f32 switch distance, f32, -1.0, 0, 0, distinct draws}; then {u32 draws,
 *     u32 vertex bytes, u32 index bytes}, per draw a vertex block ending at its vend (stream 0
 *     then stream 1, stride-aligned), u16 indices rebased by idx_min; then vertex formats
 *     {u8 stream, u8 type, u8 usage, u8 index}, 52-byte draws {0, n, n, index start, base,
 *     triangles, material, 0, 0, format, vend, f32, f32}, the material paths; a composite ends
 *     with a block of child prefabs.
 *   - MESH: 'MESH' | 5 | header [3] draws, [4] formats, [9] vertex bytes, [10] index bytes;
 *     vertex buffer at 0x2C, then the PRFB-like tables.
 *
 * OUR FRAMING (not in the seed):
 *   - unknown header words are 0 (overridable), the root's words +24, +32, +36, +40 are 0;
 *   - `next` is an index over all LOD records (or, with nextReading 'index in group', within the
 *     group, root = 0); each group is written as its root followed by its units coarse to fine;
 *   - the {draws, vertex bytes, index bytes} words follow the LOD records directly (or after
 *     `gapAfterLods` bytes of 0xEE);
 *   - a draw's block starts at the previous vend; each stream starts at the next multiple of its
 *     stride inside the vertex buffer (zero filled); vend is the end of stream 1 (+ `padAfter`);
 *     `base` = stream 0 start / stride 0;
 *   - index start counts indices; the index buffer is followed by zero bytes up to a multiple
 *     of 4 (or `tailPadding` bytes);
 *   - formats are {u32 n, n entries} ("counted"; or "flat": the header count is the number of
 *     entries, all formats' entries written one after another);
 *   - material paths are NUL-terminated (or u16 / u32 length-prefixed);
 *   - the child-prefab block is opaque bytes given by the caller.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { f32ToHalf } from '../../io/half';
import { MESH_MAGIC, WORLD_MESH_VERSION, WORLD_MESH_VERTEX_OFFSET } from './worldMesh';
import { PRFB_LOD_MARKER, PRFB_LOD_OFFSET, PRFB_MAGIC, PRFB_NONE, PRFB_VERSION } from './prfb';
import { MAX_DRAW_VERTICES, VERTEX_TYPE, VERTEX_TYPES, VERTEX_USAGE } from './tables/layout';
import type { WriteEntry, WriteDraw, PrfbWriteInput, WorldMeshWriteInput, WrittenLayout, Written } from './writeInput';

export type { WriteEntry, WriteDraw, WriteUnit, WriteGroup, TableFraming, PrfbWriteInput, WorldMeshWriteInput, WrittenLayout, Written } from './writeInput';
export { SAMPLE_FORMATS, box, samplePrefabInput, sampleWorldMeshInput } from './sampleInputs';

const bad = (message: string, field: string, actual?: string): Arch06Error => new Arch06Error('BAD_ARGUMENT', message, { field, actual });
const alignUp = (v: number, a: number): number => (a > 0 ? Math.ceil(v / a) * a : v);

function strides(format: WriteEntry[], fi: number): [number, number] {
  const s: [number, number] = [0, 0];
  format.forEach((e, k) => {
    const t = VERTEX_TYPES[e.type];
    if (!t) throw bad('unknown vertex type code', `formats[${fi}][${k}].type`, String(e.type));
    if (e.stream !== 0 && e.stream !== 1) throw bad('stream must be 0 or 1', `formats[${fi}][${k}].stream`, String(e.stream));
    s[e.stream] += t.size;
  });
  return s;
}

function writeEntryData(w: ByteWriter, e: WriteEntry, d: WriteDraw, v: number): void {
  const pick = (): ArrayLike<number> | undefined => {
    switch (e.usage) {
      case VERTEX_USAGE.POSITION:
        return d.positions;
      case VERTEX_USAGE.NORMAL:
        return d.normals;
      case VERTEX_USAGE.TANGENT:
        return d.tangents;
      case VERTEX_USAGE.BINORMAL:
        return d.binormals;
      case VERTEX_USAGE.UV:
        return d.uvs;
      case VERTEX_USAGE.COLOUR:
        return d.colors;
      default:
        return undefined;
    }
  };
  const src = (e.index ?? 0) === 0 ? pick() : undefined;
  const comps = e.usage === VERTEX_USAGE.UV ? 2 : e.usage === VERTEX_USAGE.COLOUR ? 4 : 3;
  const at = (c: number): number => (src && c < comps ? Number(src[v * comps + c]) || 0 : 0);
  switch (e.type) {
    case VERTEX_TYPE.FLOAT3:
      for (let c = 0; c < 3; c++) w.f32(at(c));
      break;
    case VERTEX_TYPE.HALF4:
      for (let c = 0; c < 3; c++) w.u16(f32ToHalf(at(c)));
      w.u16(f32ToHalf(e.usage === VERTEX_USAGE.POSITION ? 1 : 0));
      break;
    case VERTEX_TYPE.HALF2:
      for (let c = 0; c < 2; c++) w.u16(f32ToHalf(at(c)));
      break;
    case VERTEX_TYPE.UBYTE4:
      for (let c = 0; c < 4; c++) {
        const x = at(c);
        w.u8(e.usage === VERTEX_USAGE.COLOUR ? Math.max(0, Math.min(255, Math.round(x))) : Math.max(0, Math.min(255, Math.round((x + 1) * 127.5))));
      }
      break;
  }
}

interface Geometry {
  vertex: Uint8Array;
  index: Uint8Array;
  records: number[][];
  blocks: WrittenLayout['blocks'];
}

/** The vertex and index buffers and the draw records' words (OUR FRAMING for the placement). */
function encodeGeometry(formats: WriteEntry[][], draws: WriteDraw[]): Geometry {
  const st = formats.map((f, i) => strides(f, i));
  const vw = new ByteWriter();
  const iw = new ByteWriter();
  const records: number[][] = [];
  const blocks: WrittenLayout['blocks'] = [];
  let indexStart = 0;
  draws.forEach((d, di) => {
    const fmt = formats[d.format];
    if (!fmt) throw bad('draw names a format that does not exist', `draws[${di}].format`, String(d.format));
    const n = Math.floor(d.positions.length / 3);
    if (n < 1 || n > MAX_DRAW_VERTICES) throw bad('a draw needs 1 .. 65536 vertices', `draws[${di}].positions`, String(n));
    if (d.indices.length % 3 || d.indices.length === 0) throw bad('indices must be whole triangles', `draws[${di}].indices`, String(d.indices.length));
    const [s0, s1] = st[d.format]!;
    const blockStart = vw.length;
    const start0 = alignUp(blockStart, s0);
    while (vw.length < start0) vw.u8(0);
    for (let v = 0; v < n; v++) for (const e of fmt) if (e.stream === 0) writeEntryData(vw, e, d, v);
    const start1 = alignUp(vw.length, s1);
    while (vw.length < start1) vw.u8(0);
    for (let v = 0; v < n; v++) for (const e of fmt) if (e.stream === 1) writeEntryData(vw, e, d, v);
    for (let k = 0; k < (d.padAfter ?? 0); k++) vw.u8(0);
    const vend = vw.length;
    for (let i = 0; i < d.indices.length; i++) {
      const x = Number(d.indices[i]);
      if (!(x >= 0 && x < n)) throw bad('index outside the draw', `draws[${di}].indices[${i}]`, String(x));
      iw.u16(x);
    }
    const base = s0 > 0 ? start0 / s0 : 0;
    records.push([0, n, n, indexStart, base, d.indices.length / 3, d.material, 0, 0, d.format, vend, d.f44 ?? 0, d.f48 ?? 0]);
    blocks.push({ blockStart, start0, start1, vend });
    indexStart += d.indices.length;
  });
  return { vertex: vw.toBytes(), index: iw.toBytes(), records, blocks };
}

/**
 * The vertex buffer, the index buffer, padding to a multiple of 4 (or `tailPadding` bytes), then
 * the tables: the part both PRFB and MESH lay out the same way. Returns the offsets.
 */
function writeBuffersAndTables(
  w: ByteWriter,
  geo: Geometry,
  formats: WriteEntry[][],
  framing: 'counted' | 'flat',
  tailPadding: number | undefined,
): { vertexOffset: number; indexOffset: number; formatsOffset: number; drawsOffset: number } {
  const vertexOffset = w.length;
  w.bytes(geo.vertex);
  const indexOffset = w.length;
  w.bytes(geo.index);
  const pad = tailPadding ?? (4 - (w.length % 4)) % 4;
  for (let k = 0; k < pad; k++) w.u8(0);
  return { vertexOffset, indexOffset, ...writeTables(w, formats, geo.records, framing) };
}

/** Formats then draw records (OUR FRAMING for the formats). Returns the offsets relative to `w`. */
function writeTables(w: ByteWriter, formats: WriteEntry[][], records: number[][], framing: 'counted' | 'flat'): { formatsOffset: number; drawsOffset: number } {
  const formatsOffset = w.length;
  for (const f of formats) {
    if (framing === 'counted') w.u32(f.length);
    for (const e of f)
      w.u8(e.stream)
        .u8(e.type)
        .u8(e.usage)
        .u8(e.index ?? 0);
  }
  const drawsOffset = w.length;
  for (const r of records) {
    r.forEach((x, k) => (k >= 11 ? w.f32(x) : w.u32(x)));
  }
  return { formatsOffset, drawsOffset };
}

function formatCount(formats: WriteEntry[][], framing: 'counted' | 'flat'): number {
  return framing === 'counted' ? formats.length : formats.reduce((s, f) => s + f.length, 0);
}

export function writePrfb(input: PrfbWriteInput): Written {
  const framing = input.formatFraming ?? 'counted';
  const geo = encodeGeometry(input.formats, input.draws);
  const w = new ByteWriter();
  const header = new Array<number>(PRFB_LOD_OFFSET / 4).fill(0);
  header[0] = PRFB_MAGIC;
  header[1] = PRFB_VERSION;
  header[2] = input.hash ?? 0x12345678;
  header[4] = input.draws.length;
  header[5] = input.materials.length;
  header[6] = input.childPrefabs ?? 0;
  header[9] = formatCount(input.formats, framing);
  for (const [k, x] of Object.entries(input.header ?? {})) header[Number(k)] = x;
  for (const x of header) w.u32(x);

  // LOD records: each group's root, then its units coarse to fine (OUR FRAMING).
  let recordIndex = 0;
  for (const g of input.groups) {
    const rootIndex = recordIndex;
    const local = (k: number): number => (input.nextReading === 'index in group' ? k : rootIndex + k);
    w.u32(g.tag)
      .u32(PRFB_NONE)
      .u32(0)
      .u32(0)
      .u32(g.units.length ? local(1) : PRFB_NONE)
      .f32(g.cullDistance)
      .u32(0)
      .u32(PRFB_LOD_MARKER)
      .u32(0)
      .u32(0)
      .u32(0);
    g.units.forEach((u, k) => {
      const next = k + 1 < g.units.length ? local(k + 2) : PRFB_NONE;
      w.u32(g.tag)
        .u32(u.nameHash)
        .u32(u.firstDraw)
        .u32(u.drawCount)
        .u32(next)
        .f32(u.switchDistance)
        .f32(u.f24 ?? 0)
        .u32(PRFB_LOD_MARKER)
        .u32(0)
        .u32(0)
        .u32(u.distinctDraws ?? u.drawCount);
    });
    recordIndex += 1 + g.units.length;
  }
  for (let k = 0; k < (input.gapAfterLods ?? 0); k++) w.u8(0xee);

  const countsOffset = w.length;
  w.u32(input.draws.length).u32(geo.vertex.length).u32(geo.index.length);
  const { vertexOffset, indexOffset, formatsOffset, drawsOffset } = writeBuffersAndTables(w, geo, input.formats, framing, input.tailPadding);
  const materialsOffset = w.length;
  const enc = input.materialEncoding ?? 'nul';
  for (const m of input.materials) {
    const b = Uint8Array.from(m, (ch) => ch.charCodeAt(0) & 0xff);
    if (enc === 'nul') w.bytes(b).u8(0);
    else if (enc === 'u16') w.u16(b.length).bytes(b);
    else w.u32(b.length).bytes(b);
  }
  const restOffset = w.length;
  if (input.childBlock) w.bytes(input.childBlock);
  return {
    bytes: w.toBytes(),
    layout: {
      lodOffset: PRFB_LOD_OFFSET,
      lodCount: recordIndex,
      countsOffset,
      vertexOffset,
      vertexBytes: geo.vertex.length,
      indexOffset,
      indexBytes: geo.index.length,
      formatsOffset,
      drawsOffset,
      materialsOffset,
      restOffset,
      blocks: geo.blocks,
    },
  };
}

export function writeWorldMesh(input: WorldMeshWriteInput): Written {
  const framing = input.formatFraming ?? 'counted';
  const geo = encodeGeometry(input.formats, input.draws);
  const w = new ByteWriter();
  const header = new Array<number>(WORLD_MESH_VERTEX_OFFSET / 4).fill(0);
  header[0] = MESH_MAGIC;
  header[1] = WORLD_MESH_VERSION;
  header[3] = input.draws.length;
  header[4] = formatCount(input.formats, framing);
  header[9] = geo.vertex.length;
  header[10] = geo.index.length;
  for (const [k, x] of Object.entries(input.header ?? {})) header[Number(k)] = x;
  for (const x of header) w.u32(x);
  const { vertexOffset, indexOffset, formatsOffset, drawsOffset } = writeBuffersAndTables(w, geo, input.formats, framing, input.tailPadding);
  const restOffset = w.length;
  if (input.trailing) w.bytes(input.trailing);
  return {
    bytes: w.toBytes(),
    layout: {
      lodOffset: 0,
      lodCount: 0,
      countsOffset: 0,
      vertexOffset,
      vertexBytes: geo.vertex.length,
      indexOffset,
      indexBytes: geo.index.length,
      formatsOffset,
      drawsOffset,
      materialsOffset: restOffset,
      restOffset,
      blocks: geo.blocks,
    },
  };
}
