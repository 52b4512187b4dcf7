/**
 * Huffman byte arrays (container types 2 and 4), the rules of core/oodle/kraken/huffman.ts:
 * an "old" (gamma runs or sparse list) or "new" (Golomb-Rice) code-length table, canonical
 * codes of length 1..11 that fill the code space exactly, and three LSB-first streams
 * (A forward, B backward from the end, C forward from a u16 midpoint) taking output bytes
 * in turn. The fast path reads each stream 64 bits at a time.
 */
import { BitReader, TABLE } from './bits';
import { copy16, fail, fillBytes, ld16, ld32, ld64, ld8, st16, st32, st8 } from './memory';
import { RANGE_COUNT, RANGE_START, readRangeFieldCount, readRiceValues, readSymbolRanges, rice, unzigzag } from './tables';

const MAX_CODE_LEN = 11;
/** Decoding tables indexed by the next 11 stream bits: the symbol and its code length (u8 each). */
const LUT_SYM = <i32>memory.data(2048, 16);
const LUT_LEN = <i32>memory.data(2048, 16);
/** 11-bit bit reversal (u16), filled on first use. */
const REV11 = <i32>memory.data(2048 * 2, 16);
let revReady = false;
/** Symbols and their code lengths in table order; symbols sorted by length. */
const SYMS = <i32>memory.data(256, 16);
const LENS = <i32>memory.data(256, 16);
const SORTED = <i32>memory.data(256, 16);
/** Per-length counts and running starts (i32). */
const LEN_COUNT = <i32>memory.data(16 * 4, 16);
const LEN_START = <i32>memory.data(16 * 4, 16);

function fillRev(): void {
  for (let i = 0; i < 2048; i++) {
    let r = 0;
    for (let b = 0; b < MAX_CODE_LEN; b++) if (i & (1 << b)) r |= 1 << (MAX_CODE_LEN - 1 - b);
    st16(REV11 + (i << 1), r);
  }
  revReady = true;
}

/** The 64 bits from bit `q` (MSB-first) of the region starting at byte `p0` and ending at `end`, zeros past it. */
// @ts-ignore: decorator
@inline function peek(p0: i32, q: i32, end: i32): u64 {
  const p = p0 + (q >> 3);
  let w: u64;
  if (p + 8 <= end) w = bswap<u64>(ld64(p));
  else {
    w = 0;
    for (let k = 0; k < 8; k++) w = (w << 8) | (p + k < end ? <u64>ld8(p + k) : 0);
  }
  return w << <u64>(q & 7);
}

/**
 * Old table format, gamma-coded runs; returns the symbol count. Each code (≤ 21 bits) is read
 * from a fresh 64-bit window at the bit count `q` reached (zeros past the region); the shared
 * reader then continues at the first unused bit.
 */
function readOldRuns(br: BitReader, end: i32): i32 {
  const forced = br.bits(2);
  // A length code may not have more leading zeros than this (keeps reads within 24 bits).
  const maxZeros = 20 >> forced;
  let skipGap = br.bit() == 1;
  const p0 = br.bytePos();
  let q = br.bitOffset();
  let avg4 = 32;
  let sym = 0;
  let count = 0;
  for (;;) {
    if (!skipGap) {
      // A gamma code: lz zeros then lz + 2 more bits (its value counts the 1 that ends the zeros).
      const w = peek(p0, q, end);
      const lz = <i32>clz<u64>(w);
      if (lz >= 8) fail();
      sym += <i32>(w >>> <u64>(62 - 2 * lz)) - 1;
      q += 2 * lz + 2;
      if (sym >= 256) break;
    }
    skipGap = false;
    const g = peek(p0, q, end);
    const lz = <i32>clz<u64>(g);
    if (lz >= 8) fail();
    let run = <i32>(g >>> <u64>(62 - 2 * lz)) - 1;
    q += 2 * lz + 2;
    if (sym + run > 256) fail();
    for (; run > 0; run--) {
      const w = peek(p0, q, end);
      const z = <i32>clz<u64>(w);
      if (z > maxZeros) fail();
      const k = z + forced + 1;
      const v = <i32>(w >>> <u64>(64 - k)) + (z - 1) * (1 << forced);
      q += k;
      const len = unzigzag(v) + ((avg4 + 2) >> 2);
      if (len < 1 || len > MAX_CODE_LEN) fail();
      avg4 = len + ((3 * avg4 + 2) >> 2);
      st8(SYMS + count, sym++);
      st8(LENS + count, len);
      count++;
    }
    if (sym == 256) break;
  }
  if (sym != 256 || count < 2) fail();
  br.seek(p0 + (q >> 3), q & 7);
  return count;
}

