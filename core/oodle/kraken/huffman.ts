/**
 * Huffman byte arrays: container types 2 (three bit streams) and 4 (two halves of three
 * streams each). Layout facts relied on:
 * - the code-length table comes first, read MSB-first; a leading `0` bit selects the "old"
 *   table format (gamma-coded runs of present symbols with lengths delta-coded against an
 *   adaptive average, or a sparse list), `10` the "new" format (Golomb-Rice coded length
 *   deltas plus symbol ranges); `11` is invalid;
 * - codes are canonical: shorter codes first, equal lengths in the order the table lists
 *   the symbols; lengths are 1..11 and must fill the code space exactly;
 * - symbol bits are read LSB-first; stream A runs forward from the payload start, stream B
 *   backward from the payload end (bytes taken in descending order), stream C forward
 *   from a midpoint given by a little-endian u16. Output byte i comes from stream A, B, C
 *   for i mod 3 = 0, 1, 2; at the end A must stop exactly at the midpoint and C must meet B.
 */
import { BitReader, inputView } from './bitReader';
import { corrupt, truncated } from './fail';

const MAX_CODE_LEN = 11;
const LUT_BITS = 11;

/** Decoding table indexed by the next 11 stream bits: (code length << 8) | symbol. */
const lut = new Uint16Array(1 << LUT_BITS);
/** Symbols and their code lengths in table order. */
const tableSyms = new Uint8Array(256);
const tableLens = new Uint8Array(256);
/** Golomb-Rice values of the new table format (up to 256 lengths + 255 range fields). */
const riceVals = new Int32Array(512);
const rangeStart = new Int32Array(130);
const rangeCount = new Int32Array(130);
const lenCounts = new Int32Array(MAX_CODE_LEN + 1);
const lenStarts = new Int32Array(MAX_CODE_LEN + 2);
const sortedSyms = new Uint8Array(256);

/** 11-bit bit reversal, to turn canonical (MSB-first) codes into LSB-first table slots. */
const REV11 = (() => {
  const t = new Uint16Array(1 << LUT_BITS);
  for (let i = 0; i < t.length; i++) {
    let r = 0;
    for (let b = 0; b < LUT_BITS; b++) if (i & (1 << b)) r |= 1 << (LUT_BITS - 1 - b);
    t[i] = r;
  }
  return t;
})();

const reader = new BitReader();

/** Zig-zag decode: 0, 1, 2, 3… → 0, -1, 1, -2… */
function unzigzag(v: number): number {
  return v & 1 ? -(v >>> 1) - 1 : v >>> 1;
}

/**
 * Truncated-binary count of symbol-range fields that follow the new-format lengths
 * (shared with the tANS table).
 */
export function readRangeFieldCount(br: BitReader, numSymbols: number): number {
  if (numSymbols === 256) return 0;
  const x = Math.min(257 - numSymbols, numSymbols) * 2;
  const y = 32 - Math.clz32(x - 1);
  br.ensure(y);
  const v = br.acc >>> (32 - y);
  const z = (1 << y) - x;
  if (v >>> 1 >= z) {
    br.skip(y);
    return v - z;
  }
  br.skip(y - 1);
  return v >>> 1;
}

/**
 * Read `count` unary values (zeros ended by a one, MSB-first) starting at the reader's
 * current bit, then, if `extraBits` > 0, append that many plain bits to the first
 * `withExtra` of them. Leaves the reader just after the last bit used.
 */
