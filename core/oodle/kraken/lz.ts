/**
 * Kraken LZ pieces ("LZ table" + execution). Layout facts relied on:
 * - at stream offset 0 the first 8 output bytes are stored raw before anything else;
 * - a first byte with bit 7 set announces "excess bytes", a feature this decoder (like the
 *   public ones) does not implement;
 * - then byte arrays: literals, commands, packed offsets (preceded by a scale byte ≥ 0x80
 *   in the scaled mode, plus a low-bits array when scale > 1), packed lengths;
 * - the rest is a bit stream read MSB-first from both ends: the count of long lengths
 *   (gamma, back end), then offsets (even ones front, odd ones back), then long lengths
 *   (same alternation); both ends must meet exactly;
 * - command byte: bits 0-1 literal count (3 → next length entry), bits 2-5 match length − 2
 *   (15 → 14 + next length entry), bits 6-7 offset source (0..2 recent, 3 next offset);
 * - three recent distances start at 8 and are kept move-to-front;
 * - mode 1 copies literals; mode 0 adds each literal to the byte one last-distance back.
 */
import { BitReader, ViewCache, inputView } from './bitReader';
import { EntropyDecoder } from './entropy';
import { corrupt, truncated, unsupported } from './fail';

/** Long (escaped) lengths allowed per piece. */
const MAX_LONG_LENGTHS = 512;
/** Below this many bytes a plain loop beats `set`/`copyWithin` (which cost a call and a view). */
const SHORT_COPY = 32;
/** Literal runs longer than this are copied with `set`. */
const LONG_LITERALS = 128;
/** Matches longer than this use `copyWithin` (in period-sized spans when they overlap). */
const COPY_WITHIN = 64;

function growU8(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  return a.length >= n ? a : new Uint8Array(Math.max(n, Math.min(2 * a.length, 0x20000 + 64)));
}
function growI32(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return a.length >= n ? a : new Int32Array(Math.max(n, 2 * a.length));
}

export class LzDecoder {
  private lits = new Uint8Array(0);
  private cmds = new Uint8Array(0);
  private offPacked = new Uint8Array(0);
  private offLow = new Uint8Array(0);
  private lenPacked = new Uint8Array(0);
  private offs = new Int32Array(0);
  private lens = new Int32Array(0);
  private readonly longLens = new Int32Array(MAX_LONG_LENGTHS);
  private readonly fwd = new BitReader();
  private readonly bwd = new BitReader();
  private readonly outView = new ViewCache();
  private readonly litView = new ViewCache();

  private litCount = 0;
  private cmdCount = 0;
  private offCount = 0;
  private lenCount = 0;

  constructor(private readonly ent: EntropyDecoder) {}

  /**
   * Decode the LZ piece `src[s, e)` producing `out[pos, pos + n)`; `start` is where the
   * stream's output begins in `out` (matches may reach back to it, not before).
   */
  decodePiece(src: Uint8Array, s: number, e: number, mode: number, out: Uint8Array, start: number, pos: number, n: number): void {
    if (mode > 1) corrupt(s, 'lz', `invalid LZ mode ${mode}`, '0 or 1', `${mode}`);
    if (e - s < 13) truncated(s, 'lz', 13, e - s);
    let p = s;
    let d = pos;
    if (pos === start) {
      if (n < 8) corrupt(s, 'lz', 'LZ piece at stream start shorter than 8 bytes');
      for (let i = 0; i < 8; i++) out[d + i] = src[p + i];
      p += 8;
      d += 8;
    }
    if (src[p] & 0x80) {
      if ((src[p] & 0xc0) !== 0x80) corrupt(p, 'lz.flags', 'reserved LZ flag set');
      unsupported(p, 'lz.flags', 'Kraken "excess bytes" LZ pieces are not supported');
    }
    const ent = this.ent;
    this.lits = growU8(this.lits, n + 16);
    this.cmds = growU8(this.cmds, n);
    this.litCount = ent.decode(src, p, e, this.lits, 0, n, 0);
    p = ent.next;
    this.cmdCount = ent.decode(src, p, e, this.cmds, 0, n, 0);
    p = ent.next;
    if (e - p < 3) truncated(p, 'lz.offsets', 3, e - p);
    let scale = 0;
    if (src[p] & 0x80) {
      scale = src[p] - 127;
      p++;
    }
    this.offPacked = growU8(this.offPacked, this.cmdCount);
    this.offCount = ent.decode(src, p, e, this.offPacked, 0, this.cmdCount, 0);
    p = ent.next;
    if (scale > 1) {
      this.offLow = growU8(this.offLow, this.offCount);
      if (ent.decode(src, p, e, this.offLow, 0, this.offCount, 0) !== this.offCount) {
        corrupt(p, 'lz.offsets', 'offset low-bits array size differs from the offset count');
      }
      p = ent.next;
    }
    this.lenPacked = growU8(this.lenPacked, n >> 2);
    this.lenCount = ent.decode(src, p, e, this.lenPacked, 0, n >> 2, 0);
    p = ent.next;
    this.unpack(src, p, e, scale, pos + n - start);
    if (mode === 1) this.runRaw(out, d, pos + n, start, s);
    else this.runDelta(out, d, pos + n, start, s);
  }