/** Old table format, sparse list; returns the symbol count. */
function readOldSparse(br: BitReader): i32 {
  const count = br.bits(8);
  if (count == 0) fail();
  if (count == 1) {
    st8(SYMS, br.bits(8));
    st8(LENS, 0);
    return 1;
  }
  const lenBits = br.bits(3);
  if (lenBits > 4) fail();
  for (let i = 0; i < count; i++) {
    st8(SYMS + i, br.bits(8));
    const len = br.bitsZ(lenBits) + 1;
    if (len > MAX_CODE_LEN) fail();
    st8(LENS + i, len);
  }
  return count;
}

/** New table format; returns the symbol count. */
function readNew(br: BitReader, end: i32): i32 {
  const forced = br.bits(2);
  const count = br.bits(8) + 1;
  const fields = readRangeFieldCount(br, count);
  readRiceValues(br, end, count + fields, count, forced);
  let sum = 0x1e;
  for (let i = 0; i < count; i++) {
    const d = unzigzag(rice(i));
    const len = d + (sum >> 2) + 1;
    if (len < 1 || len > MAX_CODE_LEN) fail();
    st8(LENS + i, len);
    sum += d;
  }
  const ranges = readSymbolRanges(br, count, fields, count);
  let k = 0;
  for (let r = 0; r < ranges; r++) {
    let s = load<i32>(<usize>(RANGE_START + (r << 2)));
    for (let j = load<i32>(<usize>(RANGE_COUNT + (r << 2))); j > 0; j--) st8(SYMS + k++, s++);
  }
  return count;
}

/** Copy the first `size` entries of both tables behind themselves (16 at a time: calls to memory.copy cost more here). */
function doubleTables(size: i32): void {
  if (size >= 16) {
    for (let i = 0; i < size; i += 16) {
      copy16(LUT_SYM + size + i, LUT_SYM + i);
      copy16(LUT_LEN + size + i, LUT_LEN + i);
    }
  } else {
    for (let i = 0; i < size; i++) {
      st8(LUT_SYM + size + i, ld8(LUT_SYM + i));
      st8(LUT_LEN + size + i, ld8(LUT_LEN + i));
    }
  }
}

/** Fill LUT (built for length 1 and doubled per length); the lengths must fill the code space. */
function buildLut(count: i32, full: bool): i32 {
  if (!revReady) fillRev();
  memory.fill(<usize>LEN_COUNT, 0, 16 * 4);
  let space = 0;
  let maxLen = 0;
  for (let i = 0; i < count; i++) {
    const len = ld8(LENS + i);
    const a = LEN_COUNT + (len << 2);
    store<i32>(<usize>a, load<i32>(<usize>a) + 1);
    space += 1 << (MAX_CODE_LEN - len);
    if (len > maxLen) maxLen = len;
  }
  if (space != 1 << MAX_CODE_LEN) fail();
  store<i32>(<usize>(LEN_START + 4), 0);
  for (let len = 1; len <= MAX_CODE_LEN; len++) {
    store<i32>(<usize>(LEN_START + ((len + 1) << 2)), load<i32>(<usize>(LEN_START + (len << 2))) + load<i32>(<usize>(LEN_COUNT + (len << 2))));
  }
  for (let i = 0; i < count; i++) {
    const a = LEN_START + (ld8(LENS + i) << 2);
    const at = load<i32>(<usize>a);
    st8(SORTED + at, ld8(SYMS + i));
    store<i32>(<usize>a, at + 1);
  }
  let code = 0;
  let k = 0;
  let size = 1;
  for (let len = 1; len <= maxLen; len++) {
    doubleTables(size);
    size <<= 1;
    const step = 1 << (MAX_CODE_LEN - len);
    for (let j = load<i32>(<usize>(LEN_COUNT + (len << 2))); j > 0; j--) {
      const slot = ld16(REV11 + (code << 1));
      st8(LUT_SYM + slot, ld8(SORTED + k++));
      st8(LUT_LEN + slot, len);
      code += step;
    }
  }
  if (!full) return size - 1;
  // Replicate up to the full 11 bits, so the stream loop indexes with a constant mask.
  for (; size < 1 << MAX_CODE_LEN; size <<= 1) doubleTables(size);
  return size - 1;
}

