/**
 * Decoding one placed PRFB / MESH draw (./placement.ts) into arrays: the ranges were checked by
 * the placement, so the loops read the vertex streams through typed-array views; a read past the
 * vertex buffer is still refused (OUT_OF_RANGE).
 */
import { Arch06Error } from '../../../errors';
import { leadingComponents, readBytes4, readComponents } from '../../../io/strided';
import { Buffers, DrawPlacement, Tables, VERTEX_TYPE, VERTEX_USAGE, hexOff } from './layout';

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
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = p.vertexCount;
  const notes: string[] = [];
  const vEnd = buffers.vertexOffset + buffers.vertexBytes;
  const out: DecodedDraw = { draw: p.draw, vertexCount: n, indices: new Uint16Array(p.indexCount), notes };
  for (let i = 0; i < p.indexCount; i++) out.indices[i] = v.getUint16(p.indexOffset + 2 * i, true);
  const uvEntries = fmt.entries.filter((e) => e.usage === VERTEX_USAGE.UV).sort((a, b) => a.index - b.index);
  for (const e of fmt.entries) {
    const st = p.streams[e.stream as 0 | 1];
    const first = st.offset + e.streamOffset;
    const at = (k: number): number => first + k * st.stride;
    if (n > 0 && at(n - 1) + e.size > vEnd) {
      throw new Arch06Error('OUT_OF_RANGE', 'vertex data runs past the vertex buffer', {
        file,
        offset: at(n - 1),
        field: `draws[${d.index}].${e.usageName}`,
        expected: `<= ${hexOff(vEnd)}`,
        actual: hexOff(at(n - 1) + e.size),
      });
    }
    const read = (comps: 2 | 3 | 4, kind: 'f32' | 'f16'): Float32Array => readComponents(v, first, st.stride, n, comps, kind);
    const xyz = (): Float32Array | undefined => {
      if (e.type === VERTEX_TYPE.FLOAT3) return read(3, 'f32');
      if (e.type === VERTEX_TYPE.HALF4) return leadingComponents(read(4, 'f16'), n, 4, 3);
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
          out.uvs = leadingComponents(read(3, 'f32'), n, 3, 2);
        } else notes.push(`uv stored as ${e.typeName} is not read`);
        break;
      case VERTEX_USAGE.COLOUR:
        if (e.index !== 0 || out.colors || e.type !== VERTEX_TYPE.UBYTE4) break;
        out.colors = readBytes4(bytes, first, st.stride, n);
        break;
      default:
        break;
    }
  }
  return out;
}
