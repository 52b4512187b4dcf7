/**
 * LZB16 decoder (see layout.ts for the format). Written from `../shared/docs/lzb16.md` and the
 * real chunks only.
 *
 * Safety: every read of `src` is checked against its length before it happens, every write is
 * checked against `dst[start, start + rawSize)`, nothing is allocated, and the loop consumes at
 * least one stream byte per step, so the work is bounded by src.length + rawSize. The output must
 * be exactly `rawSize` bytes and the whole payload must be consumed.
 *
 * Failures are `Arch06Error`s whose offset is the byte offset inside the stream (the dispatcher
 * adds the chunk's position and names the entry and chunk):
 * - `TRUNCATED`: the stream ends inside a field (prefix, extension byte, literals, E, offset);
 * - `CORRUPT_STREAM`: a rule of the known forms is broken (offset 0 or before the output's
 *   start, output past `rawSize`, output short of it, bytes left after the output is complete);
 * - `UNSUPPORTED_FORM`: a form no real chunk exercises, named in the message
 *   ("unsupported LZB16 form: match code 3"), so a form found later has one place to go.
 *
 * Output size: not capped below `rawSize`. The doc's "no chunk beyond 760 bytes seen" is a
 * statement about evidence, not a form: the sequence rules do not depend on the output's size.
 * What a larger chunk could plausibly change is its framing (several quanta, flags in the length
 * word), and such framing cannot pass the checks below: the length word must describe exactly
 * the payload, and words with their top bits set are refused.
 */
import { Arch06Error } from '../../errors';
import {
  LENGTH_WORD_FLAG_BITS,
  LITERAL_EXTENDED,
  LITERAL_EXTENSION_UNSEEN,
  LITERAL_MASK,
  LONG_MATCH_BIAS,
  LZB16_HEADER_BYTE0,
  LZB16_PREFIX_SIZE,
  LZB16_TYPE,
  MATCH_CODE_EXTENDED,
  MATCH_CODE_SHORTEST,
  MATCH_SHIFT,
  MAX_OUTPUT_PER_STREAM_BYTE,
  MIN_MATCH,
  SHORT_FORM_FLAG,
  SHORT_FORM_SEEN_OFFSET,
} from './layout';

const hex = (v: number, digits = 2): string => `0x${v.toString(16).toUpperCase().padStart(digits, '0')}`;

function corrupt(offset: number, field: string, description: string, expected?: string, actual?: string): never {
  throw new Arch06Error('CORRUPT_STREAM', `LZB16 stream: ${description}`, { offset, field, expected, actual });
}

function truncated(offset: number, field: string, needed: number, available: number): never {
  throw new Arch06Error('TRUNCATED', 'LZB16 stream ends early', { offset, field, expected: `${needed} more byte(s)`, actual: `${Math.max(0, available)}` });
}

/** A form the real chunks do not exercise: refused, named, never guessed. */
function unsupportedForm(offset: number, field: string, form: string, expected: string, actual: string): never {
  throw new Arch06Error('UNSUPPORTED_FORM', `unsupported LZB16 form: ${form}`, { offset, field, expected, actual });
}

/**
 * Check the 4-byte prefix (block header and length word) and return the stream's end
 * (always src.length). Shared by the cheap framing check and the decoder.
 */
function checkPrefix(src: Uint8Array): number {
  if (src.length < LZB16_PREFIX_SIZE) truncated(0, 'lzb16.header', LZB16_PREFIX_SIZE, src.length);
  const b0 = src[0];
  const b1 = src[1];
  if ((b0 & 0x0f) !== 0x0c || (b0 & 0x30) !== 0) {
    corrupt(0, 'lzb16.header', 'bad block header', 'low nibble 0xC, bits 4-5 clear', hex(b0));
  }
  if (b0 !== LZB16_HEADER_BYTE0) {
    // Bit 6 (an uncompressed block, for Kraken) set or bit 7 ("restart") clear: not seen.
    unsupportedForm(0, 'lzb16.header', `block header byte 0 ${hex(b0)}`, hex(LZB16_HEADER_BYTE0), hex(b0));
  }
  if (b1 !== LZB16_TYPE) {
    if ((b1 & 0x7f) !== LZB16_TYPE) corrupt(1, 'lzb16.header', 'not an LZB16 block header', hex(LZB16_TYPE), hex(b1));
    // Bit 7 (quantum checksums, for Kraken): not seen.
    unsupportedForm(1, 'lzb16.header', `block header byte 1 ${hex(b1)}`, hex(LZB16_TYPE), hex(b1));
  }
  const word = (src[2] << 8) | src[3];
  const follows = src.length - LZB16_PREFIX_SIZE;
  if ((word & LENGTH_WORD_FLAG_BITS) !== 0) {
    unsupportedForm(
      2,
      'lzb16.length',
      `length word ${hex(word, 4)} with bit 14 or 15 set (flags?)`,
      `a word below ${hex(LENGTH_WORD_FLAG_BITS, 4)}`,
      hex(word, 4),
    );
  }
  if (word + 1 !== follows) {
    // The payload's length is framed by the chunk header, so a disagreement is either damage
    // or a form not seen (a flagged word, or a chunk of more than one quantum).
    unsupportedForm(
      2,
      'lzb16.length',
      `length word ${hex(word, 4)} does not describe the payload (flags or more than one quantum?)`,
      `bytes that follow − 1 = ${follows - 1}`,
      `${word} (${word + 1} bytes announced, ${follows} follow)`,
    );
  }
  return src.length;
}

