/**
 * `arch06:` URIs. The merged view (what the engine loads) is `arch06:/<game path>` with `/`
 * separators; each source on its own is `arch06:/@sources/<source name>/<game path>`.
 * Paths are case-insensitive, like every game path.
 */
import * as vscode from 'vscode';
import { GamePath, toGamePath } from '../../core/archive/gamePath';

export const SCHEME = 'arch06';
export const SOURCES_FOLDER = '@sources';
/**
 * Beside every `x.bndl` of the merged view sits a folder `x.bndl [bundle]` holding the bundle's
 * members (by their full game paths), each served as the engine would: loose entry, else container.
 */
export const BUNDLE_SUFFIX = ' [bundle]';

export type ArchUri =
  | { view: 'merged'; path: GamePath }
  | { view: 'sources' }
  | { view: 'source'; source: string; path: GamePath }
  | { view: 'bundle'; bundle: GamePath; member: GamePath };

export function parseUri(uri: vscode.Uri): ArchUri {
  const segments = uri.path.split('/').filter((s) => s.length > 0);
  if (segments[0]?.toLowerCase() === SOURCES_FOLDER) {
    if (segments.length === 1) return { view: 'sources' };
    return { view: 'source', source: segments[1], path: toGamePath(segments.slice(2).join('\\')) };
  }
  const b = segments.findIndex((s) => s.toLowerCase().endsWith(BUNDLE_SUFFIX));
  if (b >= 0) {
    const manifest = [...segments.slice(0, b), segments[b].slice(0, -BUNDLE_SUFFIX.length)].join('\\');
    return { view: 'bundle', bundle: toGamePath(manifest), member: toGamePath(segments.slice(b + 1).join('\\')) };
  }
  return { view: 'merged', path: toGamePath(segments.join('\\')) };
}

/** The game path a URI is about (a bundle member's own path), or undefined for `@sources`. */
export function gamePathOf(u: ArchUri): GamePath | undefined {
  return u.view === 'sources' ? undefined : u.view === 'bundle' ? u.member : u.path;
}

/** The merged-view URI of a game path. */
export function mergedUri(path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: '/' + path.split(/[\\/]+/).filter(Boolean).join('/') });
}

/** The URI of one source's copy of a game path. */
export function sourceUri(source: string, path = ''): vscode.Uri {
  const rest = path.split(/[\\/]+/).filter(Boolean).join('/');
  return vscode.Uri.from({ scheme: SCHEME, path: `/${SOURCES_FOLDER}/${source}${rest ? '/' + rest : ''}` });
}

export const ROOT_URI = vscode.Uri.from({ scheme: SCHEME, path: '/' });
