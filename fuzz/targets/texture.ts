/**
 * Textures: DDS (legacy and DX10 headers), TEXR / SLVT wrappers, TEXA arrays, each parsed and a
 * preview level and the smallest level of a few slices decoded (as the texture editor and the
 * hover do), and the BCn decoders on their own (block bytes with a format and dimensions that
 * sometimes lie). Seeds: the writers' BC1, BC3 and RGBA8 files, DX10 files relabelled as every
 * other decoded format, the sample install's textures and the real fellbeast .tex and .dds.
 */
import { Arch06Error } from '../../core/errors';
import { type DdsDecoder, parseDds, parseTexa, parseTexr, parseTextureFile, writeDds, writeTexa, writeTexr } from '../../core/formats/texture';
import { bc1QuadrantChain, ddsLevelBytes } from '../../core/formats/texture/writer';
import { decodeLevel, decodeDdsLevel, decodeDdsLevelFloat } from '../../core/image';
import { decodeLevelFloat } from '../../core/image/bcn';
import { largestLevelWithin } from '../../core/image/previewLevel';
import { textureThumbnail } from '../../core/image/node';
import type { FieldSpan } from '../../core/io';
import { sampleTexture, sampleTextureArray, sampleTextureArrayTier0, sampleTextureTier0 } from '../../core/sample';
import { mutateBytes, type Seed } from '../mutate';
import type { Rng } from '../random';
import { realSample } from '../samples';
import { type FuzzCase, type FuzzTarget, withFields } from '../target';

const PIC = {
  quadrants: [
    [200, 10, 10],
    [10, 200, 10],
    [10, 10, 200],
    [200, 200, 10],
  ],
} as const;

const pattern = (n: number, k: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * k + (i >> 4)) & 0xff);

/** DXGI formats a DX10 file can be relabelled as, by block or pixel size. */
const RELABEL_16 = [74, 77, 83, 84, 95, 96, 98, 99];
const RELABEL_8 = [71, 80, 81];
const RELABEL_4 = [28, 87, 88];

/** A DX10 DDS (writeDds with extraSlices) whose format word names another format of the same block size. */
function relabelled(format: 'BC1' | 'BC3' | 'RGBA8', dxgi: number, size: number, slices: number): Uint8Array {
  const chain = (k: number): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (let s = size; s >= 1; s >>= 1) out.push(pattern(ddsLevelBytes(format, s, s), k + s));
    return out;
  };
  const bytes = writeDds({ width: size, height: size, format, mips: chain(1), extraSlices: Array.from({ length: slices - 1 }, (_, i) => chain(i + 2)) });
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(128, dxgi, true);
  return bytes;
}

function ddsSeeds(): { name: string; bytes: Uint8Array }[] {
  const out = [
    { name: 'BC1 64 full chain', bytes: writeDds({ width: 64, height: 64, format: 'BC1', mips: bc1QuadrantChain(64, PIC) }) },
    { name: 'BC3 32 two mips', bytes: writeDds({ width: 32, height: 32, format: 'BC3', mips: [pattern(1024, 3), pattern(256, 5)] }) },
    { name: 'RGBA8 8x4', bytes: writeDds({ width: 8, height: 4, format: 'RGBA8', mips: [pattern(128, 7)] }) },
  ];
  for (const dxgi of RELABEL_16) out.push({ name: `DX10 dxgi ${dxgi} 16x16`, bytes: relabelled('BC3', dxgi, 16, 2) });
  for (const dxgi of RELABEL_8) out.push({ name: `DX10 dxgi ${dxgi} 16x16`, bytes: relabelled('BC1', dxgi, 16, 1) });
  for (const dxgi of RELABEL_4) out.push({ name: `DX10 dxgi ${dxgi} 8x8`, bytes: relabelled('RGBA8', dxgi, 8, 2) });
  const real = realSample('fellbeast_body_d.dds');
  if (real) out.push({ name: 'fellbeast_body_d.dds (retail)', bytes: real });
  return out;
}

/** Parse any texture, then decode what the editor and the hover would: a preview level and the smallest level of up to three slices. */
function readTexture(bytes: Uint8Array, file: string, rnd: Rng): unknown {
  const t = parseTextureFile(bytes, file);
  const decoded: unknown[] = [];
  for (let slice = 0; slice < Math.min(3, t.dds.surfaces); slice++) {
    const preview = largestLevelWithin(t.dds, 256, slice);
    const smallest = t.dds.levels.filter((l) => l.slice === slice).pop();
    for (const level of [preview, smallest]) {
      if (!level) continue;
      try {
        if (t.dds.format.decoder === 'BC6H_UF16' || t.dds.format.decoder === 'BC6H_SF16') decoded.push(decodeDdsLevelFloat(t.dds, t.bytes, slice, level.mip));
        decoded.push(decodeDdsLevel(t.dds, t.bytes, slice, level.mip));
      } catch (e) {
        if (!(e instanceof Arch06Error)) throw e;
        decoded.push(e.code);
      }
    }
  }
  if (rnd.chance(0.1)) decoded.push(textureThumbnail(bytes, file));
  return { t, decoded };
}

const ddsFields = (name: string, bytes: Uint8Array): Seed => withFields(name, bytes, (b, spans) => parseDds(b, name, 0, { spans }));

