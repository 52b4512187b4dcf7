/**
 * Block-compressed (BC1-BC5) and 8-bit uncompressed texture levels to RGBA8. Rules from
 * Microsoft's public "Texture Block Compression in Direct3D 11" and "Block Compression
 * (Direct3D 10)" pages:
 *
 *   BC1 (8 bytes/4x4 block): u16 c0, u16 c1 (RGB 5:6:5), u32 of 2-bit indices, pixel i at bits
 *       2i..2i+1, row-major. c0 > c1: c2 = 2/3 c0 + 1/3 c1, c3 = 1/3 c0 + 2/3 c1 (opaque);
 *       c0 <= c1: c2 = 1/2 c0 + 1/2 c1, c3 = transparent black (the 3-colour + transparent mode).
 *   BC2 (16 bytes): 64 bits of 4-bit alpha (pixel i at bits 4i), then a BC1 colour block that is
 *       always in four-colour mode.
 *   BC3 (16 bytes): an 8-byte alpha block (as BC4), then a four-colour BC1 colour block.
 *   BC4 (8 bytes): u8 r0, u8 r1, 48 bits of 3-bit indices (pixel i at bits 3i). r0 > r1: six
 *       interpolated values (6r0 + 1r1)/7 .. (1r0 + 6r1)/7; else four, (4r0 + 1r1)/5 .. , then
 *       0 and 255. Decoded to R (G = B = 0, A = 255), as Direct3D samples it.
 *   BC5 (16 bytes): two BC4 blocks, red then green (B = 0, A = 255).
 *
 * 5- and 6-bit endpoints widen by bit replication; interpolations round to nearest. Uncompressed:
 * R8G8B8A8, B8G8R8A8, B8G8R8X8 (A = 255), R8 and R8G8 (missing channels 0, A = 255), A8.
 * BC7 (core/image/bc7.ts) decodes to RGBA8. BC6H (core/image/bc6h.ts) decodes to float RGB
 * (`decodeLevelFloat`, `decodeDdsLevelFloat`); `decodeLevel` returns it tone-mapped to RGBA8 at
 * exposure 0 (clamped, sRGB-encoded) for previews. Formats `parseDds` reports with
 * `decodable === false` (e.g. BC6H_TYPELESS) throw UNSUPPORTED_CODEC with its reason.
 *
 * The loops work on typed arrays with one small palette per call; nothing is allocated per
 * block or per pixel. Sizes come from validated dimensions and are checked against the source.
 */
import { storeBlock } from './blockStore';
import { Arch06Error } from '../errors';
import { DDS_MAX_DIMENSION, DdsDecoder, DdsFile, DdsLevel, ddsLevel, isHdrDecoder, levelSize } from '../formats/texture/dds';
import { decodeBc7 } from './bc7';
import { decodeBc6h, toneMapRgba8 } from './bc6h';

const BLOCK_BYTES: Record<DdsDecoder, number> = {
  BC1: 8,
  BC2: 16,
  BC3: 16,
  BC4: 8,
  BC5: 16,
  BC6H_UF16: 16,
  BC6H_SF16: 16,
  BC7: 16,
  RGBA8: 0,
  BGRA8: 0,
  BGRX8: 0,
  R8: 0,
  RG8: 0,
  A8: 0,
};
const PIXEL_BYTES: Record<DdsDecoder, number> = {
  BC1: 0,
  BC2: 0,
  BC3: 0,
  BC4: 0,
  BC5: 0,
  BC6H_UF16: 0,
  BC6H_SF16: 0,
  BC7: 0,
  RGBA8: 4,
  BGRA8: 4,
  BGRX8: 4,
  R8: 1,
  RG8: 2,
  A8: 1,
};

/** Bytes of one width x height level in `decoder`'s format. */
function encodedSize(decoder: DdsDecoder, width: number, height: number): number {
  return levelSize(
    { name: decoder, srgb: false, decodable: true, blockBytes: BLOCK_BYTES[decoder] || undefined, bytesPerPixel: PIXEL_BYTES[decoder] || undefined },
    width,
    height,
    1,
  )!;
}

/**
 * Decode one width x height level stored at `offset` in `src` to a new RGBA8 buffer
 * (width x height x 4 bytes, row-major). Throws OUT_OF_RANGE for bad dimensions and TRUNCATED
 * when `src` is shorter than the level.
 */
