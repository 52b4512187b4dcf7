/**
 * The WebAssembly Kraken decoder (compiled from ./assembly/ by scripts/krakenWasm.mjs and
 * embedded in ./wasmBinary.ts): the fast path of the Kraken dispatch. It follows the TypeScript
 * decoder (./block.ts and the rest), which stays the reference: on anything but a clean decode
 * the caller reruns the reference, which then throws the typed error (or, should the two ever
 * disagree on a valid stream, decodes it). Safety does not rest on the module: WebAssembly code
 * can only touch its own linear memory, and the host checks every range it copies.
 *
 * Environments without WebAssembly (or where a synchronous compile is refused, as on a
 * browser's main thread) report `available === false` and the dispatch uses TypeScript.
 */
import { KRAKEN_WASM_BASE64 } from './wasmBinary';

/** How one attempt ended: decoded, refused by a check (bad input), trapped otherwise (a bug), or not tried. */
export type WasmOutcome = 'decoded' | 'rejected' | 'trapped' | 'unavailable';

/** The parts of the WebAssembly API the decoder uses (a global in Node and browsers). */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
  compile?: (bytes: Uint8Array) => Promise<object>;
}

interface KrakenExports {
  memory: { buffer: ArrayBuffer };
  prepare(srcLen: number, rawSize: number): number;
  decode(): number;
  hasFailed(): number;
}

/** Streams whose input plus output exceed this are left to TypeScript (the module's memory stays well inside 32 bits). */
const MAX_STREAM = 1 << 30;
/** After a decode that grew the memory past this, the instance is dropped (its memory cannot shrink). */
const KEEP_MEMORY = 64 << 20;

function decodeBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export class KrakenWasm {
  private module: object | undefined;
  private failedToLoad = false;
  private exports: KrakenExports | undefined;
  private heap = new Uint8Array(0);

  /** `api`: the WebAssembly global (a test passes another, or null for none). */
  constructor(private readonly api: WasmApi | null = (globalThis as { WebAssembly?: WasmApi }).WebAssembly ?? null) {}

  /** Whether the module compiled here (compiles it on first use). */
  get available(): boolean {
    return this.instance() !== undefined;
  }

  /**
   * Decode the Kraken stream `src` into `dst[dstOffset, dstOffset + rawSize)` (the caller has
   * checked that range). Only 'decoded' leaves the exact output in place.
   */
  decodeInto(src: Uint8Array, dst: Uint8Array, dstOffset: number, rawSize: number): WasmOutcome {
    if (src.length + rawSize > MAX_STREAM) return 'unavailable';
    const x = this.instance();
    if (!x) return 'unavailable';
    let outcome: WasmOutcome = 'decoded';
    try {
      const at = x.prepare(src.length, rawSize);
      if (at === 0) return 'unavailable';
      // A grown memory detaches the old buffer, whose views then have length 0.
      if (this.heap.length === 0) this.heap = new Uint8Array(x.memory.buffer);
      const heap = this.heap;
      heap.set(src, at);
      const out = x.decode();
      if (rawSize <= 64) for (let i = 0; i < rawSize; i++) dst[dstOffset + i] = heap[out + i];
      else dst.set(heap.subarray(out, out + rawSize), dstOffset);
    } catch {
      outcome = x.hasFailed() ? 'rejected' : 'trapped';
    }
    if (this.heap.length > KEEP_MEMORY || (this.heap.length === 0 && x.memory.buffer.byteLength > KEEP_MEMORY)) this.drop();
    return outcome;
  }

  private instance(): KrakenExports | undefined {
    if (this.exports) return this.exports;
    const module = this.compiled();
    if (!module || !this.api) return undefined;
    this.exports = new this.api.Instance(module, {}).exports as KrakenExports;
    this.heap = new Uint8Array(this.exports.memory.buffer);
    return this.exports;
  }

  private compiled(): object | undefined {
    if (this.module || this.failedToLoad) return this.module;
    const api = this.api;
    if (!api) {
      this.failedToLoad = true;
      return undefined;
    }
    const bytes = decodeBase64(KRAKEN_WASM_BASE64);
    try {
      this.module = new api.Module(bytes);
    } catch {
      // A browser's main thread refuses large synchronous compiles: compile in the background
      // and use TypeScript until it is ready. Anything else (no SIMD, say) stays on TypeScript.
      this.failedToLoad = true;
      api.compile?.(bytes).then(
        (m) => {
          this.module = m;
          this.failedToLoad = false;
        },
        () => undefined,
      );
    }
    return this.module;
  }

  /** Forget the instance and its memory; the next decode instantiates the compiled module again. */
  private drop(): void {
    this.exports = undefined;
    this.heap = new Uint8Array(0);
  }
}
