/**
 * The texture editor's decoder, running in a Web Worker inside the webview: the host sends a
 * level's encoded bytes (BCn blocks are 4-8x smaller than the RGBA they decode to, so less
 * crosses the host-to-webview channel) and the picture is decoded here, off both the extension
 * host and the webview's main thread. The same `decodeLevel` as everywhere else (core/image);
 * its Node twin, for the extension host, is core/image/node/nodeDecodeWorker.ts.
 *
 * Bundled by scripts/build.mjs to dist/webview/textureDecodeWorker.js; the host inlines it into
 * the page and the page starts it from a blob URL (webview resources cannot be fetched as workers).
 *
 * In: a DecodeRequest; out: a DecodeReply (./protocol.ts).
 */
import { decodeLevel } from '../../core/image';
import type { DecodeReply, DecodeRequest } from './protocol';

const scope = self as unknown as { onmessage: ((e: MessageEvent<DecodeRequest>) => void) | null; postMessage(m: DecodeReply, transfer?: Transferable[]): void };

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