export function decodeLevel(decoder: DdsDecoder, src: Uint8Array, offset: number, width: number, height: number, file = 'texture'): Uint8Array {
  if (isHdrDecoder(decoder)) return toneMapRgba8(decodeLevelFloat(decoder, src, offset, width, height, file), 0);
  checkLevel(decoder, src, offset, width, height, file);
  const out = new Uint8Array(width * height * 4);
  switch (decoder) {
    case 'BC1':
    case 'BC2':
    case 'BC3':
    case 'BC4':
    case 'BC5':
      decodeBlocks(decoder, src, offset, width, height, out);
      break;
    case 'BC7':
      decodeBc7(src, offset, width, height, out);
      break;
    default:
      decodeUncompressed(decoder, src, offset, width * height, out);
  }
  return out;
}

/**
 * Decode one width x height BC6H level (BC6H_UF16 or BC6H_SF16) to a new Float32Array of
 * width x height x 3 (RGB, row-major). Same errors as `decodeLevel`.
 */
export function decodeLevelFloat(decoder: DdsDecoder, src: Uint8Array, offset: number, width: number, height: number, file = 'texture'): Float32Array {
  if (decoder !== 'BC6H_UF16' && decoder !== 'BC6H_SF16') {
    throw new Arch06Error('BAD_ARGUMENT', `${decoder} is not a float (BC6H) format`);
  }
  checkLevel(decoder, src, offset, width, height, file);
  const out = new Float32Array(width * height * 3);
  decodeBc6h(src, offset, width, height, decoder === 'BC6H_SF16', out);
  return out;
}

function checkLevel(decoder: DdsDecoder, src: Uint8Array, offset: number, width: number, height: number, file: string): void {
  for (const [v, field] of [
    [width, 'width'],
    [height, 'height'],
  ] as const) {
    if (!Number.isInteger(v) || v < 1 || v > DDS_MAX_DIMENSION) {
      throw new Arch06Error('OUT_OF_RANGE', `level ${field} outside 1..${DDS_MAX_DIMENSION}`, {
        file,
        field,
        expected: `1..${DDS_MAX_DIMENSION}`,
        actual: String(v),
      });
    }
  }
  const need = encodedSize(decoder, width, height);
  if (!Number.isSafeInteger(offset) || offset < 0 || offset + need > src.length) {
    throw new Arch06Error('TRUNCATED', `a ${width}x${height} ${decoder} level needs ${need} bytes`, {
      file,
      offset,
      field: 'level',
      expected: `${need} bytes`,
      actual: `${Math.max(0, src.length - offset)} bytes`,
    });
  }
}

