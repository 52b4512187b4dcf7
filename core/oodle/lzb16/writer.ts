/**
 * An LZB16 writer for tests and fuzzing: it emits only the forms the decoder accepts (the ones
 * real chunks exercise, layout.ts), so every stream it writes must decode. It is not a
 * compressor meant for the game: nothing says the engine accepts streams we make.
 *
 * Encodable with the known forms:
 * - literal runs of 0-14 bytes in the token, 15-269 with one extension byte (< 255);
 * - matches of length 4 (match code 0) or 19-146 (code 15, E < 0x80), any offset 1-65535;
 * - matches of length 4-19 at offset 1 (code 15, short form).
 * Every sequence but the last carries a match; the last carries literals only. So a
 * literal-only stream holds at most 269 bytes.
 */
import { Arch06Error } from '../../errors';
import {
  LITERAL_EXTENDED,
  LITERAL_EXTENSION_UNSEEN,
  LONG_MATCH_BIAS,
  LZB16_HEADER_BYTE0,
  LZB16_PREFIX_SIZE,
  LZB16_TYPE,
  MATCH_CODE_EXTENDED,
  MATCH_CODE_SHORTEST,
  MATCH_SHIFT,
  MIN_MATCH,
  SHORT_FORM_FLAG,
  SHORT_FORM_SEEN_OFFSET,
} from './layout';

/** Longest literal run one sequence can carry: 15 + 254. */
export const MAX_LITERAL_RUN = LITERAL_EXTENDED + LITERAL_EXTENSION_UNSEEN - 1;
/** Longest match: E = 0x7F. */
export const MAX_MATCH = SHORT_FORM_FLAG - 1 + LONG_MATCH_BIAS;
/** Longest short-form match (offset 1 only). */
const MAX_SHORT_MATCH = 15 + MIN_MATCH;
/** Largest compressed payload the length word can frame without touching its top bits. */
const MAX_STREAM_BYTES = 0x3fff + 1;

export interface Lzb16Sequence {
  literals: Uint8Array | number[];
  /** Absent only on the last sequence. */
  match?: { length: number; offset: number };
}

function bad(field: string, description: string, actual: string): never {
  throw new Arch06Error('BAD_ARGUMENT', `LZB16 writer: ${description}`, { field, actual });
}

/** Whether a match of `length` at `offset` has a known encoding. */
export function canEncodeMatch(length: number, offset: number): boolean {
  if (!(Number.isInteger(length) && Number.isInteger(offset) && offset >= 1 && offset <= 0xffff)) return false;
  if (length === MIN_MATCH) return true;
  if (length >= LONG_MATCH_BIAS && length <= MAX_MATCH) return true;
  return offset === SHORT_FORM_SEEN_OFFSET && length >= MIN_MATCH && length <= MAX_SHORT_MATCH;
}

/** The sequence stream (no prefix) for `sequences`. */
export function encodeSequences(sequences: Lzb16Sequence[]): number[] {
  const out: number[] = [];
  sequences.forEach((s, i) => {
    const lits = s.literals.length;
    if (lits > MAX_LITERAL_RUN) bad(`sequence[${i}].literals`, `a literal run holds at most ${MAX_LITERAL_RUN} bytes`, String(lits));
    const last = i === sequences.length - 1;
    if (last !== (s.match === undefined)) bad(`sequence[${i}].match`, 'every sequence but the last carries a match, the last none', last ? 'a match' : 'none');
    let code = MATCH_CODE_SHORTEST;
    const tail: number[] = [];
    if (s.match) {
      const { length, offset } = s.match;
      if (!canEncodeMatch(length, offset)) bad(`sequence[${i}].match`, 'no known form encodes this match', `length ${length}, offset ${offset}`);
      if (length === MIN_MATCH && offset !== SHORT_FORM_SEEN_OFFSET) {
        tail.push(offset & 0xff, offset >> 8);
      } else if (length >= LONG_MATCH_BIAS && offset !== SHORT_FORM_SEEN_OFFSET) {
        code = MATCH_CODE_EXTENDED;
        tail.push(length - LONG_MATCH_BIAS, offset & 0xff, offset >> 8);
      } else if (length <= MAX_SHORT_MATCH) {
        code = MATCH_CODE_EXTENDED;
        tail.push(SHORT_FORM_FLAG | ((length - MIN_MATCH) << 3) | SHORT_FORM_SEEN_OFFSET);
      } else {
        code = MATCH_CODE_EXTENDED;
        tail.push(length - LONG_MATCH_BIAS, 1, 0);
      }
    }
    out.push((code << MATCH_SHIFT) | Math.min(lits, LITERAL_EXTENDED));
    if (lits >= LITERAL_EXTENDED) out.push(lits - LITERAL_EXTENDED);
    for (const b of s.literals) out.push(b);
    out.push(...tail);
  });
  return out;
}

