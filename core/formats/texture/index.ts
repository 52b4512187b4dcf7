/**
 * The texture family's public face: DDS (legacy and DX10 headers, every level laid out), TEXR /
 * SLVT wrappers, TEXA arrays, what a name suffix says (`textureRole`), and the writers of all
 * three. Browser-safe (the texture webview's protocol names these types).
 */
export { DDS_MAGIC, ddsLevel, isHdrDecoder, parseDds } from './dds';
export type { DdsDecoder, DdsDx10Header, DdsFile, DdsFormat, DdsHeader, DdsLevel, DdsPixelFormat } from './dds';
export { SLVT_MAGIC, SLVT_VERSION, TEXR_MAGIC, TEXR_VERSION, parseTexr, parseTextureFile } from './texr';
export type { TexrField, TexrFile, TexrTier, TextureFile } from './texr';
export { TEXA_MAGIC, TEXA_VERSION, parseTexa } from './texa';
export type { TexaFile, TexaPath } from './texa';
export { textureRole } from './textureRole';
export type { TextureRole } from './textureRole';
export { writeDds, writeTexa, writeTexr } from './writer';
export type { DdsWriteSpec, TexaWriteSpec, TexrWriteSpec } from './writer';
