/**
 * tANS byte arrays (container type 1), the rules of core/oodle/kraken/tans.ts: a table of
 * L = 2^(8..11) slots from Golomb-Rice or listed weights, slots dealt to four lanes with the
 * weight-1 symbols last, five states, one LSB-first stream read from both ends.
 */
import { BitReader, TABLE } from './bits';
import { fail, ld16, ld32, ld8, st16, st32, st8 } from './memory';
import { RANGE_COUNT, RANGE_START, readRangeFieldCount, readRiceValues, readSymbolRanges, rice, unzigzag } from './tables';

const SLOT_SYM = <i32>memory.data(2048, 16);
const SLOT_BITS = <i32>memory.data(2048, 16);
const SLOT_BASE = <i32>memory.data(2048 * 2, 16);
const SINGLES = <i32>memory.data(256, 16);
const MULTI_SYM = <i32>memory.data(256, 16);
const MULTI_WEIGHT = <i32>memory.data(256 * 4, 16);
const SEEN = <i32>memory.data(256, 16);
const LANES = <i32>memory.data(4 * 4, 16);
/** The five decoder states (i32). */
const STATES = <i32>memory.data(5 * 4, 16);
let singleCount = 0;
let multiCount = 0;

function addSymbol(sym: i32, weight: i32): void {
  if (weight == 1) st8(SINGLES + singleCount++, sym);
  else {
    st8(MULTI_SYM + multiCount, sym);
    store<i32>(<usize>(MULTI_WEIGHT + (multiCount << 2)), weight);
    multiCount++;
  }
}

function readRiceTable(br: BitReader, end: i32, L: i32): void {
  const q = br.bits(3);
  const num = br.bits(8) + 1;
  if (num < 2) fail();
  const fields = readRangeFieldCount(br, num);
  readRiceValues(br, end, num + fields, 0, 0);
  const ranges = readSymbolRanges(br, num, fields, num);
  let avg = 6;
  let total = 0;
  let ri = 0;
  for (let r = 0; r < ranges; r++) {
    let sym = load<i32>(<usize>(RANGE_START + (r << 2)));
    for (let j = load<i32>(<usize>(RANGE_COUNT + (r << 2))); j > 0; j--) {
      const extra = q + rice(ri++);
      if (extra > 15) fail();
      let v = br.bitsZ(extra) + (1 << extra) - (1 << q);
      const a4 = avg >> 2;
      let limit = 2 * a4;
      if (v <= limit) v = a4 + unzigzag(v);
      if (limit > v) limit = v;
      v += 1;
      avg += limit - a4;
      if (total + v > L) fail();
      addSymbol(sym++, v);
      total += v;
    }
  }
  if (total != L) fail();
}

function readListTable(br: BitReader, lBits: i32, L: i32): void {
  memory.fill(<usize>SEEN, 0, 256);
  const count = br.bits(3) + 1;
  const deltaBits = br.bits(32 - <i32>clz<u32>(lBits));
  if (deltaBits == 0 || deltaBits > lBits) fail();
  let weight = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const sym = br.bits(8);
    if (ld8(SEEN + sym)) fail();
    weight += br.bits(deltaBits);
    if (weight == 0) fail();
    st8(SEEN + sym, 1);
    addSymbol(sym, weight);
    total += weight;
  }
  const last = br.bits(8);
  if (ld8(SEEN + last)) fail();
  if (total >= L || L - total < weight || L - total <= 1) fail();
  addSymbol(last, L - total);
  // Listed in any order; the lane layout wants them ascending.
  for (let i = 1; i < singleCount; i++) {
    const s = ld8(SINGLES + i);
    let j = i;
    for (; j > 0 && ld8(SINGLES + j - 1) > s; j--) st8(SINGLES + j, ld8(SINGLES + j - 1));
    st8(SINGLES + j, s);
  }
  for (let i = 1; i < multiCount; i++) {
    const s = ld8(MULTI_SYM + i);
    const w = load<i32>(<usize>(MULTI_WEIGHT + (i << 2)));
    let j = i;
    for (; j > 0 && ld8(MULTI_SYM + j - 1) > s; j--) {
      st8(MULTI_SYM + j, ld8(MULTI_SYM + j - 1));
      store<i32>(<usize>(MULTI_WEIGHT + (j << 2)), load<i32>(<usize>(MULTI_WEIGHT + ((j - 1) << 2))));
    }
    st8(MULTI_SYM + j, s);
    store<i32>(<usize>(MULTI_WEIGHT + (j << 2)), w);
  }
}