export function readRiceValues(
  br: BitReader,
  src: Uint8Array,
  end: number,
  out: Int32Array,
  count: number,
  withExtra: number,
  extraBits: number,
  at: number,
): void {
  // Local MSB-first window: `n` valid bits at the top of `acc`, zeros below them.
  let p = br.bytePos();
  let acc = 0;
  let n = 0;
  const skip = br.bitOffset();
  if (skip !== 0) {
    if (p >= end) truncated(at, 'table.rice', 1, 0);
    acc = (src[p++] << (24 + skip)) | 0;
    n = 8 - skip;
  }
  for (let i = 0; i < count; i++) {
    let zeros = 0;
    for (;;) {
      while (n <= 24 && p < end) {
        acc |= src[p++] << (24 - n);
        n += 8;
      }
      if (n === 0) truncated(at, 'table.rice', 1, 0);
      const z = Math.clz32(acc);
      if (z < n) {
        // z zeros, then the terminating one.
        zeros += z;
        acc = z === 31 ? 0 : acc << (z + 1);
        n -= z + 1;
        break;
      }
      zeros += n;
      acc = 0;
      n = 0;
    }
    out[i] = zeros;
  }
  if (extraBits > 0) {
    for (let i = 0; i < withExtra; i++) {
      while (n <= 24 && p < end) {
        acc |= src[p++] << (24 - n);
        n += 8;
      }
      if (n < extraBits) truncated(at, 'table.rice', 1, 0);
      out[i] = out[i] * (1 << extraBits) + (acc >>> (32 - extraBits));
      acc <<= extraBits;
      n -= extraBits;
    }
  }
  // Back to the shared reader at the first unused bit.
  br.seek(p - ((n + 7) >> 3), -n & 7);
}

/**
 * Split the symbol alphabet into ranges of present symbols from the range fields
 * `riceVals[first .. first + fields)`; returns the number of ranges.
 */
export function readSymbolRanges(
  br: BitReader,
  vals: Int32Array,
  first: number,
  fields: number,
  numSymbols: number,
  starts: Int32Array,
  counts: Int32Array,
  at: number,
): number {
  let k = first;
  let sym = 0;
  if (fields & 1) {
    const v = vals[k++];
    if (v >= 8) corrupt(at, 'table.ranges', 'symbol range gap too long');
    sym = br.bits(v + 1) + (1 << (v + 1)) - 1;
  }
  const pairs = fields >> 1;
  let used = 0;
  for (let i = 0; i < pairs; i++) {
    const vn = vals[k];
    const vs = vals[k + 1];
    k += 2;
    if (vn >= 9 || vs >= 8) corrupt(at, 'table.ranges', 'symbol range field too long');
    const num = br.bitsZ(vn) + (1 << vn);
    const gap = br.bits(vs + 1) + (1 << (vs + 1)) - 1;
    starts[i] = sym;
    counts[i] = num;
    used += num;
    sym += num + gap;
  }
  if (sym >= 256 || used >= numSymbols || sym + numSymbols - used > 256) {
    corrupt(at, 'table.ranges', 'symbol ranges do not fit the byte alphabet');
  }
  starts[pairs] = sym;
  counts[pairs] = numSymbols - used;
  return pairs + 1;
}

/** Old table format, gamma-coded runs. Returns the symbol count. */
function readOldRuns(br: BitReader, at: number): number {
  const forced = br.bits(2);
  // A length code may not have more leading zeros than this (keeps reads within 24 bits).
  const minWindow = 2 ** (31 - (20 >> forced));
  let avg4 = 32;
  let sym = 0;
  let count = 0;
  let skipGap = br.bit() === 1;
  for (;;) {
    if (!skipGap) {
      const lz = br.leadingZeros();
      if (lz >= 8) corrupt(at, 'huffman.table', 'bad gamma code in code-length table');
      sym += br.bits(2 * lz + 2) - 1;
      if (sym >= 256) break;
    }
    skipGap = false;
    const lz = br.leadingZeros();
    if (lz >= 8) corrupt(at, 'huffman.table', 'bad gamma code in code-length table');
    let run = br.bits(2 * lz + 2) - 1;
    if (sym + run > 256) corrupt(at, 'huffman.table', 'code-length run passes symbol 255');
    for (; run > 0; run--) {
      br.ensure(25);
      if (br.acc >>> 0 < minWindow) corrupt(at, 'huffman.table', 'code-length delta too long');
      const z = Math.clz32(br.acc);
      const v = br.bits(z + forced + 1) + (z - 1) * (1 << forced);
      const len = unzigzag(v) + ((avg4 + 2) >> 2);
      if (len < 1 || len > MAX_CODE_LEN) corrupt(at, 'huffman.table', 'code length outside 1..11', '1..11', `${len}`);
      avg4 = len + ((3 * avg4 + 2) >> 2);
      tableSyms[count] = sym++;
      tableLens[count] = len;
      count++;
    }
    if (sym === 256) break;
  }
  if (sym !== 256 || count < 2) corrupt(at, 'huffman.table', 'code-length table does not cover the alphabet');
  return count;
}

