/**
 * Bundles as folders: beside every `x.bndl` of the merged view sits a folder `x.bndl [bundle]`
 * holding the bundle's members by their full game paths, each served as the engine would
 * (bundles.ts: the loose entry, else the container's payload, else missing). The extension's file
 * system and the CLI's `ls` show the same folders through this module.
 *
 * Paths are normalised once, at the edge: `bundleFolderPath` turns what a user typed (or a URI's
 * path) into the manifest's and the member's game paths, and a bundle's member paths are
 * normalised once, when its folder is built. From there on a lookup is a map read by key, and a
 * member is served from the record the folder holds, never looked up by its path again.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { BundleMember, ResolvedBundle, locateBundleMember, readBundleMemberAsync, resolveBundle } from './bundles';
import { GamePath, gamePathKey, toGamePath } from './gamePath';
import { Mount } from './mount';
import { SourceEntry } from './source';

/** The suffix that makes `x.bndl` a folder of its members: `x.bndl [bundle]`. */
export const BUNDLE_SUFFIX = ' [bundle]';

/** A path inside a bundle folder: the manifest's game path and the member path below the folder ('' for the folder itself). */
export interface BundleFolderPath {
  bundle: GamePath;
  member: GamePath;
}

/**
 * `<dir>\x.bndl [bundle]\<member path>` (either separator, any case) as the manifest's and the
 * member's game paths; undefined when no segment is a bundle folder. Throws BAD_ARGUMENT (from
 * `toGamePath`) for a path no game path can be (`..`, control characters).
 */
export function bundleFolderPath(input: string): BundleFolderPath | undefined {
  const segments = input.split(/[\\/]+/).filter((s) => s.length > 0);
  const b = segments.findIndex((s) => s.toLowerCase().endsWith(BUNDLE_SUFFIX));
  if (b < 0) return undefined;
  const manifest = [...segments.slice(0, b), segments[b].slice(0, -BUNDLE_SUFFIX.length)].join('\\');
  return { bundle: toGamePath(manifest), member: toGamePath(segments.slice(b + 1).join('\\')) };
}

/** One folder of a bundle's member tree: child folders (as first spelled) and the members directly in it, in manifest order. */
export interface BundleListing {
  folders: string[];
  files: BundleMember[];
}

/** The leaf name of a member (its last path segment). */
export function memberName(m: BundleMember): string {
  return m.path.slice(Math.max(m.path.lastIndexOf('\\'), m.path.lastIndexOf('/')) + 1);
}

interface TreeFolder {
  /** Child folder key → its name as first spelled. */
  folders: Map<string, string>;
  files: BundleMember[];
}

/** A resolved bundle as a folder tree by its members' game paths, built once. */
export class BundleFolder {
  private readonly byPath = new Map<string, BundleMember>();
  private readonly tree = new Map<string, TreeFolder>();
  /** Each member's game path, in manifest order; undefined where the declared path cannot be one. */
  private readonly paths: (GamePath | undefined)[] = [];

  constructor(
    readonly mount: Mount,
    readonly bundle: ResolvedBundle,
  ) {
    this.tree.set('', { folders: new Map(), files: [] });
    // Members sharing one path string share its game path (a crafted manifest may repeat one 200 KB path 50,000 times).
    const normalised = new Map<string, GamePath | undefined>();
    for (const m of bundle.members) {
      let p: GamePath | undefined;
      if (normalised.has(m.path)) p = normalised.get(m.path);
      else {
        try {
          p = toGamePath(m.path) || undefined;
        } catch (e) {
          // A declared path with `..` or control characters, or over-long, is in no listing (resolveBundle notes it).
          if (!isArch06Error(e)) throw e;
        }
        normalised.set(m.path, p);
      }
      this.paths.push(p);
      if (!p) continue;
      const key = gamePathKey(p);
      // A repeated path is listed and served once, as its first declaration.
      if (this.byPath.has(key)) continue;
      this.byPath.set(key, m);
      const segments = p.split('\\');
      let folder = this.tree.get('')!;
      let folderKey = '';
      for (const s of segments.slice(0, -1)) {
        const childKey = folderKey ? `${folderKey}\\${s.toLowerCase()}` : s.toLowerCase();
        if (!folder.folders.has(childKey)) folder.folders.set(childKey, s);
        let child = this.tree.get(childKey);
        if (!child) this.tree.set(childKey, (child = { folders: new Map(), files: [] }));
        folder = child;
        folderKey = childKey;
      }
      folder.files.push(m);
    }
  }