/** Decode a Huffman array (`type` 2 or 4) from [s, e) into [o, o + n); the payload must be used up. */
export function decodeHuffman(s: i32, e: i32, o: i32, n: i32, type: i32): void {
  const br = TABLE.forward(s, e);
  let count: i32;
  if (br.bit() == 0) count = br.bit() == 1 ? readOldRuns(br, e) : readOldSparse(br);
  else if (br.bit() == 0) count = readNew(br, e);
  else {
    fail();
    return;
  }
  let p = br.forwardEnd();
  if (p > e) fail();
  if (count == 1) {
    if (p != e) fail();
    fillBytes(o, ld8(SYMS), n);
    return;
  }
  // Arrays of at least 1,024 bytes get the full table (see decodeStreamsFull).
  const full = n >= 1024;
  const mask = <u64>buildLut(count, full);
  if (type == 2) {
    if (e - p < 3) fail();
    const mid = p + 2 + ld16(p);
    if (mid > e) fail();
    if (full) decodeStreamsFull(p + 2, mid, e, o, o + n);
    else decodeStreamsMasked(p + 2, mid, e, o, o + n, mask);
    return;
  }
  if (e - p < 6) fail();
  const half = (n + 1) >> 1;
  const split = ld16(p) | (ld8(p + 2) << 16);
  p += 3;
  if (split > e - p) fail();
  const second = p + split;
  const leftSplit = ld16(p);
  p += 2;
  if (second - p < leftSplit + 2 || e - second < 3) fail();
  const rightSplit = ld16(second);
  if (e - (second + 2) < rightSplit + 2) fail();
  if (full) {
    decodeStreamsFull(p, p + leftSplit, second, o, o + half);
    decodeStreamsFull(second + 2, second + 2 + rightSplit, e, o + half, o + n);
  } else {
    decodeStreamsMasked(p, p + leftSplit, second, o, o + half, mask);
    decodeStreamsMasked(second + 2, second + 2 + rightSplit, e, o + half, o + n, mask);
  }
}

/** The symbol of table slot `i`. */
// @ts-ignore: decorator
@inline function symAt(i: u64): i32 {
  return <i32>load<u8>(<usize>(LUT_SYM + <i32>i));
}

/** The code length of table slot `i`. */
// @ts-ignore: decorator
@inline function lenAt(i: u64): u64 {
  return <u64>load<u8>(<usize>(LUT_LEN + <i32>i));
}

/** Where the stream loops may load eight bytes at once: the input buffer with its slack (set per stream). */
let LOAD_LO = 0;
let LOAD_HI = 0;

export function setLoadRange(lo: i32, hi: i32): void {
  LOAD_LO = lo;
  LOAD_HI = hi;
}

/**
 * The three-stream loop over [a0, e0) with stream C starting at m0, output [o, oEnd). Fast
 * path: five symbols per stream per round from 64-bit buffers refilled with one 8-byte load
 * (5 × 11 bits ≤ the 56 a refill guarantees), then one partial round for the last < 15 bytes.
 * Loads only have to stay inside the input buffer, not inside the stream's part: a code depends
 * only on the bits it uses, and a stream that used bits beyond its part ends past its boundary,
 * which the end checks reject whatever those bits were. Only near the buffer's ends does the
 * careful path (one symbol per step, loads guarded per part) take over.
 */
