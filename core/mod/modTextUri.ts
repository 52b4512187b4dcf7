/**
 * `arch06-modtext:` URIs, the one place their form is decided: a mod file shown as the text it is
 * edited in (a string table as `<file>.txt`, a script's source as `<file>.hks`), the URI's path
 * the file's own `file:` path with that suffix. The extension builds and reads them
 * (extension/mods), the language server reads them to know which game path an edited mod script
 * stands for. Pure string work, no vscode.
 */
import * as path from 'node:path';
import { toGamePath } from '../archive';

export const MOD_TEXT_SCHEME = 'arch06-modtext';

const SUFFIXES: Record<string, string> = { '.strdb': '.txt', '.scripts': '.hks' };

/** Whether a mod file of this name is edited as text (`arch06-modtext:`). */
export const servedAsModText = (fsPath: string): boolean => Object.hasOwn(SUFFIXES, path.extname(fsPath).toLowerCase());

/** The `arch06-modtext:` URI path of a mod file, given that file's `file:` URI path. */
export function modTextUriPath(fileUriPath: string): string {
  return `${fileUriPath}${SUFFIXES[path.extname(fileUriPath).toLowerCase()] ?? ''}`;
}

/** The `file:` URI path of the mod file an `arch06-modtext:` URI path shows (its `.txt`/`.hks` suffix dropped). */
export function modFileUriPath(modTextPath: string): string {
  return modTextPath.replace(/\.(txt|hks)$/, '');
}

/** A `file:` URI path as a disk path (`/c:/x` is `c:\x` on Windows). */
export function fsPathOfUriPath(uriPath: string): string {
  return /^\/[a-zA-Z]:/.test(uriPath) && path.sep === '\\' ? uriPath.slice(1).replace(/\//g, '\\') : uriPath;
}

/** The game path of a file inside one of `mods`' folders (the first that holds it), or undefined. */
export function gamePathInMods(mods: readonly { folder: string }[], fsPath: string): { mod: number; gamePath: string } | undefined {
  const p = path.resolve(fsPath);
  for (let i = 0; i < mods.length; i++) {
    const folder = path.resolve(mods[i].folder);
    if (!p.startsWith(folder + path.sep)) continue;
    try {
      return { mod: i, gamePath: toGamePath(path.relative(folder, p).split(path.sep).join('\\')) };
    } catch {
      return undefined; // a name no game path can be
    }
  }
  return undefined;
}

/** The game path an `arch06-modtext:` URI (as a string, as LSP names documents) stands for inside `mods`, or undefined. */
export function gamePathOfModTextUri(mods: readonly { folder: string }[], uri: string): string | undefined {
  const m = /^arch06-modtext:(?:\/\/[^/]*)?([^?#]*)/i.exec(uri);
  if (!m) return undefined;
  let p: string;
  try {
    p = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  return gamePathInMods(mods, fsPathOfUriPath(modFileUriPath(p)))?.gamePath;
}
