/**
 * Kraken framing: blocks, quanta and pieces. Layout facts relied on:
 * - a 2-byte block header starts every 256 KiB (0x40000) of output: byte 0 has low nibble
 *   0xC, bits 4-5 zero, bit 6 "uncompressed block", bit 7 "keyframe"; byte 1 has the
 *   decoder type in its low 7 bits (6 = Kraken) and bit 7 "quantum checksums present";
 * - an uncompressed block is followed by min(256 KiB, bytes left) raw bytes;
 * - otherwise a 3-byte big-endian quantum header: low 18 bits = compressed size − 1 (plus a
 *   3-byte checksum when enabled, which, like the public decoders, we skip unverified);
 *   all-ones size with top bits 01 (`07 FF FF`) is a memset quantum whose next byte is the
 *   fill value; a compressed size equal to the block's output size means stored raw;
 * - a compressed quantum is split into 128 KiB (0x20000) pieces of output, each starting
 *   with a 3-byte big-endian header: bit 23 set → bits 0-18 compressed size, bits 19-22 LZ
 *   mode (stored raw when the size equals the piece's output size); bit 23 clear → the
 *   piece is one byte array decoded straight into the output.
 */
import { inputView } from './bitReader';
import { EntropyDecoder } from './entropy';
import { corrupt, truncated, unsupported } from './fail';
import { LzDecoder } from './lz';

export const BLOCK_SIZE = 0x40000;
const PIECE_SIZE = 0x20000;
const KRAKEN_TYPE = 6;

export class KrakenDecoder {
  private readonly ent = new EntropyDecoder();
  private readonly lz = new LzDecoder(this.ent);

  /**
   * Decode the whole stream `src` into `out[start, start + rawSize)`. The stream must be
   * used up exactly.
   */
  decode(src: Uint8Array, out: Uint8Array, start: number, rawSize: number): void {
    // Hot loops use DataViews, which throw a RangeError past their end: make sure of the room.
    if (!(start >= 0 && rawSize >= 0 && start + rawSize <= out.length)) {
      corrupt(0, 'rawSize', 'output range outside the destination', `≤ ${out.length}`, `${start} + ${rawSize}`);
    }
    try {
      this.decodeStream(src, out, start, rawSize);
    } finally {
      inputView.release();
      this.lz.release();
    }
  }

  private decodeStream(src: Uint8Array, out: Uint8Array, start: number, rawSize: number): void {
    const piece = Math.min(rawSize, PIECE_SIZE);
    // Nested scratch for RLE prefixes and multi-array pieces, proportional to a piece.
    this.ent.reserve(3 * piece + 0x1000);
    const srcLen = src.length;
    const end = start + rawSize;
    let p = 0;
    let o = start;
    let uncompressed = false;
    let checksums = false;
    while (o < end) {
      const blockOut = Math.min(BLOCK_SIZE, end - o);
      // Every 256 KiB of output starts a block with its own header.
      if (srcLen - p < 2) truncated(p, 'block.header', 2, srcLen - p);
      const b0 = src[p];
      const b1 = src[p + 1];
      if ((b0 & 0x0f) !== 0x0c || (b0 & 0x30) !== 0) {
        corrupt(p, 'block.header', 'bad block header', 'low nibble 0xC, bits 4-5 clear', `0x${b0.toString(16)}`);
      }
      if ((b1 & 0x7f) !== KRAKEN_TYPE) {
        unsupported(p, 'block.header', `block decoder type ${b1 & 0x7f} inside a Kraken stream`);
      }
      uncompressed = (b0 & 0x40) !== 0;
      checksums = (b1 & 0x80) !== 0;
      p += 2;
      if (uncompressed) {
        if (srcLen - p < blockOut) truncated(p, 'block.raw', blockOut, srcLen - p);
        out.set(src.subarray(p, p + blockOut), o);
        p += blockOut;
        o += blockOut;
        continue;
      }
      if (srcLen - p < 3) truncated(p, 'quantum.header', 3, srcLen - p);
      const v = (src[p] << 16) | (src[p + 1] << 8) | src[p + 2];
      const size = v & 0x3ffff;
      if (size === 0x3ffff) {
        if (v >> 18 !== 1) corrupt(p, 'quantum.header', 'reserved special quantum');
        if (srcLen - p < 4) truncated(p, 'quantum.memset', 4, srcLen - p);
        out.fill(src[p + 3], o, o + blockOut);
        p += 4;
        o += blockOut;
        continue;
      }
      const hdrAt = p;
      p += checksums ? 6 : 3;
      if (p > srcLen) truncated(hdrAt, 'quantum.checksum', p - srcLen, 0);
      const comp = size + 1;
      if (comp > srcLen - p) truncated(hdrAt, 'quantum', comp, srcLen - p);
      if (comp > blockOut) corrupt(hdrAt, 'quantum', 'quantum larger than its output', `≤ ${blockOut}`, `${comp}`);
      if (comp === blockOut) out.set(src.subarray(p, p + comp), o);
      else this.quantum(src, p, p + comp, out, start, o, blockOut);
      p += comp;
      o += blockOut;
    }
    if (p !== srcLen) corrupt(p, 'stream', 'data after the last block', `${p} bytes`, `${srcLen} bytes`);
  }

