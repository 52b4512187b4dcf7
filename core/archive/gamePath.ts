/**
 * Game paths: what the engine asks its file system for, e.g. `database\string\enus\string.strdb`.
 * They are case-insensitive and use backslashes; users type either separator. A `GamePath` is
 * the normalised form, branded so an OS path cannot be passed where a game path is expected.
 */
import { Arch06Error } from '../errors';

export type GamePath = string & { readonly __gamePath: unique symbol };

/** The root folder of the merged view. */
export const ROOT = '' as GamePath;

/**
 * Normalise `input`: either separator, repeated separators collapsed, no leading or trailing
 * one. `.` and `..` segments are refused, so a game path can never leave a directory source.
 */
export function toGamePath(input: string): GamePath {
  const parts = input.split(/[\\/]+/).filter((p) => p.length > 0);
  for (const p of parts) {
    if (p === '.' || p === '..') throw new Arch06Error('BAD_ARGUMENT', 'game paths cannot contain . or .. segments', { actual: JSON.stringify(input) });
    if (/[\x00-\x1f]/.test(p)) throw new Arch06Error('BAD_ARGUMENT', 'game paths cannot contain control characters', { actual: JSON.stringify(input) });
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
