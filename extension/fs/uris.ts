/**
 * `arch06:` URIs: the path mapping lives in core/archive/viewPaths.ts (shared with the language
 * server); this module only turns its paths into `vscode.Uri`s and back.
 */
import * as vscode from 'vscode';
import { type Mount, SCHEME, locateUri, memberUriPath, mergedUriPath, parseUriPath, sourceFolderName, sourceUriPath } from '../../core/archive';
import type { ArchUri, BundleFolders, Source, SourceEntry, UriFile } from '../../core/archive';

export { BUNDLE_SUFFIX, SCHEME, SOURCES_FOLDER, gamePathOf } from '../../core/archive';
export type { ArchUri, UriFile } from '../../core/archive';

export function parseUri(uri: vscode.Uri): ArchUri {
  return parseUriPath(uri.path);
}

/**
 * The file an `arch06:` URI names in `mount` (core/archive `locateUri`, the one URI → entry rule
 * the file system and every editor use); undefined for another scheme, no mount, or a folder.
 * Throws what `locateUri` throws (a path no game path can be, an unknown source, a bad bundle).
 */
export function locate(mount: Mount | undefined, uri: vscode.Uri, bundles?: BundleFolders): UriFile | undefined {
  return uri.scheme === SCHEME && mount ? locateUri(mount, uri.path, bundles) : undefined;
}

/** A loose file of the mount an editor opened: its entry and the view (merged or one source) to find its siblings in. */
export interface InMount {
  mount: Mount;
  entry: SourceEntry;
  /** The named source (`@sources/<name>/…`), undefined for the merged view. */
  source?: Source;
}

/**
 * `locate` for an editor that reads loose entries: undefined for anything else (a bundle member,
 * a folder, another scheme, a path no game path can be), which the editor reads through the file
 * system instead, so that the file system reports what is wrong with it.
 */
export function locateLoose(mount: Mount | undefined, uri: vscode.Uri): InMount | undefined {
  try {
    const f = locate(mount, uri);
    if (mount && f?.view === 'merged') return { mount, entry: f.entry };
    if (mount && f?.view === 'source') return { mount, entry: f.entry, source: f.holder };
  } catch {
    // Read through the file system, which reports it.
  }
  return undefined;
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