  /** Read the side bit stream `src[p, e)`: offsets into `offs`, lengths into `lens`. */
  private unpack(src: Uint8Array, p: number, e: number, scale: number, maxDist: number): void {
    const fwd = this.fwd.forward(src, p, e);
    const bwd = this.bwd.backward(src, p, e);
    bwd.ensure(25);
    if (bwd.acc >>> 0 < 0x2000) corrupt(e, 'lz.lengths', 'bad long-length count code');
    const z = Math.clz32(bwd.acc);
    bwd.skip(z);
    const longCount = bwd.bits(z + 1) - 1;
    if (longCount > MAX_LONG_LENGTHS) corrupt(e, 'lz.lengths', 'too many long lengths', `≤ ${MAX_LONG_LENGTHS}`, `${longCount}`);

    const count = this.offCount;
    const offs = (this.offs = growI32(this.offs, count));
    // Even offsets come from the front stream, odd ones from the back; the two are
    // independent, so each is decoded in its own pass.
    readOffsets(fwd, false, src, this.offPacked, this.offLow, scale, offs, 0, count, maxDist, p);
    readOffsets(bwd, true, src, this.offPacked, this.offLow, scale, offs, 1, count, maxDist, p);

    const longs = this.longLens;
    for (let i = 0; i < longCount; i++) {
      const br = (i & 1) === 0 ? fwd : bwd;
      const lz = br.leadingZeros();
      if (lz > 12) corrupt(p, 'lz.lengths', 'long length code too long');
      br.skip(lz);
      longs[i] = br.bits(lz + 7) - 64;
    }
    if (fwd.forwardEnd() !== bwd.backwardStart()) corrupt(p, 'lz.bits', 'LZ side streams do not meet');

    const lc = this.lenCount;
    const lp = this.lenPacked;
    const lens = (this.lens = growI32(this.lens, lc));
    let li = 0;
    for (let i = 0; i < lc; i++) {
      let v = lp[i];
      if (v === 255) {
        if (li >= longCount) corrupt(p, 'lz.lengths', 'more escaped lengths than long lengths');
        v = longs[li++] + 255;
      }
      lens[i] = v + 3;
    }
    if (li !== longCount) corrupt(p, 'lz.lengths', 'long lengths left over');
  }

