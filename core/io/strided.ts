/**
 * Vertex attributes out of interleaved streams: the loops every mesh decoder (MMSH, PRFB/MESH)
 * shares. Vertex v's attribute starts at `first + v * stride`. The caller has checked that the
 * whole range lies inside the bytes (the decoders check it when they place a stream), so these
 * read through a typed-array view and allocate only their result.
 */
import { halfToFloat } from './half';

/** How one component is stored: f32, IEEE half, or s16 (returned as the integer). */
export type ComponentType = 'f32' | 'f16' | 's16';

/** `count` components of each of `n` vertices, as floats. */
export function readComponents(view: DataView, first: number, stride: number, n: number, count: number, type: ComponentType): Float32Array {
  const out = new Float32Array(n * count);
  for (let v = 0, o = first, i = 0; v < n; v++, o += stride) {
    if (type === 'f32') for (let c = 0; c < count; c++) out[i++] = view.getFloat32(o + 4 * c, true);
    else if (type === 'f16') for (let c = 0; c < count; c++) out[i++] = halfToFloat(view.getUint16(o + 2 * c, true));
    else for (let c = 0; c < count; c++) out[i++] = view.getInt16(o + 2 * c, true);
  }
  return out;
}

/** The 4 bytes of each of `n` vertices (u8x4 colours, weights, indices). */
export function readBytes4(bytes: Uint8Array, first: number, stride: number, n: number): Uint8Array {
  const out = new Uint8Array(n * 4);
  for (let v = 0, o = first; v < n; v++, o += stride) out.set(bytes.subarray(o, o + 4), v * 4);
  return out;
}

/** The first `keep` of every `count` components (xyz of xyzw, uv of uvw); `src` itself when nothing is dropped. */
export function leadingComponents(src: Float32Array, n: number, count: number, keep: number): Float32Array {
  if (keep === count) return src;
  const out = new Float32Array(n * keep);
  for (let v = 0; v < n; v++) for (let c = 0; c < keep; c++) out[v * keep + c] = src[v * count + c]!;
  return out;
}
