/**
 * Worker-thread entry for `DecodePool` (Node's worker_threads, in the extension host and the
 * CLI's process; bundled to dist/nodeDecodeWorker.js): decodes one level per message and sends
 * the RGBA back (transferred, not copied). Its browser twin is media/texture/webviewDecodeWorker.ts. Errors travel as plain fields and are rebuilt as `Arch06Error` on
 * the calling side, so a bad level is the same typed error wherever it was decoded.
 */
import { parentPort } from 'node:worker_threads';
import { isArch06Error } from '../../errors';
import { decodeLevel } from '../bcn';
import type { DecodeRequest, DecodeReply } from './decodePool';

parentPort?.on('message', (req: DecodeRequest) => {
  let reply: DecodeReply;
  try {
    const rgba = decodeLevel(req.decoder, req.src, 0, req.width, req.height, req.file);
    reply = { id: req.id, rgba };
    parentPort!.postMessage(reply, [rgba.buffer as ArrayBuffer]);
  } catch (e) {
    reply = isArch06Error(e)
      ? { id: req.id, error: { code: e.code, description: e.description, ...e.details() } }
      : { id: req.id, error: { code: 'INVALID', description: e instanceof Error ? e.message : String(e), file: req.file } };
    parentPort!.postMessage(reply);
  }
});
