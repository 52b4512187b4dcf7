/**
 * DDS reader (DirectDraw Surface), the payload of every TEXR texture (formats-public §4: a TEXR
 * header is followed by a verbatim .dds file). Layout from Microsoft's public DDS documentation
 * ("DDS_HEADER", "DDS_PIXELFORMAT", "DDS_HEADER_DXT10", "Programming Guide for DDS"):
 *
 *   0x00  "DDS "
 *   0x04  DDS_HEADER (124 bytes): u32 size (=124), flags, height, width, pitchOrLinearSize, depth,
 *         mipMapCount, u32 reserved1[11],
 *         0x4C DDS_PIXELFORMAT (32 bytes): size (=32), flags, fourCC, rgbBitCount, r/g/b/a masks,
 *         0x6C caps, caps2, caps3, caps4, reserved2
 *   0x80  DDS_HEADER_DXT10 (20 bytes) when fourCC = "DX10": dxgiFormat, resourceDimension,
 *         miscFlag, arraySize, miscFlags2
 *         surface data: for each array slice (cube faces in +X,-X,+Y,-Y,+Z,-Z order), every mip
 *         level from the largest down, each level `depth` slices deep; no padding in between.
 *
 * Block-compressed levels are ceil(w/4) x ceil(h/4) blocks (at least one each way) of 8 (BC1,
 * BC4) or 16 bytes (BC2, BC3, BC5, BC6H, BC7). The whole layout is computed and checked against
 * the data length before anything is returned, so a decoder can trust every level's range.
 * Formats this build does not decode are still described (name, layout) with
 * `decodable: false`; a format whose size per pixel is unknown gets no mip table and a note.
 */
import { Arch06Error } from '../../errors';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';

export const DDS_MAGIC = 0x20534444; // "DDS " as a little-endian u32
export const DDS_HEADER_SIZE = 124;
export const DDS_PIXELFORMAT_SIZE = 32;
const DDS_DX10_HEADER_SIZE = 20;
/** Bytes before the surface data: magic + header (+ DX10 header). */
export const DDS_BASE_DATA_OFFSET = 4 + DDS_HEADER_SIZE;

// DDS_HEADER.flags
export const DDSD_MIPMAPCOUNT = 0x20000;
// DDS_PIXELFORMAT.flags
export const DDPF_ALPHAPIXELS = 0x1;
const DDPF_ALPHA = 0x2;
export const DDPF_FOURCC = 0x4;
export const DDPF_RGB = 0x40;
const DDPF_LUMINANCE = 0x20000;
// caps2
export const DDSCAPS2_CUBEMAP = 0x200;
export const DDSCAPS2_CUBEMAP_FACES = 0xfc00;
const DDSCAPS2_VOLUME = 0x200000;
// DX10 resourceDimension / miscFlag
const DDS_DIMENSION_TEXTURE1D = 2;
const DDS_DIMENSION_TEXTURE3D = 4;
const DDS_RESOURCE_MISC_TEXTURECUBE = 0x4;

/** Largest width/height/depth accepted (D3D11's 16384, doubled for headroom). */
export const DDS_MAX_DIMENSION = 32768;

/** Which decoder in core/image/bcn.ts handles a format. */
export type DdsDecoder = 'BC1' | 'BC2' | 'BC3' | 'BC4' | 'BC5' | 'BC6H_UF16' | 'BC6H_SF16' | 'BC7' | 'RGBA8' | 'BGRA8' | 'BGRX8' | 'R8' | 'RG8' | 'A8';

/** Whether a decoder yields HDR floats (BC6H), which previews tone-map. */
export function isHdrDecoder(decoder: DdsDecoder | undefined): decoder is 'BC6H_UF16' | 'BC6H_SF16' {
  return decoder === 'BC6H_UF16' || decoder === 'BC6H_SF16';
}