/** `8C 02`, the big-endian length word (bytes that follow − 1), then `body`, as given. */
export function frameLzb16(body: ArrayLike<number>): Uint8Array {
  if (body.length < 1 || body.length > MAX_STREAM_BYTES) bad('body', `a stream holds 1-${MAX_STREAM_BYTES} bytes`, String(body.length));
  const out = new Uint8Array(LZB16_PREFIX_SIZE + body.length);
  out[0] = LZB16_HEADER_BYTE0;
  out[1] = LZB16_TYPE;
  out[2] = (body.length - 1) >> 8;
  out[3] = (body.length - 1) & 0xff;
  out.set(Array.from(body), LZB16_PREFIX_SIZE);
  return out;
}

/** A whole chunk payload for `sequences`. */
export function writeLzb16(sequences: Lzb16Sequence[]): Uint8Array {
  return frameLzb16(encodeSequences(sequences));
}

/** A literal-only chunk (at most 269 bytes of output). */
export function writeLzb16Literals(data: Uint8Array): Uint8Array {
  return writeLzb16([{ literals: data }]);
}

/**
 * A greedy encoder for test data: at each position, the longest encodable match found among
 * the previous `window` bytes, else a literal. Throws `BAD_ARGUMENT` when a literal run would
 * outgrow what one sequence can carry (data too random for the known forms) or the stream
 * would outgrow the length word.
 */
export function compressLzb16(data: Uint8Array, window = 4096): Uint8Array {
  const seqs: Lzb16Sequence[] = [];
  let litStart = 0;
  let i = 0;
  while (i < data.length) {
    let bestLen = 0;
    let bestOff = 0;
    const lo = Math.max(0, i - window);
    for (let from = i - 1; from >= lo; from--) {
      let n = 0;
      while (n < MAX_MATCH && i + n < data.length && data[from + n] === data[i + n]) n++;
      const off = i - from;
      // Prefer lengths some form can encode: trim to the longest encodable length ≤ n.
      const len = encodableLength(n, off);
      if (len > bestLen) {
        bestLen = len;
        bestOff = off;
        if (len === MAX_MATCH) break;
      }
    }
    // A match that would leave nothing to end the stream with is still fine: the last
    // sequence may carry zero literals.
    if (bestLen >= MIN_MATCH) {
      seqs.push({ literals: data.subarray(litStart, i), match: { length: bestLen, offset: bestOff } });
      i += bestLen;
      litStart = i;
    } else {
      i++;
    }
    if (i - litStart > MAX_LITERAL_RUN)
      bad('data', 'a literal run longer than one sequence can carry (data too random)', `${i - litStart} bytes at ${litStart}`);
  }
  seqs.push({ literals: data.subarray(litStart) });
  return writeLzb16(seqs);
}

function encodableLength(n: number, offset: number): number {
  if (offset === SHORT_FORM_SEEN_OFFSET && n <= MAX_SHORT_MATCH) return n >= MIN_MATCH ? n : 0;
  if (n >= LONG_MATCH_BIAS) return Math.min(n, MAX_MATCH);
  return n >= MIN_MATCH ? MIN_MATCH : 0;
}