/** Old table format, sparse list. Returns the symbol count. */
function readOldSparse(br: BitReader, at: number): number {
  const count = br.bits(8);
  if (count === 0) corrupt(at, 'huffman.table', 'empty symbol list');
  if (count === 1) {
    tableSyms[0] = br.bits(8);
    tableLens[0] = 0;
    return 1;
  }
  const lenBits = br.bits(3);
  if (lenBits > 4) corrupt(at, 'huffman.table', 'code-length field wider than 4 bits');
  for (let i = 0; i < count; i++) {
    tableSyms[i] = br.bits(8);
    const len = br.bitsZ(lenBits) + 1;
    if (len > MAX_CODE_LEN) corrupt(at, 'huffman.table', 'code length outside 1..11', '1..11', `${len}`);
    tableLens[i] = len;
  }
  return count;
}

/** New table format. Returns the symbol count. */
function readNew(br: BitReader, src: Uint8Array, end: number, at: number): number {
  const forced = br.bits(2);
  const count = br.bits(8) + 1;
  const fields = readRangeFieldCount(br, count);
  readRiceValues(br, src, end, riceVals, count + fields, count, forced, at);
  let sum = 0x1e;
  for (let i = 0; i < count; i++) {
    const d = unzigzag(riceVals[i]);
    const len = d + (sum >> 2) + 1;
    if (len < 1 || len > MAX_CODE_LEN) corrupt(at, 'huffman.table', 'code length outside 1..11', '1..11', `${len}`);
    tableLens[i] = len;
    sum += d;
  }
  const ranges = readSymbolRanges(br, riceVals, count, fields, count, rangeStart, rangeCount, at);
  let k = 0;
  for (let r = 0; r < ranges; r++) {
    let s = rangeStart[r];
    for (let j = rangeCount[r]; j > 0; j--) tableSyms[k++] = s++;
  }
  return count;
}

/**
 * Fill `lut` from the table; the lengths must fill the 11-bit code space exactly. The
 * table only gets 2^maxLen entries (returned as a mask): it is built for length 1 and
 * doubled per length, which replicates the shorter codes' entries into the new half, so
 * each code is written once instead of 2^(11 - len) times.
 */
function buildLut(count: number, at: number): number {
  lenCounts.fill(0);
  let space = 0;
  let maxLen = 0;
  for (let i = 0; i < count; i++) {
    const len = tableLens[i];
    lenCounts[len]++;
    space += 1 << (MAX_CODE_LEN - len);
    if (len > maxLen) maxLen = len;
  }
  if (space !== 1 << MAX_CODE_LEN) corrupt(at, 'huffman.table', 'code lengths do not form a complete prefix code');
  lenStarts[1] = 0;
  for (let len = 1; len <= MAX_CODE_LEN; len++) lenStarts[len + 1] = lenStarts[len] + lenCounts[len];
  // Stable counting sort by length keeps table order within a length (canonical order).
  for (let i = 0; i < count; i++) sortedSyms[lenStarts[tableLens[i]]++] = tableSyms[i];
  let code = 0; // next canonical code, left-aligned to 11 bits
  let k = 0;
  let size = 1;
  for (let len = 1; len <= maxLen; len++) {
    // Grow the table from 2^(len-1) to 2^len entries: the new top bit does not matter for
    // any code seen so far.
    if (size < 64) for (let i = 0; i < size; i++) lut[size + i] = lut[i];
    else lut.copyWithin(size, 0, size);
    size <<= 1;
    const step = 1 << (MAX_CODE_LEN - len);
    for (let j = lenCounts[len]; j > 0; j--) {
      // Stream bits are LSB-first, so a code's first bit is the index's lowest bit.
      lut[REV11[code]] = (len << 8) | sortedSyms[k++];
      code += step;
    }
  }
  return size - 1;
}

