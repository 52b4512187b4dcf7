/**
 * MSB-first bit reader used for everything except the Huffman and tANS symbol streams:
 * code-length tables, the LZ offset/length side stream and the multi-array interval
 * lengths. Layout facts relied on:
 * - bits are taken from the most significant end of each byte first;
 * - a "forward" stream reads bytes upwards from the start of its region, a "backward"
 *   stream reads bytes downwards from the end of its region (the LZ side stream and the
 *   multi-array lengths are read from both ends at once and must meet);
 * - bytes outside the region read as zero, so a reader can never touch memory it was
 *   not given; callers detect overruns by comparing consumed positions afterwards.
 */

export class BitReader {
  private src: Uint8Array = new Uint8Array(0);
  /** The region read; bytes outside it read as zero. */
  lo = 0;
  hi = 0;
  /**
   * Next byte index to load (moves by `step`). Hot loops may copy `acc`/`n`/`pos` into
   * locals and store them back; bits below the `n` valid ones may then hold a copy of the
   * next byte's leading bits, which a refill ORs in again unchanged.
   */
  pos = 0;
  private step = 1;
  /** Valid bits, left-aligned in a 32-bit word (see `pos` for what may sit below them). */
  acc = 0;
  /** Number of valid bits in `acc`. */
  n = 0;

  /** Read `src[lo, hi)` upwards from `lo`. */
  forward(src: Uint8Array, lo: number, hi: number): this {
    this.src = src;
    this.lo = lo;
    this.hi = hi;
    this.pos = lo;
    this.step = 1;
    this.acc = 0;
    this.n = 0;
    this.refill();
    return this;
  }

  /** Read `src[lo, hi)` downwards from `hi - 1`. */
  backward(src: Uint8Array, lo: number, hi: number): this {
    this.src = src;
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
    const src = this.src;
    let pos = this.pos;
    let acc = this.acc;
    let n = this.n;
    while (n <= 24) {
      const b = pos >= this.lo && pos < this.hi ? src[pos] : 0;
      acc |= b << (24 - n);
      n += 8;
      pos += this.step;
    }
    this.pos = pos;
    this.acc = acc;
    this.n = n;
  }

  /** Make sure at least `k` (≤ 25) bits are loaded, so `acc` can be inspected directly. */
  ensure(k: number): void {
    if (this.n < k) this.refill();
  }

  /** Read `k` bits, 1 ≤ k ≤ 24. */
  bits(k: number): number {
    if (this.n < k) this.refill();
    const v = this.acc >>> (32 - k);
    this.acc <<= k;
    this.n -= k;
    return v;
  }

  /** Read `k` bits, 0 ≤ k ≤ 24 (a zero-width read returns 0). */
  bitsZ(k: number): number {
    return k === 0 ? 0 : this.bits(k);
  }

  bit(): number {
    return this.bits(1);
  }

  /** Drop `k` bits, 0 ≤ k ≤ 24. */
  skip(k: number): void {
    if (k === 0) return;
    if (this.n < k) this.refill();
    this.acc <<= k;
    this.n -= k;
  }

  /** Leading zero bits of the loaded window (refills first). */
  leadingZeros(): number {
    if (this.n < 25) this.refill();
    return Math.clz32(this.acc);
  }

  /** Forward stream: the byte index just past the last (partly) consumed byte. */
  forwardEnd(): number {
    return this.pos - (this.n >> 3);
  }

  /** Backward stream: the lowest byte index (partly) consumed. */
  backwardStart(): number {
    return this.pos + 1 + (this.n >> 3);
  }

  /** Forward stream: byte index of the next unread bit. */
  bytePos(): number {
    return this.pos - ((this.n + 7) >> 3);
  }

  /** Forward stream: how many bits of the byte at `bytePos()` are already consumed. */
  bitOffset(): number {
    return -this.n & 7;
  }

  /** Forward stream: continue at bit `bit` (MSB-first) of byte `byte`. */
  seek(byte: number, bit: number): void {
    this.pos = byte;
    this.acc = 0;
    this.n = 0;
    this.refill();
    this.skip(bit);
  }
}

const NO_BYTES = new DataView(new ArrayBuffer(0));
/** Buffers up to this size may stay referenced by a `ViewCache` after a decode. */
const RETAIN_LIMIT = 1 << 20;

/**
 * A `DataView` over the last byte array asked for, so hot loops can load and store four
 * bytes at once (`getInt32`/`setInt32` beat four indexed byte accesses on V8).
 */
export class ViewCache {
  private arr: Uint8Array | null = null;
  private view: DataView<ArrayBufferLike> = NO_BYTES;
  private len = 0;

  /** A view of exactly `a`'s current bytes (a resizable buffer may have changed them). */
  of(a: Uint8Array): DataView<ArrayBufferLike> {
    if (this.arr !== a || this.len !== a.byteLength) {
      this.view = new DataView(a.buffer, a.byteOffset, a.byteLength);
      this.arr = a;
      this.len = a.byteLength;
    }
    return this.view;
  }

  /**
   * Forget the array if its buffer is large, so a caller's big buffer is not kept alive
   * between decodes; small ones stay cached (making a DataView per call costs more than
   * decoding a few hundred bytes).
   */
  release(): void {
    if (this.arr !== null && this.arr.buffer.byteLength > RETAIN_LIMIT) {
      this.arr = null;
      this.view = NO_BYTES;
      this.len = 0;
    }
  }
}

/** View of the stream being decoded (its input bytes), shared by the entropy decoders. */
export const inputView = new ViewCache();
