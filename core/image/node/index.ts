/**
 * core/image/node, the node-only face: PNG encoding (node:zlib), hover thumbnails, and the pool
 * that decodes large levels on worker threads (its worker entry, nodeDecodeWorker.ts, is bundled
 * on its own to dist/nodeDecodeWorker.js). Webviews never import it (test/unit/tidy.test.ts).
 */
export { encodePng } from './png';
export type { PngOptions } from './png';
export { textureThumbnail } from './thumbnail';
export type { Thumbnail } from './thumbnail';
export { DEFAULT_INLINE_PIXELS, DecodePool } from './decodePool';
export type { DecodePoolOptions } from './decodePool';
