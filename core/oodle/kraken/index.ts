/**
 * Oodle Kraken decoder (decoder type 6): entry points for the codec dispatcher. The
 * decoder keeps its scratch between calls (it is synchronous, so one instance is enough
 * per thread); scratch is bounded by a small multiple of min(rawSize, 128 KiB).
 */
import { BLOCK_SIZE, KrakenDecoder } from './block';
import { corrupt } from './fail';

let shared: KrakenDecoder | undefined;

/**
 * Decode the Kraken stream `src` (starting at its first block header) into
 * `dst[dstOffset, dstOffset + rawSize)`. Throws `Arch06Error` on malformed input.
 */
export function decodeKrakenInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): void {
  (shared ??= new KrakenDecoder()).decode(src, dst, dstOffset, rawSize);
}

/**
 * Check, from the block and quantum headers alone, that `src` describes exactly `rawSize`
 * bytes; throws `Arch06Error` otherwise. Lets callers refuse a wrong raw size before
 * allocating (a stream of n bytes can describe at most n / 6 blocks of 256 KiB, all memset).
 */
export function checkKrakenFraming(src: Uint8Array, rawSize: number): void {
  if (rawSize > Math.floor(src.length / 6) * BLOCK_SIZE) {
    corrupt(0, 'rawSize', 'raw size larger than the stream can encode', `≤ ${Math.floor(src.length / 6) * BLOCK_SIZE}`, `${rawSize}`);
  }
  KrakenDecoder.checkFraming(src, rawSize);
}
