/**
 * BC6H (HDR RGB half-float) blocks to 32-bit float RGB, from Microsoft's public "BC6H Format"
 * documentation (Direct3D 11). A 16-byte block is one 128-bit little-endian value, bit 0 first.
 *
 *   mode     2 bits; if they are 00 or 01 that is the mode (1 or 2), else 5 bits name it.
 *            Values 10011, 10111, 11011, 11111 (read LSB first: 0x13, 0x17, 0x1B, 0x1F) are
 *            reserved: the block decodes to zeros.
 *   header   endpoint bits scattered as in the spec's per-mode table (LAYOUT below, in the spec's
 *            own notation: r0..r3 are endpoints w, x, y, z; `a[10:15]` lists bits in reverse);
 *            two-region modes then hold a 5-bit shape (the first 32 BC7 two-subset shapes).
 *   indices  two regions: 3 bits per pixel from bit 82; one region: 4 bits from bit 65. Anchor
 *            pixels (0, and the BC7 anchor of subset 1) store one bit less.
 *
 * Endpoints: sign-extended when the format is signed (SF16) or the mode is transformed (the
 * other endpoints are deltas from w, added modulo 2^precision); unquantised to 16 bits;
 * interpolated with the BC7 weights ((64 - w) a + w b + 32) >> 6; then scaled to a half float
 * (unsigned: * 31 / 64; signed: magnitude * 31 / 32 with the sign in bit 15).
 */
import { halfToFloat } from '../io/half';
import { ANCHOR2, BC7_WEIGHTS, PARTITION2 } from './bc7';

/**
 * The spec's mode table: the 5-bit (or 2-bit) mode value, whether endpoints are transformed
 * (deltas), region count, endpoint precision, delta precision per channel, and the bit layout.
 */
interface ModeSpec {
  value: number;
  transformed: boolean;
  regions: number;
  epb: number;
  delta: [number, number, number];
  layout: string;
}
const MODES: ModeSpec[] = [
  {
    value: 0x00,
    transformed: true,
    regions: 2,
    epb: 10,
    delta: [5, 5, 5],
    layout: 'm[1:0],g2[4],b2[4],b3[4],r0[9:0],g0[9:0],b0[9:0],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]',
  },
  {
    value: 0x01,
    transformed: true,
    regions: 2,
    epb: 7,
    delta: [6, 6, 6],
    layout:
      'm[1:0],g2[5],g3[4],g3[5],r0[6:0],b3[0],b3[1],b2[4],g0[6:0],b2[5],b3[2],g2[4],b0[6:0],b3[3],b3[5],b3[4],r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],b2[3:0],r2[5:0],r3[5:0]',
  },
  {
    value: 0x02,
    transformed: true,
    regions: 2,
    epb: 11,
    delta: [5, 4, 4],
    layout: 'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[4:0],r0[10],g2[3:0],g1[3:0],g0[10],b3[0],g3[3:0],b1[3:0],b0[10],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]',
  },
  {
    value: 0x06,
    transformed: true,
    regions: 2,
    epb: 11,
    delta: [4, 5, 4],
    layout:
      'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],g3[4],g2[3:0],g1[4:0],g0[10],g3[3:0],b1[3:0],b0[10],b3[1],b2[3:0],r2[3:0],b3[0],b3[2],r3[3:0],g2[4],b3[3]',
  },
  {
    value: 0x0a,
    transformed: true,
    regions: 2,
    epb: 11,
    delta: [4, 4, 5],
    layout:
      'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],b2[4],g2[3:0],g1[3:0],g0[10],b3[0],g3[3:0],b1[4:0],b0[10],b2[3:0],r2[3:0],b3[1],b3[2],r3[3:0],b3[4],b3[3]',
  },
  {
    value: 0x0e,
    transformed: true,
    regions: 2,
    epb: 9,
    delta: [5, 5, 5],
    layout: 'm[4:0],r0[8:0],b2[4],g0[8:0],g2[4],b0[8:0],b3[4],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]',
  },
  {
    value: 0x12,
    transformed: true,
    regions: 2,
    epb: 8,
    delta: [6, 5, 5],
    layout: 'm[4:0],r0[7:0],g3[4],b2[4],g0[7:0],b3[2],g2[4],b0[7:0],b3[3],b3[4],r1[5:0],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[5:0],r3[5:0]',
  },
  {
    value: 0x16,
    transformed: true,
    regions: 2,
    epb: 8,
    delta: [5, 6, 5],
    layout:
      'm[4:0],r0[7:0],b3[0],b2[4],g0[7:0],g2[5],g2[4],b0[7:0],g3[5],b3[4],r1[4:0],g3[4],g2[3:0],g1[5:0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]',
  },
  {
    value: 0x1a,
    transformed: true,
    regions: 2,
    epb: 8,
    delta: [5, 5, 6],
    layout:
      'm[4:0],r0[7:0],b3[1],b2[4],g0[7:0],b2[5],g2[4],b0[7:0],b3[5],b3[4],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[5:0],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]',
  },
  {
    value: 0x1e,
    transformed: false,
    regions: 2,
    epb: 6,
    delta: [6, 6, 6],
    layout:
      'm[4:0],r0[5:0],g3[4],b3[0],b3[1],b2[4],g0[5:0],g2[5],b2[5],b3[2],g2[4],b0[5:0],g3[5],b3[3],b3[5],b3[4],r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],b2[3:0],r2[5:0],r3[5:0]',
  },
  { value: 0x03, transformed: false, regions: 1, epb: 10, delta: [10, 10, 10], layout: 'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[9:0],g1[9:0],b1[9:0]' },
  {
    value: 0x07,
    transformed: true,
    regions: 1,
    epb: 11,
    delta: [9, 9, 9],
    layout: 'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[8:0],r0[10],g1[8:0],g0[10],b1[8:0],b0[10]',
  },
  {
    value: 0x0b,
    transformed: true,
    regions: 1,
    epb: 12,
    delta: [8, 8, 8],
    layout: 'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[7:0],r0[10:11],g1[7:0],g0[10:11],b1[7:0],b0[10:11]',
  },
  {
    value: 0x0f,
    transformed: true,
    regions: 1,
    epb: 16,
    delta: [4, 4, 4],
    layout: 'm[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10:15],g1[3:0],g0[10:15],b1[3:0],b0[10:15]',
  },
];

