/**
 * core/io, the public face: bytes in and out for every format and front end. Browser-safe: nothing
 * here imports a Node module (the texture webview bundles the decoders that read through it). The
 * file system is the separate node-only face, core/io/node. Format readers use the primitives
 * behind this face directly (the bounded field reader, the byte writer, half floats, strided
 * vertex reads); front ends need only what is here.
 */
export { MemoryByteSource, exactCopy } from './byteSource';
export type { ByteSource } from './byteSource';
export { FieldReader } from './fieldReader';
export type { FieldReaderOptions, FieldSpan, ParseOptions } from './fieldReader';
export { expectMagicVersion, startsWithTag } from './magic';
export type { MagicOptions } from './magic';
export type { Confidence } from './confidence';
export { escapeControls, escapeName, unsafeNameReason } from './safeName';
export { mdCode, mdFence, mdLines, mdText, noticeText } from './sinkText';
export { concatBytes } from './concat';
