/**
 * `arch06:` URIs: the path mapping lives in core/archive/viewPaths.ts (shared with the language
 * server); this module only turns its paths into `vscode.Uri`s and back.
 */
import * as vscode from 'vscode';
import { SCHEME, mergedUriPath, parseUriPath, sourceUriPath } from '../../core/archive';
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

/** The URI of one source's copy of a game path. */
export function sourceUri(source: string, path = ''): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: sourceUriPath(source, path) });
}

export const ROOT_URI = vscode.Uri.from({ scheme: SCHEME, path: '/' });
