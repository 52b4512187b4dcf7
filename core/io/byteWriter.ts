/**
 * The one byte writer: a growable little-endian buffer the format writers build files in
 * (synthetic files for tests, the embedded sample install, the benchmark's install).
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initialSize = 256) {
    this.buf = new Uint8Array(Math.max(16, initialSize));
    this.view = new DataView(this.buf.buffer);
  }

  private grow(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.length));
    this.buf = b;
    this.view = new DataView(b.buffer);
  }
  u8(v: number): this {
    this.grow(1);
    this.buf[this.length++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    this.grow(2);
    this.view.setUint16(this.length, v & 0xffff, true);
    this.length += 2;
    return this;
  }
  s16(v: number): this {
    this.grow(2);
    this.view.setInt16(this.length, v, true);
    this.length += 2;
    return this;
  }
  u32(v: number): this {
    this.grow(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
    return this;
  }
  s32(v: number): this {
    this.grow(4);
    this.view.setInt32(this.length, v | 0, true);
    this.length += 4;
    return this;
  }
  f32(v: number): this {
    this.grow(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
    return this;
  }
  /** A u64 from a safe integer (two u32 words, low first). */
  u64(v: number): this {
    this.u32(v % 0x100000000);
    return this.u32(Math.floor(v / 0x100000000));
  }
  bytes(b: ArrayLike<number>): this {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  /** `n` zero bytes. */
  zeros(n: number): this {
    this.grow(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }
  /** Text as latin1, one byte per character (callers refuse characters beyond 0xFF first). */
  latin1(s: string): this {
    this.grow(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.length + i] = s.charCodeAt(i) & 0xff;
    this.length += s.length;
    return this;
  }
  setU16(at: number, v: number): void {
    this.view.setUint16(at, v & 0xffff, true);
  }
  setU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0, true);
  }
  /** A copy of the bytes written. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
