/**
 * A minimal PNG encoder for RGBA8 images (PNG specification, W3C / ISO 15948): the 8-byte
 * signature, IHDR (width, height, bit depth 8, colour type 6 = RGBA, compression 0, filter 0,
 * interlace 0), one IDAT holding the zlib stream of the scanlines (each prefixed by filter type
 * 0 = None), and IEND. Every chunk is u32 big-endian length, 4-byte type, data, CRC-32 (ISO 3309,
 * polynomial 0xEDB88320) over type and data. zlib comes from node:zlib; no dependency.
 */
import { deflateSync } from 'node:zlib';
import { Arch06Error } from '../../errors';
import { concatBytes } from '../../io/concat';

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
/** The PNG limit for width and height (2^31 - 1). */
const PNG_MAX_DIMENSION = 0x7fffffff;

const CRC_TABLE = ((): Uint32Array => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `bytes` (continuing from `crc`, which starts at 0). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export interface PngOptions {
  /** zlib level 0-9 (default 6). */
  level?: number;
}

/** Encode a width x height RGBA8 buffer (row-major, 4 bytes per pixel) as a PNG file. */
export function encodePng(rgba: Uint8Array, width: number, height: number, options: PngOptions = {}): Uint8Array {
  for (const [v, field] of [
    [width, 'width'],
    [height, 'height'],
  ] as const) {
    if (!Number.isInteger(v) || v < 1 || v > PNG_MAX_DIMENSION) {
      throw new Arch06Error('BAD_ARGUMENT', `PNG ${field} must be 1..2^31-1`, { field, actual: String(v) });
    }
  }
  const row = width * 4;
  if (rgba.length !== row * height) {
    throw new Arch06Error('BAD_ARGUMENT', 'pixel buffer size does not match the dimensions', {
      field: 'rgba',
      expected: `${row * height} bytes (${width}x${height}x4)`,
      actual: `${rgba.length} bytes`,
    });
  }
  const raw = new Uint8Array((row + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * row, (y + 1) * row), y * (row + 1) + 1); // filter byte 0
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  // compression, filter, interlace: 0
  const idat = deflateSync(raw, { level: options.level ?? 6 });
  const parts = [PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  return concatBytes(parts);
}
