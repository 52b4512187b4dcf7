/**
 * The DDS format table: which DXGI code, legacy FourCC, D3DFORMAT number or legacy pixel-format
 * mask set names which format, its size per block or pixel, and which decoder (if any) reads it.
 */
import { DDPF_ALPHA, DDPF_ALPHAPIXELS, DDPF_FOURCC, DDPF_LUMINANCE, DDPF_RGB, DdsDecoder, DdsDx10Header, DdsFormat, DdsPixelFormat } from './ddsLayout';

export const hex = (v: number): string => '0x' + v.toString(16).toUpperCase();

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
export function resolveFormat(pf: DdsPixelFormat, dx10: DdsDx10Header | undefined): DdsFormat {
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
