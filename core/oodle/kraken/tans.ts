/**
 * tANS byte arrays (container type 1). Layout facts relied on:
 * - MSB-first header: a reserved 0 bit, 2 bits giving L = 2^(8..11) table slots, then the
 *   symbol weights (which must sum to L) in one of two formats: Golomb-Rice coded weights
 *   over symbol ranges, or a short list of (symbol, weight delta) pairs plus one symbol
 *   that takes the remaining weight;
 * - slots are dealt to four interleaved lanes; weight-1 symbols sit at the end of the table;
 * - five decoder states; after the table, the bit stream is read LSB-first both forward
 *   (from the end of the table) and backward (from the end of the payload, bytes in
 *   descending order); the two must meet exactly;
 * - the five final states are the last five output bytes, so every state must end < 256.
 */
import { BitReader } from './bitReader';
import { corrupt, truncated } from './fail';
import { readRangeFieldCount, readRiceValues, readSymbolRanges } from './huffman';

const MAX_L = 1 << 11;
const slotSym = new Uint8Array(MAX_L);
const slotBits = new Uint8Array(MAX_L);
const slotBase = new Uint16Array(MAX_L);

const singles = new Uint8Array(256);
const multiSym = new Uint8Array(256);
const multiWeight = new Int32Array(256);
let singleCount = 0;
let multiCount = 0;

const rice = new Int32Array(512);
const rangeStart = new Int32Array(130);
const rangeCount = new Int32Array(130);
const seen = new Uint8Array(256);
const lanes = new Int32Array(4);
const states = new Int32Array(5);
const reader = new BitReader();

function addSymbol(sym: number, weight: number): void {
  if (weight === 1) singles[singleCount++] = sym;
  else {
    multiSym[multiCount] = sym;
    multiWeight[multiCount++] = weight;
  }
}

function unzigzag(v: number): number {
  return v & 1 ? -(v >>> 1) - 1 : v >>> 1;
}

function readTable(br: BitReader, src: Uint8Array, end: number, lBits: number, at: number): void {
  const L = 1 << lBits;
  singleCount = 0;
  multiCount = 0;
  if (br.bit()) {
    const q = br.bits(3);
    const num = br.bits(8) + 1;
    if (num < 2) corrupt(at, 'tans.table', 'fewer than two symbols');
    const fields = readRangeFieldCount(br, num);
    readRiceValues(br, src, end, rice, num + fields, 0, 0, at);
    const ranges = readSymbolRanges(br, rice, num, fields, num, rangeStart, rangeCount, at);
    let avg = 6;
    let total = 0;
    let ri = 0;
    for (let r = 0; r < ranges; r++) {
      let sym = rangeStart[r];
      for (let j = rangeCount[r]; j > 0; j--) {
        const extra = q + rice[ri++];
        if (extra > 15) corrupt(at, 'tans.table', 'weight code too long');
        let v = br.bitsZ(extra) + (1 << extra) - (1 << q);
        const a4 = avg >> 2;
        let limit = 2 * a4;
        if (v <= limit) v = a4 + unzigzag(v);
        if (limit > v) limit = v;
        v += 1;
        avg += limit - a4;
        if (total + v > L) corrupt(at, 'tans.table', 'weights exceed the table size');
        addSymbol(sym++, v);
        total += v;
      }
    }
    if (total !== L) corrupt(at, 'tans.table', 'weights do not sum to the table size', `${L}`, `${total}`);
    return;
  }
  seen.fill(0);
  const count = br.bits(3) + 1;
  const deltaBits = br.bits(32 - Math.clz32(lBits));
  if (deltaBits === 0 || deltaBits > lBits) corrupt(at, 'tans.table', 'bad weight delta width');
  let weight = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const sym = br.bits(8);
    if (seen[sym]) corrupt(at, 'tans.table', 'symbol listed twice');
    weight += br.bits(deltaBits);
    if (weight === 0) corrupt(at, 'tans.table', 'zero weight');
    seen[sym] = 1;
    addSymbol(sym, weight);
    total += weight;
  }
  const last = br.bits(8);
  if (seen[last]) corrupt(at, 'tans.table', 'symbol listed twice');
  if (total >= L || L - total < weight || L - total <= 1) corrupt(at, 'tans.table', 'weights do not leave room for the last symbol');
  addSymbol(last, L - total);
  // The short format lists symbols in any order; the lane layout wants them ascending.
  for (let i = 1; i < singleCount; i++) {
    const s = singles[i];
    let j = i;
    for (; j > 0 && singles[j - 1] > s; j--) singles[j] = singles[j - 1];
    singles[j] = s;
  }
  for (let i = 1; i < multiCount; i++) {
    const s = multiSym[i];
    const w = multiWeight[i];
    let j = i;
    for (; j > 0 && multiSym[j - 1] > s; j--) {
      multiSym[j] = multiSym[j - 1];
      multiWeight[j] = multiWeight[j - 1];
    }
    multiSym[j] = s;
    multiWeight[j] = w;
  }
}

