/**
 * MMSH v17 vertex decoding: one mesh's index list, bone palette and attribute streams, from a
 * parsed file (the layout and the evidence behind each reading: ./layout.ts). Every range was
 * checked by the parse, so the loops read through typed-array views; indices, palette entries and
 * blend indices are checked against what they address.
 */
import { Arch06Error } from '../../../errors';
import { ComponentType, leadingComponents, readBytes4, readComponents } from '../../../io/strided';
import { MMSH_SEMANTIC, MMSH_TYPE, MMSH_TYPES, MMSH_WEIGHT_BYTE_OF_SLOT, Mmsh, MmshAttribute, MmshLayout, MmshMeshInfo } from './layout';

export interface MmshAttributeResult {
  attribute: number;
  semantic: string;
  channel: number;
  type: number;
  status: 'decoded' | 'skipped' | 'failed';
  error?: Arch06Error;
  note?: string;
}

/** One mesh's vertex and index data, decoded. Arrays hold `vertexCount` entries per component group. */
export interface MmshMeshData {
  mesh: number;
  lod: number;
  vertexCount: number;
  /** xyz per vertex (as stored: centimetres). */
  positions?: Float32Array;
  /** The stored w of a 4-component position (1 on the sample). */
  positionW?: Float32Array;
  normals?: Float32Array;
  tangents?: Float32Array;
  bitangents?: Float32Array;
  /** uv per vertex per texcoord channel (f32 as stored; s16 divided by 32767: a guess, see `uvNotes`). */
  uvs: Map<number, Float32Array>;
  /** The raw s16 range of each s16 texcoord channel. */
  uvRanges: Map<number, { type: string; min: number; max: number }>;
  colors?: Uint8Array;
  /** Four weights per vertex in index-slot order (the BGRA rule applied), 0..255. */
  weights?: Uint8Array;
  /** The four weight bytes as stored. */
  weightsStored?: Uint8Array;
  /** Four palette indices per vertex. */
  blendIndices?: Uint8Array;
  /** Triangle list, local to the mesh. */
  indices: Uint16Array;
  /** The mesh's bone palette (values index the bone list). */
  palette: Uint8Array;
  attributes: MmshAttributeResult[];
  notes: string[];
}

/** SNORM16 reading of s16 texcoords (formats-public: UNCERTAIN, S4 passes the integers through). */
const MMSH_S16_UV_SCALE = 1 / 32767;

/**
 * Decode mesh `meshIndex` (over all blocks) of a parsed MMSH. Index and palette ranges are
 * checked (OUT_OF_RANGE naming the entry). An attribute with an unknown type code or an
 * unsupported type for its semantic is recorded as failed with a typed error; the others still
 * decode.
 */
export function decodeMmshMesh(mmsh: Mmsh, meshIndex: number): MmshMeshData {
  const { bytes, file, info, data } = mmsh;
  const m = info.meshes[meshIndex];
  if (!m) throw new Arch06Error('BAD_ARGUMENT', 'no such mesh', { file, field: 'mesh', expected: `0..${info.meshes.length - 1}`, actual: String(meshIndex) });
  const layout = info.layouts[m.layout]!;
  const vblock = data.vertexBlocks[m.lod]!;
  const n = m.vertexCount;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const notes: string[] = [];
  const indices = readIndices(mmsh, m, view);
  const palette = readPalette(mmsh, m);

  // Where each stream starts; an attribute of unknown size is sized from the data when it is the only one.
  const streams = streamPlacement(mmsh, m, layout, notes);
  const out: MmshMeshData = { mesh: m.index, lod: m.lod, vertexCount: n, uvs: new Map(), uvRanges: new Map(), indices, palette, attributes: [], notes };
  for (const a of layout.attributes) {
    const res: MmshAttributeResult = { attribute: a.index, semantic: a.semanticName, channel: a.channel, type: a.type, status: 'decoded' };
    out.attributes.push(res);
    const fail = (code: 'INVALID' | 'OUT_OF_RANGE', message: string, expected: string, actual: string, offset = a.offset): void => {
      res.status = 'failed';
      res.error = new Arch06Error(code, message, { file, offset, field: `info.layouts[${layout.index}].attributes[${a.index}]`, expected, actual });
      notes.push(`${a.semanticName}${a.channel ? a.channel : ''}: ${res.error.description}`);
    };
    if (a.size === undefined || MMSH_TYPES[a.type] === undefined) {
      fail('INVALID', `unknown vertex attribute type code ${a.type}`, 'a type code of 1, 2, 3, 4, 9 or 12', String(a.type));
      continue;
    }
    const place = streams.get(a.index);
    if (!place) {
      res.status = 'skipped';
      res.note = 'its position in the vertex is not known (an attribute of unknown size precedes it)';
      notes.push(`${a.semanticName}${a.channel ? a.channel : ''}: skipped, ${res.note}`);
      continue;
    }
    const { start, stride } = place;
    const first = vblock.offset + start;
    decodeAttribute({
      a,
      m,
      n,
      out,
      res,
      fail,
      at: (v: number): number => first + v * stride,
      readF: (count: number, kind: ComponentType): Float32Array => readComponents(view, first, stride, n, count, kind),
      readU8: (): Uint8Array => readBytes4(bytes, first, stride, n),
      xyz: (src: Float32Array, comps: number): Float32Array => leadingComponents(src, n, comps, 3),
      unsupported: (): void =>
        fail('INVALID', `${a.semanticName} stored as ${a.typeName} is not supported`, supportedFor(a.semantic), a.typeName ?? String(a.type)),
    });
  }
  return out;
}

