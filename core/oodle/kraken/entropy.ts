/**
 * The byte-array container every Kraken stream (literals, commands, offsets, lengths, and
 * entropy-only pieces) is stored in. Layout facts relied on:
 * - bits 4..6 of the first byte give the type: 0 stored, 1 tANS, 2 Huffman (3 streams),
 *   3 RLE, 4 Huffman (6 streams), 5 recursive; 6 and 7 are invalid;
 * - stored: first byte ≥ 0x80 → 12-bit length in 2 bytes, else an 18-bit length in 3 bytes;
 * - other types: first byte ≥ 0x80 → 3 bytes holding a 10-bit compressed size and a 10-bit
 *   (raw − compressed − 1); else 5 bytes holding an 18-bit compressed size and an 18-bit
 *   raw size − 1, where compressed < raw; all header fields are big-endian;
 * - RLE consumes command bytes from the end of its payload and literal bytes from the
 *   front; a non-zero first byte means a byte array holding the first part of the command
 *   buffer comes first;
 * - recursive: first byte bit 7 clear → N = 2..127 arrays that concatenate; bit 7 set → a
 *   "multi-array": entropy-coded pieces interleaved by an index array and interval lengths.
 */
import { BitReader } from './bitReader';
import { corrupt, truncated } from './fail';
import { decodeHuffman } from './huffman';
import { decodeTans } from './tans';

/** Nesting limit for recursive, RLE-prefix and multi-array containers. */
const MAX_DEPTH = 12;
const MAX_MULTI_PIECES = 63;

export class EntropyDecoder {
  /** Scratch for nested containers (RLE command prefixes, multi-array pieces), bump-allocated. */
  private tmp = new Uint8Array(0);
  private tmpTop = 0;
  /** The scratch this stream may use: exactly what `reserve` asked for, whatever `tmp` kept from a larger stream (so a decode never depends on earlier ones). */
  private tmpCap = 0;
  /** Input position just after the last array decoded or measured. */
  next = 0;
  private readonly fwd = new BitReader();
  private readonly bwd = new BitReader();
  private readonly pieceStart = new Int32Array(MAX_MULTI_PIECES);
  private readonly pieceLeft = new Int32Array(MAX_MULTI_PIECES);

  // Result of the last header parse.
  private hType = 0;
  private hBody = 0;
  private hComp = 0;
  private hRaw = 0;

  /** Make sure `bytes` of nested scratch exist; called once per stream, before any decode. */
  reserve(bytes: number): void {
    if (this.tmp.length < bytes) this.tmp = new Uint8Array(bytes);
    this.tmpCap = bytes;
    this.tmpTop = 0;
  }

  /**
   * Parse the array header at `src[pos]` (region ends at `end`), checking the raw size
   * against `cap` and the payload against the region.
   */
  private header(src: Uint8Array, pos: number, end: number, cap: number): void {
    if (end - pos < 2) truncated(pos, 'array.header', 2, end - pos);
    const b0 = src[pos];
    const b1 = src[pos + 1];
    const type = (b0 >> 4) & 7;
    let body: number;
    let comp: number;
    let raw: number;
    if (type === 0) {
      if (b0 >= 0x80) {
        raw = ((b0 << 8) | b1) & 0xfff;
        body = pos + 2;
      } else {
        if (end - pos < 3) truncated(pos, 'array.header', 3, end - pos);
        raw = (b0 << 16) | (b1 << 8) | src[pos + 2];
        if (raw > 0x3ffff) corrupt(pos, 'array.header', 'reserved bits set in a stored-array length');
        body = pos + 3;
      }
      comp = raw;
    } else {
      if (type >= 6) corrupt(pos, 'array.header', `invalid byte-array type ${type}`, '0..5', `${type}`);
      if (b0 >= 0x80) {
        if (end - pos < 3) truncated(pos, 'array.header', 3, end - pos);
        const v = (b0 << 16) | (b1 << 8) | src[pos + 2];
        comp = v & 0x3ff;
        raw = comp + ((v >> 10) & 0x3ff) + 1;
        body = pos + 3;
      } else {
        if (end - pos < 5) truncated(pos, 'array.header', 5, end - pos);
        const v = ((b1 << 24) | (src[pos + 2] << 16) | (src[pos + 3] << 8) | src[pos + 4]) >>> 0;
        comp = v & 0x3ffff;
        raw = ((v >>> 18) | ((b0 & 0x0f) << 14)) + 1;
        if (comp >= raw) corrupt(pos, 'array.header', 'compressed array not smaller than its raw size', `< ${raw}`, `${comp}`);
        body = pos + 5;
      }
    }
    if (comp > end - body) truncated(pos, 'array.payload', comp, end - body);
    if (raw > cap) corrupt(pos, 'array.header', 'array larger than its destination allows', `≤ ${cap}`, `${raw}`);
    this.hType = type;
    this.hBody = body;
    this.hComp = comp;
    this.hRaw = raw;
  }

  /** The raw size of the array at `src[pos]` without decoding it; sets `next` past it. */
  measure(src: Uint8Array, pos: number, end: number, cap: number): number {
    this.header(src, pos, end, cap);
    this.next = this.hBody + this.hComp;
    return this.hRaw;
  }

