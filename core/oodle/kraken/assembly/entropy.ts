/**
 * The byte-array container (core/oodle/kraken/entropy.ts, same rules and checks): stored,
 * tANS, Huffman (3 or 6 streams), RLE and recursive arrays (concatenated parts or a
 * multi-array), nested at most 12 deep. Nested output that must outlive its decode goes to
 * the scratch area [TMP, TMP_END), bump-allocated from `tmpTop`.
 */
import { BACK, FRONT } from './bits';
import { decodeHuffman } from './huffman';
import { copyBytes, fail, fillBytes, ld16, ld8, st8 } from './memory';
import { decodeTans } from './tans';

const MAX_DEPTH = 12;
const MAX_MULTI_PIECES = 63;

/** Scratch for nested containers (set per stream by the layout). */
export let TMP: i32 = 0;
export let TMP_END: i32 = 0;
let tmpTop: i32 = 0;
/** Input position just after the last array decoded or measured. */
export let next: i32 = 0;

const PIECE_START = <i32>memory.data(MAX_MULTI_PIECES * 4, 16);
const PIECE_LEFT = <i32>memory.data(MAX_MULTI_PIECES * 4, 16);

let hType = 0;
let hBody = 0;
let hComp = 0;
let hRaw = 0;

export function setScratch(tmp: i32, tmpEnd: i32): void {
  TMP = tmp;
  TMP_END = tmpEnd;
  tmpTop = tmp;
}

/** Parse the array header at `pos` (region ends at `end`), raw size checked against `cap`. */
function header(pos: i32, end: i32, cap: i32): void {
  if (end - pos < 2) fail();
  const b0 = ld8(pos);
  const b1 = ld8(pos + 1);
  const type = (b0 >> 4) & 7;
  let body: i32;
  let comp: i32;
  let raw: i32;
  if (type == 0) {
    if (b0 >= 0x80) {
      raw = ((b0 << 8) | b1) & 0xfff;
      body = pos + 2;
    } else {
      if (end - pos < 3) fail();
      raw = (b0 << 16) | (b1 << 8) | ld8(pos + 2);
      if (raw > 0x3ffff) fail();
      body = pos + 3;
    }
    comp = raw;
  } else {
    if (type >= 6) fail();
    if (b0 >= 0x80) {
      if (end - pos < 3) fail();
      const v = (b0 << 16) | (b1 << 8) | ld8(pos + 2);
      comp = v & 0x3ff;
      raw = comp + ((v >> 10) & 0x3ff) + 1;
      body = pos + 3;
    } else {
      if (end - pos < 5) fail();
      const v = (<u32>b1 << 24) | (<u32>ld8(pos + 2) << 16) | (<u32>ld8(pos + 3) << 8) | <u32>ld8(pos + 4);
      comp = <i32>(v & 0x3ffff);
      raw = (<i32>(v >>> 18) | ((b0 & 0x0f) << 14)) + 1;
      if (comp >= raw) fail();
      body = pos + 5;
    }
  }
  if (comp > end - body) fail();
  if (raw > cap) fail();
  hType = type;
  hBody = body;
  hComp = comp;
  hRaw = raw;
}

/** The raw size of the array at `pos` without decoding it; sets `next` past it. */
function measure(pos: i32, end: i32, cap: i32): i32 {
  header(pos, end, cap);
  next = hBody + hComp;
  return hRaw;
}

/** Decode the array at `pos` (region ends at `end`) into `out`, at most `cap` bytes; returns its size. */
export function decodeArray(pos: i32, end: i32, out: i32, cap: i32, depth: i32): i32 {
  if (depth > MAX_DEPTH) fail();
  header(pos, end, cap);
  const type = hType;
  const s = hBody;
  const e = s + hComp;
  const n = hRaw;
  if (type == 0) {
    copyBytes(out, s, n);
    next = e;
    return n;
  }
  // Output that lands in the scratch must not be handed out again below.
  const mark = tmpTop;
  if (out >= TMP && out < TMP_END && out + n > mark) tmpTop = out + n;
  if (type == 1) decodeTans(s, e, out, n);
  else if (type == 2 || type == 4) decodeHuffman(s, e, out, n, type);
  else if (type == 3) rle(s, e, out, n, depth);
  else recursive(s, e, out, n, depth);
  tmpTop = mark;
  next = e;
  return n;
}

