/**
 * Huffman byte arrays (container types 2 and 4), the rules of core/oodle/kraken/huffman.ts:
 * an "old" (gamma runs or sparse list) or "new" (Golomb-Rice) code-length table, canonical
 * codes of length 1..11 that fill the code space exactly, and three LSB-first streams
 * (A forward, B backward from the end, C forward from a u16 midpoint) taking output bytes
 * in turn. The fast path reads each stream 64 bits at a time.
 */
import { BitReader, TABLE } from './bits';
import { fail, fillBytes, ld16, ld32, ld64, ld8, st16, st32, st64, st8 } from './memory';
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

/** Old table format, gamma-coded runs; returns the symbol count. */
function readOldRuns(br: BitReader): i32 {
  const forced = br.bits(2);
  const minWindow: u32 = <u32>1 << (31 - (20 >> forced));
  let avg4 = 32;
  let sym = 0;
  let count = 0;
  let skipGap = br.bit() == 1;
  for (;;) {
    if (!skipGap) {
      const lz = br.leadingZeros();
      if (lz >= 8) fail();
      sym += br.bits(2 * lz + 2) - 1;
      if (sym >= 256) break;
    }
    skipGap = false;
    const lz = br.leadingZeros();
    if (lz >= 8) fail();
    let run = br.bits(2 * lz + 2) - 1;
    if (sym + run > 256) fail();
    for (; run > 0; run--) {
      br.ensure(25);
      if (br.acc < minWindow) fail();
      const z = <i32>clz<u32>(br.acc);
      const v = br.bits(z + forced + 1) + (z - 1) * (1 << forced);
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

/** Fill LUT (built for length 1 and doubled per length); the lengths must fill the code space. */
function buildLut(count: i32): void {
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
    memory.copy(<usize>(LUT_SYM + size), <usize>LUT_SYM, <usize>size);
    memory.copy(<usize>(LUT_LEN + size), <usize>LUT_LEN, <usize>size);
    size <<= 1;
    const step = 1 << (MAX_CODE_LEN - len);
    for (let j = load<i32>(<usize>(LEN_COUNT + (len << 2))); j > 0; j--) {
      const slot = ld16(REV11 + (code << 1));
      st8(LUT_SYM + slot, ld8(SORTED + k++));
      st8(LUT_LEN + slot, len);
      code += step;
    }
  }
  // Replicate up to the full 11 bits, so the stream loops index with a constant mask.
  for (; size < 1 << MAX_CODE_LEN; size <<= 1) {
    memory.copy(<usize>(LUT_SYM + size), <usize>LUT_SYM, <usize>size);
    memory.copy(<usize>(LUT_LEN + size), <usize>LUT_LEN, <usize>size);
  }
}

/** Decode a Huffman array (`type` 2 or 4) from [s, e) into [o, o + n); the payload must be used up. */
export function decodeHuffman(s: i32, e: i32, o: i32, n: i32, type: i32): void {
  const br = TABLE.forward(s, e);
  let count: i32;
  if (br.bit() == 0) count = br.bit() == 1 ? readOldRuns(br) : readOldSparse(br);
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
  buildLut(count);
  if (type == 2) {
    if (e - p < 3) fail();
    const mid = p + 2 + ld16(p);
    if (mid > e) fail();
    startPart(PART0, p + 2, mid, e, o);
    decodeStreams(PART0, p + 2, mid, e, o + n);
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
  const m1 = second + 2 + rightSplit;
  startPart(PART0, p, p + leftSplit, second, o);
  startPart(PART1, second + 2, m1, e, o + half);
  decodeStreams(PART0, p, p + leftSplit, second, o + half);
  decodeStreams(PART1, second + 2, m1, e, o + n);
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

/**
 * Stream state of one three-stream part: [0] A position, [4] B position (one past its next
 * byte), [8] C position, [12] output position, [16..32] the bit counts, [40..56] the 64-bit
 * buffers (bits above the count are zero).
 */
const PART0 = <i32>memory.data(64, 16);
const PART1 = <i32>memory.data(64, 16);

function startPart(st: i32, a0: i32, m0: i32, e0: i32, o: i32): void {
  st32(st, a0);
  st32(st + 4, e0);
  st32(st + 8, m0);
  st32(st + 12, o);
  memory.fill(<usize>(st + 16), 0, 48);
}

/** Rounds of 5 symbols per stream (15 bytes) certainly inside the part's payload and output. */
// @ts-ignore: decorator
@inline function safeRounds(pA: i32, pB: i32, pC: i32, a0: i32, e0: i32, o: i32, oEnd: i32): i32 {
  if (pA + 8 > e0 || pC + 8 > e0 || pB - 8 < a0 || oEnd - o < 15) return 0;
  // A round moves each stream by at most 7 bytes.
  let rounds = (oEnd - o) / 15;
  let r = (e0 - 8 - pA) / 7 + 1;
  if (r < rounds) rounds = r;
  r = (e0 - 8 - pC) / 7 + 1;
  if (r < rounds) rounds = r;
  r = (pB - 8 - a0) / 7 + 1;
  if (r < rounds) rounds = r;
  return rounds;
}

/**
 * The three-stream loop of the part whose state is at `st`, over [a0, e0) with stream C
 * starting at m0, up to output end oEnd. Fast path: five symbols per stream per round from
 * 64-bit buffers refilled with one 8-byte load (5 × 11 bits ≤ the 56 a refill guarantees),
 * while every load stays inside the payload; which bytes a stream loads beyond its own part
 * does not matter: a code only depends on the bits it uses, and the end checks reject a
 * stream that used foreign bits. Careful path: one symbol per step, loads guarded per part.
 */
function decodeStreams(st: i32, a0: i32, m0: i32, e0: i32, oEnd: i32): void {
  let pA = ld32(st);
  let pB = ld32(st + 4);
  let pC = ld32(st + 8);
  let o = ld32(st + 12);
  let cA = ld64(st + 16);
  let cB = ld64(st + 24);
  let cC = ld64(st + 32);
  let bA = ld64(st + 40);
  let bB = ld64(st + 48);
  let bC = ld64(st + 56);
  let x: u64 = 0;
  for (;;) {
    let rounds = safeRounds(pA, pB, pC, a0, e0, o, oEnd);
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
      // Five symbols per stream, written out: each step takes a code and drops its bits.
      x = bA & 0x7ff; st8(o, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
      x = bB & 0x7ff; st8(o + 1, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
      x = bC & 0x7ff; st8(o + 2, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
      x = bA & 0x7ff; st8(o + 3, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
      x = bB & 0x7ff; st8(o + 4, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
      x = bC & 0x7ff; st8(o + 5, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
      x = bA & 0x7ff; st8(o + 6, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
      x = bB & 0x7ff; st8(o + 7, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
      x = bC & 0x7ff; st8(o + 8, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
      x = bA & 0x7ff; st8(o + 9, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
      x = bB & 0x7ff; st8(o + 10, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
      x = bC & 0x7ff; st8(o + 11, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
      x = bA & 0x7ff; st8(o + 12, symAt(x)); x = lenAt(x); bA >>= x; cA -= x;
      x = bB & 0x7ff; st8(o + 13, symAt(x)); x = lenAt(x); bB >>= x; cB -= x;
      x = bC & 0x7ff; st8(o + 14, symAt(x)); x = lenAt(x); bC >>= x; cC -= x;
      o += 15;
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
  }
  if (pA > m0 || pC > pB) fail();
  finishStreams(pA, pB, pC, <i32>cA, <i32>cB, <i32>cC, <u32>bA, <u32>bB, <u32>bC, o, m0, e0, oEnd);
}

/** The careful path: one symbol per stream step, each load guarded by the stream's own part. */
function finishStreams(pA: i32, pB: i32, pC: i32, cA: i32, cB: i32, cC: i32, a: u32, b: u32, c: u32, o: i32, m0: i32, e0: i32, oEnd: i32): void {
  let x: i32 = 0;
  let len: i32 = 0;
  while (o < oEnd) {
    a |= <u32>((pA < m0 ? ld8(pA) : 0) | ((pA + 1 < m0 ? ld8(pA + 1) : 0) << 8)) << cA;
    x = <i32>a & 0x7ff;
    len = <i32>load<u8>(<usize>(LUT_LEN + x));
    cA -= len;
    a >>>= len;
    st8(o++, <i32>load<u8>(<usize>(LUT_SYM + x)));
    pA += (7 - cA) >> 3;
    cA &= 7;
    a &= (1 << cA) - 1;
    if (o < oEnd) {
      b |= <u32>((pB - 1 >= m0 ? ld8(pB - 1) : 0) | ((pB - 2 >= m0 ? ld8(pB - 2) : 0) << 8)) << cB;
      x = <i32>b & 0x7ff;
      len = <i32>load<u8>(<usize>(LUT_LEN + x));
      cB -= len;
      b >>>= len;
      st8(o++, <i32>load<u8>(<usize>(LUT_SYM + x)));
      pB -= (7 - cB) >> 3;
      cB &= 7;
      b &= (1 << cB) - 1;
      if (o < oEnd) {
        c |= <u32>((pC < e0 ? ld8(pC) : 0) | ((pC + 1 < e0 ? ld8(pC + 1) : 0) << 8)) << cC;
        x = <i32>c & 0x7ff;
        len = <i32>load<u8>(<usize>(LUT_LEN + x));
        cC -= len;
        c >>>= len;
        st8(o++, <i32>load<u8>(<usize>(LUT_SYM + x)));
        pC += (7 - cC) >> 3;
        cC &= 7;
        c &= (1 << cC) - 1;
      }
    }
    if (pA > m0 || pC > pB) fail();
  }
  if (pA != m0 || pC != pB) fail();
}
