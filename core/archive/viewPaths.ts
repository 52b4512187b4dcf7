/**
 * `arch06:` URI paths: the views of a mount as paths, shared by the extension (extension/fs/uris.ts
 * wraps them in `vscode.Uri`s) and the language server (which maps its documents' URIs back to game
 * paths). The merged view (what
 * the engine loads) is `/<game path>` with `/` separators; each source on its own is
 * `/@sources/<NN> <source name>/<game path>`; a bundle's members sit in `/<manifest path> [bundle]/<member path>`.
 * Paths are case-insensitive, like every game path.
 *
 * `@sources` lists the sources in search order, numbered as the Search Order view numbers them
 * (`01 Patch_02.arch06` is consulted first). The number is part of the folder name because the
 * Explorer sorts a folder's children by name and a file system provider cannot order them; it is
 * zero-padded to the width of the count (at least two digits) so that every name order (numeric or
 * plain) agrees with the search order. The number is display, the name is identity: a segment
 * `<digits> <name>` names the source `<name>`, whatever the number (a remount may renumber), and a
 * segment without the number names the source as it is spelled (so `@sources/Base.arch06/…` still
 * resolves). A source whose own name starts with digits and a space is reached through its number.
 */
import { type GamePath, toGamePath } from './gamePath';
import { BUNDLE_SUFFIX, bundleFolderPath } from './bundleFolders';

export const SCHEME = 'arch06';

/** The scheme of the script and decoded-text views (extension/views/textView.ts). */
export const TEXT_SCHEME = 'arch06-text';
/**
 * A text view's path is its file's `arch06:` path plus a suffix, ` (text)`: a name ending in
 * `.objres` or `.scripts` would be claimed by that type's custom editor, which VS Code's diff
 * editor cannot host (Compare with Next Copy shows two text views side by side). The suffix also
 * says where the file is, since a tab shows only the last segment and the retail layers repeat
 * their names in every region: ` (text in island)` (`textViewContext`). Only letters, digits,
 * spaces and `()` are added, which every URI encoder writes alike (the language server builds
 * these paths too, and compares its URIs with the client's as strings).
 */
export const TEXT_VIEW_SUFFIX = ' (text)';

/**
 * Where a file is, in a word or two, for its text view's title: the region of a world path
 * (`worlds\<world>\<region>\…`), else the file's folder; for one source's copy, also that
 * source (`island of Patch_02.arch06`). Undefined for a root file of the merged view.
 */
export function textViewContext(uriPath: string): string | undefined {
  let u: ArchUri;
  try {
    u = parseUriPath(uriPath);
  } catch {
    return undefined;
  }
  if (u.view === 'sources') return undefined;
  const segments = (u.view === 'bundle' ? u.member : u.path).split('\\');
  const place =
    segments[0]?.toLowerCase() === 'worlds' && segments.length >= 4 ? segments[2] : segments.length >= 2 ? segments[segments.length - 2] : undefined;
  if (u.view !== 'source') return place;
  return place ? `${place} of ${u.source}` : u.source;
}

/** The text view path of an `arch06:` URI path. */
export const textViewPath = (uriPath: string): string => {
  const context = textViewContext(uriPath);
  return uriPath + (context ? ` (text in ${context})` : TEXT_VIEW_SUFFIX);
};

const TEXT_VIEW_SUFFIX_PATTERN = / \(text(?: in [^/]*)?\)$/;

/** The `arch06:` URI path a text view path shows (a path without the suffix is taken as it is). */
export const viewedPath = (textPath: string): string => textPath.replace(TEXT_VIEW_SUFFIX_PATTERN, '');
export const SOURCES_FOLDER = '@sources';

/** `<NN> <name>`: a numbered `@sources` folder name. */
const NUMBERED_FOLDER = /^(\d+) (.+)$/;

/**
 * The `@sources` folder name of the source consulted `order`-th (1-based) of `count`: its number,
 * zero-padded to the width of `count` (at least two digits), a space, its name (`01 Patch_02.arch06`).
 */
export function sourceFolderName(order: number, count: number, name: string): string {
  return `${String(order).padStart(Math.max(2, String(count).length), '0')} ${name}`;
}

/** The `@sources` folder names of `sources` (in search order), numbered as the Search Order view numbers them. */
export function sourceFolderNames(sources: readonly { readonly name: string }[]): string[] {
  return sources.map((s, i) => sourceFolderName(i + 1, sources.length, s.name));
}

/** The source a `@sources` folder segment names: `01 Base.arch06` and `Base.arch06` both name `Base.arch06`. */
export function sourceOfFolder(segment: string): string {
  return NUMBERED_FOLDER.exec(segment)?.[2] ?? segment;
}
/**
 * Beside every `x.bndl` of the merged view sits a folder `x.bndl [bundle]` holding the bundle's
 * members (by their full game paths), each served as the engine would: loose entry, else container
 * (core/archive/bundleFolders.ts, which the CLI's `ls` uses too).
 */
export { BUNDLE_SUFFIX } from './bundleFolders';

export type ArchUri =
  | { view: 'merged'; path: GamePath }
  | { view: 'sources' }
  | { view: 'source'; source: string; path: GamePath }
  | { view: 'bundle'; bundle: GamePath; member: GamePath };

/** What a URI's path names. Throws BAD_ARGUMENT (from toGamePath) for a path no game path can be (`..`). */
export function parseUriPath(uriPath: string): ArchUri {
  const segments = uriPath.split('/').filter((s) => s.length > 0);
  if (segments[0]?.toLowerCase() === SOURCES_FOLDER) {
    if (segments.length === 1) return { view: 'sources' };
    return { view: 'source', source: sourceOfFolder(segments[1]), path: toGamePath(segments.slice(2).join('\\')) };
  }
  const inBundle = bundleFolderPath(segments.join('\\'));
  if (inBundle) return { view: 'bundle', bundle: inBundle.bundle, member: inBundle.member };
  return { view: 'merged', path: toGamePath(segments.join('\\')) };
}

/** The game path a URI is about (a bundle member's own path), or undefined for `@sources`. */
export function gamePathOf(u: ArchUri): GamePath | undefined {
  return u.view === 'sources' ? undefined : u.view === 'bundle' ? u.member : u.path;
}

const slashed = (path: string): string =>
  path
    .split(/[\\/]+/)
    .filter(Boolean)
    .join('/');

/** The merged-view URI path of a game path. */
export function mergedUriPath(path: string): string {
  return '/' + slashed(path);
}

/**
 * The URI path of one source's copy of a game path (or of the source's root). `source` is the
 * folder segment: a numbered name (`sourceFolderName`) is what the Explorer lists; a bare name
 * resolves to the same source.
 */
export function sourceUriPath(source: string, path = ''): string {
  const rest = slashed(path);
  return `/${SOURCES_FOLDER}/${source}${rest ? '/' + rest : ''}`;
}

/** The URI path of a bundle member in its bundle's folder (`/<manifest> [bundle]/<member path>`). */
export function memberUriPath(bundle: string, member: string): string {
  return `${mergedUriPath(bundle)}${BUNDLE_SUFFIX}${mergedUriPath(member)}`;
}
