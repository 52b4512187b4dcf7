/**
 * Oodle Kraken decoder (decoder type 6): entry points for the codec dispatcher. Two engines
 * decode the same format: the WebAssembly one (./wasmDecoder.ts, compiled from ./assembly/),
 * used whenever the environment runs it, and the TypeScript one (./block.ts and the rest),
 * the reference: it decodes when WebAssembly is missing, and it alone reports errors (a
 * stream the fast engine refuses is decoded again by the reference, which throws the typed
 * error). The reference keeps its scratch between calls (it is synchronous, so one instance
 * is enough per thread); scratch is bounded by a small multiple of min(rawSize, 128 KiB).
 */
import { BLOCK_SIZE, KrakenDecoder } from './block';
import { corrupt } from './fail';
import { KrakenWasm, WasmOutcome } from './wasmDecoder';

export type { WasmOutcome } from './wasmDecoder';

/** Which engine decodes Kraken streams. */
export type KrakenEngine = 'wasm' | 'typescript';

let shared: KrakenDecoder | undefined;
const wasm = new KrakenWasm();
let preference: 'auto' | 'typescript' = 'auto';

/**
 * Decode the Kraken stream `src` (starting at its first block header) into
 * `dst[dstOffset, dstOffset + rawSize)`. Throws `Arch06Error` on malformed input.
 */
export function decodeKrakenInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): void {
  if (preference === 'auto' && wasm.decodeInto(src, dst, dstOffset, rawSize) === 'decoded') return;
  decodeKrakenReferenceInto(src, dst, dstOffset, rawSize);
}

/** The TypeScript (reference) engine alone. */
export function decodeKrakenReferenceInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): void {
  (shared ??= new KrakenDecoder()).decode(src, dst, dstOffset, rawSize);
}

/** The WebAssembly engine alone, without the fallback: how the attempt ended. */
export function decodeKrakenWasmInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): WasmOutcome {
  return wasm.decodeInto(src, dst, dstOffset, rawSize);
}

/** The engine `decodeKrakenInto` uses here and now. */
export function krakenEngine(): KrakenEngine {
  return preference === 'auto' && wasm.available ? 'wasm' : 'typescript';
}

/** 'auto' (the default): WebAssembly where it runs; 'typescript': the reference only (benchmarks, diagnosis). */
export function setKrakenEngine(choice: 'auto' | 'typescript'): void {
  preference = choice;
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
