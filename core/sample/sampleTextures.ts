/** The sample install's textures: a BC1 .tex with its .tex0 tier, a three-slice .texa with its .texa0 tier. */
import { QuadrantPicture, bc1QuadrantChain, writeDds, writeTexa, writeTexr } from '../formats/texture/writer';

/** The sample texture (seed 004 "Tiers"): a BC1 .tex in Base, its 512x512 .tex0 tier in Patch_01. */
export const SAMPLE_TEXTURE = 'textures\\sample\\sample_banner_d.tex';
/** Red, green, blue, yellow quadrants: exact in RGB565, so decoded corners match exactly. */
export const SAMPLE_TEXTURE_PICTURE: QuadrantPicture = {
  quadrants: [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ],
};

/** The .tex: 256x256 BC1 with its full mip chain; the name field and dimension pair point at the .tex0. */
export function sampleTexture(): Uint8Array {
  const dds = writeDds({ width: 256, height: 256, format: 'BC1', mips: bc1QuadrantChain(256, SAMPLE_TEXTURE_PICTURE) });
  return writeTexr({ path: `${SAMPLE_TEXTURE}0`, width: 512, height: 512, dds });
}

/** The .tex0 tier: the 512x512 top mip alone; its name field names the .tex. */
export function sampleTextureTier0(): Uint8Array {
  const dds = writeDds({ width: 512, height: 512, format: 'BC1', mips: bc1QuadrantChain(512, SAMPLE_TEXTURE_PICTURE, 1) });
  return writeTexr({ path: SAMPLE_TEXTURE, width: 512, height: 512, dds });
}

/** The sample texture array (seed 004 "Texture arrays"): three 64x64 BC1 slices with full mip chains. */
export const SAMPLE_TEXTURE_ARRAY = 'textures\\sample\\sample_ground_array.texa';
export const SAMPLE_TEXTURE_ARRAY_SLICES = [
  'textures\\sample\\ground_grass_d.tex',
  'textures\\sample\\ground_mud_d.tex',
  'textures\\sample\\ground_rock_d.tex',
];
const ARRAY_PICTURES: QuadrantPicture[] = [
  {
    quadrants: [
      [0, 255, 0],
      [0, 128, 0],
      [0, 255, 0],
      [0, 128, 0],
    ],
  },
  {
    quadrants: [
      [128, 64, 0],
      [96, 48, 0],
      [128, 64, 0],
      [96, 48, 0],
    ],
  },
  {
    quadrants: [
      [128, 128, 128],
      [64, 64, 64],
      [128, 128, 128],
      [64, 64, 64],
    ],
  },
];

export function sampleTextureArray(): Uint8Array {
  const [first, ...rest] = ARRAY_PICTURES.map((p) => bc1QuadrantChain(64, p));
  const dds = writeDds({ width: 64, height: 64, format: 'BC1', mips: first, extraSlices: rest });
  return writeTexa({ path: SAMPLE_TEXTURE_ARRAY, slicePaths: SAMPLE_TEXTURE_ARRAY_SLICES, dds });
}

/** The array's .texa0 tier: the 128x128 top level of each slice alone (Patch_01). */
export function sampleTextureArrayTier0(): Uint8Array {
  const [first, ...rest] = ARRAY_PICTURES.map((p) => bc1QuadrantChain(128, p, 1));
  const dds = writeDds({ width: 128, height: 128, format: 'BC1', mips: first, extraSlices: rest });
  return writeTexa({ path: SAMPLE_TEXTURE_ARRAY, slicePaths: SAMPLE_TEXTURE_ARRAY_SLICES, dds });
}