/**
 * Decode a Huffman byte array (`type` 2 or 4) from `src[s, e)` into `out[o, o + n)`.
 * The whole payload must be used.
 */
export function decodeHuffman(src: Uint8Array, s: number, e: number, out: Uint8Array, o: number, n: number, type: number): void {
  const br = reader.forward(src, s, e);
  let count: number;
  if (br.bit() === 0) count = br.bit() === 1 ? readOldRuns(br, s) : readOldSparse(br, s);
  // eslint-disable-next-line no-dupe-else-if -- each bit() reads the next bit: not the same condition
  else if (br.bit() === 0) count = readNew(br, src, e, s);
  else corrupt(s, 'huffman.table', 'reserved code-length table format');
  let p = br.forwardEnd();
  if (p > e) truncated(s, 'huffman.table', p - e, 0);
  if (count === 1) {
    // A one-symbol alphabet carries no stream bits: the array is a run of that byte.
    if (p !== e) corrupt(p, 'huffman', 'data after a single-symbol table');
    out.fill(tableSyms[0], o, o + n);
    return;
  }
  const mask = buildLut(count, s);
  if (type === 2) {
    if (e - p < 3) truncated(p, 'huffman.split', 3, e - p);
    const mid = p + 2 + (src[p] | (src[p + 1] << 8));
    if (mid > e) corrupt(p, 'huffman.split', 'stream split beyond the payload');
    decodeStreams(src, p + 2, mid, e, out, o, o + n, mask);
    return;
  }
  // Type 4: a u24 split separates two three-stream halves, each with its own u16 split.
  if (e - p < 6) truncated(p, 'huffman.split', 6, e - p);
  const half = (n + 1) >> 1;
  const split = src[p] | (src[p + 1] << 8) | (src[p + 2] << 16);
  p += 3;
  if (split > e - p) corrupt(p, 'huffman.split', 'stream split beyond the payload');
  const second = p + split;
  const leftSplit = src[p] | (src[p + 1] << 8);
  p += 2;
  if (second - p < leftSplit + 2 || e - second < 3) corrupt(p, 'huffman.split', 'stream split beyond its half');
  const rightSplit = src[second] | (src[second + 1] << 8);
  if (e - (second + 2) < rightSplit + 2) corrupt(second, 'huffman.split', 'stream split beyond its half');
  decodeStreams(src, p, p + leftSplit, second, out, o, o + half, mask);
  decodeStreams(src, second + 2, second + 2 + rightSplit, e, out, o + half, o + n, mask);
}

/**
 * The three-stream symbol loop over `src[a0, e0)` with stream C starting at `m0`.
 * Each stream keeps `bits` (LSB-first, `cnt` valid bits) and a byte pointer; `mask`
 * selects the table index bits (2^maxLen − 1).
 */
