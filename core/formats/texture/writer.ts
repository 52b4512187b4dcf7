/**
 * Writers for the texture formats ./dds.ts and ./texr.ts read (layouts in their file-top
 * comments): a legacy-header DDS (BC1 / BC3 as FourCC DXT1 / DXT5, or 32-bit RGBA masks) and a
 * TEXR v8 header in front of it. Also a tiny BC1 encoder for synthetic pictures (per-block
 * endpoints and index patterns, no colour fitting), so the sample install can ship a texture
 * without any external encoder or game data.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { FieldReader } from '../../io/fieldReader';
import { tagValue } from '../../io/magic';
import {
  DDPF_ALPHAPIXELS,
  DDPF_FOURCC,
  DDPF_RGB,
  DDS_BASE_DATA_OFFSET,
  DDS_HEADER_SIZE,
  DDS_MAGIC,
  DDS_MAX_DIMENSION,
  DDS_PIXELFORMAT_SIZE,
  DDSD_MIPMAPCOUNT,
} from './dds';
import { TEXR_MAGIC, TEXR_PATH_LENGTH_OFFSET, TEXR_VERSION } from './texr';
import { TEXA_MAGIC, TEXA_VERSION } from './texa';

// DDS_HEADER.flags / caps (Microsoft "DDS_HEADER").
const DDSD_CAPS = 0x1;
const DDSD_HEIGHT = 0x2;
const DDSD_WIDTH = 0x4;
const DDSD_PITCH = 0x8;
const DDSD_PIXELFORMAT = 0x1000;
const DDSD_LINEARSIZE = 0x80000;
const DDSCAPS_COMPLEX = 0x8;
const DDSCAPS_TEXTURE = 0x1000;
const DDSCAPS_MIPMAP = 0x400000;

export type DdsWriteFormat = 'BC1' | 'BC3' | 'RGBA8';

export interface DdsWriteSpec {
  width: number;
  height: number;
  format: DdsWriteFormat;
  /** Level payloads, top (largest) first; each exactly the size its level needs. */
  mips: Uint8Array[];
  /**
   * Further array slices, each a mip chain like `mips`. When present the file gets a DX10
   * header whose arraySize is 1 + extraSlices.length, slices stored one after another with
   * full mip chains (the TEXA layout of seed 004).
   */
  extraSlices?: Uint8Array[][];
}

/** DXGI codes for the DX10 header (Microsoft DXGI_FORMAT): BC1_UNORM, BC3_UNORM, R8G8B8A8_UNORM. */
const DXGI_OF: Record<DdsWriteFormat, number> = { BC1: 71, BC3: 77, RGBA8: 28 };
const DDS_DX10_FOURCC = 0x30315844; // "DX10"
const DX10_HEADER_BYTES = 20;

/** Bytes of one w x h level of `format`. */
export function ddsLevelBytes(format: DdsWriteFormat, w: number, h: number): number {
  if (format === 'RGBA8') return w * h * 4;
  return Math.max(1, Math.ceil(w / 4)) * Math.max(1, Math.ceil(h / 4)) * (format === 'BC1' ? 8 : 16);
}

const bad = (message: string, field: string, expected: string, actual: string): Arch06Error =>
  new Arch06Error('BAD_ARGUMENT', message, { file: 'dds', field, expected, actual });