function buildSlots(lBits: i32): void {
  const L = 1 << lBits;
  const shared = L - singleCount;
  const quarter = shared >> 2;
  const rem = shared & 3;
  const l1 = quarter + (rem > 0 ? 1 : 0);
  const l2 = l1 + quarter + (rem > 1 ? 1 : 0);
  store<i32>(<usize>LANES, 0);
  store<i32>(<usize>(LANES + 4), l1);
  store<i32>(<usize>(LANES + 8), l2);
  store<i32>(<usize>(LANES + 12), l2 + quarter + (rem > 2 ? 1 : 0));
  for (let i = 0; i < singleCount; i++) {
    st8(SLOT_SYM + shared + i, ld8(SINGLES + i));
    st8(SLOT_BITS + shared + i, lBits);
    st16(SLOT_BASE + ((shared + i) << 1), 0);
  }
  let dealt = 0;
  for (let i = 0; i < multiCount; i++) {
    const w = load<i32>(<usize>(MULTI_WEIGHT + (i << 2)));
    const sym = ld8(MULTI_SYM + i);
    let ww = w;
    for (let j = 0; j < 4; j++) {
      const lane = LANES + (j << 2);
      for (let c = (w + ((dealt - j - 1) & 3)) >> 2; c > 0; c--) {
        const idx = load<i32>(<usize>lane);
        store<i32>(<usize>lane, idx + 1);
        const nb = lBits - (31 - <i32>clz<u32>(ww));
        st8(SLOT_SYM + idx, sym);
        st8(SLOT_BITS + idx, nb);
        st16(SLOT_BASE + (idx << 1), (ww << nb) - L);
        ww++;
      }
    }
    dealt += w;
  }
}

/** Little-endian u32 from `p` upwards, zero outside [lo, hi). */
function loadUp(p: i32, lo: i32, hi: i32): u32 {
  if (p >= lo && p + 4 <= hi) return load<u32>(<usize>p);
  let v: u32 = 0;
  for (let k = 3; k >= 0; k--) {
    const q = p + k;
    v = (v << 8) | (q >= lo && q < hi ? <u32>ld8(q) : 0);
  }
  return v;
}

/** u32 from the bytes below `p`, the byte at p - 1 lowest; zero outside [lo, hi). */
function loadDown(p: i32, lo: i32, hi: i32): u32 {
  if (p - 4 >= lo && p <= hi) return bswap<u32>(load<u32>(<usize>(p - 4)));
  let v: u32 = 0;
  for (let k = 4; k >= 1; k--) {
    const q = p - k;
    v = (v << 8) | (q >= lo && q < hi ? <u32>ld8(q) : 0);
  }
  return v;
}

/** Decode a tANS array from [s, e) into [o, o + n). */
export function decodeTans(s: i32, e: i32, o: i32, n: i32): void {
  if (e - s < 8) fail();
  if (n < 5) fail();
  const br = TABLE.forward(s, e);
  if (br.bit()) fail();
  const lBits = br.bits(2) + 8;
  const L = 1 << lBits;
  singleCount = 0;
  multiCount = 0;
  if (br.bit()) readRiceTable(br, e, L);
  else readListTable(br, lBits, L);
  const p0 = br.forwardEnd();
  if (p0 >= e) fail();
  buildSlots(lBits);

  const mask: u32 = <u32>L - 1;
  let bF = loadUp(p0, p0, e);
  let pF = p0 + 4;
  let cF = 32;
  let bB = loadDown(e, p0, e);
  let pB = e - 4;
  let cB = 32;
  st32(STATES, <i32>(bF & mask));
  st32(STATES + 4, <i32>(bB & mask));
  bF >>>= lBits;
  cF -= lBits;
  bB >>>= lBits;
  cB -= lBits;
  st32(STATES + 8, <i32>(bF & mask));
  st32(STATES + 12, <i32>(bB & mask));
  bF >>>= lBits;
  cF -= lBits;
  bB >>>= lBits;
  cB -= lBits;
  bF |= loadUp(pF, p0, e) << cF;
  pF += (31 - cF) >> 3;
  cF |= 24;
  st32(STATES + 16, <i32>(bF & mask));
  bF >>>= lBits;
  cF -= lBits;
  pF -= cF >> 3;
  cF &= 7;
  bF &= (<u32>1 << cF) - 1;
  pB += cB >> 3;
  cB &= 7;
  bB &= (<u32>1 << cB) - 1;

  let d = o;
  const dEnd = o + n - 5;
  let nb = 0;
  // States 0..4 from the forward stream, then 0..4 from the backward one; each stream is
  // refilled before states 0, 2 and 4 (two steps use at most 22 bits).
  while (d < dEnd) {
    for (let k = 0; k < 5 && d < dEnd; k++) {
      if ((k & 1) == 0) {
        bF |= loadUp(pF, p0, e) << cF;
        pF += (31 - cF) >> 3;
        cF |= 24;
      }
      nb = step(d++, bF, k);
      bF >>>= nb;
      cF -= nb;
    }
    for (let k = 0; k < 5 && d < dEnd; k++) {
      if ((k & 1) == 0) {
        bB |= loadDown(pB, p0, e) << cB;
        pB -= (31 - cB) >> 3;
        cB |= 24;
      }
      nb = step(d++, bB, k);
      bB >>>= nb;
      cB -= nb;
    }
  }
  if (pF - (cF >> 3) != pB + (cB >> 3)) fail();
  // The five final states are the last five bytes.
  for (let k = 0; k < 5; k++) {
    const st = ld32(STATES + (k << 2));
    if (st > 255) fail();
    st8(dEnd + k, st);
  }
}

/** Emit the symbol of state `k` at `d` and move the state on with the low bits of `bits`; returns the bits used. */
// @ts-ignore: decorator
@inline function step(d: i32, bits: u32, k: i32): u32 {
  const at = STATES + (k << 2);
  const st = ld32(at);
  st8(d, ld8(SLOT_SYM + st));
  const nb = <u32>ld8(SLOT_BITS + st);
  st32(at, ld16(SLOT_BASE + (st << 1)) + <i32>(bits & ((<u32>1 << nb) - 1)));
  return nb;
}