  /**
   * Decode the byte array at `src[pos]` (its region ends at `end`) into `out[outPos…]`,
   * at most `cap` bytes. Returns the decoded size; `next` is set past the array.
   */
  decode(src: Uint8Array, pos: number, end: number, out: Uint8Array, outPos: number, cap: number, depth: number): number {
    if (depth > MAX_DEPTH) corrupt(pos, 'array', 'byte arrays nested too deeply');
    this.header(src, pos, end, cap);
    const type = this.hType;
    const s = this.hBody;
    const e = s + this.hComp;
    const n = this.hRaw;
    if (outPos + n > out.length) corrupt(pos, 'array', 'array does not fit its destination');
    if (type === 0) {
      if (n <= 16) for (let i = 0; i < n; i++) out[outPos + i] = src[s + i];
      else out.set(src.subarray(s, e), outPos);
      this.next = e;
      return n;
    }
    // Output that lands in nested scratch must not be handed out again below.
    const mark = this.tmpTop;
    if (out === this.tmp && outPos + n > mark) this.tmpTop = outPos + n;
    switch (type) {
      case 1:
        decodeTans(src, s, e, out, outPos, n);
        break;
      case 2:
      case 4:
        decodeHuffman(src, s, e, out, outPos, n, type);
        break;
      case 3:
        this.rle(src, s, e, out, outPos, n, depth);
        break;
      default:
        this.recursive(src, s, e, out, outPos, n, depth);
        break;
    }
    this.tmpTop = mark;
    this.next = e;
    return n;
  }

  /** Type 3: run-length commands from the back, literal bytes from the front. */
  private rle(src: Uint8Array, s: number, e: number, out: Uint8Array, o: number, n: number, depth: number): void {
    if (e - s <= 1) {
      if (e - s !== 1) corrupt(s, 'rle', 'empty RLE payload');
      out.fill(src[s], o, o + n);
      return;
    }
    let buf = src;
    let lit = s + 1;
    let cmd = e;
    const mark = this.tmpTop;
    if (src[s] !== 0) {
      // The command buffer's first part is itself entropy coded; rebuild it contiguously.
      const room = this.tmpCap - mark;
      const got = this.decode(src, s, e, this.tmp, mark, room, depth + 1);
      const rest = e - this.next;
      if (got + rest > room) corrupt(s, 'rle', 'RLE command buffer larger than scratch');
      const tmp = this.tmp;
      for (let i = 0; i < rest; i++) tmp[mark + got + i] = src[this.next + i];
      buf = tmp;
      lit = mark;
      cmd = mark + got + rest;
      this.tmpTop = cmd;
    }
    let d = o;
    const dEnd = o + n;
    let runByte = 0;
    while (lit < cmd) {
      const c = buf[cmd - 1];
      let copy = 0;
      let run = 0;
      if (c === 0 || c >= 0x30) {
        cmd--;
        copy = ~c & 0xf;
        run = c >> 4;
      } else {
        if (c === 1) {
          if (cmd - lit < 2) corrupt(s, 'rle', 'RLE byte command without its byte');
          runByte = buf[lit++];
          cmd--;
          continue;
        }
        if (cmd - lit < 2) corrupt(s, 'rle', 'RLE two-byte command cut short');
        const v = (c << 8) | buf[cmd - 2];
        cmd -= 2;
        if (c >= 0x10) {
          copy = (v - 0x1000) & 0x3f;
          run = (v - 0x1000) >> 6;
        } else if (c >= 9) {
          run = (v - 0x8ff) * 128;
        } else {
          copy = (v - 0x1ff) * 64;
        }
      }
      if (copy > cmd - lit || copy + run > dEnd - d) corrupt(s, 'rle', 'RLE command runs past its input or output');
      if (copy > 0) {
        if (copy <= 16) for (let i = 0; i < copy; i++) out[d + i] = buf[lit + i];
        else out.set(buf.subarray(lit, lit + copy), d);
        d += copy;
        lit += copy;
      }
      if (run > 0) {
        out.fill(runByte, d, d + run);
        d += run;
      }
    }
    this.tmpTop = mark;
    if (lit !== cmd || d !== dEnd) corrupt(s, 'rle', 'RLE commands do not produce exactly the array size');
  }

  /** Type 5: concatenated arrays, or a multi-array. */
  private recursive(src: Uint8Array, s: number, e: number, out: Uint8Array, o: number, n: number, depth: number): void {
    if (e - s < 6) truncated(s, 'recursive', 6, e - s);
    const first = src[s];
    const parts = first & 0x7f;
    if (parts < 2) corrupt(s, 'recursive', 'recursive array with fewer than two parts');
    if (first & 0x80) {
      this.multi(src, s, e, out, o, n, depth);
      return;
    }
    let p = s + 1;
    let d = o;
    const dEnd = o + n;
    for (let i = 0; i < parts; i++) {
      d += this.decode(src, p, e, out, d, dEnd - d, depth + 1);
      p = this.next;
    }
    if (d !== dEnd) corrupt(s, 'recursive', 'parts do not add up to the array size');
    if (p !== e) corrupt(p, 'recursive', 'data after the last part');
  }

