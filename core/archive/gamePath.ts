/**
 * Game paths: what the engine asks its file system for, e.g. `database\string\enus\string.strdb`.
 * They are case-insensitive and use backslashes; users type either separator. A `GamePath` is
 * the normalised form, branded so an OS path cannot be passed where a game path is expected.
 */
import { Arch06Error } from '../errors';
import { quoteShort } from '../io/bounded';
import { MAX_GAME_PATH_BYTES } from '../io/safeName';

export type GamePath = string & { readonly __gamePath: unique symbol };

/** The root folder of the merged view. */
export const ROOT = '' as GamePath;

/**
 * Normalise `input`: either separator, repeated separators collapsed, no leading or trailing
 * one. `.` and `..` segments are refused, so a game path can never leave a directory source, and
 * so are paths longer than `MAX_GAME_PATH_BYTES` (the archive reader hides such names too), so a
 * crafted 200 KB "path" costs one length check, not a split.
 */
export function toGamePath(input: string): GamePath {
  if (input.length > MAX_GAME_PATH_BYTES)
    throw new Arch06Error('BAD_ARGUMENT', `game paths are at most ${MAX_GAME_PATH_BYTES} characters long`, { actual: quoteShort(input) });
  const parts = input.split(/[\\/]+/).filter((p) => p.length > 0);
  for (const p of parts) {
    if (p === '.' || p === '..') throw new Arch06Error('BAD_ARGUMENT', 'game paths cannot contain . or .. segments', { actual: quoteShort(input) });
    if (/[\x00-\x1f]/.test(p)) throw new Arch06Error('BAD_ARGUMENT', 'game paths cannot contain control characters', { actual: quoteShort(input) });
  }
  return parts.join('\\') as GamePath;
}

/** The case-folded key two spellings of one path share. */
export function gamePathKey(p: GamePath | string): string {
  return p.toLowerCase();
}

export function joinGamePath(folder: GamePath | string, leaf: string): GamePath {
  return (folder ? `${folder}\\${leaf}` : leaf) as GamePath;
}
