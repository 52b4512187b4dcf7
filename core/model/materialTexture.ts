/**
 * Textures a modder assigns by hand to a mesh's material slots, for the 3D view and the glTF
 * export's base colour. A mesh (MMSH) names its materials only as slot indices; which `.mat`
 * (and so which textures) fills a slot is decided by the game's design records (seed 000: an
 * armour piece's material lives in a set-wide `<set>_<slot>_m.bndl`), so nothing here guesses:
 * the modder picks a texture file, and this chooses which of its levels to show.
 *
 * The level: slice 0, the largest mip whose longer side is at most `MATERIAL_TEXTURE_MAX_SIDE`
 * (no resampling, and a 4096² top mip is not decoded for a preview). A `.tex0` / `.texuhd` tier
 * holds only its top mips, so it can have no level that small; that is reported, not resampled.
 */
import { Arch06Error } from '../errors';
import type { DdsLevel } from '../formats/texture/dds';
import { parseTextureFile, type TextureFile } from '../formats/texture/texr';
import { decodeDdsLevel } from '../image/bcn';
import { largestLevelWithin } from '../image/previewLevel';

/** The longest side, in pixels, of the level used as a material map. */
export const MATERIAL_TEXTURE_MAX_SIDE = 2048;

/** File types offered as a material texture (texture arrays, `.texa*`, are not). */
const MATERIAL_TEXTURE_EXTENSIONS: readonly string[] = ['.tex', '.tex0', '.texuhd', '.dds'];

/** Whether a game path names a file offered as a material texture. */
export function isMaterialTexturePath(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot >= 0 && MATERIAL_TEXTURE_EXTENSIONS.includes(path.slice(dot).toLowerCase());
}

/** The folder part of a game path (`a\\b` of `a\\b\\c.tex`), lower case, `/` read as `\\`; '' at the root. */
export function gameFolderOf(path: string): string {
  const p = path.replace(/\//g, '\\').toLowerCase();
  const cut = p.lastIndexOf('\\');
  return cut > 0 ? p.slice(0, cut) : '';
}

/**
 * Texture paths split for a pick list: those in `nearPath`'s folder first, then the rest, each
 * group in the order given. `nearPath` undefined (a mesh opened from disk): everything is `rest`.
 */
export function textureChoices(paths: Iterable<string>, nearPath?: string): { near: string[]; rest: string[] } {
  const folder = nearPath === undefined ? undefined : gameFolderOf(nearPath);
  const near: string[] = [];
  const rest: string[] = [];
  for (const p of paths) {
    if (!isMaterialTexturePath(p)) continue;
    (folder !== undefined && gameFolderOf(p) === folder ? near : rest).push(p);
  }
  return { near, rest };
}

/** A parsed texture and the level to show of it. */
export interface MaterialTextureChoice {
  texture: TextureFile;
  level: DdsLevel;
}

/**
 * Parse a texture file and choose the level for a material map. Throws the parsers' typed
 * errors, UNSUPPORTED_CODEC for a format that is not decoded, and OUT_OF_RANGE when no level of
 * slice 0 is `maxSide` or smaller (naming the smallest there is).
 */
export function chooseMaterialTexture(bytes: Uint8Array, file: string, maxSide = MATERIAL_TEXTURE_MAX_SIDE): MaterialTextureChoice {
  const texture = parseTextureFile(bytes, file);
  const dds = texture.dds;
  if (!dds.format.decodable || !dds.format.decoder) {
    throw new Arch06Error('UNSUPPORTED_CODEC', dds.format.reason ?? `${dds.format.name} is not decoded`, {
      file,
      field: 'dds.format',
      actual: dds.format.name,
    });
  }
  const level = largestLevelWithin(dds, maxSide, 0);
  if (!level) {
    const slice0 = dds.levels.filter((l) => l.slice === 0);
    const smallest = slice0[slice0.length - 1];
    throw new Arch06Error(
      'OUT_OF_RANGE',
      `no mip level of ${maxSide} pixels or fewer on its longer side` +
        (/\.(tex0|texuhd)$/i.test(file) ? ' (a .tex0/.texuhd tier holds only the top mips: pick the .tex, which has the whole chain)' : ''),
      {
        file,
        field: 'dds.levels',
        expected: `a slice-0 level ≤ ${maxSide}×${maxSide}`,
        actual: smallest ? `smallest ${smallest.width}×${smallest.height}` : 'no levels',
      },
    );
  }
  return { texture, level };
}

/** A decoded material map: RGBA8, rows top first (glTF's and the game's UV origin is the top left). */
export interface MaterialTexture {
  width: number;
  height: number;
  rgba: Uint8Array;
  mip: number;
  /** The texture's full size and format, for messages. */
  fullWidth: number;
  fullHeight: number;
  format: string;
}

/** `chooseMaterialTexture`, then decode the level on this thread. */
export function decodeMaterialTexture(bytes: Uint8Array, file: string, maxSide = MATERIAL_TEXTURE_MAX_SIDE): MaterialTexture {
  const { texture, level } = chooseMaterialTexture(bytes, file, maxSide);
  const d = decodeDdsLevel(texture.dds, texture.bytes, 0, level.mip);
  return {
    width: d.width,
    height: d.height,
    rgba: d.rgba,
    mip: level.mip,
    fullWidth: texture.dds.width,
    fullHeight: texture.dds.height,
    format: texture.dds.format.name,
  };
}
