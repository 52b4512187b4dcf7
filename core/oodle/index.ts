/**
 * Oodle codec dispatch. A compressed LTAR chunk is one raw Oodle stream that starts with a
 * 2-byte block header; its second byte names the compressor (seed 004 "Compression and
 * chunks": `8C 06` Kraken, `8C 02` LZB16). Every archive read goes through `decodeOodle`
 * or `decodeOodleInto`; decoders are looked up in a table, so another codec is added by
 * registering one entry.
 */
import { Arch06Error, hexBytes } from '../errors';
import { checkKrakenFraming, decodeKrakenInto } from './kraken';

export { krakenEngine, setKrakenEngine } from './kraken';
export type { KrakenEngine } from './kraken';
import { checkLzb16Framing, decodeLzb16Into } from './lzb16';

/** Where a stream came from, so a failure names the entry and chunk. */
export interface OodleWhere {
  /** The entry (or file) the stream belongs to. */
  file?: string;
  /** The chunk's index within its entry's chunk stream. */
  chunkIndex?: number;
  /** The stream's byte offset in `file` (for an archive entry: offset of the chunk payload). */
  offset?: number;
}

export type OodleCodecName = 'kraken' | 'lzb16' | 'mermaid' | 'leviathan' | 'lzna' | 'bitknit' | 'unknown';

/** Decoder type ids of the block header's second byte (low 7 bits). */
const CODEC_BY_TYPE: Record<number, OodleCodecName> = {
  2: 'lzb16',
  5: 'lzna',
  6: 'kraken',
  10: 'mermaid',
  11: 'bitknit',
  12: 'leviathan',
};

/** Display names, for messages. */
const CODEC_LABEL: Record<OodleCodecName, string> = {
  kraken: 'Kraken',
  lzb16: 'LZB16',
  mermaid: 'Mermaid/Selkie',
  leviathan: 'Leviathan',
  lzna: 'LZNA',
  bitknit: 'BitKnit',
  unknown: 'unknown',
};

/** One decodable codec. */
interface OodleDecoder {
  /** Decode the whole stream into `dst[dstOffset, dstOffset + rawSize)` or throw an `Arch06Error`. */
  decodeInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): void;
  /** Throw unless the stream's framing describes exactly `rawSize` bytes (cheap; guards allocation). */
  checkRawSize(src: Uint8Array, rawSize: number): void;
}

/** The codecs this build decodes. */
const DECODERS: Partial<Record<OodleCodecName, OodleDecoder>> = {
  kraken: { decodeInto: decodeKrakenInto, checkRawSize: checkKrakenFraming },
  // LZB16 as far as real chunks show it; unseen forms fail with UNSUPPORTED_FORM (lzb16/decode.ts).
  lzb16: { decodeInto: decodeLzb16Into, checkRawSize: checkLzb16Framing },
};

/** The compressor a stream's first block header names. Never throws. */
export function identifyCodec(src: Uint8Array): OodleCodecName {
  if (src.length < 2 || (src[0] & 0x0f) !== 0x0c) return 'unknown';
  return CODEC_BY_TYPE[src[1] & 0x7f] ?? 'unknown';
}

/** Whether this build can decode `codec`. */
export function canDecode(codec: OodleCodecName): boolean {
  return DECODERS[codec] !== undefined;
}

function chunkField(where: OodleWhere, inner?: string): string | undefined {
  if (where.chunkIndex === undefined) return inner;
  return inner ? `chunk[${where.chunkIndex}].${inner}` : `chunk[${where.chunkIndex}]`;
}

/** Re-issue a decoder error with the file, the chunk and a file-relative offset. */
function locate(e: Arch06Error, where: OodleWhere): Arch06Error {
  return new Arch06Error(e.code, e.description, {
    file: e.file ?? where.file,
    offset: (where.offset ?? 0) + (e.offset ?? 0),
    field: chunkField(where, e.field),
    expected: e.expected,
    actual: e.actual,
  });
}

function fail(
  code: 'UNSUPPORTED_CODEC' | 'OUT_OF_RANGE' | 'CORRUPT_STREAM',
  description: string,
  where: OodleWhere,
  expected: string,
  actual: string,
  inner?: string,
): never {
  throw new Arch06Error(code, description, {
    file: where.file,
    offset: where.offset ?? 0,
    field: chunkField(where, inner),
    expected,
    actual,
  });
}

function pickDecoder(src: Uint8Array, rawSize: number, where: OodleWhere): OodleDecoder {
  const codec = identifyCodec(src);
  const decoder = DECODERS[codec];
  if (decoder) return decoder;
  const header = hexBytes(src, 8);
  if (codec === 'unknown') {
    const type = src.length >= 2 ? ` (decoder type ${src[1] & 0x7f})` : '';
    fail(
      'UNSUPPORTED_CODEC',
      `unsupported Oodle codec: unrecognised block header${type}`,
      where,
      'an Oodle block header such as 8C 06',
      `header ${header || '(empty)'} (raw size ${rawSize})`,
      'header',
    );
  }
  fail(
    'UNSUPPORTED_CODEC',
    `unsupported Oodle codec ${CODEC_LABEL[codec]}`,
    where,
    'a Kraken (8C 06) or LZB16 (8C 02) stream',
    `header ${header} (raw size ${rawSize})`,
    'header',
  );
}

function checkRawSize(rawSize: number, where: OodleWhere): void {
  if (!Number.isSafeInteger(rawSize) || rawSize < 0) {
    fail('OUT_OF_RANGE', 'raw size is not a non-negative integer', where, 'an integer ≥ 0', `${rawSize}`, 'rawSize');
  }
}

/**
 * Decode one raw Oodle stream to exactly `rawSize` bytes written at `dst[dstOffset…]`, or
 * throw an `Arch06Error` (`UNSUPPORTED_CODEC` for a compressor this build does not decode,
 * `UNSUPPORTED_FORM` for a form of a decoded codec that no real sample exercises,
 * `CORRUPT_STREAM`/`TRUNCATED` for malformed data, `OUT_OF_RANGE` for a bad destination).
 * On failure the destination range may hold partial output.
 */
export function decodeOodleInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number, where: OodleWhere = {}): void {
  const decoder = pickDecoder(src, rawSize, where);
  checkRawSize(rawSize, where);
  if (!Number.isSafeInteger(dstOffset) || dstOffset < 0 || dstOffset + rawSize > dst.length) {
    fail('OUT_OF_RANGE', 'destination too small for the raw size', where, `${rawSize} bytes at ${dstOffset}`, `buffer of ${dst.length}`, 'dst');
  }
  try {
    decoder.decodeInto(src, dst, dstOffset, rawSize);
  } catch (e) {
    if (e instanceof Arch06Error) throw locate(e, where);
    throw e;
  }
}

/**
 * Decode one raw Oodle stream to exactly `rawSize` bytes. Never allocates more than
 * `rawSize` bytes of output, and first checks (from the block headers alone) that the
 * stream describes exactly `rawSize` bytes, so a wrong size fails before allocating.
 */
export function decodeOodle(src: Uint8Array, rawSize: number, where: OodleWhere = {}): Uint8Array {
  const decoder = pickDecoder(src, rawSize, where);
  checkRawSize(rawSize, where);
  // The framing must account for exactly rawSize bytes before that much is allocated.
  try {
    decoder.checkRawSize(src, rawSize);
  } catch (e) {
    if (e instanceof Arch06Error) throw locate(e, where);
    throw e;
  }
  const out = new Uint8Array(rawSize);
  decodeOodleInto(src, out, 0, rawSize, where);
  return out;
}