export interface DdsFormat {
  /** DXGI-style name, e.g. BC3_UNORM; legacy formats without a DXGI code get a descriptive name. */
  name: string;
  /** The DXGI_FORMAT code, when there is one. */
  dxgi?: number;
  /** Bytes per 4x4 block (block-compressed formats). */
  blockBytes?: number;
  /** Bytes per pixel (uncompressed formats). */
  bytesPerPixel?: number;
  /** The DXGI code names an sRGB variant (TEXR files always store UNORM: seed 004). */
  srgb: boolean;
  decoder?: DdsDecoder;
  decodable: boolean;
  /** Why `decodable` is false. */
  reason?: string;
  /** DXT2/DXT4: colour premultiplied by alpha (decoded as DXT3/DXT5, not un-premultiplied). */
  premultiplied?: boolean;
}

export interface DdsPixelFormat {
  size: number;
  flags: number;
  /** The FourCC as text when DDPF_FOURCC is set and it is printable, else undefined. */
  fourCC?: string;
  fourCCRaw: number;
  rgbBitCount: number;
  rMask: number;
  gMask: number;
  bMask: number;
  aMask: number;
}

export interface DdsHeader {
  size: number;
  flags: number;
  height: number;
  width: number;
  pitchOrLinearSize: number;
  depth: number;
  mipMapCount: number;
  reserved1: number[];
  pixelFormat: DdsPixelFormat;
  caps: number;
  caps2: number;
  caps3: number;
  caps4: number;
  reserved2: number;
}

export interface DdsDx10Header {
  dxgiFormat: number;
  resourceDimension: number;
  miscFlag: number;
  arraySize: number;
  miscFlags2: number;
}

export interface DdsLevel {
  /** Surface index: array slice x faces + face. */
  slice: number;
  mip: number;
  width: number;
  height: number;
  depth: number;
  /** Absolute offset in the bytes given to `parseDds`. */
  offset: number;
  size: number;
}

export interface DdsFile {
  file: string;
  /** Where "DDS " starts in the bytes given to `parseDds`. */
  start: number;
  /** End of the DDS (the end of the bytes given). */
  end: number;
  header: DdsHeader;
  dx10?: DdsDx10Header;
  format: DdsFormat;
  width: number;
  height: number;
  depth: number;
  mipCount: number;
  /** Faces per array element: 6 for a cube map, else 1. */
  faces: number;
  /** DX10 arraySize (1 for legacy files). */
  arraySize: number;
  /** Surfaces stored one after another: arraySize x faces. */
  surfaces: number;
  dimension: '1D' | '2D' | '3D' | 'cube';
  /** Absolute offset of the first level. */
  dataOffset: number;
  /** Every level of every surface, surface-major; empty when the format's size is unknown. */
  levels: DdsLevel[];
  /** Absolute offset just past the last level (= dataOffset when `levels` is empty). */
  dataEnd: number;
  notes: string[];
}

