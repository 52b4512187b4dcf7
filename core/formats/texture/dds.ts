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
import { hex, levelSize, resolveFormat } from './ddsFormat';
import {
  DDPF_FOURCC,
  DDSCAPS2_CUBEMAP,
  DDSCAPS2_CUBEMAP_FACES,
  DDSCAPS2_VOLUME,
  DDSD_MIPMAPCOUNT,
  DDS_BASE_DATA_OFFSET,
  DDS_DIMENSION_TEXTURE1D,
  DDS_DIMENSION_TEXTURE3D,
  DDS_DX10_HEADER_SIZE,
  DDS_HEADER_SIZE,
  DDS_MAX_DIMENSION,
  DDS_PIXELFORMAT_SIZE,
  DDS_RESOURCE_MISC_TEXTURECUBE,
  DdsDx10Header,
  DdsFile,
  DdsFormat,
  DdsHeader,
  DdsLevel,
  DdsPixelFormat,
} from './ddsLayout';

export {
  DDPF_ALPHAPIXELS,
  DDPF_FOURCC,
  DDPF_RGB,
  DDSCAPS2_CUBEMAP,
  DDSCAPS2_CUBEMAP_FACES,
  DDSD_MIPMAPCOUNT,
  DDS_BASE_DATA_OFFSET,
  DDS_HEADER_SIZE,
  DDS_MAGIC,
  DDS_MAX_DIMENSION,
  DDS_PIXELFORMAT_SIZE,
  isHdrDecoder,
} from './ddsLayout';
export type { DdsDecoder, DdsDx10Header, DdsFile, DdsFormat, DdsHeader, DdsLevel, DdsPixelFormat } from './ddsLayout';
export { levelSize } from './ddsFormat';

const fourCCText = (v: number): string => String.fromCharCode(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);

/** The surfaces a DDS stores and their size: dimensions, mip count, faces and array slices. */
interface DdsGeometry {
  width: number;
  height: number;
  depth: number;
  is1D: boolean;
  volume: boolean;
  cube: boolean;
  mipCount: number;
  faces: number;
  arraySize: number;
  surfaces: number;
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
  const header = readHeader(r);
  const notes: string[] = [];
  let dataOffset = start + DDS_BASE_DATA_OFFSET;
  let dx10: DdsDx10Header | undefined;
  if (header.pixelFormat.flags & DDPF_FOURCC && fourCCText(header.pixelFormat.fourCCRaw) === 'DX10') {
    dx10 = readDx10Header(r, dataOffset);
    dataOffset += DDS_DX10_HEADER_SIZE;
  }
  const g = readGeometry(file, h, header, dx10, dataOffset, end, notes);
  const format = resolveFormat(header.pixelFormat, dx10);
  if (format.premultiplied) notes.push(`${header.pixelFormat.fourCC}: premultiplied alpha, decoded without un-premultiplying`);
  const { levels, dataEnd } = layoutLevels(file, header, format, g, dataOffset, end, notes);
  const { width, height, depth, mipCount, faces, arraySize, surfaces } = g;
  const dimension = g.cube ? 'cube' : g.volume ? '3D' : g.is1D ? '1D' : '2D';
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
    dataEnd,
    notes,
  };
}

/** DDS_HEADER with its DDS_PIXELFORMAT (124 bytes after the magic); both size fields checked. */
function readHeader(r: FieldReader): DdsHeader {
  const { file } = r;
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
  return {
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
}

/** DDS_HEADER_DXT10 (20 bytes at `x`, when the FourCC is "DX10"): resource dimension and array size checked. */
function readDx10Header(r: FieldReader, x: number): DdsDx10Header {
  const { file } = r;
  r.need(DDS_DX10_HEADER_SIZE, 'dds.dx10');
  const dx10: DdsDx10Header = {
    dxgiFormat: r.u32('dds.dx10.dxgiFormat'),
    resourceDimension: r.u32('dds.dx10.resourceDimension'),
    miscFlag: r.u32('dds.dx10.miscFlag'),
    arraySize: r.u32('dds.dx10.arraySize'),
    miscFlags2: r.u32('dds.dx10.miscFlags2'),
  };
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
  return dx10;
}

/** The dimensions and mip count (checked against each other), then the faces and array slices. `h` is the header's offset. */
function readGeometry(
  file: string,
  h: number,
  header: DdsHeader,
  dx10: DdsDx10Header | undefined,
  dataOffset: number,
  end: number,
  notes: string[],
): DdsGeometry {
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
  const { faces, cube } = readFaces(file, h, header, dx10, notes);
  const arraySize = dx10 ? dx10.arraySize : 1;
  // Every surface holds at least one byte, so a count beyond the data is impossible; check before the loop.
  const surfaces = arraySize * faces;
  if (surfaces > end - dataOffset) {
    throw new Arch06Error('TRUNCATED', 'more array slices than the file has bytes for', {
      file,
      offset: dx10 ? dataOffset - 8 : h,
      field: 'dds.dx10.arraySize',
      expected: `<= ${Math.max(0, end - dataOffset)} surfaces`,
      actual: String(surfaces),
    });
  }
  return { width, height, depth, is1D, volume, cube, mipCount, faces, arraySize, surfaces };
}

/** Cube faces: six from the DX10 cube flag, else one per DDSCAPS2_CUBEMAP_* bit of a legacy cube map. */
function readFaces(file: string, h: number, header: DdsHeader, dx10: DdsDx10Header | undefined, notes: string[]): { faces: number; cube: boolean } {
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
  return { faces, cube };
}

/** Every mip level of every surface laid out from `dataOffset` and checked against the end of the data. */
function layoutLevels(
  file: string,
  header: DdsHeader,
  format: DdsFormat,
  g: DdsGeometry,
  dataOffset: number,
  end: number,
  notes: string[],
): { levels: DdsLevel[]; dataEnd: number } {
  const { width, height, depth, mipCount, surfaces } = g;
  const levels: DdsLevel[] = [];
  let pos = dataOffset;
  if (levelSize(format, 1, 1, 1) === undefined) {
    notes.push(`the size of a ${format.name} level is unknown: no mip table, the surface data are not checked`);
    return { levels, dataEnd: pos };
  }
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
  return { levels, dataEnd: pos };
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
