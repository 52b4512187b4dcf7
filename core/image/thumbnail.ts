/**
 * A small PNG of a texture for previews (hovers, lists): the largest mip that fits in
 * `maxSide` × `maxSide`, so no resampling is needed and the decode stays small.
 */
import { parseTextureFile } from '../formats/texr';
import { decodeDdsLevel } from './bcn';
import { encodePng } from './png';

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
  const levels = t.dds.levels.filter((l) => l.slice === 0);
  // Levels are largest first: take the first that fits, else the smallest there is.
  const level = levels.find((l) => Math.max(l.width, l.height) <= maxSide) ?? levels[levels.length - 1];
  const d = decodeDdsLevel(t.dds, t.bytes, 0, level.mip);
  return {
    png: encodePng(d.rgba, d.width, d.height), width: d.width, height: d.height, mip: level.mip,
    fullWidth: t.dds.width, fullHeight: t.dds.height, format: t.dds.format.name, slices: t.dds.surfaces,
  };
}
