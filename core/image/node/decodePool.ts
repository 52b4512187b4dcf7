/**
 * Texture levels decoded on worker threads, so a 150 ms BC7 decode does not stall the thread
 * that asked (in VS Code: the extension host, which every extension shares). Small levels are
 * decoded inline: below `inlinePixels` the round trip to a worker costs more than the decode
 * (`npm run bench` measures both side by side; see bench/textureWorkers.bench.ts).
 */
import { Worker } from 'node:worker_threads';
import { Arch06Error, ErrorCode, ErrorDetails } from '../../errors';
import type { DdsDecoder, DdsFile } from '../../formats/texture/dds';
import { ddsLevel } from '../../formats/texture/dds';
import { decodeLevel } from '../bcn';
import { exactCopy } from '../../io/byteSource';

export interface DecodeRequest {
  id: number;
  decoder: DdsDecoder;
  /** The level's encoded bytes alone (a copy, transferred to the worker). */
  src: Uint8Array;
  width: number;
  height: number;
  file: string;
}

export type DecodeReply =
  { id: number; rgba: Uint8Array; error?: undefined } | { id: number; rgba?: undefined; error: { code: ErrorCode; description: string } & ErrorDetails };

export interface DecodePoolOptions {
  /** The compiled nodeDecodeWorker.js (its bundle: dist/nodeDecodeWorker.js). */
  workerFile: string;
  /** Worker threads to start on demand (default 1: the host has other work to do too). */
  threads?: number;
  /** Levels with at most this many pixels decode inline (default DEFAULT_INLINE_PIXELS). */
  inlinePixels?: number;
}

/** 128 x 128: around there a worker round trip costs about what the decode does (bench/textureWorkers.bench.ts). */
export const DEFAULT_INLINE_PIXELS = 128 * 128;

interface Pending {
  resolve: (rgba: Uint8Array) => void;
  reject: (e: Error) => void;
}

export class DecodePool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private turn = 0;
  private readonly threads: number;
  readonly inlinePixels: number;

  constructor(private readonly options: DecodePoolOptions) {
    this.threads = Math.max(1, options.threads ?? 1);
    this.inlinePixels = options.inlinePixels ?? DEFAULT_INLINE_PIXELS;
  }

  /** Decode level (slice, mip) of `dds` (offsets into `bytes`) to RGBA8. Same errors as `decodeDdsLevel`. */
  async decode(dds: DdsFile, bytes: Uint8Array, slice: number, mip: number): Promise<{ width: number; height: number; rgba: Uint8Array; onWorker: boolean }> {
    if (!dds.format.decodable || !dds.format.decoder) {
      throw new Arch06Error('UNSUPPORTED_CODEC', dds.format.reason ?? `${dds.format.name} is not decoded`, {
        file: dds.file,
        field: 'dds.format',
        actual: dds.format.name,
      });
    }
    const level = ddsLevel(dds, slice, mip);
    const { width, height } = level;
    if (width * height <= this.inlinePixels) {
      return { width, height, rgba: decodeLevel(dds.format.decoder, bytes, level.offset, width, height, dds.file), onWorker: false };
    }
    const src = exactCopy(bytes, level.offset, level.offset + level.size);
    const rgba = await this.post({ id: 0, decoder: dds.format.decoder, src, width, height, file: dds.file });
    return { width, height, rgba, onWorker: true };
  }

  /** Decode raw level bytes on a worker (for benchmarks and callers that hold a level already). */
  decodeOnWorker(decoder: DdsDecoder, src: Uint8Array, width: number, height: number, file = 'texture'): Promise<Uint8Array> {
    return this.post({ id: 0, decoder, src: exactCopy(src), width, height, file });
  }

  private post(req: DecodeRequest): Promise<Uint8Array> {
    const worker = this.worker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref(); // keep the process alive while a reply is due, not longer
      worker.postMessage({ ...req, id }, [req.src.buffer as ArrayBuffer]);
    });
  }

  private worker(): Worker {
    if (this.workers.length < this.threads) {
      const w = new Worker(this.options.workerFile);
      w.on('message', (reply: DecodeReply) => {
        const p = this.pending.get(reply.id);
        if (!p) return;
        this.pending.delete(reply.id);
        if (this.pending.size === 0) for (const x of this.workers) x.unref();
        if (reply.error) {
          const { code, description, ...details } = reply.error;
          p.reject(new Arch06Error(code, description, details));
        } else p.resolve(new Uint8Array(reply.rgba!.buffer, reply.rgba!.byteOffset, reply.rgba!.byteLength));
      });
      // A worker that dies takes only its own requests with it; the next decode starts a new one.
      w.on('error', (e) => this.failAll(w, e));
      w.on('exit', (code) => this.failAll(w, new Error(`texture decode worker exited (${code})`)));
      w.unref();
      this.workers.push(w);
      return w;
    }
    return this.workers[this.turn++ % this.workers.length];
  }

  private failAll(w: Worker, e: Error): void {
    const i = this.workers.indexOf(w);
    if (i < 0) return;
    this.workers.splice(i, 1);
    // Requests are not tracked per worker; with one thread (the default) that is all of them.
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(e);
    }
  }

  async dispose(): Promise<void> {
    const ws = this.workers.splice(0);
    for (const [, p] of this.pending) p.reject(new Arch06Error('CANCELLED', 'texture decoding was stopped'));
    this.pending.clear();
    await Promise.all(ws.map((w) => w.terminate()));
  }
}