export const dds: FuzzTarget = {
  name: 'dds',
  covers: 'DDS headers (legacy and DX10, every format the reader names), levels laid out and decoded',
  seeds: () => ddsSeeds().map((s) => ddsFields(s.name, s.bytes)),
  run: (c) => readTexture(c.bytes, 'fuzz.dds', c.rnd),
};

export const texr: FuzzTarget = {
  name: 'texr',
  covers: 'TEXR v8 / SLVT wrappers around a DDS: header fields, the name field, the dimension pair, levels decoded',
  seeds: () => {
    const parse = (b: Uint8Array, spans: FieldSpan[]): unknown => parseTexr(b, 'seed.tex', { spans });
    const out = [
      withFields('sample .tex', sampleTexture(), parse),
      withFields('sample .tex0', sampleTextureTier0(), parse),
      withFields('writer: BC3 in a long name', writeTexr({ path: 'x\\'.repeat(100) + 'y.tex', width: 32, height: 32, dds: ddsSeeds()[1].bytes }), parse),
    ];
    const real = realSample('fellbeast_body_d.tex');
    if (real) out.push(withFields('fellbeast_body_d.tex (retail)', real, parse));
    return out;
  },
  run: (c) => readTexture(c.bytes, 'fuzz.tex', c.rnd),
};

export const texa: FuzzTarget = {
  name: 'texa',
  covers: 'TEXA v1 texture arrays: the framing found by testing, the paths, every slice of the DDS',
  seeds: () => {
    const parse = (b: Uint8Array, spans: FieldSpan[]): unknown => parseTexa(b, 'seed.texa', { spans });
    return [
      withFields('sample .texa', sampleTextureArray(), parse),
      withFields('sample .texa0', sampleTextureArrayTier0(), parse),
      withFields('writer: one slice', writeTexa({ path: 'a.texa', slicePaths: ['s.tex'], dds: relabelled('BC1', 71, 8, 1) }), parse),
    ];
  },
  run: (c) => readTexture(c.bytes, 'fuzz.texa', c.rnd),
};

const DECODERS: DdsDecoder[] = ['BC1', 'BC2', 'BC3', 'BC4', 'BC5', 'BC7', 'BC6H_UF16', 'BC6H_SF16', 'RGBA8', 'BGRA8', 'BGRX8', 'R8', 'RG8', 'A8'];
const BLOCK_OR_PIXEL: Partial<Record<DdsDecoder, number>> = { BC1: 8, BC4: 8, RGBA8: 4, BGRA8: 4, BGRX8: 4, R8: 1, RG8: 2, A8: 1 };

interface BcnParam {
  decoder: DdsDecoder;
  offset: number;
  width: number;
  height: number;
}

/** Block bytes with a format and dimensions that fit them, or lie (too large, zero, odd, offset past the end). */
function mutateBlocks(seed: Seed, rnd: Rng, seeds: readonly Seed[]): ReturnType<NonNullable<FuzzTarget['mutate']>> {
  const m = rnd.chance(0.3) ? { bytes: seed.bytes, label: seed.name } : mutateBytes(seed, rnd, seeds);
  const decoder = rnd.pick(DECODERS);
  const unit = BLOCK_OR_PIXEL[decoder] ?? 16;
  // Dimensions that fit the bytes: in 4x4 blocks for the block formats (the last row and column
  // of blocks partly used), in pixels for the others.
  const block = decoder.startsWith('BC') ? 4 : 1;
  const units = Math.max(1, Math.floor(m.bytes.length / unit));
  const across = 1 + rnd.int(Math.max(1, Math.floor(Math.sqrt(units))));
  let width = Math.max(1, across * block - rnd.int(block));
  let height = Math.max(1, Math.floor(units / across) * block - rnd.int(block));
  let offset = 0;
  const lie = rnd.int(6);
  if (lie === 1) width = width * 2 + 1;
  else if (lie === 2) height = rnd.pick([0, 0x10000, 0x7fffffff, 16385]);
  else if (lie === 3) offset = rnd.int(m.bytes.length + 64);
  else if (lie === 4) [width, height] = [rnd.int(9), rnd.int(9)];
  const param: BcnParam = { decoder, offset, width, height };
  return { bytes: m.bytes, label: `${m.label} as ${decoder} ${width}x${height} at ${offset}`, param };
}

export const bcn: FuzzTarget = {
  name: 'bcn',
  covers: 'the BC1-BC7 and 8-bit decoders on their own: any block bytes, any format, dimensions that fit or lie',
  seeds: () => {
    const out: Seed[] = [
      { name: 'pattern 4 KiB', bytes: pattern(4096, 13) },
      { name: 'zeros 1 KiB', bytes: new Uint8Array(1024) },
      { name: 'ones 1 KiB', bytes: new Uint8Array(1024).fill(0xff) },
    ];
    const real = realSample('fellbeast_body_d.dds');
    if (real) out.push({ name: 'fellbeast BC3 blocks', bytes: real.subarray(128, 128 + 16384) });
    return out;
  },
  mutate: mutateBlocks,
  run: (c: FuzzCase) => {
    const p = c.param as BcnParam;
    if (p.decoder === 'BC6H_UF16' || p.decoder === 'BC6H_SF16') return decodeLevelFloat(p.decoder, c.bytes, p.offset, p.width, p.height, 'fuzz');
    return decodeLevel(p.decoder, c.bytes, p.offset, p.width, p.height, 'fuzz');
  },
};
