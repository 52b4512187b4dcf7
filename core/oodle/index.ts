/**
 * Oodle codec dispatch. A compressed LTAR chunk is one raw Oodle stream that starts with a
 * 2-byte block header; its second byte names the compressor (seed 004 "Compression and
 * chunks": `8C 06` Kraken, `8C 02` LZB16). Every archive read goes through `decodeOodle`.
 */
import { Arch06Error, hexBytes } from '../errors';

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

/** The compressor a stream's first block header names. Never throws. */
export function identifyCodec(src: Uint8Array): OodleCodecName {
  if (src.length < 2 || (src[0] & 0x0f) !== 0x0c) return 'unknown';
  return CODEC_BY_TYPE[src[1] & 0x7f] ?? 'unknown';
}

/**
 * Decode one raw Oodle stream to exactly `rawSize` bytes, or throw an `Arch06Error`
 * (`UNSUPPORTED_CODEC` for a compressor this build does not decode, `CORRUPT_STREAM` for
 * malformed data). Never allocates more than `rawSize` bytes of output.
 */
export function decodeOodle(src: Uint8Array, rawSize: number, where: OodleWhere = {}): Uint8Array {
  const codec = identifyCodec(src);
  throw new Arch06Error('UNSUPPORTED_CODEC', `unsupported Oodle codec ${codec === 'unknown' ? '(unrecognised header)' : codec}`, {
    file: where.file,
    offset: where.offset,
    field: where.chunkIndex !== undefined ? `chunk[${where.chunkIndex}]` : undefined,
    expected: 'a decodable Oodle stream',
    actual: `header ${hexBytes(src, 8)} (raw size ${rawSize})`,
  });
}
