/**
 * Oodle Kraken decoder (decoder type 6): entry points for the codec dispatcher. The
 * decoder keeps its scratch between calls (it is synchronous, so one instance is enough
 * per thread); scratch is bounded by a small multiple of min(rawSize, 128 KiB).
 */
import { BLOCK_SIZE, KrakenDecoder } from './block';

let shared: KrakenDecoder | undefined;

/**
 * Decode the Kraken stream `src` (starting at its first block header) into
 * `dst[dstOffset, dstOffset + rawSize)`. Throws `Arch06Error` on malformed input.
 */
export function decodeKrakenInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): void {
  (shared ??= new KrakenDecoder()).decode(src, dst, dstOffset, rawSize);
}

/**
 * The largest output a Kraken stream of `srcLength` bytes can describe: every 256 KiB block
 * costs at least a 2-byte header and a 4-byte memset quantum. Lets callers refuse absurd
 * raw sizes before allocating.
 */
export function krakenMaxRawSize(srcLength: number): number {
  return Math.floor(srcLength / 6) * BLOCK_SIZE;
}
