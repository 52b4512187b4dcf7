/**
 * Bundles as folders: the members of a resolved bundle (core/archive/bundles.ts) as a folder
 * tree by their full game paths. Resolutions are cached per mount, errors too, so a broken
 * manifest is reported once per listing rather than on every stat.
 */
import { Arch06Error } from '../../core/errors';
import { ResolvedBundle, BundleMember, locateBundleMember, resolveBundle } from '../../core/archive/bundles';
import { GamePath } from '../../core/archive/gamePath';
import { Mount } from '../../core/archive/mount';
import { Source, SourceEntry } from '../../core/archive/source';

export class BundleFolders {
  private cache = new Map<string, ResolvedBundle | Error>();
  private forMount: Mount | undefined;

  resolve(mount: Mount, bundle: GamePath): ResolvedBundle {
    if (this.forMount !== mount) {
      this.cache.clear();
      this.forMount = mount;
    }
    const key = bundle.toLowerCase();
    let r = this.cache.get(key);
    if (!r) {
      try {
        r = resolveBundle(mount, bundle);
      } catch (e) {
        r = e instanceof Error ? e : new Error(String(e));
      }
      this.cache.set(key, r);
    }
    if (r instanceof Error) throw r;
    return r;
  }

  /** The member at `path`, if it is one. */
  member(b: ResolvedBundle, path: GamePath): BundleMember | undefined {
    const k = path.toLowerCase();
    return b.members.find((m) => m.path.toLowerCase() === k);
  }

  /** Children of folder `path` inside the bundle's member tree, or undefined when no member lies below it. */
  list(b: ResolvedBundle, path: GamePath): { folders: string[]; files: BundleMember[] } | undefined {
    const prefix = path ? path.toLowerCase() + '\\' : '';
    const folders = new Map<string, string>();
    const files: BundleMember[] = [];
    let found = !path;
    for (const m of b.members) {
      const p = m.path.replace(/\//g, '\\');
      if (!p.toLowerCase().startsWith(prefix)) continue;
      found = true;
      const rest = p.slice(prefix.length);
      const cut = rest.indexOf('\\');
      if (cut < 0) files.push(m);
      else if (!folders.has(rest.slice(0, cut).toLowerCase())) folders.set(rest.slice(0, cut).toLowerCase(), rest.slice(0, cut));
    }
    return found ? { folders: [...folders.values()], files } : undefined;
  }

  /** The members at or below `path` as entries (served as the engine would), for extraction. */
  entries(mount: Mount, bundle: GamePath, path: GamePath): SourceEntry[] {
    const b = this.resolve(mount, bundle);
    const prefix = path.toLowerCase();
    const out: SourceEntry[] = [];
    for (const m of b.members) {
      const p = m.path.replace(/\//g, '\\').toLowerCase();
      if (prefix && p !== prefix && !p.startsWith(prefix + '\\')) continue;
      const source = m.source ? mount.source(m.source) : undefined;
      if (m.servedFrom === 'missing' || !source) continue;
      out.push(memberEntry(mount, b, m, source));
    }
    if (out.length === 0) throw new Arch06Error('NOT_FOUND', 'no readable bundle member at this path', { file: `${bundle}: ${path || '(all members)'}` });
    return out;
  }
}

/** A bundle member as a `SourceEntry`, so extraction treats it like any file (ranges read only what they need). */
function memberEntry(mount: Mount, b: ResolvedBundle, m: BundleMember, source: Source): SourceEntry {
  const { entry, start: base, end: limit } = locateBundleMember(mount, b, m);
  const size = limit - base;
  const range = (start: number, end: number): [number, number] => {
    if (!(0 <= start && start <= end && end <= size)) throw new Arch06Error('OUT_OF_RANGE', 'read range outside the member', { file: m.path, expected: `within [0, ${size}]`, actual: `[${start}, ${end})` });
    return [base + start, base + end];
  };
  return {
    source,
    path: m.path.replace(/\//g, '\\'),
    size,
    storedSize: size,
    storage: m.servedFrom === 'loose' ? 'loose' : 'plain',
    readSync: (start = 0, end = size) => entry.readSync(...range(start, end)),
    read: (start = 0, end = size) => entry.read(...range(start, end)),
  };
}