/** The mesh's triangle list from its face block, each index checked to be local to the mesh. */
function readIndices(mmsh: Mmsh, m: MmshMeshInfo, view: DataView): Uint16Array {
  const { file } = mmsh;
  const fblock = mmsh.data.faceBlocks[m.lod]!;
  const indices = new Uint16Array(m.indexCount);
  const iAt = fblock.offset + m.firstIndex * 2;
  for (let i = 0; i < m.indexCount; i++) {
    const v = view.getUint16(iAt + 2 * i, true);
    if (v >= m.vertexCount)
      throw new Arch06Error('OUT_OF_RANGE', 'triangle index outside the mesh', {
        file,
        offset: iAt + 2 * i,
        field: `mesh[${m.index}].indices[${i}]`,
        expected: `< ${m.vertexCount} (indices are local to the mesh)`,
        actual: String(v),
      });
    indices[i] = v;
  }
  return indices;
}

/** The mesh's bone palette from its palette block, each entry checked against the bone list. */
function readPalette(mmsh: Mmsh, m: MmshMeshInfo): Uint8Array {
  const { bytes, file, info } = mmsh;
  const pblock = mmsh.data.paletteBlocks[m.lod]!;
  const palette = Uint8Array.from(bytes.subarray(pblock.offset + m.firstPalette, pblock.offset + m.firstPalette + m.paletteCount));
  for (let i = 0; i < palette.length; i++) {
    if (palette[i]! >= info.boneCount) {
      throw new Arch06Error('OUT_OF_RANGE', 'palette entry names a bone that does not exist', {
        file,
        offset: pblock.offset + m.firstPalette + i,
        field: `mesh[${m.index}].palette[${i}]`,
        expected: `< ${info.boneCount}`,
        actual: String(palette[i]),
      });
    }
  }
  return palette;
}

/** One placed attribute being decoded: its result slot and the readers over its bytes in the vertex block. */
interface AttributeRead {
  readonly a: MmshAttribute;
  readonly m: MmshMeshInfo;
  /** The mesh's vertex count. */
  readonly n: number;
  readonly out: MmshMeshData;
  readonly res: MmshAttributeResult;
  fail(code: 'INVALID' | 'OUT_OF_RANGE', message: string, expected: string, actual: string, offset?: number): void;
  unsupported(): void;
  /** The offset of vertex `v`'s value. */
  at(v: number): number;
  readF(count: number, kind: ComponentType): Float32Array;
  readU8(): Uint8Array;
  xyz(src: Float32Array, comps: number): Float32Array;
}