/** Lay the symbols out over the L slots (weights already checked to sum to L). */
function buildSlots(lBits: number): void {
  const L = 1 << lBits;
  const shared = L - singleCount;
  const quarter = shared >> 2;
  const rem = shared & 3;
  lanes[0] = 0;
  lanes[1] = quarter + (rem > 0 ? 1 : 0);
  lanes[2] = lanes[1] + quarter + (rem > 1 ? 1 : 0);
  lanes[3] = lanes[2] + quarter + (rem > 2 ? 1 : 0);
  for (let i = 0; i < singleCount; i++) {
    slotSym[shared + i] = singles[i];
    slotBits[shared + i] = lBits;
    slotBase[shared + i] = 0;
  }
  let dealt = 0;
  for (let i = 0; i < multiCount; i++) {
    const w = multiWeight[i];
    const sym = multiSym[i];
    let ww = w;
    for (let j = 0; j < 4; j++) {
      // How many of the slot numbers dealt .. dealt+w-1 fall in lane j (slot mod 4 = j).
      for (let c = (w + ((dealt - j - 1) & 3)) >> 2; c > 0; c--) {
        const idx = lanes[j]++;
        const nb = lBits - (31 - Math.clz32(ww));
        slotSym[idx] = sym;
        slotBits[idx] = nb;
        slotBase[idx] = (ww << nb) - L;
        ww++;
      }
    }
    dealt += w;
  }
}

/** Little-endian u32 from `p` upwards, zero outside [lo, hi). */
function loadUp(src: Uint8Array, p: number, lo: number, hi: number): number {
  let v = 0;
  for (let k = 3; k >= 0; k--) {
    const q = p + k;
    v = (v << 8) | (q >= lo && q < hi ? src[q] : 0);
  }
  return v;
}

/** u32 from the bytes below `p`, the byte at p-1 lowest; zero outside [lo, hi). */
function loadDown(src: Uint8Array, p: number, lo: number, hi: number): number {
  let v = 0;
  for (let k = 4; k >= 1; k--) {
    const q = p - k;
    v = (v << 8) | (q >= lo && q < hi ? src[q] : 0);
  }
  return v;
}

/** Decode a tANS byte array from `src[s, e)` into `out[o, o + n)`. */
export function decodeTans(src: Uint8Array, s: number, e: number, out: Uint8Array, o: number, n: number): void {
  if (e - s < 8) truncated(s, 'tans', 8, e - s);
  if (n < 5) corrupt(s, 'tans', 'tANS array shorter than its five final states');
  const br = reader.forward(src, s, e);
  if (br.bit()) corrupt(s, 'tans', 'reserved bit set');
  const lBits = br.bits(2) + 8;
  readTable(br, src, e, lBits, s);
  const p0 = br.forwardEnd();
  if (p0 >= e) truncated(s, 'tans.table', p0 - e + 1, 0);
  buildSlots(lBits);

  const mask = (1 << lBits) - 1;
  let bF = loadUp(src, p0, p0, e);
  let pF = p0 + 4;
  let cF = 32;
  let bB = loadDown(src, e, p0, e);
  let pB = e - 4;
  let cB = 32;
  states[0] = bF & mask;
  states[1] = bB & mask;
  bF >>>= lBits;
  cF -= lBits;
  bB >>>= lBits;
  cB -= lBits;
  states[2] = bF & mask;
  states[3] = bB & mask;
  bF >>>= lBits;
  cF -= lBits;
  bB >>>= lBits;
  cB -= lBits;
  bF |= loadUp(src, pF, p0, e) << cF;
  pF += (31 - cF) >> 3;
  cF |= 24;
  states[4] = bF & mask;
  bF >>>= lBits;
  cF -= lBits;
  pF -= cF >> 3;
  cF &= 7;
  bF &= (1 << cF) - 1;
  pB += cB >> 3;
  cB &= 7;
  bB &= (1 << cB) - 1;

  // Symbols alternate: states 0..4 from the forward stream, then 0..4 from the backward
  // one; each stream is refilled before states 0, 2 and 4 (two steps use ≤ 22 bits).
  let d = o;
  const dEnd = o + n - 5;
  outer: while (d < dEnd) {
    for (let k = 0; k < 5; k++) {
      if ((k & 1) === 0) {
        bF |= loadUp(src, pF, p0, e) << cF;
        pF += (31 - cF) >> 3;
        cF |= 24;
      }
      const st = states[k];
      out[d++] = slotSym[st];
      const nb = slotBits[st];
      states[k] = slotBase[st] + (bF & ((1 << nb) - 1));
      bF >>>= nb;
      cF -= nb;
      if (d >= dEnd) break outer;
    }
    for (let k = 0; k < 5; k++) {
      if ((k & 1) === 0) {
        bB |= loadDown(src, pB, p0, e) << cB;
        pB -= (31 - cB) >> 3;
        cB |= 24;
      }
      const st = states[k];
      out[d++] = slotSym[st];
      const nb = slotBits[st];
      states[k] = slotBase[st] + (bB & ((1 << nb) - 1));
      bB >>>= nb;
      cB -= nb;
      if (d >= dEnd) break outer;
    }
  }
  if (pF - (cF >> 3) !== pB + (cB >> 3)) corrupt(p0, 'tans.streams', 'tANS forward and backward streams do not meet');
  for (let k = 0; k < 5; k++) {
    const st = states[k];
    if (st > 255) corrupt(p0, 'tans.streams', 'final tANS state is not a byte');
    out[dEnd + k] = st;
  }
}
