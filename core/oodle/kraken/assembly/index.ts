/**
 * WebAssembly Kraken decoder: entry points and the block framing (core/oodle/kraken/block.ts,
 * same rules and checks). The host (core/oodle/kraken/wasmDecoder.ts) calls
 * `prepare(srcLen, rawSize)`, copies the stream to the address it returns, calls `decode()` and
 * copies `rawSize` bytes of output from the address that returns. Memory holds,
 * after the static tables: the input, the output (each with 64 bytes of slack for wide loads
 * and stores) and the work areas of one 128 KiB piece, so it grows with the input's real size.
 */
import { decodeArray, next, setScratch } from './entropy';
import { setLoadRange } from './huffman';
import { decodePiece, setLzAreas } from './lz';
import { copyBytes, failed, fail, fillBytes, ld8 } from './memory';

const BLOCK_SIZE = 0x40000;
const PIECE_SIZE = 0x20000;
const KRAKEN_TYPE = 6;
const SLACK = 64;

let SRC = 0;
let SRC_LEN = 0;
let OUT = 0;
let RAW = 0;

// @ts-ignore: decorator
@inline function align16(x: i32): i32 {
  return (x + 15) & ~15;
}

/** Lay out memory for one stream; returns the input's address, or 0 when memory cannot grow. */
export function prepare(srcLen: i32, rawSize: i32): i32 {
  if (srcLen < 0 || rawSize < 0 || srcLen > 0x40000000 || rawSize > 0x40000000) return 0;
  const piece = min(rawSize, PIECE_SIZE);
  let p = align16(<i32>__heap_base);
  SRC = p;
  SRC_LEN = srcLen;
  p = align16(p + srcLen + SLACK);
  OUT = p;
  RAW = rawSize;
  p = align16(p + rawSize + SLACK);
  const lits = p;
  p = align16(p + piece + SLACK);
  const cmds = p;
  p = align16(p + piece + SLACK);
  const offPacked = p;
  p = align16(p + piece + SLACK);
  const offLow = p;
  p = align16(p + piece + SLACK);
  const lenPacked = p;
  p = align16(p + (piece >> 2) + SLACK);
  const offs = p;
  p = align16(p + 4 * piece + SLACK);
  // Room for the command loop's look-ahead: up to two length entries per command.
  const lens = p;
  p = align16(p + 8 * piece + SLACK);
  const tmp = p;
  const tmpEnd = tmp + 3 * piece + 0x1000;
  p = align16(tmpEnd + SLACK);
  const pages = (p + 0xffff) >>> 16;
  const have = memory.size();
  if (pages > have && memory.grow(pages - have) < 0) return 0;
  setLzAreas(lits, cmds, offPacked, offLow, lenPacked, offs, lens);
  setLoadRange(SRC, SRC + srcLen + SLACK);
  setScratch(tmp, tmpEnd);
  return SRC;
}

/** Whether the last `decode` stopped on bad input (it then trapped). */
export function hasFailed(): i32 {
  return failed;
}

/** Decode the prepared stream and return the output's address; traps on bad input (after setting the failure flag). */
export function decode(): i32 {
  failed = 0;
  const src = SRC;
  const srcEnd = SRC + SRC_LEN;
  const start = OUT;
  const end = OUT + RAW;
  let p = src;
  let o = start;
  while (o < end) {
    const blockOut = min(BLOCK_SIZE, end - o);
    if (srcEnd - p < 2) fail();
    const b0 = ld8(p);
    const b1 = ld8(p + 1);
    if ((b0 & 0x0f) != 0x0c || (b0 & 0x30) != 0) fail();
    if ((b1 & 0x7f) != KRAKEN_TYPE) fail();
    const checksums = (b1 & 0x80) != 0;
    p += 2;
    if (b0 & 0x40) {
      if (srcEnd - p < blockOut) fail();
      copyBytes(o, p, blockOut);
      p += blockOut;
      o += blockOut;
      continue;
    }
    if (srcEnd - p < 3) fail();
    const v = (ld8(p) << 16) | (ld8(p + 1) << 8) | ld8(p + 2);
    const size = v & 0x3ffff;
    if (size == 0x3ffff) {
      if (v >> 18 != 1) fail();
      if (srcEnd - p < 4) fail();
      fillBytes(o, ld8(p + 3), blockOut);
      p += 4;
      o += blockOut;
      continue;
    }
    p += checksums ? 6 : 3;
    if (p > srcEnd) fail();
    const comp = size + 1;
    if (comp > srcEnd - p) fail();
    if (comp > blockOut) fail();
    if (comp == blockOut) copyBytes(o, p, comp);
    else quantum(p, p + comp, start, o, blockOut);
    p += comp;
    o += blockOut;
  }
  if (p != srcEnd) fail();
  return OUT;
}

/** One compressed quantum [s, e) → [o, o + n), in 128 KiB pieces. */
function quantum(s: i32, e: i32, start: i32, o: i32, n: i32): void {
  let q = s;
  const dEnd = o + n;
  let d = o;
  while (d < dEnd) {
    const cnt = min(PIECE_SIZE, dEnd - d);
    if (e - q < 4) fail();
    const h = (ld8(q) << 16) | (ld8(q + 1) << 8) | ld8(q + 2);
    if ((h & 0x800000) == 0) {
      // Entropy-only piece: one byte array that is the output itself.
      const got = decodeArray(q, e, d, cnt, 0);
      if (got != cnt) fail();
      q = next;
    } else {
      q += 3;
      const used = h & 0x7ffff;
      const mode = (h >> 19) & 0xf;
      if (used > e - q) fail();
      if (used < cnt) decodePiece(q, q + used, mode, start, d, cnt);
      else if (used > cnt || mode != 0) fail();
      else copyBytes(d, q, used);
      q += used;
    }
    d += cnt;
  }
  if (q != e) fail();
}
