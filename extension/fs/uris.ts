/**
 * `arch06:` URIs: the path mapping lives in core/archive/viewPaths.ts (shared with the language
 * server); this module only turns its paths into `vscode.Uri`s and back.
 */
import * as vscode from 'vscode';
import { type Mount, SCHEME, memberUriPath, mergedUriPath, parseUriPath, sourceFolderName, sourceUriPath } from '../../core/archive';
import type { ArchUri } from '../../core/archive';

export { BUNDLE_SUFFIX, SCHEME, SOURCES_FOLDER, gamePathOf } from '../../core/archive';
export type { ArchUri } from '../../core/archive';

export function parseUri(uri: vscode.Uri): ArchUri {
  return parseUriPath(uri.path);
}

/** The merged-view URI of a game path. */
export function mergedUri(path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: mergedUriPath(path) });
}

/** The URI of a bundle member in its bundle's folder. */
export function memberUri(bundle: string, member: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: memberUriPath(bundle, member) });
}

/**
 * The URI of one source's copy of a game path, under the source's `@sources` folder as the
 * Explorer lists it (numbered in search order), so a tab opened from it reveals in the Explorer.
 */
export function sourceUri(mount: Mount, source: string, path = ''): vscode.Uri {
  const i = mount.sources.findIndex((s) => s.name === source);
  const folder = i < 0 ? source : sourceFolderName(i + 1, mount.sources.length, source);
  return vscode.Uri.from({ scheme: SCHEME, path: sourceUriPath(folder, path) });
}

export const ROOT_URI = vscode.Uri.from({ scheme: SCHEME, path: '/' });
