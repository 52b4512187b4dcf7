/**
 * How our `.code-workspace` file records its folders, and how they are read back. No `vscode`
 * import, so it can be unit-tested in plain node (openGameFolder.ts does the file and URI work).
 *
 * A disk folder is written as `{ "path": <absolute path> }`, the way VS Code itself stores a
 * folder of the workspace file's own scheme: the window resolves that path against the workspace
 * file's location, i.e. with the workspace file's scheme and authority. That keeps the folder
 * working wherever the window runs. In a remote window (code-server, Remote-SSH, WSL, dev
 * containers) the extension host sees disk folders as `file:///…`, but the workbench knows them as
 * `vscode-remote://<authority>/…`; a `file:///…` URI written into the file would be resolved by
 * the workbench on the *local* side (in the browser: "Unable to resolve workspace folder (Error:
 * No file system handle registered (/tmp))"). Folders of any other scheme (`arch06:`, virtual
 * file systems) keep their URI, which means the same thing on both sides.
 */
import * as path from 'node:path';

export type StoredFolder = { name?: string; path: string } | { name?: string; uri: string };

/** A workspace folder as the extension host sees it. */
export interface FolderInfo {
  name: string;
  /** `uri.scheme` */
  scheme: string;
  /** `uri.fsPath` (meaningful for the `file` scheme). */
  fsPath: string;
  /** `uri.toString()` */
  uri: string;
}

/** The entry for one folder in a workspace file that lives on disk (a `file` URI on the extension host's side). */
export function storedFolder(f: FolderInfo): StoredFolder {
  return f.scheme === 'file' ? { name: f.name, path: f.fsPath } : { name: f.name, uri: f.uri };
}

/** A folder read back from a workspace file: a disk path (absolute) or a URI string. */
export type ResolvedFolder = { name?: string; path: string } | { name?: string; uri: string };

/**
 * The folders of a parsed workspace file, as VS Code reads them: `path` relative to the folder of
 * the workspace file (at `workspaceFilePath`, a disk path) or absolute; `uri` as written. Entries
 * with neither are dropped.
 */
export function readStoredFolders(content: unknown, workspaceFilePath: string, pathApi: typeof path = path): ResolvedFolder[] {
  const folders = (content as { folders?: unknown } | null)?.folders;
  if (!Array.isArray(folders)) return [];
  const out: ResolvedFolder[] = [];
  for (const f of folders as { name?: unknown; path?: unknown; uri?: unknown }[]) {
    if (!f || typeof f !== 'object') continue;
    const name = typeof f.name === 'string' ? f.name : undefined;
    if (typeof f.uri === 'string') out.push({ name, uri: f.uri });
    else if (typeof f.path === 'string' && f.path.length > 0) {
      out.push({ name, path: pathApi.isAbsolute(f.path) ? pathApi.normalize(f.path) : pathApi.resolve(pathApi.dirname(workspaceFilePath), f.path) });
    }
  }
  return out;
}