/** A DDS file (legacy header, no DX10 extension) holding `spec`'s mip chain. */
export function writeDds(spec: DdsWriteSpec): Uint8Array {
  const { width, height, format, mips } = spec;
  const slices = [mips, ...(spec.extraSlices ?? [])];
  const dx10 = slices.length > 1;
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(v) || v < 1 || v > DDS_MAX_DIMENSION)
      throw bad(`DDS ${name} outside 1..${DDS_MAX_DIMENSION}`, name, `1..${DDS_MAX_DIMENSION}`, String(v));
  }
  const maxMips = 32 - Math.clz32(Math.max(width, height));
  if (mips.length < 1 || mips.length > maxMips)
    throw bad(`a ${width}x${height} DDS has 1..${maxMips} mip levels`, 'mips', `1..${maxMips}`, String(mips.length));
  let total = 0;
  slices.forEach((chain, s) => {
    if (chain.length !== mips.length)
      throw bad(`slice ${s} has ${chain.length} mips, slice 0 has ${mips.length}`, `slices[${s}]`, `${mips.length} mips`, String(chain.length));
    chain.forEach((m, i) => {
      const n = ddsLevelBytes(format, Math.max(1, width >>> i), Math.max(1, height >>> i));
      if (m.length !== n) throw bad(`mip ${i} of slice ${s} has the wrong size`, `mips[${i}]`, `${n} bytes`, `${m.length} bytes`);
      total += n;
    });
  });

  const dataAt = DDS_BASE_DATA_OFFSET + (dx10 ? DX10_HEADER_BYTES : 0);
  // The headers are laid out by offset (fields the writer leaves alone stay zero), then the levels follow.
  const w = new ByteWriter(dataAt + total).zeros(dataAt);
  const w32 = (o: number, x: number): void => w.setU32(o, x);
  const h = 4;
  const compressed = format !== 'RGBA8';
  const mipmapped = mips.length > 1;
  w32(0, DDS_MAGIC);
  w32(h, DDS_HEADER_SIZE);
  w32(h + 4, DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | (compressed ? DDSD_LINEARSIZE : DDSD_PITCH) | (mipmapped ? DDSD_MIPMAPCOUNT : 0));
  w32(h + 8, height);
  w32(h + 12, width);
  // Compressed: the top level's byte size; uncompressed: bytes per row.
  w32(h + 16, compressed ? mips[0].length : width * 4);
  w32(h + 24, mips.length);
  const pf = h + 0x48;
  w32(pf, DDS_PIXELFORMAT_SIZE);
  if (dx10) {
    w32(pf + 4, DDPF_FOURCC);
    w32(pf + 8, DDS_DX10_FOURCC);
    const x = DDS_BASE_DATA_OFFSET;
    w32(x, DXGI_OF[format]);
    w32(x + 4, 3); // TEXTURE2D
    w32(x + 8, 0);
    w32(x + 12, slices.length);
    w32(x + 16, 0);
  } else if (compressed) {
    w32(pf + 4, DDPF_FOURCC);
    w32(pf + 8, tagValue(format === 'BC1' ? 'DXT1' : 'DXT5'));
  } else {
    w32(pf + 4, DDPF_RGB | DDPF_ALPHAPIXELS);
    w32(pf + 12, 32);
    w32(pf + 16, 0xff);
    w32(pf + 20, 0xff00);
    w32(pf + 24, 0xff0000);
    w32(pf + 28, 0xff000000);
  }
  w32(h + 0x68, DDSCAPS_TEXTURE | (mipmapped ? DDSCAPS_COMPLEX | DDSCAPS_MIPMAP : 0));
  for (const chain of slices) for (const m of chain) w.bytes(m);
  return w.toBytes();
}

// The fields of the one TEXR v8 sample (formats-public §4, fellbeast_body_d.tex), copied verbatim
// because their meaning is unknown; the reader keeps them raw and does not depend on them.
/** unk1 at +0x08: sample bytes 0C 0B 00 0D. */
const TEXR_SAMPLE_UNK1 = 0x0d000b0c;
/** unk2 at +0x0C: sample bytes 01 02 00 00. */
const TEXR_SAMPLE_UNK2 = 0x00000201;
/** unk3 at P: sample value 3. */
const TEXR_SAMPLE_UNK3 = 3;
/** The 18 bytes between the dimension pair and the DDS (P+5 .. P+23). */
export const TEXR_SAMPLE_UNK4: readonly number[] = [0x01, 0x00, 0x0d, 0x01, 0x4d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x02, 0x00, 0x00];

export interface TexrWriteSpec {
  /** The tier name field (latin1, not NUL-terminated), e.g. a .tex naming its .tex0. */
  path: string;
  /** The header's dimension pair (S2 "higherResolution"). */
  width: number;
  height: number;
  /** A whole DDS file, stored verbatim after the header. */
  dds: Uint8Array;
}

/** A TEXR v8 file: header (the DDS at P + 23, as in the sample), then `spec.dds`. */
export function writeTexr(spec: TexrWriteSpec): Uint8Array {
  const { path, width, height, dds } = spec;
  if (path.length > 0xffff || /[^\x00-\xff]/.test(path))
    throw bad('the name field must be latin1 and at most 65535 characters', 'path', 'latin1, <= 65535 chars', `${path.length} chars`);
  for (const [name, x] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(x) || x < 0 || x > 0xffff) throw bad(`the TEXR ${name} is a u16`, name, '0..65535', String(x));
  }
  if (new FieldReader(dds, 'dds').peekU32(0) !== DDS_MAGIC) throw bad('the payload must be a DDS file', 'dds', '"DDS "', `${dds.length} bytes`);
  const P = TEXR_PATH_LENGTH_OFFSET + 2 + path.length;
  const ddsAt = P + 5 + TEXR_SAMPLE_UNK4.length;
  const w = new ByteWriter(ddsAt + dds.length).u32(TEXR_MAGIC).u32(TEXR_VERSION).u32(TEXR_SAMPLE_UNK1).u32(TEXR_SAMPLE_UNK2);
  w.u16(path.length).latin1(path).u8(TEXR_SAMPLE_UNK3).u16(width).u16(height).bytes(TEXR_SAMPLE_UNK4).bytes(dds);
  return w.toBytes();
}

export interface TexaWriteSpec {
  /** The array's own path and one source path per slice. */
  path: string;
  slicePaths: string[];
  /** A DX10 DDS whose arraySize is slicePaths.length (writeDds with extraSlices). */
  dds: Uint8Array;
}

/**
 * A synthetic TEXA v1 array. The real header layout is not documented (formats-public §11), so
 * this writes the project's own framing of what seed 004 lists: "TEXA", u32 1, u32 slice count,
 * then u16-length-prefixed latin1 paths (own path, then one per slice), then the DDS. The reader
 * does not depend on this framing (it scans for the paths), so the sample cannot flatter it.
 */