// @ts-ignore: decorator
@inline function streams(a0: i32, m0: i32, e0: i32, o: i32, oEnd: i32, mask: u64): void {
  let pA = a0;
  let pB = e0;
  let pC = m0;
  let cA: u64 = 0;
  let cB: u64 = 0;
  let cC: u64 = 0;
  let bA: u64 = 0;
  let bB: u64 = 0;
  let bC: u64 = 0;
  let x: u64 = 0;
  const lo = LOAD_LO + 8;
  const hi = LOAD_HI - 8;
  for (;;) {
    // Rounds of up to 15 symbols (the last one possibly partial) whose loads stay inside the
    // buffer: a round moves a stream by at most 7 bytes.
    if (pA > hi || pC > hi || pB < lo || o >= oEnd) break;
    let rounds = (oEnd - o + 14) / 15;
    rounds = min(rounds, min((hi - pA) / 7, (hi - pC) / 7) + 1);
    rounds = min(rounds, (pB - lo) / 7 + 1);
    if (rounds <= 0) break;
    for (; rounds > 0; rounds--) {
      bA |= ld64(pA) << cA;
      pA += <i32>((63 - cA) >> 3);
      cA |= 56;
      bB |= bswap<u64>(ld64(pB - 8)) << cB;
      pB -= <i32>((63 - cB) >> 3);
      cB |= 56;
      bC |= ld64(pC) << cC;
      pC += <i32>((63 - cC) >> 3);
      cC |= 56;
      if (oEnd - o >= 15) {
        // Five symbols per stream, written out: each step takes a code and drops its bits.
        x = bA & mask; st8(o, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
        x = bB & mask; st8(o + 1, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
        x = bC & mask; st8(o + 2, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
        x = bA & mask; st8(o + 3, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
        x = bB & mask; st8(o + 4, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
        x = bC & mask; st8(o + 5, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
        x = bA & mask; st8(o + 6, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
        x = bB & mask; st8(o + 7, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
        x = bC & mask; st8(o + 8, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
        x = bA & mask; st8(o + 9, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
        x = bB & mask; st8(o + 10, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
        x = bC & mask; st8(o + 11, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
        x = bA & mask; st8(o + 12, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
        x = bB & mask; st8(o + 13, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
        x = bC & mask; st8(o + 14, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
        o += 15;
      } else {
        // The last < 15 symbols: A, B, C in turn up to the end.
        for (;;) {
          x = bA & mask; st8(o++, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
          if (o >= oEnd) break;
          x = bB & mask; st8(o++, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
          if (o >= oEnd) break;
          x = bC & mask; st8(o++, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
          if (o >= oEnd) break;
        }
      }
    }
  }
  // Give back whole bytes loaded but not used; keep only the partial byte's bits.
  pA -= <i32>(cA >> 3);
  cA &= 7;
  bA &= (<u64>1 << cA) - 1;
  pB += <i32>(cB >> 3);
  cB &= 7;
  bB &= (<u64>1 << cB) - 1;
  pC -= <i32>(cC >> 3);
  cC &= 7;
  bC &= (<u64>1 << cC) - 1;
  if (pA > m0 || pC > pB) fail();
  finishStreams(pA, pB, pC, <i32>cA, <i32>cB, <i32>cC, <u32>bA, <u32>bB, <u32>bC, o, m0, e0, oEnd, mask);
}

/** Large arrays: the table filled to all 11 bits, so the loop masks with a constant. */
function decodeStreamsFull(a0: i32, m0: i32, e0: i32, o: i32, oEnd: i32): void {
  streams(a0, m0, e0, o, oEnd, 0x7ff);
}

/** Small arrays: the table only as large as the longest code needs (filling 2048 entries would cost more than the symbols). */
function decodeStreamsMasked(a0: i32, m0: i32, e0: i32, o: i32, oEnd: i32, mask: u64): void {
  streams(a0, m0, e0, o, oEnd, mask);
}

/** Careful-path stream states: position, bit count, bits (i32 each) for A, B and C. */
const CAREFUL = <i32>memory.data(3 * 12, 16);

/**
 * One symbol of the careful path for the stream whose state is at `st`: loads are guarded by
 * the stream's own part [lo, hi) (zeros outside), `down` for stream B.
 */
// @ts-ignore: decorator
@inline function carefulStep(st: i32, lo: i32, hi: i32, down: bool, o: i32, mask: i32): void {
  let p = ld32(st);
  let c = ld32(st + 4);
  let b = <u32>ld32(st + 8);
  const q0 = down ? p - 1 : p;
  const q1 = down ? p - 2 : p + 1;
  b |= <u32>((q0 >= lo && q0 < hi ? ld8(q0) : 0) | ((q1 >= lo && q1 < hi ? ld8(q1) : 0) << 8)) << c;
  const x = <i32>b & mask;
  const len = ld8(LUT_LEN + x);
  c -= len;
  b >>>= len;
  st8(o, ld8(LUT_SYM + x));
  p += down ? -((7 - c) >> 3) : (7 - c) >> 3;
  c &= 7;
  b &= (1 << c) - 1;
  st32(st, p);
  st32(st + 4, c);
  st32(st + 8, <i32>b);
}

/** The careful path: one symbol per stream step, each load guarded by the stream's own part. */
function finishStreams(pA: i32, pB: i32, pC: i32, cA: i32, cB: i32, cC: i32, a: u32, b: u32, c: u32, o: i32, m0: i32, e0: i32, oEnd: i32, mask: u64): void {
  const A = CAREFUL;
  const B = CAREFUL + 12;
  const C = CAREFUL + 24;
  st32(A, pA);
  st32(A + 4, cA);
  st32(A + 8, <i32>a);
  st32(B, pB);
  st32(B + 4, cB);
  st32(B + 8, <i32>b);
  st32(C, pC);
  st32(C + 4, cC);
  st32(C + 8, <i32>c);
  const m = <i32>mask;
  while (o < oEnd) {
    carefulStep(A, 0, m0, false, o++, m);
    if (o < oEnd) {
      carefulStep(B, m0, 0x7fffffff, true, o++, m);
      if (o < oEnd) carefulStep(C, 0, e0, false, o++, m);
    }
    if (ld32(A) > m0 || ld32(C) > ld32(B)) fail();
  }
  if (ld32(A) != m0 || ld32(C) != ld32(B)) fail();
}