/** Decode one attribute by its semantic into `out` (or record it as skipped or failed in `res`). */
function decodeAttribute(d: AttributeRead): void {
  const { a, out, res } = d;
  switch (a.semantic) {
    case MMSH_SEMANTIC.POSITION:
      return decodePosition(d);
    case MMSH_SEMANTIC.NORMAL:
    case MMSH_SEMANTIC.TANGENT:
    case MMSH_SEMANTIC.BITANGENT:
      return decodeDirection(d);
    case MMSH_SEMANTIC.TEXCOORD:
      return decodeTexcoord(d);
    case MMSH_SEMANTIC.COLOR:
      if (a.type === MMSH_TYPE.U8X4) out.colors = d.readU8();
      else d.unsupported();
      return;
    case MMSH_SEMANTIC.WEIGHTS:
      return decodeWeights(d);
    case MMSH_SEMANTIC.INDICES:
      return decodeBlendIndices(d);
    default:
      res.status = 'skipped';
      res.note = `unknown semantic ${a.semantic}`;
  }
}

function decodePosition(d: AttributeRead): void {
  const { a, n, out, res } = d;
  if (a.channel !== 0) {
    res.status = 'skipped';
    res.note = `second position channel ${a.channel}`;
    return;
  }
  if (a.type === MMSH_TYPE.F16X4 || a.type === MMSH_TYPE.F32X4) {
    const raw = d.readF(4, a.type === MMSH_TYPE.F16X4 ? 'f16' : 'f32');
    out.positions = d.xyz(raw, 4);
    out.positionW = new Float32Array(n);
    let off = 0;
    for (let v = 0; v < n; v++) {
      out.positionW[v] = raw[v * 4 + 3]!;
      if (raw[v * 4 + 3] !== 1) off++;
    }
    if (off) out.notes.push(`${off} of ${n} positions have w != 1`);
  } else if (a.type === MMSH_TYPE.F32X3) out.positions = d.readF(3, 'f32');
  else d.unsupported();
}

/** Normals, tangents and bitangents: xyz of channel 0. */
function decodeDirection(d: AttributeRead): void {
  const { a, out, res } = d;
  if (a.channel !== 0) {
    res.status = 'skipped';
    res.note = `channel ${a.channel}`;
    return;
  }
  let v: Float32Array | undefined;
  if (a.type === MMSH_TYPE.F32X3) v = d.readF(3, 'f32');
  else if (a.type === MMSH_TYPE.F32X4) v = d.xyz(d.readF(4, 'f32'), 4);
  else if (a.type === MMSH_TYPE.F16X4) v = d.xyz(d.readF(4, 'f16'), 4);
  else {
    d.unsupported();
    return;
  }
  if (a.semantic === MMSH_SEMANTIC.NORMAL) out.normals = v;
  else if (a.semantic === MMSH_SEMANTIC.TANGENT) out.tangents = v;
  else out.bitangents = v;
}

/** Texcoords: f32 as stored; s16 scaled as SNORM16, with the raw range kept. */
function decodeTexcoord(d: AttributeRead): void {
  const { a, n, out } = d;
  if (a.type === MMSH_TYPE.F32X2) out.uvs.set(a.channel, d.readF(2, 'f32'));
  else if (a.type === MMSH_TYPE.S16X2) {
    const raw = d.readF(2, 's16');
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < raw.length; i++) {
      const x = raw[i]!;
      if (x < min) min = x;
      if (x > max) max = x;
      raw[i] = x * MMSH_S16_UV_SCALE;
    }
    out.uvRanges.set(a.channel, { type: 's16x2', min: n ? min : 0, max: n ? max : 0 });
    out.uvs.set(a.channel, raw);
  } else d.unsupported();
}

/** Blend weights: the stored bytes, and the same put in index-slot order (the BGRA rule). */
function decodeWeights(d: AttributeRead): void {
  const { a, n, out } = d;
  if (a.type !== MMSH_TYPE.U8X4) {
    d.unsupported();
    return;
  }
  const stored = d.readU8();
  const w = new Uint8Array(n * 4);
  let off = 0;
  for (let v = 0; v < n; v++) {
    for (let k = 0; k < 4; k++) w[v * 4 + k] = stored[v * 4 + MMSH_WEIGHT_BYTE_OF_SLOT[k]]!;
    if (stored[v * 4]! + stored[v * 4 + 1]! + stored[v * 4 + 2]! + stored[v * 4 + 3]! !== 255) off++;
  }
  if (off) out.notes.push(`${off} of ${n} vertices have weights that do not sum to 255`);
  out.weights = w;
  out.weightsStored = stored;
}