  /**
   * Execute commands with raw literals (mode 1). `runDelta` below repeats this loop with delta
   * literals on purpose: one loop per literal mode keeps the hottest code free of a per-command
   * mode branch.
   */
  private runRaw(out: Uint8Array, pos: number, end: number, start: number, at: number): void {
    const ov = this.outView.of(out);
    const lv = this.litView.of(this.lits);
    const cmds = this.cmds;
    const cmdEnd = this.cmdCount;
    const lits = this.lits;
    const litEnd = this.litCount;
    const offs = this.offs;
    const offEnd = this.offCount;
    const lens = this.lens;
    const lenEnd = this.lenCount;
    let lp = 0;
    let oi = 0;
    let li = 0;
    let r0 = 8;
    let r1 = 8;
    let r2 = 8;
    for (let ci = 0; ci < cmdEnd; ci++) {
      const f = cmds[ci];
      let litLen = f & 3;
      if (litLen === 3) {
        if (li >= lenEnd) corrupt(at, 'lz.commands', 'length array exhausted');
        litLen = lens[li++];
      }
      if (litLen !== 0) {
        if (litLen > litEnd - lp || litLen > end - pos) corrupt(at, 'lz.commands', 'literal run past the literals or the output');
        if (end - pos >= litLen + 8 && litLen <= LONG_LITERALS) {
          // Four bytes at a time: `lits` has 16 bytes of slack, and the up to 7 bytes
          // written past the run lie inside the output and are rewritten by the match.
          ov.setInt32(pos, lv.getInt32(lp, true), true);
          ov.setInt32(pos + 4, lv.getInt32(lp + 4, true), true);
          for (let i = 8; i < litLen; i += 4) ov.setInt32(pos + i, lv.getInt32(lp + i, true), true);
        } else if (litLen <= SHORT_COPY) {
          for (let i = 0; i < litLen; i++) out[pos + i] = lits[lp + i];
        } else {
          out.set(lits.subarray(lp, lp + litLen), pos);
        }
        pos += litLen;
        lp += litLen;
      }
      let dist: number;
      const sel = f >>> 6;
      if (sel === 0) dist = r0;
      else if (sel === 1) {
        dist = r1;
        r1 = r0;
        r0 = dist;
      } else if (sel === 2) {
        dist = r2;
        r2 = r1;
        r1 = r0;
        r0 = dist;
      } else {
        if (oi >= offEnd) corrupt(at, 'lz.commands', 'offset array exhausted');
        dist = offs[oi++];
        r2 = r1;
        r1 = r0;
        r0 = dist;
      }
      let mlen = (f >>> 2) & 15;
      if (mlen === 15) {
        if (li >= lenEnd) corrupt(at, 'lz.commands', 'length array exhausted');
        mlen = 14 + lens[li++];
      } else mlen += 2;
      if (mlen > end - pos) corrupt(at, 'lz.commands', 'match runs past the output');
      // Distances are ≥ 1 (checked when unpacked; the recent ones start at 8).
      if (dist > pos - start) corrupt(at, 'lz.commands', 'match distance outside the output so far', `≤ ${pos - start}`, `${dist}`);
      const from = pos - dist;
      if (dist >= 4 && end - pos >= 16) {
        // Four bytes at a time, in order: with a distance of at least four every word read
        // lies before the word being written, so overlapping matches repeat correctly.
        // Bytes written past the match (up to 15) lie inside the output and are rewritten
        // by later commands or the trailing literals before anything reads them.
        ov.setInt32(pos, ov.getInt32(from, true), true);
        ov.setInt32(pos + 4, ov.getInt32(from + 4, true), true);
        if (mlen > 8) {
          ov.setInt32(pos + 8, ov.getInt32(from + 8, true), true);
          ov.setInt32(pos + 12, ov.getInt32(from + 12, true), true);
          if (mlen > 16) {
            if (mlen > COPY_WITHIN) copyRepeating(out, from + 16, pos + 16, mlen - 16);
            else if (end - pos >= mlen + 3) {
              for (let i = 16; i < mlen; i += 4) ov.setInt32(pos + i, ov.getInt32(from + i, true), true);
            } else {
              for (let i = 16; i < mlen; i++) out[pos + i] = out[from + i];
            }
          }
        }
      } else if (dist >= mlen || mlen <= SHORT_COPY) {
        for (let i = 0; i < mlen; i++) out[pos + i] = out[from + i];
      } else {
        copyRepeating(out, from, pos, mlen);
      }
      pos += mlen;
    }
    this.finish(out, pos, end, lp, oi, li, at, 0, 0);
  }

