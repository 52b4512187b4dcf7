/**
 * Code-length and weight table fields shared by the Huffman and tANS readers (the rules of
 * core/oodle/kraken/huffman.ts: truncated-binary range-field count, unary Golomb-Rice values,
 * symbol ranges). Values land in static tables.
 */
import { BitReader } from './bits';
import { fail, ld64, ld8 } from './memory';

/** Golomb-Rice values (up to 256 lengths + 255 range fields), i32 each. */
export const RICE = <i32>memory.data(512 * 4, 16);
/** Symbol ranges: starts and counts, i32 each. */
export const RANGE_START = <i32>memory.data(130 * 4, 16);
export const RANGE_COUNT = <i32>memory.data(130 * 4, 16);

// @ts-ignore: decorator
@inline export function rice(i: i32): i32 {
  return load<i32>(<usize>(RICE + (i << 2)));
}

// @ts-ignore: decorator
@inline export function unzigzag(v: i32): i32 {
  return v & 1 ? -(v >>> 1) - 1 : v >>> 1;
}

/** Truncated-binary count of symbol-range fields after the lengths. */
export function readRangeFieldCount(br: BitReader, numSymbols: i32): i32 {
  if (numSymbols == 256) return 0;
  const x = min(257 - numSymbols, numSymbols) * 2;
  const y = 32 - <i32>clz<u32>(x - 1);
  br.ensure(y);
  const v = <i32>(br.acc >>> (32 - y));
  const z = (1 << y) - x;
  if (v >>> 1 >= z) {
    br.skip(y);
    return v - z;
  }
  br.skip(y - 1);
  return v >>> 1;
}

/**
 * `count` unary values (zeros ended by a one, MSB-first) into RICE, then `extraBits` plain
 * bits appended to the first `withExtra`; the reader continues after the last bit used. A
 * local 64-bit window holds only real bits (nothing is loaded past `end`): running out fails.
 */
export function readRiceValues(br: BitReader, end: i32, count: i32, withExtra: i32, extraBits: i32): void {
  let p = br.bytePos();
  let acc: u64 = 0;
  let n = 0;
  const skip = br.bitOffset();
  if (skip != 0) {
    if (p >= end) fail();
    acc = <u64>ld8(p++) << <u64>(56 + skip);
    n = 8 - skip;
  }
  for (let i = 0; i < count; i++) {
    let zeros = 0;
    for (;;) {
      if (n < 32) {
        if (p + 8 <= end) {
          acc |= bswap<u64>(ld64(p)) >>> <u64>n;
          const got = (63 - n) >> 3;
          p += got;
          n += got << 3;
          // The bits below the count hold the next byte's first bits: clear them (zeros must be real).
          acc &= ~(<u64>-1 >>> <u64>n);
        } else {
          while (n <= 56 && p < end) {
            acc |= <u64>ld8(p++) << <u64>(56 - n);
            n += 8;
          }
        }
      }
      if (n == 0) fail();
      const z = <i32>clz<u64>(acc);
      if (z < n) {
        zeros += z;
        acc = z == 63 ? 0 : acc << <u64>(z + 1);
        n -= z + 1;
        break;
      }
      zeros += n;
      acc = 0;
      n = 0;
    }
    store<i32>(<usize>(RICE + (i << 2)), zeros);
  }
  if (extraBits > 0) {
    for (let i = 0; i < withExtra; i++) {
      if (n < 32) {
        while (n <= 56 && p < end) {
          acc |= <u64>ld8(p++) << <u64>(56 - n);
          n += 8;
        }
      }
      if (n < extraBits) fail();
      const a = RICE + (i << 2);
      store<i32>(<usize>a, load<i32>(<usize>a) * (1 << extraBits) + <i32>(acc >>> <u64>(64 - extraBits)));
      acc <<= <u64>extraBits;
      n -= extraBits;
    }
  }
  br.seek(p - ((n + 7) >> 3), -n & 7);
}

/** Ranges of present symbols from the range fields RICE[first, first + fields); returns the range count. */
export function readSymbolRanges(br: BitReader, first: i32, fields: i32, numSymbols: i32): i32 {
  let k = first;
  let sym = 0;
  if (fields & 1) {
    const v = rice(k++);
    if (v >= 8) fail();
    sym = br.bits(v + 1) + (1 << (v + 1)) - 1;
  }
  const pairs = fields >> 1;
  let used = 0;
  for (let i = 0; i < pairs; i++) {
    const vn = rice(k);
    const vs = rice(k + 1);
    k += 2;
    if (vn >= 9 || vs >= 8) fail();
    const num = br.bitsZ(vn) + (1 << vn);
    const gap = br.bits(vs + 1) + (1 << (vs + 1)) - 1;
    store<i32>(<usize>(RANGE_START + (i << 2)), sym);
    store<i32>(<usize>(RANGE_COUNT + (i << 2)), num);
    used += num;
    sym += num + gap;
  }
  if (sym >= 256 || used >= numSymbols || sym + numSymbols - used > 256) fail();
  store<i32>(<usize>(RANGE_START + (pairs << 2)), sym);
  store<i32>(<usize>(RANGE_COUNT + (pairs << 2)), numSymbols - used);
  return pairs + 1;
}
