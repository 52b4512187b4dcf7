/**
 * core/image, the browser-safe face: texture levels decoded to RGBA8 (BC1-BC7, 8-bit formats;
 * BC6H as floats or tone-mapped). The texture webview's decode worker bundles this; PNG encoding,
 * thumbnails and the worker-thread pool are node-only, core/image/node.
 */
export { decodeDdsLevel, decodeDdsLevelFloat, decodeLevel } from './bcn';
export type { DecodedFloatLevel, DecodedLevel } from './bcn';
export { toneMapRgba8 } from './bc6h';