  /**
   * Multi-array: `k` entropy-coded pieces, an index array saying which piece each interval
   * comes from (0 ends the output), and interval lengths 2^b + b bits read from both ends
   * of a side bit stream.
   */
  private multi(src: Uint8Array, s: number, e: number, out: Uint8Array, o: number, n: number, depth: number): void {
    const pieces = src[s] & 0x3f;
    let p = s + 1;
    if (pieces === 0) {
      const got = this.decode(src, p, e, out, o, n, depth + 1);
      if (got !== n) corrupt(s, 'multiarray', 'array shorter than declared');
      if (this.next !== e) corrupt(this.next, 'multiarray', 'data after the array');
      return;
    }
    const mark = this.tmpTop;
    const tmp0 = this.tmp;
    let t = mark;
    let total = 0;
    for (let i = 0; i < pieces; i++) {
      const got = this.decode(src, p, e, tmp0, t, this.tmpCap - t, depth + 1);
      this.pieceStart[i] = t;
      this.pieceLeft[i] = got;
      t += got;
      total += got;
      p = this.next;
      this.tmpTop = t;
    }
    if (e - p < 3) truncated(p, 'multiarray', 3, e - p);
    const q = src[p] | (src[p + 1] << 8);
    p += 2;
    const wide = (q & 0x8000) !== 0;
    const numIdx = this.measure(src, p, e, total);
    let numLens = numIdx - 1;
    if (numLens < 1) corrupt(p, 'multiarray', 'too few interval indexes');
    if (this.tmpCap - t < 2 * numIdx) corrupt(p, 'multiarray', 'interval tables larger than scratch');
    const logs = t;
    const idx = t + numIdx;
    this.tmpTop = t + 2 * numIdx;
    if (wide) {
      if (this.decode(src, p, e, tmp0, idx, numIdx, depth + 1) !== numIdx) corrupt(p, 'multiarray', 'index array size mismatch');
      p = this.next;
      for (let i = 0; i < numIdx; i++) {
        const v = tmp0[idx + i];
        tmp0[logs + i] = v >> 4;
        tmp0[idx + i] = v & 0xf;
      }
      numLens = numIdx;
    } else {
      if (this.decode(src, p, e, tmp0, idx, numIdx, depth + 1) !== numIdx) corrupt(p, 'multiarray', 'index array size mismatch');
      p = this.next;
      if (this.decode(src, p, e, tmp0, logs, numLens, depth + 1) !== numLens) corrupt(p, 'multiarray', 'length array size mismatch');
      p = this.next;
      for (let i = 0; i < numLens; i++) if (tmp0[logs + i] > 16) corrupt(p, 'multiarray', 'interval length exponent above 16');
    }
    const bitBytes = q & 0x3fff;
    if (bitBytes > e - p) truncated(p, 'multiarray.bits', bitBytes, e - p);
    const bitsEnd = p + bitBytes;
    if (bitsEnd !== e) corrupt(bitsEnd, 'multiarray', 'data after the interval bit stream');
    // Interval lengths: even ones from the front, odd ones from the back.
    const lens = new Int32Array(numLens);
    const fwd = this.fwd.forward(src, p, bitsEnd);
    const bwd = this.bwd.backward(src, p, bitsEnd);
    for (let i = 0; i < numLens; i++) {
      const b = tmp0[logs + i];
      lens[i] = (1 << b) + ((i & 1) === 0 ? fwd.bitsZ(b) : bwd.bitsZ(b));
    }
    // The two ends are separate byte streams; they may leave a gap but must not share a byte.
    if (fwd.forwardEnd() > bwd.backwardStart()) corrupt(p, 'multiarray.bits', 'interval bit streams overlap');
    if (tmp0[idx + numIdx - 1] !== 0) corrupt(p, 'multiarray', 'index array does not end with 0');
    let ii = 0;
    let li = 0;
    let d = o;
    const dEnd = o + n;
    for (;;) {
      const from = tmp0[idx + ii++];
      if (from === 0) break;
      if (from > pieces) corrupt(p, 'multiarray', 'interval names a missing piece');
      if (li >= numLens) corrupt(p, 'multiarray', 'more intervals than lengths');
      const len = lens[li++];
      const k = from - 1;
      if (len > this.pieceLeft[k] || len > dEnd - d) corrupt(p, 'multiarray', 'interval longer than its piece or the output');
      const a = this.pieceStart[k];
      out.set(tmp0.subarray(a, a + len), d);
      this.pieceStart[k] = a + len;
      this.pieceLeft[k] -= len;
      d += len;
    }
    if (wide) li++;
    if (ii !== numIdx || li !== numLens) corrupt(p, 'multiarray', 'interval tables not fully used');
    for (let i = 0; i < pieces; i++) if (this.pieceLeft[i] !== 0) corrupt(p, 'multiarray', 'piece data left over');
    if (d !== dEnd) corrupt(p, 'multiarray', 'intervals do not add up to the array size');
    this.tmpTop = mark;
  }
}