const fourCCText = (v: number): string => String.fromCharCode(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
const hex = (v: number): string => '0x' + v.toString(16).toUpperCase();

const bc = (name: string, dxgi: number, blockBytes: number, decoder?: DdsDecoder, srgb = false): DdsFormat => ({
  name,
  dxgi,
  blockBytes,
  srgb,
  decoder,
  decodable: decoder !== undefined,
  reason: decoder ? undefined : `${name} is not decoded in this build`,
});
const px = (name: string, dxgi: number | undefined, bytesPerPixel: number, decoder?: DdsDecoder, srgb = false): DdsFormat => ({
  name,
  dxgi,
  bytesPerPixel,
  srgb,
  decoder,
  decodable: decoder !== undefined,
  reason: decoder ? undefined : `${name} is not decoded in this build`,
});

/** DXGI formats this reader can lay out (DXGI_FORMAT enumeration, Microsoft docs). */
const DXGI: Record<number, () => DdsFormat> = {
  2: () => px('R32G32B32A32_FLOAT', 2, 16),
  10: () => px('R16G16B16A16_FLOAT', 10, 8),
  11: () => px('R16G16B16A16_UNORM', 11, 8),
  24: () => px('R10G10B10A2_UNORM', 24, 4),
  27: () => px('R8G8B8A8_TYPELESS', 27, 4, 'RGBA8'),
  28: () => px('R8G8B8A8_UNORM', 28, 4, 'RGBA8'),
  29: () => px('R8G8B8A8_UNORM_SRGB', 29, 4, 'RGBA8', true),
  34: () => px('R16G16_FLOAT', 34, 4),
  35: () => px('R16G16_UNORM', 35, 4),
  41: () => px('R32_FLOAT', 41, 4),
  48: () => px('R8G8_TYPELESS', 48, 2, 'RG8'),
  49: () => px('R8G8_UNORM', 49, 2, 'RG8'),
  54: () => px('R16_FLOAT', 54, 2),
  56: () => px('R16_UNORM', 56, 2),
  60: () => px('R8_TYPELESS', 60, 1, 'R8'),
  61: () => px('R8_UNORM', 61, 1, 'R8'),
  65: () => px('A8_UNORM', 65, 1, 'A8'),
  70: () => bc('BC1_TYPELESS', 70, 8, 'BC1'),
  71: () => bc('BC1_UNORM', 71, 8, 'BC1'),
  72: () => bc('BC1_UNORM_SRGB', 72, 8, 'BC1', true),
  73: () => bc('BC2_TYPELESS', 73, 16, 'BC2'),
  74: () => bc('BC2_UNORM', 74, 16, 'BC2'),
  75: () => bc('BC2_UNORM_SRGB', 75, 16, 'BC2', true),
  76: () => bc('BC3_TYPELESS', 76, 16, 'BC3'),
  77: () => bc('BC3_UNORM', 77, 16, 'BC3'),
  78: () => bc('BC3_UNORM_SRGB', 78, 16, 'BC3', true),
  79: () => bc('BC4_TYPELESS', 79, 8, 'BC4'),
  80: () => bc('BC4_UNORM', 80, 8, 'BC4'),
  81: () => bc('BC4_SNORM', 81, 8),
  82: () => bc('BC5_TYPELESS', 82, 16, 'BC5'),
  83: () => bc('BC5_UNORM', 83, 16, 'BC5'),
  84: () => bc('BC5_SNORM', 84, 16),
  85: () => px('B5G6R5_UNORM', 85, 2),
  86: () => px('B5G5R5A1_UNORM', 86, 2),
  87: () => px('B8G8R8A8_UNORM', 87, 4, 'BGRA8'),
  88: () => px('B8G8R8X8_UNORM', 88, 4, 'BGRX8'),
  90: () => px('B8G8R8A8_TYPELESS', 90, 4, 'BGRA8'),
  91: () => px('B8G8R8A8_UNORM_SRGB', 91, 4, 'BGRA8', true),
  92: () => px('B8G8R8X8_TYPELESS', 92, 4, 'BGRX8'),
  93: () => px('B8G8R8X8_UNORM_SRGB', 93, 4, 'BGRX8', true),
  // BC6H_TYPELESS does not say whether the halves are signed (UF16 or SF16), so it is not decoded.
  94: () => ({ ...bc('BC6H_TYPELESS', 94, 16), reason: 'BC6H_TYPELESS does not say signed or unsigned (UF16/SF16); not decoded' }),
  95: () => bc('BC6H_UF16', 95, 16, 'BC6H_UF16'),
  96: () => bc('BC6H_SF16', 96, 16, 'BC6H_SF16'),
  97: () => bc('BC7_TYPELESS', 97, 16, 'BC7'),
  98: () => bc('BC7_UNORM', 98, 16, 'BC7'),
  99: () => bc('BC7_UNORM_SRGB', 99, 16, 'BC7', true),
  115: () => px('B4G4R4A4_UNORM', 115, 2),
};

/** Legacy FourCC codes (Microsoft "Map Direct3D 9 Formats to Direct3D 10"). */
const FOURCC: Record<string, () => DdsFormat> = {
  DXT1: DXGI[71],
  DXT2: () => ({ ...DXGI[74](), premultiplied: true }),
  DXT3: DXGI[74],
  DXT4: () => ({ ...DXGI[77](), premultiplied: true }),
  DXT5: DXGI[77],
  ATI1: DXGI[80],
  BC4U: DXGI[80],
  BC4S: DXGI[81],
  ATI2: DXGI[83],
  BC5U: DXGI[83],
  BC5S: DXGI[84],
};
/** D3DFORMAT numbers stored in the fourCC field. */
const D3DFMT: Record<number, () => DdsFormat> = {
  36: DXGI[11], // A16B16G16R16
  111: DXGI[54], // R16F
  113: DXGI[10], // A16B16G16R16F
  114: DXGI[41], // R32F
  116: DXGI[2], // A32B32G32R32F
};

function unknownFormat(name: string, why: string): DdsFormat {
  return { name, srgb: false, decodable: false, reason: why };
}

/** The format a pixel-format block (and DX10 header) describes. */
function resolveFormat(pf: DdsPixelFormat, dx10: DdsDx10Header | undefined): DdsFormat {
  if (dx10) {
    const f = DXGI[dx10.dxgiFormat];
    return f ? f() : unknownFormat(`DXGI_${dx10.dxgiFormat}`, `DXGI format ${dx10.dxgiFormat} is not known to this reader`);
  }
  if (pf.flags & DDPF_FOURCC) {
    if (pf.fourCC && FOURCC[pf.fourCC]) return FOURCC[pf.fourCC]();
    if (D3DFMT[pf.fourCCRaw]) return D3DFMT[pf.fourCCRaw]();
    const label = pf.fourCC ?? hex(pf.fourCCRaw);
    return unknownFormat(`FOURCC_${label}`, `FourCC ${JSON.stringify(label)} is not known to this reader`);
  }
  const { rgbBitCount: bits, rMask: r, gMask: g, bMask: b, aMask: a } = pf;
  const hasAlpha = (pf.flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)) !== 0;
  if (pf.flags & DDPF_RGB) {
    if (bits === 32 && r === 0xff && g === 0xff00 && b === 0xff0000) {
      return hasAlpha && a === 0xff000000
        ? DXGI[28]()
        : { ...DXGI[28](), name: 'R8G8B8X8_UNORM', dxgi: undefined, decoder: 'RGBA8', reason: undefined, decodable: true };
    }
    if (bits === 32 && r === 0xff0000 && g === 0xff00 && b === 0xff) return hasAlpha && a === 0xff000000 ? DXGI[87]() : DXGI[88]();
    if (bits === 16 && r === 0xf800 && g === 0x7e0 && b === 0x1f) return DXGI[85]();
    if (bits === 16 && r === 0x7c00 && g === 0x3e0 && b === 0x1f) return DXGI[86]();
    if (bits === 16 && r === 0xf00 && g === 0xf0 && b === 0xf) return DXGI[115]();
    if (bits === 16 && r === 0xffff && g === 0xffff0000) return DXGI[35]();
    if (bits === 24 || bits === 8 || bits === 16 || bits === 32) {
      return px(`RGB${bits}_${hex(r)}_${hex(g)}_${hex(b)}_${hex(a)}`, undefined, bits / 8);
    }
  }
  if (pf.flags & DDPF_LUMINANCE) {
    if (bits === 8 && r === 0xff) return { ...DXGI[61](), name: 'L8 (as R8_UNORM)' };
    if (bits === 16 && r === 0xff && hasAlpha && a === 0xff00) return { ...DXGI[49](), name: 'A8L8 (as R8G8_UNORM: G = alpha)' };
    if (bits === 16 && r === 0xffff) return DXGI[56]();
  }
  if (pf.flags & DDPF_ALPHA && bits === 8 && a === 0xff) return DXGI[65]();
  if (bits > 0 && bits % 8 === 0 && bits <= 128) {
    return px(`LEGACY_${bits}BPP_${hex(pf.flags)}`, undefined, bits / 8);
  }
  return unknownFormat(`LEGACY_${hex(pf.flags)}_${bits}`, `pixel format flags ${hex(pf.flags)} with ${bits} bits per pixel are not known to this reader`);
}

