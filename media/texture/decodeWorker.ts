/**
 * The texture editor's decoder, running in a Web Worker inside the webview: the host sends a
 * level's encoded bytes (BCn blocks are 4-8x smaller than the RGBA they decode to, so less
 * crosses the host-to-webview channel) and the picture is decoded here, off both the extension
 * host and the webview's main thread. The same `decodeLevel` as everywhere else (core/image).
 *
 * Bundled by scripts/build.mjs to dist/webview/textureDecodeWorker.js; the host inlines it into
 * the page and the page starts it from a blob URL (webview resources cannot be fetched as workers).
 *
 * In:  { id, decoder, width, height, src: ArrayBuffer }
 * Out: { id, rgba: ArrayBuffer } or { id, error: string }
 */
import { decodeLevel } from '../../core/image/bcn';
import type { DdsDecoder } from '../../core/formats/dds';

interface Request {
  id: number;
  decoder: DdsDecoder;
  width: number;
  height: number;
  src: ArrayBuffer;
  file: string;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Request>) => void) | null; postMessage(m: unknown, transfer?: Transferable[]): void };

scope.onmessage = (e) => {
  const { id, decoder, width, height, src, file } = e.data;
  try {
    const rgba = decodeLevel(decoder, new Uint8Array(src), 0, width, height, file);
    const out = rgba.byteOffset === 0 && rgba.byteLength === rgba.buffer.byteLength ? (rgba.buffer as ArrayBuffer) : rgba.slice().buffer;
    scope.postMessage({ id, rgba: out }, [out]);
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