  /** Execute commands with delta literals (mode 0). */
  private runDelta(out: Uint8Array, pos: number, end: number, start: number, at: number): void {
    const ov = this.outView.of(out);
    const lv = this.litView.of(this.lits);
    const cmds = this.cmds;
    const cmdEnd = this.cmdCount;
    const lits = this.lits;
    const litEnd = this.litCount;
    const offs = this.offs;
    const offEnd = this.offCount;
    const lens = this.lens;
    const lenEnd = this.lenCount;
    let lp = 0;
    let oi = 0;
    let li = 0;
    let r0 = 8;
    let r1 = 8;
    let r2 = 8;
    // The distance of the previous match; literals are coded relative to that byte.
    let last = 8;
    if (pos - start < last) corrupt(at, 'lz', 'delta literals before 8 bytes of output');
    for (let ci = 0; ci < cmdEnd; ci++) {
      const f = cmds[ci];
      let litLen = f & 3;
      if (litLen === 3) {
        if (li >= lenEnd) corrupt(at, 'lz.commands', 'length array exhausted');
        litLen = lens[li++];
      }
      if (litLen !== 0) {
        if (litLen > litEnd - lp || litLen > end - pos) corrupt(at, 'lz.commands', 'literal run past the literals or the output');
        const back = pos - last;
        if (last >= 4 && end - pos >= litLen + 8 && litLen <= LONG_LITERALS) {
          // Four byte-wise additions at once (carries kept inside each byte); as for matches,
          // a distance of at least four means every word read is already final.
          for (let i = 0; i < litLen; i += 4) {
            const a = lv.getInt32(lp + i, true);
            const b = ov.getInt32(back + i, true);
            ov.setInt32(pos + i, (((a & 0x7f7f7f7f) + (b & 0x7f7f7f7f)) | 0) ^ ((a ^ b) & 0x80808080), true);
          }
        } else {
          for (let i = 0; i < litLen; i++) out[pos + i] = lits[lp + i] + out[back + i];
        }
        pos += litLen;
        lp += litLen;
      }
      let dist: number;
      const sel = f >>> 6;
      if (sel === 0) dist = r0;
      else if (sel === 1) {
        dist = r1;
        r1 = r0;
        r0 = dist;
      } else if (sel === 2) {
        dist = r2;
        r2 = r1;
        r1 = r0;
        r0 = dist;
      } else {
        if (oi >= offEnd) corrupt(at, 'lz.commands', 'offset array exhausted');
        dist = offs[oi++];
        r2 = r1;
        r1 = r0;
        r0 = dist;
      }
      last = dist;
      let mlen = (f >>> 2) & 15;
      if (mlen === 15) {
        if (li >= lenEnd) corrupt(at, 'lz.commands', 'length array exhausted');
        mlen = 14 + lens[li++];
      } else mlen += 2;
      if (mlen > end - pos) corrupt(at, 'lz.commands', 'match runs past the output');
      // Distances are ≥ 1 (checked when unpacked; the recent ones start at 8).
      if (dist > pos - start) corrupt(at, 'lz.commands', 'match distance outside the output so far', `≤ ${pos - start}`, `${dist}`);
      const from = pos - dist;
      if (dist >= 4 && end - pos >= 16) {
        // Four bytes at a time, in order: with a distance of at least four every word read
        // lies before the word being written, so overlapping matches repeat correctly.
        // Bytes written past the match (up to 15) lie inside the output and are rewritten
        // by later commands or the trailing literals before anything reads them.
        ov.setInt32(pos, ov.getInt32(from, true), true);
        ov.setInt32(pos + 4, ov.getInt32(from + 4, true), true);
        if (mlen > 8) {
          ov.setInt32(pos + 8, ov.getInt32(from + 8, true), true);
          ov.setInt32(pos + 12, ov.getInt32(from + 12, true), true);
          if (mlen > 16) {
            if (mlen > COPY_WITHIN) copyRepeating(out, from + 16, pos + 16, mlen - 16);
            else if (end - pos >= mlen + 3) {
              for (let i = 16; i < mlen; i += 4) ov.setInt32(pos + i, ov.getInt32(from + i, true), true);
            } else {
              for (let i = 16; i < mlen; i++) out[pos + i] = out[from + i];
            }
          }
        }
      } else if (dist >= mlen || mlen <= SHORT_COPY) {
        for (let i = 0; i < mlen; i++) out[pos + i] = out[from + i];
      } else {
        copyRepeating(out, from, pos, mlen);
      }
      pos += mlen;
    }
    this.finish(out, pos, end, lp, oi, li, at, 1, last);
  }

  /** Drop the reference to the caller's output buffer. */
  release(): void {
    this.outView.release();
  }

  /** Check every array was used up, then copy the trailing literals. */
  private finish(out: Uint8Array, pos: number, end: number, lp: number, oi: number, li: number, at: number, delta: number, last: number): void {
    if (oi !== this.offCount) corrupt(at, 'lz.offsets', 'offsets left over', `${this.offCount}`, `${oi}`);
    if (li !== this.lenCount) corrupt(at, 'lz.lengths', 'lengths left over', `${this.lenCount}`, `${li}`);
    const rest = end - pos;
    if (rest !== this.litCount - lp) corrupt(at, 'lz.literals', 'literals left do not match the bytes left', `${rest}`, `${this.litCount - lp}`);
    const lits = this.lits;
    if (delta) {
      const back = pos - last;
      for (let i = 0; i < rest; i++) out[pos + i] = lits[lp + i] + out[back + i];
    } else if (rest > SHORT_COPY) {
      out.set(lits.subarray(lp, lp + rest), pos);
    } else {
      for (let i = 0; i < rest; i++) out[pos + i] = lits[lp + i];
    }
  }
}