  /** The bundle of manifest `bundle` (`x.bndl`, `x.embb` or the stem) resolved in `mount`, as a folder. */
  static open(mount: Mount, bundle: string): BundleFolder {
    return new BundleFolder(mount, resolveBundle(mount, bundle));
  }

  /** The member at `path`, if one is declared there (the first declaration of a repeated path). */
  member(path: GamePath): BundleMember | undefined {
    return this.byPath.get(gamePathKey(path));
  }

  /** Children of folder `path` of the member tree, or undefined when no member lies below it. */
  list(path: GamePath): BundleListing | undefined {
    const f = this.tree.get(gamePathKey(path));
    return f && { folders: [...f.folders.values()], files: f.files };
  }

  /**
   * The members at or below `path` ('' for all) that ship somewhere, as entries served as the
   * engine would, for extraction (ranges read only what they need). Throws NOT_FOUND when none do.
   */
  entries(path: GamePath): SourceEntry[] {
    const prefix = gamePathKey(path);
    const out: SourceEntry[] = [];
    const taken = new Set<string>(); // a repeated path is extracted once, as its first declaration
    this.bundle.members.forEach((m, i) => {
      const p = this.paths[i];
      if (taken.has(m.path) || (p !== undefined && this.byPath.get(gamePathKey(p)) !== m)) return;
      taken.add(m.path);
      // The whole bundle takes every member, so a name that cannot be a path fails loudly in the writer.
      if (prefix) {
        const k = p === undefined ? undefined : gamePathKey(p);
        if (k === undefined || (k !== prefix && !k.startsWith(prefix + '\\'))) return;
      }
      const source = m.source ? this.mount.source(m.source) : undefined;
      if (m.servedFrom === 'missing' || !source) return;
      out.push(this.memberEntry(m, p));
    });
    if (out.length === 0)
      throw new Arch06Error('NOT_FOUND', 'no readable bundle member at this path', { file: `${this.bundle.stem}.bndl: ${path || '(all members)'}` });
    return out;
  }

  /** A member's bytes, without blocking the thread (one ranged read of the container, or the loose entry). */
  read(member: BundleMember): Promise<Uint8Array> {
    return readBundleMemberAsync(this.mount, this.bundle, member);
  }

  /** Which bytes a member serves (its entry's identity and its range in it), for telling a reader they changed. */
  identity(member: BundleMember): string {
    const { entry, start, end } = locateBundleMember(this.mount, this.bundle, member);
    return `${entry.identity}[${start},${end})`;
  }

  /** A member as a `SourceEntry` (a range of its container, or its loose entry), so extraction and readers treat it like any file. */
  memberEntry(m: BundleMember, path?: GamePath): SourceEntry {
    const { entry, start: base, end: limit } = locateBundleMember(this.mount, this.bundle, m);
    const size = limit - base;
    const range = (start: number, end: number): [number, number] => {
      if (!(0 <= start && start <= end && end <= size))
        throw new Arch06Error('OUT_OF_RANGE', 'read range outside the member', { file: m.path, expected: `within [0, ${size}]`, actual: `[${start}, ${end})` });
      return [base + start, base + end];
    };
    return {
      source: entry.source,
      path: path ?? m.path.replace(/\//g, '\\'),
      size,
      storedSize: size,
      storage: m.servedFrom === 'loose' ? 'loose' : 'plain',
      identity: `${entry.identity}[${base},${limit})`,
      readSync: (start = 0, end = size) => entry.readSync(...range(start, end)),
      read: (start = 0, end = size) => entry.read(...range(start, end)),
    };
  }
}

/**
 * Bundle folders resolved once per mount; a failure is kept too, so a broken manifest is reported
 * once per listing rather than on every stat. A new mount empties the cache.
 */
export class BundleFolders {
  private cache = new Map<string, BundleFolder | Error>();
  private forMount: Mount | undefined;

  /** The folder of manifest `bundle` in `mount`. Throws what `resolveBundle` throws (NOT_FOUND, the readers' typed errors). */
  resolve(mount: Mount, bundle: GamePath): BundleFolder {
    if (this.forMount !== mount) {
      this.cache.clear();
      this.forMount = mount;
    }
    const key = gamePathKey(bundle);
    let r = this.cache.get(key);
    if (!r) {
      try {
        r = BundleFolder.open(mount, bundle);
      } catch (e) {
        r = e instanceof Error ? e : new Error(String(e));
      }
      this.cache.set(key, r);
    }
    if (r instanceof Error) throw r;
    return r;
  }
}