  /**
   * Walk only the block and quantum headers and check that the stream describes exactly
   * `rawSize` bytes of output and ends with its last block. Costs O(blocks); lets callers
   * reject a wrong raw size before allocating the output.
   */
  static checkFraming(src: Uint8Array, rawSize: number): void {
    const srcLen = src.length;
    let p = 0;
    let left = rawSize;
    while (left > 0) {
      const blockOut = Math.min(BLOCK_SIZE, left);
      if (srcLen - p < 2) truncated(p, 'block.header', 2, srcLen - p);
      const b0 = src[p];
      if ((b0 & 0x0f) !== 0x0c || (b0 & 0x30) !== 0) corrupt(p, 'block.header', 'bad block header');
      if ((src[p + 1] & 0x7f) !== KRAKEN_TYPE) unsupported(p, 'block.header', `block decoder type ${src[p + 1] & 0x7f} inside a Kraken stream`);
      const checksums = (src[p + 1] & 0x80) !== 0;
      p += 2;
      if (b0 & 0x40) {
        if (srcLen - p < blockOut) truncated(p, 'block.raw', blockOut, srcLen - p);
        p += blockOut;
      } else {
        if (srcLen - p < 3) truncated(p, 'quantum.header', 3, srcLen - p);
        const v = (src[p] << 16) | (src[p + 1] << 8) | src[p + 2];
        if ((v & 0x3ffff) === 0x3ffff) {
          if (v >> 18 !== 1) corrupt(p, 'quantum.header', 'reserved special quantum');
          if (srcLen - p < 4) truncated(p, 'quantum.memset', 4, srcLen - p);
          p += 4;
        } else {
          const comp = (v & 0x3ffff) + 1;
          const at = p;
          p += checksums ? 6 : 3;
          if (p > srcLen || comp > srcLen - p) truncated(at, 'quantum', comp, srcLen - p);
          if (comp > blockOut) corrupt(at, 'quantum', 'quantum larger than its output', `≤ ${blockOut}`, `${comp}`);
          p += comp;
        }
      }
      left -= blockOut;
    }
    if (p !== srcLen) corrupt(p, 'stream', 'data after the last block (raw size too small?)', `${p} bytes`, `${srcLen} bytes`);
  }

  /** One compressed quantum `src[s, e)` → `out[o, o + n)`, in 128 KiB pieces. */
  private quantum(src: Uint8Array, s: number, e: number, out: Uint8Array, start: number, o: number, n: number): void {
    let q = s;
    const dEnd = o + n;
    let d = o;
    while (d < dEnd) {
      const cnt = Math.min(PIECE_SIZE, dEnd - d);
      if (e - q < 4) truncated(q, 'piece.header', 4, e - q);
      const h = (src[q] << 16) | (src[q + 1] << 8) | src[q + 2];
      if ((h & 0x800000) === 0) {
        // Entropy-only piece: one byte array that is the output itself.
        const got = this.ent.decode(src, q, e, out, d, cnt, 0);
        if (got !== cnt) corrupt(q, 'piece', 'entropy-only piece shorter than its output', `${cnt}`, `${got}`);
        q = this.ent.next;
      } else {
        q += 3;
        const used = h & 0x7ffff;
        const mode = (h >> 19) & 0xf;
        if (used > e - q) truncated(q - 3, 'piece', used, e - q);
        if (used < cnt) this.lz.decodePiece(src, q, q + used, mode, out, start, d, cnt);
        else if (used > cnt || mode !== 0) corrupt(q - 3, 'piece', 'stored piece size or mode invalid');
        else out.set(src.subarray(q, q + used), d);
        q += used;
      }
      d += cnt;
    }
    if (q !== e) corrupt(q, 'quantum', 'quantum size does not match its pieces', `${e - s}`, `${q - s}`);
  }
}