/**
 * Throw unless the stream's framing can describe exactly `rawSize` bytes: the prefix checks,
 * and a bound on what the stream's length can produce (guards allocation). Cheap: reads 4 bytes.
 */
export function checkLzb16Framing(src: Uint8Array, rawSize: number): void {
  const end = checkPrefix(src);
  const streamLen = end - LZB16_PREFIX_SIZE;
  if (rawSize > MAX_OUTPUT_PER_STREAM_BYTE * streamLen) {
    corrupt(0, 'rawSize', 'raw size larger than the stream can encode', `≤ ${MAX_OUTPUT_PER_STREAM_BYTE * streamLen}`, `${rawSize}`);
  }
}

/**
 * Decode the LZB16 stream `src` (from its block header) into `dst[start, start + rawSize)`.
 * Throws `Arch06Error` on malformed input or an unsupported form; `dst` outside the range is
 * never touched, inside it may hold partial output after a failure.
 */
export function decodeLzb16Into(src: Uint8Array, dst: Uint8Array, start: number, rawSize: number): void {
  if (!(Number.isSafeInteger(start) && Number.isSafeInteger(rawSize) && start >= 0 && rawSize >= 0 && start + rawSize <= dst.length)) {
    corrupt(0, 'rawSize', 'output range outside the destination', `≤ ${dst.length}`, `${start} + ${rawSize}`);
  }
  checkLzb16Framing(src, rawSize);
  const end = src.length;
  const outEnd = start + rawSize;
  let p = LZB16_PREFIX_SIZE;
  let o = start;
  // Stops when the stream is used up; each pass consumes at least the token byte.
  for (;;) {
    if (p >= end) {
      // Only reachable after a match. Short of the raw size, the stream is cut; at it, the
      // stream merely lacks the final literal-only sequence every real stream has.
      if (o !== outEnd) corrupt(p, 'lzb16.end', 'stream ends before the raw size', `${rawSize} bytes`, `${o - start}`);
      unsupportedForm(p, 'lzb16.token', 'stream ends after a match (no final literal-only sequence)', 'a final literal-only sequence', 'end of stream');
    }
    const tokenAt = p;
    const token = src[p++];

    // 1. Literal count, with its extension byte.
    let lits = token & LITERAL_MASK;
    if (lits === LITERAL_EXTENDED) {
      if (p >= end) truncated(p, 'lzb16.literalExtension', 1, 0);
      const ext = src[p];
      if (ext === LITERAL_EXTENSION_UNSEEN) {
        unsupportedForm(p, 'lzb16.literalExtension', 'literal extension byte 255', 'an extension byte below 255', '255');
      }
      lits += ext;
      p++;
    }

    // 2. Literals.
    if (end - p < lits) truncated(p, 'lzb16.literals', lits, end - p);
    if (outEnd - o < lits) corrupt(tokenAt, 'lzb16.literals', 'literals run past the raw size', `≤ ${outEnd - o} literal(s)`, `${lits}`);
    dst.set(src.subarray(p, p + lits), o);
    p += lits;
    o += lits;

    // 3. The stream's end: the last sequence carries literals only.
    if (p === end) break;
    if (o === outEnd) {
      corrupt(p, 'lzb16.trailing', 'bytes after the output is complete', `end of stream at ${p}`, `${end - p} more byte(s)`);
    }

    // 4. The match part.
    const code = token >> MATCH_SHIFT;
    let length: number;
    let offset: number;
    const matchAt = p;
    if (code === MATCH_CODE_SHORTEST) {
      length = MIN_MATCH;
      if (end - p < 2) truncated(p, 'lzb16.offset', 2, end - p);
      offset = src[p] | (src[p + 1] << 8);
      p += 2;
    } else if (code === MATCH_CODE_EXTENDED) {
      const e = src[p++];
      if (e < SHORT_FORM_FLAG) {
        length = e + LONG_MATCH_BIAS;
        if (end - p < 2) truncated(p, 'lzb16.offset', 2, end - p);
        offset = src[p] | (src[p + 1] << 8);
        p += 2;
      } else {
        length = ((e >> 3) & 15) + MIN_MATCH;
        offset = e & 7;
        if (offset !== SHORT_FORM_SEEN_OFFSET) {
          unsupportedForm(matchAt, 'lzb16.match', `short match with offset ${offset} (E byte ${hex(e)})`, `offset ${SHORT_FORM_SEEN_OFFSET}`, `${offset}`);
        }
      }
    } else {
      unsupportedForm(
        tokenAt,
        'lzb16.token',
        `match code ${code} (token ${hex(token)})`,
        `match code ${MATCH_CODE_SHORTEST} or ${MATCH_CODE_EXTENDED}`,
        `${code}`,
      );
    }

    // 5. The copy, byte by byte (overlap allowed), inside the output produced so far.
    if (offset === 0) corrupt(matchAt, 'lzb16.offset', 'match offset 0', '≥ 1', '0');
    if (offset > o - start) corrupt(matchAt, 'lzb16.offset', "match offset reaches before the output's start", `≤ ${o - start}`, `${offset}`);
    if (outEnd - o < length) corrupt(matchAt, 'lzb16.match', 'match runs past the raw size', `≤ ${outEnd - o} byte(s)`, `${length}`);
    for (let from = o - offset, stop = o + length; o < stop; o++, from++) dst[o] = dst[from];
  }
  if (o !== outEnd) corrupt(end, 'lzb16.end', 'stream ends before the raw size', `${rawSize} bytes`, `${o - start}`);
}