/** A mode compiled for decoding: for header bit k (from bit 0), the target `endpoint * 3 + channel` and bit number (255 = mode bit). */
interface Compiled {
  spec: ModeSpec;
  target: Uint8Array;
  bit: Uint8Array;
}

function compile(spec: ModeSpec): Compiled {
  const target: number[] = [];
  const bit: number[] = [];
  for (const field of spec.layout.split(',')) {
    const m = /^([mrgb])(\d?)\[(\d+)(?::(\d+))?\]$/.exec(field);
    if (!m) throw new Error(`BC6H layout: bad field ${field}`);
    const hi = Number(m[3]);
    const lo = m[4] === undefined ? hi : Number(m[4]);
    // `a[9:0]`: the stream holds bit 0 first; `a[10:15]`: reversed, bit 15 first.
    const bits: number[] = [];
    if (hi >= lo) for (let b = lo; b <= hi; b++) bits.push(b);
    else for (let b = lo; b >= hi; b--) bits.push(b);
    const t = m[1] === 'm' ? 255 : Number(m[2]) * 3 + 'rgb'.indexOf(m[1]);
    for (const b of bits) {
      target.push(t);
      bit.push(b);
    }
  }
  const headerEnd = spec.regions === 2 ? 77 : 65;
  if (target.length !== headerEnd) throw new Error(`BC6H layout for mode ${spec.value}: ${target.length} bits, expected ${headerEnd}`);
  return { spec, target: Uint8Array.from(target), bit: Uint8Array.from(bit) };
}

/** Compiled modes by 5-bit mode value (2-bit modes 0 and 1 registered for every value with those low bits). */
const BY_VALUE: (Compiled | undefined)[] = new Array(32).fill(undefined);
for (const spec of MODES) {
  const c = compile(spec);
  if (spec.value < 2) {
    for (let v = spec.value; v < 32; v += 4) BY_VALUE[v] = c;
  } else {
    BY_VALUE[spec.value] = c;
  }
}

const W3 = Int32Array.from(BC7_WEIGHTS[3]);
const W4 = Int32Array.from(BC7_WEIGHTS[4]);

const signExtend = (v: number, bits: number): number => (bits >= 32 ? v : (v << (32 - bits)) >> (32 - bits));

function unquantize(c: number, epb: number, signed: boolean): number {
  if (!signed) {
    if (epb >= 15) return c;
    if (c === 0) return 0;
    if (c === (1 << epb) - 1) return 0xffff;
    return ((c << 16) + 0x8000) >> epb;
  }
  if (epb >= 16) return c;
  let neg = false;
  if (c < 0) {
    neg = true;
    c = -c;
  }
  let u: number;
  if (c === 0) u = 0;
  else if (c >= (1 << (epb - 1)) - 1) u = 0x7fff;
  else u = ((c << 15) + 0x4000) >> (epb - 1);
  return neg ? -u : u;
}

/** Half bits -> float for all 65536 values, built on first use. */
let halfTable: Float32Array | undefined;
function halfLut(): Float32Array {
  if (!halfTable) {
    halfTable = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) halfTable[h] = halfToFloat(h);
  }
  return halfTable;
}

/** Per-call scratch. */
class Bc6hScratch {
  readonly words = new Uint32Array(5);
  readonly ep = new Int32Array(12); // endpoint e (0..3 = w, x, y, z), channel c at e * 3 + c
}

