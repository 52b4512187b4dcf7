/**
 * What a path typed by a user (or carried by an `arch06:` URI) names, resolved once here for every
 * front end, as the extension reads it:
 *
 * - `<dir>\x.bndl [bundle]\<member path>`: the member of that bundle, served as the engine serves
 *   it (a loose copy, else the container's payload; bundleFolders.ts);
 * - a mount path: the winning copy (or the named source's copy);
 * - a mount path no source holds: the member of the bundle of its own stem (`x.objres` and
 *   `x.scripts` of a world part live in `x.embb`, which `x.bndl` declares), the served-part rule.
 *
 * The bytes come as a `SourceEntry` (a member's is a range of its container's entry), so `cat`,
 * `extract`, `dump` and the readers take them like any entry.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { type BundleMember, type ResolvedBundle, bundleStem } from './bundles';
import { BundleFolder, BundleFolders, bundleFolderPath } from './bundleFolders';
import { collectEntries } from './extract';
import { type GamePath, ROOT, toGamePath } from './gamePath';
import type { Mount } from './mount';
import type { Source, SourceEntry } from './source';
import { type ArchUri, parseUriPath } from './viewPaths';

/** Where a path's bytes were found. */
export interface Located {
  /** The bytes: the entry itself, or a member as a range of its container (its path is the member's). */
  entry: SourceEntry;
  /** A loose entry of the mount, or the payload a container embeds. */
  servedFrom: 'loose' | 'container' | 'empty';
  /** For a bundle member: its bundle and the member as the manifest declares it. */
  bundle?: ResolvedBundle;
  member?: BundleMember;
}

/** The manifest of the bundle a world part's file belongs to: `x.objres` → `x.bndl` (the path's own stem). */
export function partBundlePath(path: string): string {
  return `${bundleStem(path.replace(/\.[^.\\/]+$/, ''))}.bndl`;
}

