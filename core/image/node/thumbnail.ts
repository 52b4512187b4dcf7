/**
 * A small PNG of a texture for previews (hovers, lists): the largest mip that fits in
 * `maxSide` × `maxSide`, so no resampling is needed and the decode stays small.
 */
import { parseTextureFile } from '../../formats/texture/texr';
import { decodeDdsLevel } from '../bcn';
import { largestLevelWithin } from '../previewLevel';
import { encodePng } from './png';
import { Arch06Error } from '../../errors';

/** How much larger than asked a preview level may be when no level fits. */
const THUMBNAIL_SLACK = 4;

export interface Thumbnail {
  png: Uint8Array;
  width: number;
  height: number;
  mip: number;
  /** The texture's full size and format, for the caption. */
  fullWidth: number;
  fullHeight: number;
  format: string;
  /** Array slices (1 for a plain texture); the thumbnail shows slice 0. */
  slices: number;
}

/** Parse `bytes` as a .tex* / .texa* / .dds and encode a thumbnail. Throws the parsers' typed errors. */
export function textureThumbnail(bytes: Uint8Array, file: string, maxSide = 128): Thumbnail {
  const t = parseTextureFile(bytes, file);
  // The largest level that fits, else the smallest there is if it is not much larger: a tier that
  // holds only its top mips (.tex0, .texuhd) would otherwise decode megapixels for a hover.
  const level = largestLevelWithin(t.dds, maxSide) ?? largestLevelWithin(t.dds, maxSide * THUMBNAIL_SLACK);
  if (!level) {
    const smallest = t.dds.levels.filter((l) => l.slice === 0).pop();
    throw new Arch06Error(
      'OUT_OF_RANGE',
      `no level small enough for a preview (smallest ${smallest ? `${smallest.width}x${smallest.height}` : 'none'}; open the file, or its .tex tier)`,
      {
        file,
        field: 'dds.levels',
        expected: `a level within ${maxSide * THUMBNAIL_SLACK} px`,
        actual: smallest ? `${smallest.width}x${smallest.height}` : 'no levels',
      },
    );
  }
  const d = decodeDdsLevel(t.dds, t.bytes, 0, level.mip);
  return {
    png: encodePng(d.rgba, d.width, d.height),
    width: d.width,
    height: d.height,
    mip: level.mip,
    fullWidth: t.dds.width,
    fullHeight: t.dds.height,
    format: t.dds.format.name,
    slices: t.dds.surfaces,
  };
}
