/**
 * BC7 (BPTC UNORM) blocks to RGBA8, from Microsoft's public "BC7 Format" documentation
 * (Direct3D 11). A 16-byte block is read as one 128-bit little-endian value, bit 0 first:
 *
 *   mode        unary: mode m is m zero bits then a one (a block whose first byte is 0 has no
 *               mode: reserved, decodes to transparent black (0,0,0,0));
 *   partition   PB bits (modes 0,1,2,3,7) choosing one of 64 two- or three-subset shapes;
 *   rotation    2 bits (modes 4,5): 1/2/3 swap A with R/G/B after decoding;
 *   idxMode     1 bit (mode 4): 1 swaps which index set (2- or 3-bit) drives colour vs alpha;
 *   endpoints   R of every endpoint (subset 0 e0,e1, subset 1 e0,e1, ...), then G, B, then A;
 *   p-bits      one per endpoint (modes 0,3,6,7) or one per subset (mode 1), appended as the LSB;
 *   indices     16 primary indices, row-major; each subset's anchor pixel (pixel 0 for subset 0,
 *               the spec's anchor tables for the others) stores one bit less (its MSB is 0);
 *               then, for modes 4/5, 16 secondary indices (pixel 0 one bit less).
 *
 *   mode  subsets  partition  colour  alpha  p-bits        indices
 *    0      3        4         4       -     per endpoint  3
 *    1      2        6         6       -     per subset    3
 *    2      3        6         5       -     -             2
 *    3      2        6         7       -     per endpoint  2
 *    4      1        -         5       6     -             2 + 3 (rotation, idxMode)
 *    5      1        -         7       8     -             2 + 2 (rotation)
 *    6      1        -         7       7     per endpoint  4
 *    7      2        6         5       5     per endpoint  2
 *
 * Endpoints widen to 8 bits by shifting left and replicating their top bits; a pixel is
 * ((64 - w) * e0 + w * e1 + 32) >> 6 with the spec's weights for 2-, 3- and 4-bit indices.
 * Modes without alpha decode A = 255. Every read stays inside the block.
 */
import { storeBlock } from './blockStore';

// Per mode: subsets, partition bits, rotation bits, index-selection bits, colour bits, alpha
// bits, per-endpoint p-bit, shared (per-subset) p-bit, index bits, secondary index bits.
const NS = [3, 2, 3, 2, 1, 1, 1, 2];
const PB = [4, 6, 6, 6, 0, 0, 0, 6];
const RB = [0, 0, 0, 0, 2, 2, 0, 0];
const ISB = [0, 0, 0, 0, 1, 0, 0, 0];
const CB = [4, 6, 5, 7, 5, 7, 7, 5];
const AB = [0, 0, 0, 0, 6, 8, 7, 5];
const EPB = [1, 0, 0, 1, 0, 0, 1, 1];
const SPB = [0, 1, 0, 0, 0, 0, 0, 0];
const IB = [3, 3, 2, 2, 2, 2, 4, 2];
const IB2 = [0, 0, 0, 0, 3, 2, 0, 0];

/** Interpolation weights for 2-, 3- and 4-bit indices (spec tables), indexed by bit count. */
export const BC7_WEIGHTS: readonly (readonly number[])[] = [
  [],
  [],
  [0, 21, 43, 64],
  [0, 9, 18, 27, 37, 46, 55, 64],
  [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64],
];
const W = BC7_WEIGHTS.map((w) => Int32Array.from(w));

/** Two-subset shapes: bit i set = pixel i belongs to subset 1 (spec's 64-entry table). */
export const PARTITION2 = Uint16Array.from([
  0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000, 0xf710, 0x008e, 0x7100,
  0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce, 0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa,
  0x9696, 0xa55a, 0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c, 0x9336,
  0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
]);
/** Three-subset shapes: bits 2i..2i+1 = subset of pixel i (spec's 64-entry table). */
const PARTITION3 = Uint32Array.from([
  0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050, 0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494,
  0xa4a4a4a4, 0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500, 0x0050a4a4, 0xaaa59090,
  0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224,
  0x50a50a50, 0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600, 0xaa444444, 0x54a854a8, 0x95809580, 0x96969600,
  0xa85454a8, 0x80959580, 0xaa141414, 0x96960000, 0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
]);
/** Anchor pixel of subset 1 in two-subset shapes. */
export const ANCHOR2 = Uint8Array.from([
  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2,
  15, 15, 6, 6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
]);
/** Anchor pixels of subsets 1 and 2 in three-subset shapes. */
const ANCHOR3_1 = Uint8Array.from([
  3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15,
  15, 3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
]);
const ANCHOR3_2 = Uint8Array.from([
  15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15,
  3, 6, 6, 8, 15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
]);

/** Per-call scratch: the block as five u32 words (the fifth stays 0), endpoints, indices. */
class Bc7Scratch {
  readonly words = new Uint32Array(5);
  readonly ep = new Int32Array(24); // endpoint k (subset * 2 + e), channel c at k * 4 + c
  readonly idx = new Uint8Array(16);
  readonly idx2 = new Uint8Array(16);
}

/** `n` (<= 16) bits at bit `pos` of the 128-bit block in `w`. */
function bits(w: Uint32Array, pos: number, n: number): number {
  const i = pos >>> 5;
  const s = pos & 31;
  let v = w[i] >>> s;
  if (s + n > 32) v |= w[i + 1] << (32 - s);
  return v & ((1 << n) - 1);
}

