/**
 * Kraken LZ pieces (core/oodle/kraken/lz.ts, same layout and checks): literal, command,
 * offset and length arrays, the two-ended side bit stream of offsets and long lengths, then
 * the command loop, raw (mode 1) or delta (mode 0) literals. The loops copy 16 bytes at a
 * time where the distance allows; bytes written past a run land inside the output area (or
 * its 64-byte slack) and are rewritten before anything reads them.
 */
import { BACK, BitReader, FRONT } from './bits';
import { decodeArray, next } from './entropy';
import { copy16, copyBytes, fail, ld32, ld64, ld8, st32, st64, st8 } from './memory';

const MAX_LONG_LENGTHS = 512;
const LONG_LENS = <i32>memory.data(MAX_LONG_LENGTHS * 4, 16);

/** Work areas (set per stream by the layout): bytes for the arrays, i32 for offsets and lengths. */
let LITS = 0;
let CMDS = 0;
let OFF_PACKED = 0;
let OFF_LOW = 0;
let LEN_PACKED = 0;
let OFFS = 0;
let LENS = 0;

let litCount = 0;
let cmdCount = 0;
let offCount = 0;
let lenCount = 0;

export function setLzAreas(lits: i32, cmds: i32, offPacked: i32, offLow: i32, lenPacked: i32, offs: i32, lens: i32): void {
  LITS = lits;
  CMDS = cmds;
  OFF_PACKED = offPacked;
  OFF_LOW = offLow;
  LEN_PACKED = lenPacked;
  OFFS = offs;
  LENS = lens;
}

/** Decode the LZ piece [s, e) producing [pos, pos + n); matches may reach back to `start`. */
export function decodePiece(s: i32, e: i32, mode: i32, start: i32, pos: i32, n: i32): void {
  if (mode > 1) fail();
  if (e - s < 13) fail();
  let p = s;
  let d = pos;
  if (pos == start) {
    if (n < 8) fail();
    st64(d, ld64(p));
    p += 8;
    d += 8;
  }
  if (ld8(p) & 0x80) fail();
  litCount = decodeArray(p, e, LITS, n, 0);
  p = next;
  cmdCount = decodeArray(p, e, CMDS, n, 0);
  p = next;
  if (e - p < 3) fail();
  let scale = 0;
  if (ld8(p) & 0x80) {
    scale = ld8(p) - 127;
    p++;
  }
  offCount = decodeArray(p, e, OFF_PACKED, cmdCount, 0);
  p = next;
  if (scale > 1) {
    if (decodeArray(p, e, OFF_LOW, offCount, 0) != offCount) fail();
    p = next;
  }
  lenCount = decodeArray(p, e, LEN_PACKED, n >> 2, 0);
  p = next;
  unpack(p, e, scale, pos + n - start);
  if (mode == 1) runRaw(d, pos + n, start);
  else runDelta(d, pos + n, start);
}

/** The side bit stream [p, e): offsets into OFFS, lengths into LENS. */
function unpack(p: i32, e: i32, scale: i32, maxDist: i32): void {
  const fwd = FRONT.forward(p, e);
  const bwd = BACK.backward(p, e);
  bwd.ensure(25);
  if (bwd.acc < 0x2000) fail();
  const z = <i32>clz<u32>(bwd.acc);
  bwd.skip(z);
  const longCount = bwd.bits(z + 1) - 1;
  if (longCount > MAX_LONG_LENGTHS) fail();
  // Even offsets come from the front stream, odd ones from the back.
  readOffsetsFront(fwd, scale, maxDist);
  readOffsetsBack(bwd, scale, maxDist);
  for (let i = 0; i < longCount; i++) {
    const br = (i & 1) == 0 ? fwd : bwd;
    const lz = br.leadingZeros();
    if (lz > 12) fail();
    br.skip(lz);
    st32(LONG_LENS + (i << 2), br.bits(lz + 7) - 64);
  }
  if (fwd.forwardEnd() != bwd.backwardStart()) fail();
  let li = 0;
  for (let i = 0; i < lenCount; i++) {
    let v = ld8(LEN_PACKED + i);
    if (v == 255) {
      if (li >= longCount) fail();
      v = ld32(LONG_LENS + (li << 2)) + 255;
      li++;
    }
    st32(LENS + (i << 2), v + 3);
  }
  if (li != longCount) fail();
}

/**
 * Offsets `first, first + 2, …` below offCount from one end of the side stream (`back`: the
 * end read downwards), with the reader's state in locals and a 64-bit window: one refill to
 * ≥ 56 bits (never 64, so shifts stay below 64) covers an offset's up to 31 bits (eight bytes at once inside the region, else
 * bytewise with zeros outside). Inlined per direction.
 */