/** One decoded level of a parsed DDS. */
export interface DecodedLevel {
  level: DdsLevel;
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * Decode level (slice, mip) of `dds`, whose offsets refer to `bytes`. Volume levels decode
 * their first depth slice. Throws UNSUPPORTED_CODEC for formats reported `decodable: false`.
 */
export function decodeDdsLevel(dds: DdsFile, bytes: Uint8Array, slice = 0, mip = 0): DecodedLevel {
  if (!dds.format.decodable || !dds.format.decoder) {
    throw new Arch06Error('UNSUPPORTED_CODEC', dds.format.reason ?? `${dds.format.name} is not decoded`, {
      file: dds.file,
      field: 'dds.format',
      actual: dds.format.name,
    });
  }
  const level = ddsLevel(dds, slice, mip);
  const rgba = decodeLevel(dds.format.decoder, bytes, level.offset, level.width, level.height, dds.file);
  return { level, width: level.width, height: level.height, rgba };
}

/** One decoded level of a BC6H DDS as float RGB (width x height x 3). */
export interface DecodedFloatLevel {
  level: DdsLevel;
  width: number;
  height: number;
  rgb: Float32Array;
}

/**
 * Decode level (slice, mip) of a BC6H `dds` to float RGB (what `decodeDdsLevel` tone-maps).
 * Throws UNSUPPORTED_CODEC for formats that are not decodable BC6H.
 */
export function decodeDdsLevelFloat(dds: DdsFile, bytes: Uint8Array, slice = 0, mip = 0): DecodedFloatLevel {
  const decoder = dds.format.decoder;
  if (!dds.format.decodable || (decoder !== 'BC6H_UF16' && decoder !== 'BC6H_SF16')) {
    throw new Arch06Error(
      'UNSUPPORTED_CODEC',
      dds.format.decodable ? `${dds.format.name} is not a float (BC6H) format` : (dds.format.reason ?? `${dds.format.name} is not decoded`),
      { file: dds.file, field: 'dds.format', actual: dds.format.name },
    );
  }
  const level = ddsLevel(dds, slice, mip);
  const rgb = decodeLevelFloat(decoder, bytes, level.offset, level.width, level.height, dds.file);
  return { level, width: level.width, height: level.height, rgb };
}

// ---- uncompressed ------------------------------------------------------------------------

function decodeUncompressed(decoder: DdsDecoder, src: Uint8Array, o: number, pixels: number, out: Uint8Array): void {
  switch (decoder) {
    case 'RGBA8':
      out.set(src.subarray(o, o + pixels * 4));
      return;
    case 'BGRA8':
    case 'BGRX8': {
      const opaque = decoder === 'BGRX8';
      for (let i = 0, s = o, d = 0; i < pixels; i++, s += 4, d += 4) {
        out[d] = src[s + 2];
        out[d + 1] = src[s + 1];
        out[d + 2] = src[s];
        out[d + 3] = opaque ? 255 : src[s + 3];
      }
      return;
    }
    case 'R8':
      for (let i = 0, d = 0; i < pixels; i++, d += 4) {
        out[d] = src[o + i];
        out[d + 3] = 255;
      }
      return;
    case 'RG8':
      for (let i = 0, s = o, d = 0; i < pixels; i++, s += 2, d += 4) {
        out[d] = src[s];
        out[d + 1] = src[s + 1];
        out[d + 3] = 255;
      }
      return;
    case 'A8':
      for (let i = 0, d = 3; i < pixels; i++, d += 4) out[d] = src[o + i];
      return;
    default:
      throw new Arch06Error('BAD_ARGUMENT', `${decoder} is not an uncompressed format`);
  }
}

// ---- block-compressed ----------------------------------------------------------------------

/** Scratch for one call: a 4-entry RGBA colour palette, an 8-entry single-channel palette, one 4x4 RGBA block. */
class Scratch {
  readonly colors = new Uint8Array(16);
  readonly values = new Uint8Array(8);
  readonly block = new Uint8Array(64);
}

/** Colour block at `o` into `blk` (RGB, and A for BC1). `bc1` enables the 3-colour + transparent mode. */
function colorBlock(src: Uint8Array, o: number, s: Scratch, bc1: boolean, blk: Uint8Array): void {
  colorPalette(src, o, s, bc1);
  const p = s.colors;
  const idx = (src[o + 4] | (src[o + 5] << 8) | (src[o + 6] << 16) | (src[o + 7] << 24)) >>> 0;
  for (let i = 0; i < 16; i++) {
    const c = ((idx >>> (2 * i)) & 3) << 2;
    const d = i << 2;
    blk[d] = p[c];
    blk[d + 1] = p[c + 1];
    blk[d + 2] = p[c + 2];
    if (bc1) blk[d + 3] = p[c + 3];
  }
}

/** The 4-entry RGBA palette of the colour block at `o`, into `s.colors`. */
function colorPalette(src: Uint8Array, o: number, s: Scratch, bc1: boolean): void {
  const c0 = src[o] | (src[o + 1] << 8);
  const c1 = src[o + 2] | (src[o + 3] << 8);
  const p = s.colors;
  const r0 = (c0 >> 11) & 31,
    g0 = (c0 >> 5) & 63,
    b0 = c0 & 31;
  const r1 = (c1 >> 11) & 31,
    g1 = (c1 >> 5) & 63,
    b1 = c1 & 31;
  p[0] = (r0 << 3) | (r0 >> 2);
  p[1] = (g0 << 2) | (g0 >> 4);
  p[2] = (b0 << 3) | (b0 >> 2);
  p[3] = 255;
  p[4] = (r1 << 3) | (r1 >> 2);
  p[5] = (g1 << 2) | (g1 >> 4);
  p[6] = (b1 << 3) | (b1 >> 2);
  p[7] = 255;
  if (c0 > c1 || !bc1) {
    for (let k = 0; k < 3; k++) {
      p[8 + k] = ((2 * p[k] + p[4 + k] + 1) / 3) | 0;
      p[12 + k] = ((p[k] + 2 * p[4 + k] + 1) / 3) | 0;
    }
    p[11] = 255;
    p[15] = 255;
  } else {
    for (let k = 0; k < 3; k++) {
      p[8 + k] = (p[k] + p[4 + k] + 1) >> 1;
      p[12 + k] = 0;
    }
    p[11] = 255;
    p[15] = 0;
  }
}

/** A BC4-style block at `o` into channel `ch` of `blk`. */
function channelBlock(src: Uint8Array, o: number, s: Scratch, blk: Uint8Array, ch: number): void {
  alphaPalette(src, o, s);
  const v = s.values;
  // 48 bits of indices as two 24-bit halves: pixels 0-7, then 8-15.
  const lo = src[o + 2] | (src[o + 3] << 8) | (src[o + 4] << 16);
  const hi = src[o + 5] | (src[o + 6] << 8) | (src[o + 7] << 16);
  for (let i = 0; i < 8; i++) {
    blk[(i << 2) + ch] = v[(lo >> (3 * i)) & 7];
    blk[((i + 8) << 2) + ch] = v[(hi >> (3 * i)) & 7];
  }
}

/** The 8-entry palette of the BC4-style block at `o`, into `s.values`. */
function alphaPalette(src: Uint8Array, o: number, s: Scratch): void {
  const v = s.values;
  const a = src[o];
  const b = src[o + 1];
  v[0] = a;
  v[1] = b;
  if (a > b) {
    for (let k = 1; k <= 6; k++) v[1 + k] = (((7 - k) * a + k * b + 3) / 7) | 0;
  } else {
    for (let k = 1; k <= 4; k++) v[1 + k] = (((5 - k) * a + k * b + 2) / 5) | 0;
    v[6] = 0;
    v[7] = 255;
  }
}

/** BC2's explicit 4-bit alpha at `o` into A of `blk`. */
function explicitAlpha(src: Uint8Array, o: number, blk: Uint8Array): void {
  for (let i = 0; i < 16; i++) {
    const byte = src[o + (i >> 1)];
    blk[(i << 2) + 3] = ((i & 1 ? byte >> 4 : byte) & 15) * 17;
  }
}

/** Whether 32-bit words are little-endian here, so an RGBA pixel packs as R | G<<8 | B<<16 | A<<24. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * BC1 and BC3, the game's common formats, on whole 4x4 blocks: pixels are written as 32-bit words
 * straight into the image from a packed palette. Edge blocks of sizes that are not multiples of
 * 4 go through `decodeBlocks`' clipped path.
 */
function decodeColorBlocksFast(bc3: boolean, src: Uint8Array, offset: number, width: number, height: number, out: Uint8Array): void {
  const s = new Scratch();
  const pal = new Uint32Array(s.colors.buffer);
  const out32 = new Uint32Array(out.buffer, out.byteOffset, out.length >> 2);
  const v = s.values;
  const bw = width >> 2;
  const bh = height >> 2;
  const step = bc3 ? 16 : 8;
  let o = offset;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, o += step) {
      const c = bc3 ? o + 8 : o;
      colorPalette(src, c, s, !bc3);
      const idx = (src[c + 4] | (src[c + 5] << 8) | (src[c + 6] << 16) | (src[c + 7] << 24)) >>> 0;
      let lo = 0;
      let hi = 0;
      if (bc3) {
        alphaPalette(src, o, s);
        lo = src[o + 2] | (src[o + 3] << 8) | (src[o + 4] << 16);
        hi = src[o + 5] | (src[o + 6] << 8) | (src[o + 7] << 16);
      }
      for (let y = 0; y < 4; y++) {
        const row = ((by << 2) + y) * width + (bx << 2);
        for (let x = 0; x < 4; x++) {
          const i = (y << 2) + x;
          let px = pal[(idx >>> (2 * i)) & 3];
          if (bc3) px = (px & 0x00ffffff) | (v[i < 8 ? (lo >> (3 * i)) & 7 : (hi >> (3 * (i - 8))) & 7] << 24);
          out32[row + x] = px;
        }
      }
    }
  }
}

