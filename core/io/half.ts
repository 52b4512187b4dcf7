/**
 * IEEE 754 binary16 ("half") conversions, and the f32 that a raw u32 reads as: the float helpers
 * every format reader and writer share (MMSH, PRFB/MESH vertex data, BC6H endpoints).
 */

/** Half-float bits to a number. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

const f32 = new Float32Array(1);
const f32bits = new Uint32Array(f32.buffer);

/** A number to half-float bits (round half up; overflow to infinity, NaN kept). */
export function f32ToHalf(v: number): number {
  f32[0] = v;
  const x = f32bits[0]!;
  const sign = (x >>> 16) & 0x8000;
  const e = ((x >>> 23) & 0xff) - 127 + 15;
  let m = x & 0x7fffff;
  if (((x >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    m = (m | 0x800000) >> (1 - e);
    return sign | ((m + 0x1000) >> 13);
  }
  const h = sign | (e << 10) | (m >> 13);
  return m & 0x1000 ? h + 1 : h; // round half up (carries into the exponent correctly)
}

/** A u32 read as the f32 with the same bits (for words kept raw whose meaning may be a float). */
export function asF32(raw: number): number {
  f32bits[0] = raw >>> 0;
  return f32[0]!;
}