// @ts-ignore: decorator
@inline function offsets(br: BitReader, back: bool, scale: i32, first: i32, maxDist: i32): void {
  let acc: u64 = <u64>br.acc << 32;
  let n = br.n;
  // Forward: the next byte to load. Backward: one past it.
  let pos = back ? br.pos + 1 : br.pos;
  const lo = br.lo;
  const hi = br.hi;
  const count = offCount;
  // Offsets left whose eight-byte refill certainly stays inside the region (an offset moves
  // the stream by at most eight bytes): those refill without a test.
  let fast = 0;
  for (let i = first; i < count; i += 2) {
    const c = ld8(OFF_PACKED + i);
    if (fast == 0) fast = max(0, (back ? pos - lo : hi - pos) >> 3) - 1;
    if (fast > 0) {
      fast--;
      acc |= (back ? ld64(pos - 8) : bswap<u64>(ld64(pos))) >>> <u64>n;
      const got = (63 - n) >> 3;
      pos += back ? -got : got;
      n += got << 3;
    } else if (n < 32) {
      if (back ? pos - 8 >= lo : pos + 8 <= hi) {
        acc |= (back ? ld64(pos - 8) : bswap<u64>(ld64(pos))) >>> <u64>n;
        const got = (63 - n) >> 3;
        pos += back ? -got : got;
        n += got << 3;
      } else {
        while (n <= 55) {
          const q = back ? pos - 1 : pos;
          acc |= (q >= lo && q < hi ? <u64>ld8(q) : 0) << <u64>(56 - n);
          pos += back ? -1 : 1;
          n += 8;
        }
      }
    }
    let dist: i32;
    if (scale == 0) {
      // Classic codes: the high nibble picks the bit count, the low nibble is the low bits.
      if (c < 0xf0) {
        const nb = (c >> 4) + 4;
        const x = <i32>(acc >>> <u64>(64 - nb));
        acc <<= <u64>nb;
        n -= nb;
        dist = ((((1 << nb) | x) << 4) | (c & 0xf)) - 248;
      } else {
        const nb = c - 0xf0 + 4;
        const x = <i32>(acc >>> <u64>(64 - nb));
        acc <<= <u64>nb;
        const y = <i32>(acc >>> 52);
        acc <<= 12;
        n -= nb + 12;
        // Up to 2^32 in JavaScript numbers: computed in 64 bits and checked against maxDist here.
        const wide = <i64>8322816 + (<i64>((1 << nb) | x) << 12) + <i64>y;
        if (wide > <i64>maxDist) fail();
        dist = <i32>wide;
      }
    } else {
      // Scaled codes: (8 + c & 7) << k plus k extra bits, in units of `scale`.
      const k = c >> 3;
      if (k > 26) fail();
      const x = <i32>((acc >>> 32) >>> <u64>(32 - k));
      acc <<= <u64>k;
      n -= k;
      dist = ((8 + (c & 7)) << k) + x - 8;
      if (scale > 1) {
        const wide = <i64>dist * <i64>scale + <i64>ld8(OFF_LOW + i);
        if (wide > <i64>maxDist) fail();
        dist = <i32>wide;
      }
    }
    if (<u32>(dist - 1) >= <u32>maxDist) fail();
    st32(OFFS + (i << 2), dist);
  }
  // Back to the reader's 32-bit window: whole bytes not used are given back.
  const whole = n >> 3;
  pos += back ? whole : -whole;
  n &= 7;
  br.acc = n == 0 ? 0 : <u32>(acc >>> 32) & (<u32>0xffffffff << (32 - n));
  br.n = n;
  br.pos = back ? pos - 1 : pos;
}

function readOffsetsFront(br: BitReader, scale: i32, maxDist: i32): void {
  offsets(br, false, scale, 0, maxDist);
}

function readOffsetsBack(br: BitReader, scale: i32, maxDist: i32): void {
  offsets(br, true, scale, 1, maxDist);
}

/** Add `n` literals at `lp` to the bytes `last` back, writing at `pos` (16 or 8 at a time when `last` allows). */
// @ts-ignore: decorator
@inline function addLiterals(pos: i32, lp: i32, n: i32, last: i32): void {
  const back = pos - last;
  if (last >= 16) {
    for (let i = 0; i < n; i += 16) {
      v128.store(<usize>(pos + i), i8x16.add(v128.load(<usize>(lp + i)), v128.load(<usize>(back + i))));
    }
  } else if (last >= 8) {
    for (let i = 0; i < n; i += 8) st64(pos + i, addBytes(ld64(lp + i), ld64(back + i)));
  } else {
    for (let i = 0; i < n; i++) st8(pos + i, ld8(lp + i) + ld8(back + i));
  }
}

/** Eight byte-wise additions at once (carries kept inside each byte). */
// @ts-ignore: decorator
@inline function addBytes(a: u64, b: u64): u64 {
  return ((a & 0x7f7f7f7f7f7f7f7f) + (b & 0x7f7f7f7f7f7f7f7f)) ^ ((a ^ b) & 0x8080808080808080);
}