/**
 * Decode offsets `first, first + 2, …` below `count` from one end of the side stream.
 * The reader state is kept in locals (the hot part of `unpack`) and stored back after.
 * Each offset needs at most two reads of ≤ 24 bits, each after a refill to ≥ 25 bits; a
 * refill loads four bytes at once while they lie inside the region, else byte by byte
 * with zeros outside it.
 */
function readOffsets(
  br: BitReader,
  back: boolean,
  src: Uint8Array,
  packed: Uint8Array,
  low: Uint8Array,
  scale: number,
  offs: Int32Array,
  first: number,
  count: number,
  maxDist: number,
  at: number,
): void {
  let acc = br.acc;
  let n = br.n;
  // Forward: next byte to load. Backward: one past the next byte to load.
  let pos = back ? br.pos + 1 : br.pos;
  const lo = br.lo;
  const hi = br.hi;
  const view = inputView.of(src);
  for (let i = first; i < count; i += 2) {
    const c = packed[i];
    // Bits of the first read, and of a second one (classic long codes: 12; scaled: k − 24).
    let nb: number;
    let more = 0;
    if (scale === 0) {
      if (c < 0xf0) nb = (c >> 4) + 4;
      else {
        nb = c - 0xf0 + 4;
        more = 12;
      }
    } else {
      nb = c >> 3;
      if (nb > 26) corrupt(at, 'lz.offsets', 'offset code shift above 26', '≤ 26', `${nb}`);
      if (nb > 24) {
        more = nb - 24;
        nb = 24;
      }
    }
    // First read (nb ≤ 24 bits; only scaled codes can have nb = 0), then the second one.
    if (n <= 24) {
      if (back ? pos - 4 >= lo : pos + 4 <= hi) {
        acc |= (back ? view.getInt32(pos - 4, true) : view.getInt32(pos, false)) >>> n;
        const got = (32 - n) >> 3;
        pos += back ? -got : got;
        n += got << 3;
      } else {
        while (n <= 24) {
          const q = back ? pos - 1 : pos;
          acc |= (q >= lo && q < hi ? src[q] : 0) << (24 - n);
          pos += back ? -1 : 1;
          n += 8;
        }
      }
    }
    const x = nb === 0 ? 0 : acc >>> (32 - nb);
    acc <<= nb;
    n -= nb;
    let y = 0;
    if (more !== 0) {
      if (n <= 24) {
        if (back ? pos - 4 >= lo : pos + 4 <= hi) {
          acc |= (back ? view.getInt32(pos - 4, true) : view.getInt32(pos, false)) >>> n;
          const got = (32 - n) >> 3;
          pos += back ? -got : got;
          n += got << 3;
        } else {
          while (n <= 24) {
            const q = back ? pos - 1 : pos;
            acc |= (q >= lo && q < hi ? src[q] : 0) << (24 - n);
            pos += back ? -1 : 1;
            n += 8;
          }
        }
      }
      y = acc >>> (32 - more);
      acc <<= more;
      n -= more;
    }
    let dist: number;
    if (scale === 0) {
      // Classic codes: the high nibble picks the bit count, the low nibble is the low bits.
      if (more === 0) dist = ((((1 << nb) | x) << 4) | (c & 0xf)) - 248;
      else dist = 8322816 + ((1 << nb) | x) * 4096 + y;
    } else {
      // Scaled codes: (8 + c & 7) << k plus k extra bits (≤ 15 << 26, fits int32), in units of `scale`.
      const k = c >> 3;
      dist = ((8 + (c & 7)) << k) + (more === 0 ? x : x * (1 << more) + y) - 8;
      if (scale > 1) dist = dist * scale + low[i];
    }
    if (dist > maxDist || dist < 1) corrupt(at, 'lz.offsets', 'match distance outside 1..output size', `1..${maxDist}`, `${dist}`);
    offs[i] = dist;
  }
  br.acc = acc;
  br.n = n;
  br.pos = back ? pos - 1 : pos;
}

/**
 * Long match: one `copyWithin` when it does not overlap its source, else the period, then
 * ever larger non-overlapping spans.
 */
function copyRepeating(out: Uint8Array, from: number, pos: number, len: number): void {
  let done = 0;
  while (done < len) {
    const n = Math.min(pos + done - from, len - done);
    out.copyWithin(pos + done, from, from + n);
    done += n;
  }
}