function decodeStreams(src: Uint8Array, a0: number, m0: number, e0: number, out: Uint8Array, o: number, oEnd: number, mask: number): void {
  const table = lut;
  let pA = a0;
  let bA = 0;
  let cA = 0;
  let pB = e0; // one past the next byte B loads (B moves down)
  let bB = 0;
  let cB = 0;
  let pC = m0;
  let bC = 0;
  let cC = 0;
  let e = 0;
  let len = 0;

  // Fast path: six symbols per round, each stream refilled once with four whole bytes.
  // It only runs while all loads stay inside the payload; which bytes a stream loads
  // beyond its own part does not matter, because a symbol only depends on the bits its
  // code uses and the final position checks reject any stream that used foreign bits.
  const fastEnd = oEnd - 5;
  if (o < fastEnd) {
    const view = inputView.of(src);
    for (;;) {
      // Rounds that certainly keep every four-byte load inside the payload: a round moves
      // each stream by at most three bytes, so the checks are done once per batch.
      let rounds = ((fastEnd - o - 1) / 6) | 0;
      let r = ((e0 - 4 - pA) / 3) | 0;
      if (r < rounds) rounds = r;
      r = ((e0 - 4 - pC) / 3) | 0;
      if (r < rounds) rounds = r;
      r = ((pB - 4 - a0) / 3) | 0;
      if (r < rounds) rounds = r;
      if (pA + 4 > e0 || pC + 4 > e0 || pB - 4 < a0 || rounds < 0) break;
      for (rounds++; rounds > 0; rounds--) {
        bA |= view.getInt32(pA, true) << cA;
        pA += (31 - cA) >> 3;
        cA |= 24;
        bB |= view.getInt32(pB - 4, false) << cB;
        pB -= (31 - cB) >> 3;
        cB |= 24;
        bC |= view.getInt32(pC, true) << cC;
        pC += (31 - cC) >> 3;
        cC |= 24;

        e = table[bA & mask];
        len = e >>> 8;
        bA >>>= len;
        cA -= len;
        out[o] = e;
        e = table[bB & mask];
        len = e >>> 8;
        bB >>>= len;
        cB -= len;
        out[o + 1] = e;
        e = table[bC & mask];
        len = e >>> 8;
        bC >>>= len;
        cC -= len;
        out[o + 2] = e;
        e = table[bA & mask];
        len = e >>> 8;
        bA >>>= len;
        cA -= len;
        out[o + 3] = e;
        e = table[bB & mask];
        len = e >>> 8;
        bB >>>= len;
        cB -= len;
        out[o + 4] = e;
        e = table[bC & mask];
        len = e >>> 8;
        bC >>>= len;
        cC -= len;
        out[o + 5] = e;
        o += 6;
      }
      if (o >= fastEnd) break;
    }
    // Give back whole bytes loaded but not used; keep only the partial byte's bits.
    pA -= cA >> 3;
    cA &= 7;
    bA &= (1 << cA) - 1;
    pB += cB >> 3;
    cB &= 7;
    bB &= (1 << cB) - 1;
    pC -= cC >> 3;
    cC &= 7;
    bC &= (1 << cC) - 1;
    if (pA > m0 || pC > pB) corrupt(a0, 'huffman.streams', 'Huffman streams overrun each other');
  }

  // Careful path: one symbol per stream step, loads guarded by the stream's own part.
  while (o < oEnd) {
    bA |= ((pA < m0 ? src[pA] : 0) | ((pA + 1 < m0 ? src[pA + 1] : 0) << 8)) << cA;
    e = table[bA & mask];
    len = e >>> 8;
    cA -= len;
    bA >>>= len;
    out[o++] = e;
    pA += (7 - cA) >> 3;
    cA &= 7;
    bA &= (1 << cA) - 1;
    if (o < oEnd) {
      bB |= ((pB - 1 >= m0 ? src[pB - 1] : 0) | ((pB - 2 >= m0 ? src[pB - 2] : 0) << 8)) << cB;
      e = table[bB & mask];
      len = e >>> 8;
      cB -= len;
      bB >>>= len;
      out[o++] = e;
      pB -= (7 - cB) >> 3;
      cB &= 7;
      bB &= (1 << cB) - 1;
      if (o < oEnd) {
        bC |= ((pC < e0 ? src[pC] : 0) | ((pC + 1 < e0 ? src[pC + 1] : 0) << 8)) << cC;
        e = table[bC & mask];
        len = e >>> 8;
        cC -= len;
        bC >>>= len;
        out[o++] = e;
        pC += (7 - cC) >> 3;
        cC &= 7;
        bC &= (1 << cC) - 1;
      }
    }
    if (pA > m0 || pC > pB) corrupt(a0, 'huffman.streams', 'Huffman streams overrun each other');
  }
  if (pA !== m0 || pC !== pB) {
    corrupt(a0, 'huffman.streams', 'Huffman streams do not end where the split says', `stream A end ${m0}, C meets B`, `A ${pA}, C ${pC}, B ${pB}`);
  }
}
