/**
 * The DDS layout (Microsoft's public DDS documentation: "DDS_HEADER", "DDS_PIXELFORMAT",
 * "DDS_HEADER_DXT10"): its sizes and flag values, and the records ./dds.ts reads into.
 */

export const DDS_MAGIC = 0x20534444; // "DDS " as a little-endian u32
export const DDS_HEADER_SIZE = 124;
export const DDS_PIXELFORMAT_SIZE = 32;
export const DDS_DX10_HEADER_SIZE = 20;
/** Bytes before the surface data: magic + header (+ DX10 header). */
export const DDS_BASE_DATA_OFFSET = 4 + DDS_HEADER_SIZE;

// DDS_HEADER.flags
export const DDSD_MIPMAPCOUNT = 0x20000;
// DDS_PIXELFORMAT.flags
export const DDPF_ALPHAPIXELS = 0x1;
export const DDPF_ALPHA = 0x2;
export const DDPF_FOURCC = 0x4;
export const DDPF_RGB = 0x40;
export const DDPF_LUMINANCE = 0x20000;
// caps2
export const DDSCAPS2_CUBEMAP = 0x200;
export const DDSCAPS2_CUBEMAP_FACES = 0xfc00;
export const DDSCAPS2_VOLUME = 0x200000;
// DX10 resourceDimension / miscFlag
export const DDS_DIMENSION_TEXTURE1D = 2;
export const DDS_DIMENSION_TEXTURE3D = 4;
export const DDS_RESOURCE_MISC_TEXTURECUBE = 0x4;

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