/** Type 3: run-length commands from the back, literal bytes from the front. */
function rle(s: i32, e: i32, o: i32, n: i32, depth: i32): void {
  if (e - s <= 1) {
    if (e - s != 1) fail();
    fillBytes(o, ld8(s), n);
    return;
  }
  let lit = s + 1;
  let cmd = e;
  const mark = tmpTop;
  if (ld8(s) != 0) {
    // The command buffer's first part is itself entropy coded; rebuild it contiguously.
    const room = TMP_END - mark;
    const got = decodeArray(s, e, mark, room, depth + 1);
    const rest = e - next;
    if (got + rest > room) fail();
    copyBytes(mark + got, next, rest);
    lit = mark;
    cmd = mark + got + rest;
    tmpTop = cmd;
  }
  let d = o;
  const dEnd = o + n;
  let runByte = 0;
  while (lit < cmd) {
    const c = ld8(cmd - 1);
    let copy = 0;
    let run = 0;
    if (c == 0 || c >= 0x30) {
      cmd--;
      copy = ~c & 0xf;
      run = c >> 4;
    } else {
      if (c == 1) {
        if (cmd - lit < 2) fail();
        runByte = ld8(lit++);
        cmd--;
        continue;
      }
      if (cmd - lit < 2) fail();
      const v = (c << 8) | ld8(cmd - 2);
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
    if (copy > cmd - lit || copy + run > dEnd - d) fail();
    if (copy > 0) {
      copyBytes(d, lit, copy);
      d += copy;
      lit += copy;
    }
    if (run > 0) {
      fillBytes(d, runByte, run);
      d += run;
    }
  }
  tmpTop = mark;
  if (lit != cmd || d != dEnd) fail();
}

/** Type 5: concatenated arrays, or a multi-array. */
function recursive(s: i32, e: i32, o: i32, n: i32, depth: i32): void {
  if (e - s < 6) fail();
  const first = ld8(s);
  const parts = first & 0x7f;
  if (parts < 2) fail();
  if (first & 0x80) {
    multi(s, e, o, n, depth);
    return;
  }
  let p = s + 1;
  let d = o;
  const dEnd = o + n;
  for (let i = 0; i < parts; i++) {
    d += decodeArray(p, e, d, dEnd - d, depth + 1);
    p = next;
  }
  if (d != dEnd) fail();
  if (p != e) fail();
}

/**
 * Multi-array: entropy-coded pieces in the scratch, an index array naming the piece of each
 * interval (0 ends), interval lengths 2^b + b bits read alternately from the two ends of a
 * side bit stream (read as they are used; a decode that succeeds reads every one).
 */
function multi(s: i32, e: i32, o: i32, n: i32, depth: i32): void {
  const pieces = ld8(s) & 0x3f;
  let p = s + 1;
  if (pieces == 0) {
    const got = decodeArray(p, e, o, n, depth + 1);
    if (got != n) fail();
    if (next != e) fail();
    return;
  }
  const mark = tmpTop;
  let t = mark;
  let total = 0;
  for (let i = 0; i < pieces; i++) {
    const got = decodeArray(p, e, t, TMP_END - t, depth + 1);
    store<i32>(<usize>(PIECE_START + (i << 2)), t);
    store<i32>(<usize>(PIECE_LEFT + (i << 2)), got);
    t += got;
    total += got;
    p = next;
    tmpTop = t;
  }
  if (e - p < 3) fail();
  const q = ld16(p);
  p += 2;
  const wide = (q & 0x8000) != 0;
  const numIdx = measure(p, e, total);
  let numLens = numIdx - 1;
  if (numLens < 1) fail();
  if (TMP_END - t < 2 * numIdx) fail();
  const logs = t;
  const idx = t + numIdx;
  tmpTop = t + 2 * numIdx;
  if (decodeArray(p, e, idx, numIdx, depth + 1) != numIdx) fail();
  p = next;
  if (wide) {
    for (let i = 0; i < numIdx; i++) {
      const v = ld8(idx + i);
      st8(logs + i, v >> 4);
      st8(idx + i, v & 0xf);
    }
    numLens = numIdx;
  } else {
    if (decodeArray(p, e, logs, numLens, depth + 1) != numLens) fail();
    p = next;
    for (let i = 0; i < numLens; i++) if (ld8(logs + i) > 16) fail();
  }
  const bitBytes = q & 0x3fff;
  if (bitBytes > e - p) fail();
  const bitsEnd = p + bitBytes;
  if (bitsEnd != e) fail();
  const fwd = FRONT.forward(p, bitsEnd);
  const bwd = BACK.backward(p, bitsEnd);
  if (ld8(idx + numIdx - 1) != 0) fail();
  let ii = 0;
  let li = 0;
  let d = o;
  const dEnd = o + n;
  for (;;) {
    const from = ld8(idx + ii++);
    if (from == 0) break;
    if (from > pieces) fail();
    if (li >= numLens) fail();
    const b = ld8(logs + li);
    const len = (1 << b) + ((li & 1) == 0 ? fwd.bitsZ(b) : bwd.bitsZ(b));
    li++;
    const k = (from - 1) << 2;
    const left = load<i32>(<usize>(PIECE_LEFT + k));
    if (len > left || len > dEnd - d) fail();
    const a = load<i32>(<usize>(PIECE_START + k));
    copyBytes(d, a, len);
    store<i32>(<usize>(PIECE_START + k), a + len);
    store<i32>(<usize>(PIECE_LEFT + k), left - len);
    d += len;
  }
  if (wide && li < numLens) {
    // The terminator's length is read too (it only moves the bit stream).
    const b = ld8(logs + li);
    if ((li & 1) == 0) fwd.bitsZ(b);
    else bwd.bitsZ(b);
    li++;
  }
  if (fwd.forwardEnd() > bwd.backwardStart()) fail();
  if (ii != numIdx || li != numLens) fail();
  for (let i = 0; i < pieces; i++) if (load<i32>(<usize>(PIECE_LEFT + (i << 2))) != 0) fail();
  if (d != dEnd) fail();
  tmpTop = mark;
}