/** Decode the 16-byte BC7 block at `o` into `blk` (16 RGBA8 pixels, row-major). */
function decodeBc7Block(src: Uint8Array, o: number, blk: Uint8Array, s: Bc7Scratch): void {
  const w = s.words;
  for (let k = 0; k < 4; k++) w[k] = (src[o + 4 * k] | (src[o + 4 * k + 1] << 8) | (src[o + 4 * k + 2] << 16) | (src[o + 4 * k + 3] << 24)) >>> 0;
  const first = src[o];
  if (first === 0) {
    blk.fill(0, 0, 64);
    return;
  }
  let mode = 0;
  while (!((first >> mode) & 1)) mode++;
  let pos = mode + 1;
  const ns = NS[mode];
  const part = bits(w, pos, PB[mode]);
  pos += PB[mode];
  const rotation = bits(w, pos, RB[mode]);
  pos += RB[mode];
  const idxSel = bits(w, pos, ISB[mode]);
  pos += ISB[mode];
  const ep = s.ep;
  const ne = ns * 2;
  const cb = CB[mode];
  const ab = AB[mode];
  for (let c = 0; c < 3; c++) {
    for (let k = 0; k < ne; k++, pos += cb) ep[k * 4 + c] = bits(w, pos, cb);
  }
  if (ab) {
    for (let k = 0; k < ne; k++, pos += ab) ep[k * 4 + 3] = bits(w, pos, ab);
  }
  const hasP = EPB[mode] | SPB[mode];
  if (EPB[mode]) {
    for (let k = 0; k < ne; k++, pos++) {
      const p = bits(w, pos, 1);
      for (let c = 0; c < 4; c++) ep[k * 4 + c] = (ep[k * 4 + c] << 1) | p;
    }
  } else if (SPB[mode]) {
    for (let sub = 0; sub < ns; sub++, pos++) {
      const p = bits(w, pos, 1);
      for (let k = sub * 2; k < sub * 2 + 2; k++) for (let c = 0; c < 4; c++) ep[k * 4 + c] = (ep[k * 4 + c] << 1) | p;
    }
  }
  // Widen to 8 bits: shift left, replicate the top bits.
  const cp = cb + hasP;
  const ap = ab + hasP;
  for (let k = 0; k < ne; k++) {
    for (let c = 0; c < 3; c++) {
      const v = ep[k * 4 + c];
      ep[k * 4 + c] = ((v << (8 - cp)) | (v >> (2 * cp - 8))) & 255;
    }
    if (ab) {
      const v = ep[k * 4 + 3];
      ep[k * 4 + 3] = ((v << (8 - ap)) | (v >> (2 * ap - 8))) & 255;
    } else {
      ep[k * 4 + 3] = 255;
    }
  }
  // Indices.
  const ib = IB[mode];
  const a1 = ns === 2 ? ANCHOR2[part] : ns === 3 ? ANCHOR3_1[part] : 0;
  const a2 = ns === 3 ? ANCHOR3_2[part] : 0;
  const idx = s.idx;
  for (let i = 0; i < 16; i++) {
    const n = i === 0 || (ns > 1 && i === a1) || (ns > 2 && i === a2) ? ib - 1 : ib;
    idx[i] = bits(w, pos, n);
    pos += n;
  }
  const ib2 = IB2[mode];
  const idx2 = s.idx2;
  if (ib2) {
    for (let i = 0; i < 16; i++) {
      const n = i === 0 ? ib2 - 1 : ib2;
      idx2[i] = bits(w, pos, n);
      pos += n;
    }
  }
  // Colour and alpha per pixel.
  const p2 = PARTITION2[part];
  const p3 = PARTITION3[part];
  let wc = W[ib];
  let wa = W[ib];
  let ic = idx;
  let ia = idx;
  if (ib2) {
    if (idxSel) {
      wc = W[ib2];
      ic = idx2;
      wa = W[ib];
      ia = idx;
    } else {
      wc = W[ib];
      ic = idx;
      wa = W[ib2];
      ia = idx2;
    }
  }
  for (let i = 0; i < 16; i++) {
    const sub = ns === 1 ? 0 : ns === 2 ? (p2 >> i) & 1 : (p3 >>> (2 * i)) & 3;
    const e0 = sub * 8;
    const e1 = e0 + 4;
    const fc = wc[ic[i]];
    const fa = wa[ia[i]];
    const d = i << 2;
    blk[d] = ((64 - fc) * ep[e0] + fc * ep[e1] + 32) >> 6;
    blk[d + 1] = ((64 - fc) * ep[e0 + 1] + fc * ep[e1 + 1] + 32) >> 6;
    blk[d + 2] = ((64 - fc) * ep[e0 + 2] + fc * ep[e1 + 2] + 32) >> 6;
    blk[d + 3] = ((64 - fa) * ep[e0 + 3] + fa * ep[e1 + 3] + 32) >> 6;
    if (rotation) {
      const t = blk[d + 3];
      blk[d + 3] = blk[d + rotation - 1];
      blk[d + rotation - 1] = t;
    }
  }
}

/** Decode a width x height BC7 level at `offset` in `src` into `out` (RGBA8, row-major). The caller checks sizes. */
export function decodeBc7(src: Uint8Array, offset: number, width: number, height: number, out: Uint8Array): void {
  const s = new Bc7Scratch();
  const blk = new Uint8Array(64);
  const bw = Math.ceil(width / 4);
  const bh = Math.ceil(height / 4);
  let o = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, o += 16) {
      decodeBc7Block(src, o, blk, s);
      storeBlock(out, blk, width, height, bx, by);
    }
  }
}