function bits(w: Uint32Array, pos: number, n: number): number {
  const i = pos >>> 5;
  const s = pos & 31;
  let v = w[i] >>> s;
  if (s + n > 32) v |= w[i + 1] << (32 - s);
  return v & ((1 << n) - 1);
}

/** Decode the 16-byte block at `o` to 16 RGB floats in `rgb` (48 numbers, row-major). */
function decodeBc6hBlock(src: Uint8Array, o: number, signed: boolean, rgb: Float32Array, s: Bc6hScratch): void {
  const lut = halfLut();
  const w = s.words;
  for (let k = 0; k < 4; k++) w[k] = (src[o + 4 * k] | (src[o + 4 * k + 1] << 8) | (src[o + 4 * k + 2] << 16) | (src[o + 4 * k + 3] << 24)) >>> 0;
  const mode = BY_VALUE[w[0] & 31];
  if (!mode) {
    rgb.fill(0, 0, 48);
    return;
  }
  const { spec, target, bit } = mode;
  const ep = s.ep;
  ep.fill(0);
  for (let k = 0, n = target.length; k < n; k++) {
    const t = target[k];
    if (t !== 255) ep[t] |= ((w[k >>> 5] >>> (k & 31)) & 1) << bit[k];
  }
  const ne = spec.regions * 2;
  const epb = spec.epb;
  const mask = epb >= 32 ? -1 : (1 << epb) - 1;
  for (let c = 0; c < 3; c++) {
    if (signed) ep[c] = signExtend(ep[c], epb);
    if (spec.transformed || signed) {
      const prec = spec.transformed ? spec.delta[c] : epb;
      for (let e = 1; e < ne; e++) ep[e * 3 + c] = signExtend(ep[e * 3 + c], prec);
    }
    if (spec.transformed) {
      for (let e = 1; e < ne; e++) {
        let v = (ep[c] + ep[e * 3 + c]) & mask;
        if (signed) v = signExtend(v, epb);
        ep[e * 3 + c] = v;
      }
    }
    for (let e = 0; e < ne; e++) ep[e * 3 + c] = unquantize(ep[e * 3 + c], epb, signed);
  }
  // Indices and interpolation.
  const two = spec.regions === 2;
  const part = two ? bits(w, 77, 5) : 0;
  const shape = PARTITION2[part];
  const anchor = two ? ANCHOR2[part] : 0;
  const ib = two ? 3 : 4;
  const weights = two ? W3 : W4;
  let pos = two ? 82 : 65;
  for (let i = 0; i < 16; i++) {
    const n = i === 0 || (two && i === anchor) ? ib - 1 : ib;
    const ix = bits(w, pos, n);
    pos += n;
    const wt = weights[ix];
    const e0 = two && (shape >> i) & 1 ? 6 : 0;
    for (let c = 0; c < 3; c++) {
      const a = ep[e0 + c];
      const b = ep[e0 + 3 + c];
      const v = ((64 - wt) * a + wt * b + 32) >> 6;
      let h: number;
      if (!signed) h = (v * 31) >> 6;
      else h = v < 0 ? 0x8000 | ((-v * 31) >> 5) : (v * 31) >> 5;
      rgb[i * 3 + c] = lut[h];
    }
  }
}

/** Decode a width x height BC6H level at `offset` in `src` into `out` (width * height * 3 floats, RGB, row-major). The caller checks sizes. */
export function decodeBc6h(src: Uint8Array, offset: number, width: number, height: number, signed: boolean, out: Float32Array): void {
  const s = new Bc6hScratch();
  const blk = new Float32Array(48);
  const bw = Math.ceil(width / 4);
  const bh = Math.ceil(height / 4);
  let o = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, o += 16) {
      decodeBc6hBlock(src, o, signed, blk, s);
      const x0 = bx << 2;
      const y0 = by << 2;
      const cols = Math.min(4, width - x0);
      const rows = Math.min(4, height - y0);
      for (let y = 0; y < rows; y++) {
        const d = ((y0 + y) * width + x0) * 3;
        const b = y * 12;
        for (let k = 0, n = cols * 3; k < n; k++) out[d + k] = blk[b + k];
      }
    }
  }
}

/**
 * Tone-map float RGB to RGBA8 for previews: each channel times 2^exposure, clamped to [0, 1],
 * sRGB-encoded; A = 255. NaN becomes 0.
 */
export function toneMapRgba8(rgb: Float32Array, exposure = 0): Uint8Array {
  const n = Math.floor(rgb.length / 3);
  const out = new Uint8Array(n * 4);
  const scale = 2 ** exposure;
  for (let i = 0, s = 0, d = 0; i < n; i++, s += 3, d += 4) {
    for (let c = 0; c < 3; c++) {
      let v = rgb[s + c] * scale;
      if (!(v > 0)) v = 0;
      else if (v > 1) v = 1;
      const e = v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(v, 1 / 2.4) - 0.055;
      out[d + c] = Math.round(e * 255);
    }
    out[d + 3] = 255;
  }
  return out;
}
