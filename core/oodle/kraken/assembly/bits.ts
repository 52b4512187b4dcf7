/**
 * MSB-first bit reader over a region of memory (the TypeScript BitReader, same rules):
 * code-length tables, the LZ offset/length side stream and the multi-array interval lengths.
 * A forward reader loads bytes upwards from `lo`, a backward one downwards from `hi - 1`;
 * bytes outside [lo, hi) read as zero, so a reader never depends on memory it was not given.
 */
import { ld8 } from './memory';

@unmanaged
export class BitReader {
  lo: i32 = 0;
  hi: i32 = 0;
  /** Next byte to load (moves by `step`). */
  pos: i32 = 0;
  step: i32 = 1;
  /** Valid bits, left-aligned. */
  acc: u32 = 0;
  /** Number of valid bits in `acc`. */
  n: i32 = 0;

  forward(lo: i32, hi: i32): BitReader {
    this.lo = lo;
    this.hi = hi;
    this.pos = lo;
    this.step = 1;
    this.acc = 0;
    this.n = 0;
    this.refill();
    return this;
  }

  backward(lo: i32, hi: i32): BitReader {
    this.lo = lo;
    this.hi = hi;
    this.pos = hi - 1;
    this.step = -1;
    this.acc = 0;
    this.n = 0;
    this.refill();
    return this;
  }

  /** Top the accumulator up to at least 25 valid bits. */
  refill(): void {
    let pos = this.pos;
    let acc = this.acc;
    let n = this.n;
    const lo = this.lo;
    const hi = this.hi;
    const step = this.step;
    while (n <= 24) {
      const b: u32 = pos >= lo && pos < hi ? <u32>ld8(pos) : 0;
      acc |= b << (24 - n);
      n += 8;
      pos += step;
    }
    this.pos = pos;
    this.acc = acc;
    this.n = n;
  }

  ensure(k: i32): void {
    if (this.n < k) this.refill();
  }

  /** Read `k` bits, 1 ≤ k ≤ 24. */
  bits(k: i32): i32 {
    if (this.n < k) this.refill();
    const v = this.acc >>> (32 - k);
    this.acc <<= k;
    this.n -= k;
    return <i32>v;
  }

  /** Read `k` bits, 0 ≤ k ≤ 24. */
  bitsZ(k: i32): i32 {
    return k == 0 ? 0 : this.bits(k);
  }

  bit(): i32 {
    return this.bits(1);
  }

  skip(k: i32): void {
    if (k == 0) return;
    if (this.n < k) this.refill();
    this.acc <<= k;
    this.n -= k;
  }

  leadingZeros(): i32 {
    if (this.n < 25) this.refill();
    return <i32>clz<u32>(this.acc);
  }

  forwardEnd(): i32 {
    return this.pos - (this.n >> 3);
  }

  backwardStart(): i32 {
    return this.pos + 1 + (this.n >> 3);
  }

  bytePos(): i32 {
    return this.pos - ((this.n + 7) >> 3);
  }

  bitOffset(): i32 {
    return -this.n & 7;
  }

  seek(byte: i32, bit: i32): void {
    this.pos = byte;
    this.acc = 0;
    this.n = 0;
    this.refill();
    this.skip(bit);
  }
}

/** Readers at fixed addresses (no allocation): `TABLE` for code-length tables, `FRONT`/`BACK` for side streams. */
export const TABLE = changetype<BitReader>(memory.data(32, 16));
export const FRONT = changetype<BitReader>(memory.data(32, 16));
export const BACK = changetype<BitReader>(memory.data(32, 16));
