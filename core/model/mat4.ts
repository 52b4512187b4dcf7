/**
 * The little 4×4 matrix arithmetic the glTF exporter needs (bind pose → inverse bind matrices),
 * written out so `core/` keeps no dependencies.
 *
 * Matrices are 16 numbers in column-major order, as glTF stores them: element (row r, column c)
 * is `m[c * 4 + r]`, and the translation sits in `m[12]`, `m[13]`, `m[14]`. Points are column
 * vectors, so `multiply(a, b)` applied to a point applies `b` first, then `a`.
 */

export type Mat4 = Float64Array;
export type Vec3 = [number, number, number];
/** A unit quaternion (x, y, z, w). */
export type Quat = [number, number, number, number];

/** `a · b` (apply `b`, then `a`). */
function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!;
      out[c * 4 + r] = s;
    }
  }
  return out;
}

/**
 * The matrix of translation · rotation · scale (scale first), the order glTF composes a node's
 * TRS in. The quaternion is normalised here; `scale` is one factor for all three axes or three.
 */
export function fromTrs(t: Vec3, q: Quat, s: number | Vec3): Mat4 {
  let [x, y, z, w] = q;
  const len = Math.hypot(x, y, z, w);
  if (len > 0) {
    x /= len;
    y /= len;
    z /= len;
    w /= len;
  } else {
    x = y = z = 0;
    w = 1;
  }
  const [sx, sy, sz] = typeof s === 'number' ? [s, s, s] : s;
  const xx = x * x,
    yy = y * y,
    zz = z * z;
  const xy = x * y,
    xz = x * z,
    yz = y * z;
  const wx = w * x,
    wy = w * y,
    wz = w * z;
  const m = new Float64Array(16);
  // Column 0: the rotated x axis, scaled.
  m[0] = (1 - 2 * (yy + zz)) * sx;
  m[1] = 2 * (xy + wz) * sx;
  m[2] = 2 * (xz - wy) * sx;
  // Column 1.
  m[4] = 2 * (xy - wz) * sy;
  m[5] = (1 - 2 * (xx + zz)) * sy;
  m[6] = 2 * (yz + wx) * sy;
  // Column 2.
  m[8] = 2 * (xz + wy) * sz;
  m[9] = 2 * (yz - wx) * sz;
  m[10] = (1 - 2 * (xx + yy)) * sz;
  // Column 3: translation.
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1;
  return m;
}

/** The inverse of a general 4×4 matrix, or undefined when it is singular. */
export function invert(m: Mat4): Mat4 | undefined {
  const a00 = m[0]!,
    a01 = m[1]!,
    a02 = m[2]!,
    a03 = m[3]!;
  const a10 = m[4]!,
    a11 = m[5]!,
    a12 = m[6]!,
    a13 = m[7]!;
  const a20 = m[8]!,
    a21 = m[9]!,
    a22 = m[10]!,
    a23 = m[11]!;
  const a30 = m[12]!,
    a31 = m[13]!,
    a32 = m[14]!,
    a33 = m[15]!;
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-300) return undefined;
  const d = 1 / det;
  const out = new Float64Array(16);
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * d;
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * d;
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * d;
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * d;
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * d;
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * d;
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * d;
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * d;
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * d;
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * d;
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * d;
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * d;
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * d;
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * d;
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * d;
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * d;
  return out;
}

/**
 * World (model-space) matrices of a hierarchy whose parents come before their children:
 * `world[i] = world[parent[i]] · local[i]`. A parent index that is not earlier in the list is
 * treated as a root (callers validate the order first).
 */
export function worldMatrices(locals: readonly Mat4[], parents: readonly number[]): Mat4[] {
  const out: Mat4[] = [];
  for (let i = 0; i < locals.length; i++) {
    const p = parents[i] ?? -1;
    out.push(p >= 0 && p < i ? multiply(out[p]!, locals[i]!) : locals[i]!);
  }
  return out;
}