/** The member a bundle declares at `path` (its first declaration), compared as game paths are (any case, either separator). */
export function declaredMember(bundle: ResolvedBundle, path: string): BundleMember | undefined {
  const k = path.toLowerCase().replace(/\//g, '\\');
  // Lengths compared first: a crafted manifest may repeat one 200 KB path 50,000 times.
  return bundle.members.find((m) => m.path.length === k.length && m.path.toLowerCase().replace(/\//g, '\\') === k);
}

/** The member of an opened bundle folder at `member`, as an entry; NOT_FOUND when the manifest does not declare it or nothing ships it. */
function memberOf(folder: BundleFolder, member: GamePath): Located {
  const m = folder.member(member);
  const manifest = `${folder.bundle.manifest.source}:${folder.bundle.manifest.path}`;
  if (!m) throw new Arch06Error('NOT_FOUND', 'the manifest does not declare this member', { file: manifest, actual: member });
  if (m.servedFrom === 'missing')
    throw new Arch06Error('NOT_FOUND', 'declared by the manifest but neither in the container nor shipped loose', { file: manifest, actual: m.path });
  return { entry: folder.memberEntry(m), servedFrom: m.servedFrom, bundle: folder.bundle, member: m };
}

/** The bundle folder of a world part's file (`x.objres` → `x.bndl`), or undefined when no manifest exists or it does not declare the file. */
function partFolder(mount: Mount, path: GamePath): BundleFolder | undefined {
  let folder: BundleFolder;
  try {
    folder = BundleFolder.open(mount, partBundlePath(path));
  } catch (e) {
    if (isArch06Error(e) && e.code === 'NOT_FOUND') return undefined;
    throw e;
  }
  return folder.member(path) ? folder : undefined;
}

/**
 * The file `address` names (see the top of this file); `source` asks for that source's copy of a
 * mount path. Throws NOT_FOUND when nothing serves it, BAD_ARGUMENT for a bundle folder itself.
 */
export function locateAddress(mount: Mount, address: string, options: { source?: string } = {}): Located {
  const at = bundleFolderPath(address);
  if (at) {
    if (!at.member) throw new Arch06Error('BAD_ARGUMENT', 'a bundle folder, not a file in it', { actual: address });
    return memberOf(BundleFolder.open(mount, at.bundle), at.member);
  }
  const path = toGamePath(address);
  if (options.source !== undefined) return { entry: mount.entry(path, options.source), servedFrom: 'loose' };
  const winner = path ? mount.winner(path) : undefined;
  if (winner) return { entry: winner, servedFrom: 'loose' };
  const folder = path ? partFolder(mount, path) : undefined;
  if (folder) return memberOf(folder, path);
  throw new Arch06Error('NOT_FOUND', 'path not found in any mounted source, nor in the bundle of its stem', { file: path || '(root)' });
}

/**
 * The files `target` names for extraction: a bundle folder's members at or below a path in it
 * (`x.bndl [bundle]` alone: every member), a file or folder of the mount (or of one source), else
 * the member of the bundle of the path's stem.
 */
export function collectAddress(mount: Mount, target: string, source?: string): SourceEntry[] {
  const at = bundleFolderPath(target);
  if (at) return BundleFolder.open(mount, at.bundle).entries(at.member);
  try {
    return collectEntries(mount, target, source);
  } catch (e) {
    if (!(isArch06Error(e) && e.code === 'NOT_FOUND') || source !== undefined) throw e;
    const path = toGamePath(target);
    const folder = path ? partFolder(mount, path) : undefined;
    if (!folder) throw e;
    return [memberOf(folder, path).entry];
  }
}

/**
 * The file an `arch06:` URI names, as the extension's file system serves it (no stem fallback: a
 * merged path is the winning copy or nothing). Each variant is the `ArchUri` it was parsed from,
 * so it passes wherever one is taken, plus its game path and what serves it.
 */
export type UriFile =
  | { view: 'merged'; path: GamePath; entry: SourceEntry }
  | { view: 'source'; source: string; path: GamePath; entry: SourceEntry; holder: Source }
  /** A declared member, whether or not something ships it (`declared.servedFrom`); `path` is the member's game path. */
  | { view: 'bundle'; bundle: GamePath; member: GamePath; path: GamePath; folder: BundleFolder; declared: BundleMember };

/**
 * The file `uriPath` (an `arch06:` URI's path, or that path parsed) names in `mount`: URI → mount
 * entry, written once for the file system, the editors and the text views. Undefined when it names
 * a folder or nothing. Throws BAD_ARGUMENT for a path no game path can be, NOT_FOUND for a source
 * the mount does not have, and what resolving a bundle throws (through `bundles`, resolved once
 * per mount).
 */
export function locateUri(mount: Mount, uriPath: string | ArchUri, bundles: BundleFolders = new BundleFolders()): UriFile | undefined {
  const u = typeof uriPath === 'string' ? parseUriPath(uriPath) : uriPath;
  if (u.view === 'sources' || (u.view !== 'bundle' && u.path === ROOT)) return undefined;
  if (u.view === 'merged') {
    const entry = mount.winner(u.path);
    return entry && { ...u, entry };
  }
  if (u.view === 'source') {
    const holder = mount.source(u.source);
    if (!holder) throw new Arch06Error('NOT_FOUND', 'no mounted source has this name', { actual: u.source });
    const entry = holder.lookup(u.path);
    return entry && { ...u, entry, holder };
  }
  const folder = bundles.resolve(mount, u.bundle);
  const declared = u.member ? folder.member(u.member) : undefined;
  return declared && { ...u, path: u.member, folder, declared };
}

/** The bytes a located file serves, as an entry (a member's: a range of its container, or its loose entry). Throws NOT_FOUND for a member nothing ships. */
export function uriFileEntry(f: UriFile): SourceEntry {
  return f.view === 'bundle' ? memberOf(f.folder, f.member).entry : f.entry;
}