function decodeBlocks(decoder: 'BC1' | 'BC2' | 'BC3' | 'BC4' | 'BC5', src: Uint8Array, offset: number, width: number, height: number, out: Uint8Array): void {
  if ((decoder === 'BC1' || decoder === 'BC3') && LITTLE_ENDIAN && width % 4 === 0 && height % 4 === 0 && out.byteOffset % 4 === 0) {
    decodeColorBlocksFast(decoder === 'BC3', src, offset, width, height, out);
    return;
  }
  const s = new Scratch();
  const blk = s.block;
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const step = BLOCK_BYTES[decoder];
  let o = offset;
  if (decoder === 'BC4' || decoder === 'BC5') {
    // Fixed channels: B = 0 (and G = 0 for BC4), A = 255.
    for (let i = 0; i < 16; i++) {
      blk[(i << 2) + 1] = 0;
      blk[(i << 2) + 2] = 0;
      blk[(i << 2) + 3] = 255;
    }
  }
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, o += step) {
      switch (decoder) {
        case 'BC1':
          colorBlock(src, o, s, true, blk);
          break;
        case 'BC2':
          explicitAlpha(src, o, blk);
          colorBlock(src, o + 8, s, false, blk);
          break;
        case 'BC3':
          channelBlock(src, o, s, blk, 3);
          colorBlock(src, o + 8, s, false, blk);
          break;
        case 'BC4':
          channelBlock(src, o, s, blk, 0);
          break;
        case 'BC5':
          channelBlock(src, o, s, blk, 0);
          channelBlock(src, o + 8, s, blk, 1);
          break;
      }
      storeBlock(out, blk, width, height, bx, by);
    }
  }
}