export function writeTexa(spec: TexaWriteSpec): Uint8Array {
  const paths = [spec.path, ...spec.slicePaths];
  for (const p of paths) {
    if (p.length > 0xffff || /[^\x00-\xff]/.test(p))
      throw bad('TEXA paths must be latin1 and at most 65535 characters', 'path', 'latin1, <= 65535 chars', `${p.length} chars`);
  }
  const head = 12 + paths.reduce((n, p) => n + 2 + p.length, 0);
  const w = new ByteWriter(head + spec.dds.length).u32(TEXA_MAGIC).u32(TEXA_VERSION).u32(spec.slicePaths.length);
  for (const p of paths) w.u16(p.length).latin1(p);
  return w.bytes(spec.dds).toBytes();
}

// ---- BC1 for synthetic pictures ------------------------------------------------------------------

export type Rgb = readonly [number, number, number];

/** RGB888 to RGB565 (rounded). */
function rgb565(c: Rgb): number {
  const q = (x: number, bits: number): number => Math.round((Math.min(255, Math.max(0, x)) * ((1 << bits) - 1)) / 255);
  return (q(c[0], 5) << 11) | (q(c[1], 6) << 5) | q(c[2], 5);
}

/**
 * One BC1 block from two endpoint colours and 16 two-bit indices (pixel i = row * 4 + column;
 * 0 = c0, 1 = c1, 2 = 2/3 c0 + 1/3 c1, 3 = 1/3 c0 + 2/3 c1). Always opaque four-colour mode:
 * when c0 < c1 after quantising, the endpoints are swapped and the indices remapped; when they
 * quantise equal, every pixel takes c0 (index 3 would otherwise be transparent black).
 */
function encodeBc1Block(c0: Rgb, c1: Rgb, indices: ArrayLike<number>): Uint8Array {
  let a = rgb565(c0);
  let b = rgb565(c1);
  const idx = Array.from({ length: 16 }, (_, i) => indices[i] & 3);
  if (a === b) idx.fill(0);
  else if (a < b) {
    [a, b] = [b, a];
    const swap = [1, 0, 3, 2];
    for (let i = 0; i < 16; i++) idx[i] = swap[idx[i]];
  }
  let bits = 0;
  for (let i = 15; i >= 0; i--) bits = (bits * 4 + idx[i]) >>> 0;
  return Uint8Array.of(a & 0xff, a >> 8, b & 0xff, b >> 8, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, bits >>> 24);
}

/** A BC1 block of one colour. */
export function encodeBc1Solid(r: number, g: number, b: number): Uint8Array {
  return encodeBc1Block([r, g, b], [r, g, b], new Array<number>(16).fill(0));
}

/**
 * The index pattern of every picture block: a small diagonal ramp from c0 (top-left pixel, so a
 * block's corner shows its quadrant colour exactly) to c1 (bottom-right), by column + row.
 */
const BANNER_BLOCK_INDICES: readonly number[] = Array.from({ length: 16 }, (_, i) => [0, 0, 2, 2, 3, 3, 1][(i >> 2) + (i & 3)]);

export interface QuadrantPicture {
  /** Top-left, top-right, bottom-left, bottom-right colours (exact in RGB565 for exact decodes). */
  quadrants: readonly [Rgb, Rgb, Rgb, Rgb];
}

/**
 * One BC1 level of a size x size quadrant picture: each block's c0 is its quadrant's colour, its
 * c1 a grey that brightens along the main diagonal, so the image shows four coloured quadrants
 * with a diagonal gradient. Levels of one block (size <= 4) are the quadrants' average, solid.
 */
function bc1QuadrantLevel(size: number, pic: QuadrantPicture): Uint8Array {
  const nb = Math.max(1, Math.ceil(size / 4));
  if (nb === 1) {
    const avg = [0, 1, 2].map((k) => pic.quadrants.reduce((s, q) => s + q[k], 0) / 4);
    return encodeBc1Solid(avg[0], avg[1], avg[2]);
  }
  const out = new Uint8Array(nb * nb * 8);
  const half = nb / 2;
  for (let by = 0; by < nb; by++) {
    for (let bx = 0; bx < nb; bx++) {
      const q = pic.quadrants[(by >= half ? 2 : 0) + (bx >= half ? 1 : 0)];
      const g = Math.round((255 * (bx + by)) / (2 * (nb - 1)));
      out.set(encodeBc1Block(q, [g, g, g], BANNER_BLOCK_INDICES), (by * nb + bx) * 8);
    }
  }
  return out;
}

/** The full BC1 mip chain of a quadrant picture, size x size down to 1 x 1 (size a power of two). */
export function bc1QuadrantChain(size: number, pic: QuadrantPicture, levels = 32 - Math.clz32(size)): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let m = 0; m < levels; m++) out.push(bc1QuadrantLevel(Math.max(1, size >>> m), pic));
  return out;
}