/** Blend indices: four palette slots per vertex, each checked against the palette. */
function decodeBlendIndices(d: AttributeRead): void {
  const { a, m, out } = d;
  if (a.type !== MMSH_TYPE.U8X4) {
    d.unsupported();
    return;
  }
  const idx = d.readU8();
  let bad = -1;
  for (let i = 0; i < idx.length && bad < 0; i++) if (idx[i]! >= m.paletteCount) bad = i;
  if (bad >= 0 && m.paletteCount > 0) {
    d.fail('OUT_OF_RANGE', 'blend index outside the mesh palette', `< ${m.paletteCount}`, String(idx[bad]), d.at(bad >> 2) + (bad & 3));
    return;
  }
  if (bad >= 0) out.notes.push('the mesh has blend indices but an empty palette');
  out.blendIndices = idx;
}

function supportedFor(semantic: number): string {
  switch (semantic) {
    case MMSH_SEMANTIC.POSITION:
      return 'f16x4, f32x4 or f32x3';
    case MMSH_SEMANTIC.NORMAL:
    case MMSH_SEMANTIC.TANGENT:
    case MMSH_SEMANTIC.BITANGENT:
      return 'f32x3 (or f32x4 / f16x4)';
    case MMSH_SEMANTIC.TEXCOORD:
      return 'f32x2 or s16x2';
    default:
      return 'u8x4';
  }
}

/**
 * Where each attribute of mesh `m` lies: stream 0 at vertexByteOffset, stream 1 after
 * vertexCount stream-0 vertices (formats-public §5.4). When exactly one attribute has an
 * unknown size, its size is taken from the data (the bytes up to the next mesh of the block, or
 * to the block's end, divided by the vertex count), so the attributes after it still decode.
 */
function streamPlacement(mmsh: Mmsh, m: MmshMeshInfo, layout: MmshLayout, notes: string[]): Map<number, { start: number; stride: number }> {
  const sizes = layout.attributes.map((a) => a.size);
  const unknown = layout.attributes.filter((a) => a.size === undefined);
  if (unknown.length === 1 && unknown[0]!.stream <= 1 && m.vertexCount > 0) {
    const lod = mmsh.info.lods[m.lod]!;
    // The nearest later mesh of the block (a loop: Math.min(...) over a count the file sets throws RangeError).
    let end = lod.vertexBytes;
    let later = false;
    for (let i = lod.firstMesh; i < lod.firstMesh + lod.meshCount; i++) {
      const o = mmsh.info.meshes[i]?.vertexByteOffset;
      if (o === undefined || o <= m.vertexByteOffset) continue;
      if (!later || o < end) end = o;
      later = true;
    }
    const perVertex = (end - m.vertexByteOffset) / m.vertexCount;
    const known = sizes.reduce<number>((s, x) => s + (x ?? 0), 0);
    const guess = perVertex - known;
    if (Number.isInteger(guess) && guess > 0 && guess <= 64) {
      sizes[unknown[0]!.index] = guess;
      notes.push(`attribute ${unknown[0]!.index} (type code ${unknown[0]!.type}) taken as ${guess} bytes from the data (UNCERTAIN)`);
    }
  }
  const strides = [0, 0];
  const offsets: (number | undefined)[] = [];
  const broken = [false, false];
  for (const a of layout.attributes) {
    if (a.stream > 1) {
      offsets.push(undefined);
      broken[0] = broken[1] = true;
      continue;
    }
    const s = sizes[a.index];
    offsets.push(broken[a.stream] ? undefined : strides[a.stream]);
    if (s === undefined) broken[a.stream] = true;
    else strides[a.stream]! += s;
  }
  const out = new Map<number, { start: number; stride: number }>();
  const lodBytes = mmsh.info.lods[m.lod]!.vertexBytes;
  for (const a of layout.attributes) {
    const off = offsets[a.index];
    if (off === undefined || a.stream > 1 || broken[a.stream]) continue;
    if (a.stream === 1 && broken[0]) continue;
    const start = m.vertexByteOffset + (a.stream === 1 ? m.vertexCount * strides[0]! : 0) + off;
    const stride = strides[a.stream]!;
    const size = sizes[a.index]!;
    if (m.vertexCount > 0 && start + (m.vertexCount - 1) * stride + size > lodBytes) continue;
    out.set(a.index, { start, stride });
  }
  return out;
}