/** Bytes of one level of `format` at w x h x d, or undefined when the format's size is unknown. */
export function levelSize(format: DdsFormat, w: number, h: number, d: number): number | undefined {
  if (format.blockBytes) return Math.max(1, Math.ceil(w / 4)) * Math.max(1, Math.ceil(h / 4)) * format.blockBytes * d;
  if (format.bytesPerPixel) return w * h * format.bytesPerPixel * d;
  return undefined;
}

/**
 * Parse the DDS that starts at `start` in `bytes` and runs to the end of `bytes`. All offsets
 * in the result and in errors are absolute in `bytes`. Throws `Arch06Error` (TRUNCATED,
 * BAD_MAGIC, INVALID, OUT_OF_RANGE) naming `file`, the offset and the field.
 */
export function parseDds(bytes: Uint8Array, file: string, start = 0, options: ParseOptions = {}): DdsFile {
  const end = bytes.length;
  if (!Number.isSafeInteger(start) || start < 0 || start > end) {
    throw new Arch06Error('OUT_OF_RANGE', 'DDS start outside the data', { file, offset: start, field: 'dds', expected: `0..${end}` });
  }
  const r = new FieldReader(bytes, file, { pos: start, spans: options.spans });
  expectMagicVersion(r, 'DDS ', null, 'DDS', { magicField: 'dds.magic' });
  const h = r.pos;
  r.need(DDS_HEADER_SIZE, 'dds.header');
  const size = r.u32('dds.header.size');
  const flags = r.u32('dds.header.flags');
  const headerHeight = r.u32('dds.header.height');
  const headerWidth = r.u32('dds.header.width');
  const pitchOrLinearSize = r.u32('dds.header.pitchOrLinearSize');
  const headerDepth = r.u32('dds.header.depth');
  const mipMapCount = r.u32('dds.header.mipMapCount');
  const reserved1: number[] = [];
  for (let i = 0; i < 11; i++) reserved1.push(r.u32(`dds.header.reserved1[${i}]`));
  const pfAt = r.pos;
  const pfSize = r.u32('dds.header.pixelFormat.size');
  const pfFlags = r.u32('dds.header.pixelFormat.flags');
  const fourCCRaw = r.u32('dds.header.pixelFormat.fourCC');
  const rgbBitCount = r.u32('dds.header.pixelFormat.rgbBitCount');
  const rMask = r.u32('dds.header.pixelFormat.rMask');
  const gMask = r.u32('dds.header.pixelFormat.gMask');
  const bMask = r.u32('dds.header.pixelFormat.bMask');
  const aMask = r.u32('dds.header.pixelFormat.aMask');
  const caps = r.u32('dds.header.caps');
  const caps2 = r.u32('dds.header.caps2');
  const caps3 = r.u32('dds.header.caps3');
  const caps4 = r.u32('dds.header.caps4');
  const reserved2 = r.u32('dds.header.reserved2');
  if (size !== DDS_HEADER_SIZE) {
    throw new Arch06Error('INVALID', 'DDS_HEADER.size must be 124', { file, offset: h, field: 'dds.header.size', expected: '124', actual: String(size) });
  }
  if (pfSize !== DDS_PIXELFORMAT_SIZE) {
    throw new Arch06Error('INVALID', 'DDS_PIXELFORMAT.size must be 32', {
      file,
      offset: pfAt,
      field: 'dds.header.pixelFormat.size',
      expected: '32',
      actual: String(pfSize),
    });
  }
  const fcText = fourCCText(fourCCRaw);
  const pixelFormat: DdsPixelFormat = {
    size: pfSize,
    flags: pfFlags,
    fourCC: pfFlags & DDPF_FOURCC && /^[\x20-\x7e]{4}$/.test(fcText) ? fcText : undefined,
    fourCCRaw,
    rgbBitCount,
    rMask,
    gMask,
    bMask,
    aMask,
  };
  const header: DdsHeader = {
    size,
    flags,
    height: headerHeight,
    width: headerWidth,
    pitchOrLinearSize,
    depth: headerDepth,
    mipMapCount,
    reserved1,
    pixelFormat,
    caps,
    caps2,
    caps3,
    caps4,
    reserved2,
  };
  const notes: string[] = [];
  let dataOffset = start + DDS_BASE_DATA_OFFSET;
  let dx10: DdsDx10Header | undefined;
  if (pfFlags & DDPF_FOURCC && fcText === 'DX10') {
    r.need(DDS_DX10_HEADER_SIZE, 'dds.dx10');
    const x = dataOffset;
    dx10 = {
      dxgiFormat: r.u32('dds.dx10.dxgiFormat'),
      resourceDimension: r.u32('dds.dx10.resourceDimension'),
      miscFlag: r.u32('dds.dx10.miscFlag'),
      arraySize: r.u32('dds.dx10.arraySize'),
      miscFlags2: r.u32('dds.dx10.miscFlags2'),
    };
    dataOffset += DDS_DX10_HEADER_SIZE;
    if (dx10.resourceDimension < DDS_DIMENSION_TEXTURE1D || dx10.resourceDimension > DDS_DIMENSION_TEXTURE3D) {
      throw new Arch06Error('INVALID', 'DX10 resourceDimension must be 2 (1D), 3 (2D) or 4 (3D)', {
        file,
        offset: x + 4,
        field: 'dds.dx10.resourceDimension',
        expected: '2, 3 or 4',
        actual: String(dx10.resourceDimension),
      });
    }
    if (dx10.arraySize === 0) {
      throw new Arch06Error('INVALID', 'DX10 arraySize must be at least 1', {
        file,
        offset: x + 12,
        field: 'dds.dx10.arraySize',
        expected: '>= 1',
        actual: '0',
      });
    }
  }

  // Dimensions.
  const width = header.width;
  const is1D = dx10?.resourceDimension === DDS_DIMENSION_TEXTURE1D;
  const height = is1D ? Math.max(1, header.height) : header.height;
  const volume = dx10 ? dx10.resourceDimension === DDS_DIMENSION_TEXTURE3D : (header.caps2 & DDSCAPS2_VOLUME) !== 0;
  const depth = volume ? header.depth : 1;
  const dim = (v: number, off: number, field: string): void => {
    if (v < 1 || v > DDS_MAX_DIMENSION) {
      throw new Arch06Error('OUT_OF_RANGE', `DDS ${field} outside 1..${DDS_MAX_DIMENSION}`, {
        file,
        offset: off,
        field: `dds.header.${field}`,
        expected: `1..${DDS_MAX_DIMENSION}`,
        actual: String(v),
      });
    }
  };
  dim(width, h + 12, 'width');
  dim(height, h + 8, 'height');
  dim(depth, h + 20, 'depth');
  const maxMips = 32 - Math.clz32(Math.max(width, height, depth));
  const mipCount = header.flags & DDSD_MIPMAPCOUNT || header.mipMapCount > 0 ? Math.max(1, header.mipMapCount) : 1;
  if (mipCount > maxMips) {
    throw new Arch06Error('OUT_OF_RANGE', `more mip levels than a ${width}x${height}x${depth} surface has`, {
      file,
      offset: h + 24,
      field: 'dds.header.mipMapCount',
      expected: `<= ${maxMips}`,
      actual: String(mipCount),
    });
  }
  if (!(header.flags & DDSD_MIPMAPCOUNT) && header.mipMapCount > 1) notes.push('mipMapCount is set without DDSD_MIPMAPCOUNT in flags; the count is used');

  let faces = 1;
  let cube = false;
  if (dx10) {
    if (dx10.miscFlag & DDS_RESOURCE_MISC_TEXTURECUBE) {
      faces = 6;
      cube = true;
    }
  } else if (header.caps2 & DDSCAPS2_CUBEMAP) {
    cube = true;
    let bitsSet = 0;
    for (let m = header.caps2 & DDSCAPS2_CUBEMAP_FACES; m; m &= m - 1) bitsSet++;
    faces = bitsSet;
    if (faces === 0)
      throw new Arch06Error('INVALID', 'a cube map names no faces', {
        file,
        offset: h + 0x6c,
        field: 'dds.header.caps2',
        expected: 'at least one DDSCAPS2_CUBEMAP_* face bit',
        actual: hex(header.caps2),
      });
    if (faces !== 6) notes.push(`partial cube map: ${faces} faces`);
  }
  const arraySize = dx10 ? dx10.arraySize : 1;
  // Every surface holds at least one byte, so a count beyond the data is impossible; check before the loop.
  const surfacesBig = arraySize * faces;
  if (surfacesBig > end - dataOffset) {
    throw new Arch06Error('TRUNCATED', 'more array slices than the file has bytes for', {
      file,
      offset: dx10 ? dataOffset - 8 : h,
      field: 'dds.dx10.arraySize',
      expected: `<= ${Math.max(0, end - dataOffset)} surfaces`,
      actual: String(surfacesBig),
    });
  }
  const surfaces = surfacesBig;
  const format = resolveFormat(pixelFormat, dx10);
  if (format.premultiplied) notes.push(`${pixelFormat.fourCC}: premultiplied alpha, decoded without un-premultiplying`);

  const levels: DdsLevel[] = [];
  let pos = dataOffset;
  if (levelSize(format, 1, 1, 1) === undefined) {
    notes.push(`the size of a ${format.name} level is unknown: no mip table, the surface data are not checked`);
  } else {
    for (let s = 0; s < surfaces; s++) {
      for (let m = 0; m < mipCount; m++) {
        const w = Math.max(1, width >>> m);
        const hh = Math.max(1, height >>> m);
        const d = Math.max(1, depth >>> m);
        const n = levelSize(format, w, hh, d)!;
        if (pos + n > end) {
          throw new Arch06Error('TRUNCATED', `mip level ${m} of surface ${s} (${w}x${hh}${d > 1 ? 'x' + d : ''} ${format.name}) runs past the end of the DDS`, {
            file,
            offset: pos,
            field: `dds.surface[${s}].mip[${m}]`,
            expected: `${n} bytes`,
            actual: `${Math.max(0, end - pos)} bytes`,
          });
        }
        levels.push({ slice: s, mip: m, width: w, height: hh, depth: d, offset: pos, size: n });
        pos += n;
      }
    }
    if (pos < end) notes.push(`${end - pos} bytes after the last mip level`);
    const top = levels[0].size / depth;
    if (header.pitchOrLinearSize !== 0 && format.blockBytes && header.pitchOrLinearSize !== top) {
      notes.push(`pitchOrLinearSize ${header.pitchOrLinearSize} differs from the top level's ${top} bytes (informational; not used)`);
    }
  }
  const dimension = cube ? 'cube' : volume ? '3D' : is1D ? '1D' : '2D';
  return {
    file,
    start,
    end,
    header,
    dx10,
    format,
    width,
    height,
    depth,
    mipCount,
    faces,
    arraySize,
    surfaces,
    dimension,
    dataOffset,
    levels,
    dataEnd: pos,
    notes,
  };
}

/** The level for (slice, mip), or a BAD_ARGUMENT error naming the valid ranges. */
export function ddsLevel(dds: DdsFile, slice: number, mip: number): DdsLevel {
  if (dds.levels.length === 0) {
    throw new Arch06Error('UNSUPPORTED_CODEC', `the layout of ${dds.format.name} is unknown`, { file: dds.file, field: 'dds.format', actual: dds.format.name });
  }
  if (!Number.isInteger(slice) || slice < 0 || slice >= dds.surfaces) {
    throw new Arch06Error('BAD_ARGUMENT', `slice ${slice} does not exist`, {
      file: dds.file,
      field: 'slice',
      expected: `0..${dds.surfaces - 1}`,
      actual: String(slice),
    });
  }
  if (!Number.isInteger(mip) || mip < 0 || mip >= dds.mipCount) {
    throw new Arch06Error('BAD_ARGUMENT', `mip ${mip} does not exist`, {
      file: dds.file,
      field: 'mip',
      expected: `0..${dds.mipCount - 1}`,
      actual: String(mip),
    });
  }
  return dds.levels[slice * dds.mipCount + mip];
}