/**
 * Execute the commands, raw (mode 1) or delta (mode 0, each literal adds to the byte one
 * last-distance back) literals; inlined once per mode so the loop has no mode test.
 * Checks that only guard the final result are made once at the end (`finish`): a short
 * literal run may read past the literals, and the next new offset and the next length entry
 * are loaded before knowing whether the command uses them (past their arrays they read stale
 * values inside the work areas, which are sized for it, and the counts then fail). Every
 * distance is checked (1 ≤ dist ≤ output so far) before a copy and every length (unsigned)
 * against the output end, so no stale value can move a copy outside the output.
 */
// @ts-ignore: decorator
@inline function execute(pos: i32, end: i32, start: i32, delta: bool): void {
  let lp = LITS;
  const litEnd = LITS + litCount;
  let cp = CMDS;
  const cmdEnd = CMDS + cmdCount;
  let op = OFFS;
  let lnp = LENS;
  let r0 = 8;
  let r1 = 8;
  let r2 = 8;
  let last = 8;
  if (delta && pos - start < 8) fail();
  while (cp < cmdEnd) {
    const f = ld8(cp++);
    // Literal count without a branch: 0..2, or 3 → the next length entry (loaded ahead).
    const lf = f & 3;
    const longLit = ld32(lnp);
    const litLen = lf == 3 ? longLit : lf;
    lnp += (lf + 1) & 4;
    if (<u32>litLen > <u32>(end - pos)) fail();
    if (delta) {
      if (last >= 8) {
        st64(pos, addBytes(ld64(lp), ld64(pos - last)));
        if (litLen > 8) {
          if (litLen > litEnd - lp) fail();
          addLiterals(pos + 8, lp + 8, litLen - 8, last);
        }
      } else for (let i = 0; i < litLen; i++) st8(pos + i, ld8(lp + i) + ld8(pos - last + i));
    } else {
      copy16(pos, lp);
      if (litLen > 16) {
        if (litLen > litEnd - lp) fail();
        if (litLen > 256) copyBytes(pos + 16, lp + 16, litLen - 16);
        else for (let i = 16; i < litLen; i += 16) copy16(pos + i, lp + i);
      }
    }
    pos += litLen;
    lp += litLen;
    // Recent distances, move-to-front, without branches: 0..2 pick a recent one, 3 the next new one.
    const sel = f >>> 6;
    const fresh = ld32(op);
    const dist = sel == 0 ? r0 : sel == 1 ? r1 : sel == 2 ? r2 : fresh;
    r2 = sel >= 2 ? r1 : r2;
    r1 = sel >= 1 ? r0 : r1;
    r0 = dist;
    op += (sel + 1) & 4;
    if (delta) last = dist;
    let mlen = (f >>> 2) & 15;
    if (<u32>(dist - 1) >= <u32>(pos - start)) fail();
    const from = pos - dist;
    if (mlen != 15) {
      mlen += 2;
      if (<u32>mlen > <u32>(end - pos)) fail();
      if (dist >= 8) {
        st64(pos, ld64(from));
        st64(pos + 8, ld64(from + 8));
      } else for (let i = 0; i < mlen; i++) st8(pos + i, ld8(from + i));
    } else {
      mlen = 14 + ld32(lnp);
      lnp += 4;
      if (<u32>mlen > <u32>(end - pos)) fail();
      if (dist >= 16 && mlen < 256) for (let i = 0; i < mlen; i += 16) copy16(pos + i, from + i);
      else copyMatch(pos, from, mlen, dist);
    }
    pos += mlen;
  }
  if (pos > end || lp > litEnd || op > OFFS + (offCount << 2)) fail();
  finish(pos, end, lp - LITS, (op - OFFS) >> 2, (lnp - LENS) >> 2, delta, last);
}

/** A long match: 16 bytes at a time when the source lies ≥ 16 bytes back, one copy when apart. */
function copyMatch(pos: i32, from: i32, mlen: i32, dist: i32): void {
  if (dist >= 16) {
    if (dist >= mlen && mlen > 64) copyBytes(pos, from, mlen);
    else for (let i = 0; i < mlen; i += 16) copy16(pos + i, from + i);
  } else if (dist >= 8) {
    for (let i = 0; i < mlen; i += 8) st64(pos + i, ld64(from + i));
  } else {
    for (let i = 0; i < mlen; i++) st8(pos + i, ld8(from + i));
  }
}

function runRaw(pos: i32, end: i32, start: i32): void {
  execute(pos, end, start, false);
}

function runDelta(pos: i32, end: i32, start: i32): void {
  execute(pos, end, start, true);
}

/** Check every array was used up, then write the trailing literals (exactly, no slack writes). */
function finish(pos: i32, end: i32, lp: i32, oi: i32, li: i32, delta: bool, last: i32): void {
  if (oi != offCount) fail();
  if (li != lenCount) fail();
  const rest = end - pos;
  if (rest != litCount - lp) fail();
  const src = LITS + lp;
  if (delta) {
    const back = pos - last;
    for (let i = 0; i < rest; i++) st8(pos + i, ld8(src + i) + ld8(back + i));
  } else copyBytes(pos, src, rest);
}
