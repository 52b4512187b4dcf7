/**
 * Where "Extract to Folder…" opens its folder picker (no vscode, unit-tested in plain node).
 * Without a default, VS Code opens the picker in the workspace, which is the install (or its
 * `arch06:` view), where extraction always refuses to write. So the picker starts at the last
 * folder extracted to, while it still exists outside every read-only place, else at the user's
 * home, else beside the install, else the temporary folder: the first that exists and may be
 * written to.
 */
import * as path from 'node:path';

/** The globalState key holding the last folder extracted to (a disk path). */
export const LAST_EXTRACT_FOLDER_KEY = 'arch06.lastExtractFolder';

export interface ExtractFolderFacts {
  /** The last folder extracted to, as stored (anything: a stored value is data). */
  last: unknown;
  home: string;
  /** The mounted install's root. */
  installRoot: string;
  tmp: string;
  /** Whether a path is inside a place nothing may write to (the install, mounted archives; real paths). */
  forbidden: (p: string) => boolean;
  /** Whether a path is an existing folder. */
  isFolder: (p: string) => boolean;
}

/** The folder the picker opens in (see the file comment); `home` when no candidate qualifies. */
export function defaultExtractFolder(f: ExtractFolderFacts): string {
  const candidates = [typeof f.last === 'string' && path.isAbsolute(f.last) ? f.last : undefined, f.home, path.dirname(f.installRoot), f.tmp];
  for (const c of candidates) {
    if (c === undefined) continue;
    try {
      if (f.isFolder(c) && !f.forbidden(c)) return c;
    } catch {
      // A path that cannot be checked (permissions, a loop of links) is no default.
    }
  }
  return f.home;
}

/** Why a chosen folder cannot take the extraction, or undefined when it can. */
export function refuseExtractFolder(folder: string, installRoot: string, forbidden: (p: string) => boolean): string | undefined {
  return forbidden(folder) ? `arch06 does not write into the game folder: choose a folder outside ${installRoot}.` : undefined;
}
