/**
 * LZB16 (Oodle decoder type 2, chunks starting `8C 02`): the byte layout as far as real chunks
 * show it (`../shared/docs/lzb16.md`, worked out on the four `fortwallgameplay.bndl` manifests
 * of the retail `Patch_00.arch06`; see also `docs/lzb16.md`). No public description exists.
 *
 *   0  u8      0x8C  Oodle block header byte 0 (low nibble C, bit 7 "restart"), as for Kraken
 *   1  u8      0x02  decoder type 2 = LZB16
 *   2  u16 BE  (number of bytes that follow) − 1: the sequence stream runs to the payload's end
 *   4  …       the sequence stream
 *
 * Sequence (repeated until the stream ends): token T; literal count L = T & 15, plus one
 * extension byte when L == 15; L literal bytes; if the stream has ended, stop (the last
 * sequence is literal-only); otherwise the match part for M = T >> 4:
 *   M == 0     length 4, u16 LE offset                          (seen: offset 13)
 *   M == 15    byte E:
 *     E < 0x80   length E + 19, u16 LE offset                    (seen: E 0x26-0x2E)
 *     E ≥ 0x80   short form: length ((E >> 3) & 15) + 4, offset E & 7 (seen: offset 1 only)
 * then the match is copied byte by byte from (output position − offset); overlap allowed.
 *
 * Forms no real chunk exercises are refused with `UNSUPPORTED_FORM` (see decode.ts) rather
 * than guessed: literal extension byte 255, match codes 1-14, short-form offsets other than 1,
 * block header bytes other than `8C 02`, a length word that does not describe exactly the
 * payload (flags, or more than one quantum), and a length word with its top two bits set.
 */

export const LZB16_HEADER_BYTE0 = 0x8c;
export const LZB16_TYPE = 2;
/** Block header (2 bytes) + big-endian length word (2 bytes). */
export const LZB16_PREFIX_SIZE = 4;

/** Token fields. */
export const LITERAL_MASK = 0x0f;
export const LITERAL_EXTENDED = 15;
export const MATCH_SHIFT = 4;
/** The one match code below 15 a real chunk uses: length 4 + u16 offset. */
export const MATCH_CODE_SHORTEST = 0;
export const MATCH_CODE_EXTENDED = 15;
/** Minimum match length (added to every coded length). */
export const MIN_MATCH = 4;

/** E < 0x80: long match, length E + LONG_MATCH_BIAS (15 + 4) with a u16 offset. */
export const SHORT_FORM_FLAG = 0x80;
export const LONG_MATCH_BIAS = 19;
/** The one short-form offset a real chunk uses. */
export const SHORT_FORM_SEEN_OFFSET = 1;

/** The literal extension byte no real chunk uses (maybe a multi-byte extension). */
export const LITERAL_EXTENSION_UNSEEN = 255;

/**
 * Length-word bits treated as possible flags: every seen word is below 0x100, and Oodle's
 * Kraken quantum header keeps its size in the low bits and its flags above them, so a word with
 * either top bit set may be a flagged quantum, not a 16 KiB+ payload (refused, not guessed).
 */
export const LENGTH_WORD_FLAG_BITS = 0xc000;

/**
 * Most output one stream byte can produce under the known forms: a long match (token, E, u16
 * offset = 4 bytes) gives at most 0x7F + 19 = 146 bytes; a short match (2 bytes) at most 19;
 * a literal 1. So a stream of n bytes describes at most 36.5 × n bytes; checkRawSize uses 37.
 */
export const MAX_OUTPUT_PER_STREAM_BYTE = 37;
