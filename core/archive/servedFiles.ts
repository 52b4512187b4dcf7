/**
 * The copy the engine serves of every path of some kinds, wherever it lives: a loose entry (the
 * search order's winner) or a bundle member that only a container holds. A loose entry of a path
 * wins over the copy a container embeds (the patch rule: a standalone `.objres` replaces the
 * embedded one), exactly as `resolveBundle` serves members. The script index and the hash
 * dictionary's name sources walk the install through this one function.
 */
import { isArch06Error } from '../errors';
import { MAX_GAME_PATH_BYTES } from '../io/safeName';
import { locateBundleMember, resolveBundle, readBundleMemberChecked } from './bundles';
import { readEntryChecked } from './entryRead';
import type { SourceEntry } from './source';
import { toGamePath } from './gamePath';
import type { Mount } from './mount';

/** The key two spellings of one path share (either separator, any case); a name no game path can be keys as itself. */
function servedKey(p: string): string {
  try {
    return toGamePath(p).toLowerCase();
  } catch {
    return p.toLowerCase();
  }
}

export interface ServedFile {
  /** The game path, as the winning source or manifest spells it. */
  path: string;
  /** `loose`: an archive entry or loose file; `container`: a member of a bundle's `.embb`. */
  from: 'loose' | 'container';
  /** The source (archive or folder) it is read from. */
  source: string;
  /** For container copies: the bundle's manifest path. */
  bundle?: string;
  /** Bytes the read returns (as the entry or the container's size word says). */
  size: number;
  /** The bytes, header first and within the mount's cap (core/archive/entryRead.ts): typed errors otherwise. */
  read: () => Uint8Array;
  /**
   * Where `read` reads: the entry, the byte range, the name errors give it (none: the entry's
   * own) and the path whose format the first bytes are checked against. Another thread that opens
   * the entry's archive itself reads the same bytes with the same checks (the script index's pool).
   */
  at: () => ServedRange;
}

/** A served file's bytes as `readEntryChecked(entry, { name, checkHeader: headerCheckFor(headerPath), … }, start, end)` reads them. */
export interface ServedRange {
  entry: SourceEntry;
  start: number;
  end: number;
  name?: string;
  headerPath: string;
}

/**
 * One walk over the served files of the kinds `accept` takes, in two steps a caller may pace:
 * `loose()` (the search order's winners), then `members(manifest)` for each of `manifests`
 * (bundle members no loose entry shadows). Each path is served once.
 */
export class ServedFileWalk {
  /** Every mounted `.bndl` path (filled by `loose()`). */
  readonly manifests: string[] = [];
  /** Paths the walk could not look up, with why (one bad name costs that file only). */
  readonly skipped: { path: string; reason: string }[] = [];
  private readonly seen = new Set<string>();

  /** `paths`: the mount's `distinctPaths()`, when the caller has them already. */
  constructor(
    private readonly mount: Mount,
    private readonly accept: (path: string) => boolean,
    private readonly paths?: readonly string[],
  ) {}

  loose(): ServedFile[] {
    const out: ServedFile[] = [];
    for (const p of this.paths ?? this.mount.distinctPaths()) {
      if (/\.bndl$/i.test(p)) this.manifests.push(p);
      if (!this.accept(p)) continue;
      let entry;
      try {
        entry = this.mount.winner(p);
      } catch (e) {
        if (!isArch06Error(e)) throw e;
        this.skipped.push({ path: p, reason: e.message });
        continue;
      }
      if (!entry) continue;
      this.seen.add(servedKey(p));
      const found = entry;
      const options = { maxBytes: this.mount.maxEntryBytes, raiseHint: this.mount.maxEntryHint };
      out.push({
        path: entry.path,
        from: 'loose',
        source: entry.source.name,
        size: entry.size,
        read: () => readEntryChecked(found, options),
        at: () => ({ entry: found, start: 0, end: found.size, headerPath: found.path }),
      });
    }
    return out;
  }

  /** The members of one bundle that only its container serves; `onMember` is told every member's path (once per path string). A manifest that does not resolve serves nothing (the bundle editor says why). */
  members(manifest: string, onMember?: (path: string) => void): ServedFile[] {
    let bundle;
    try {
      bundle = resolveBundle(this.mount, manifest);
    } catch {
      return [];
    }
    const out: ServedFile[] = [];
    // Members sharing one path string are one path (a crafted manifest may repeat a 200 KB path
    // 50,000 times), and a path longer than any game path is served by no lookup.
    const taken = new Set<string>();
    for (const m of bundle.members) {
      if (taken.has(m.path)) continue;
      taken.add(m.path);
      onMember?.(m.path);
      if (m.path.length > MAX_GAME_PATH_BYTES) continue;
      if (m.servedFrom !== 'container' || !this.accept(m.path) || this.seen.has(servedKey(m.path))) continue;
      this.seen.add(servedKey(m.path));
      const resolved = bundle;
      out.push({
        path: m.path,
        from: 'container',
        source: m.source ?? bundle.container?.source ?? '',
        bundle: bundle.manifest.path,
        size: m.size ?? m.embedded?.size ?? 0,
        read: () => readBundleMemberChecked(this.mount, resolved, m),
        at: () => ({ ...locateBundleMember(this.mount, resolved, m), name: m.path, headerPath: m.path }),
      });
    }
    return out;
  }
}

/** The served copy of every path `accept` takes, in one synchronous walk: loose entries first, then bundle members no loose entry shadows. */
export function servedFiles(mount: Mount, accept: (path: string) => boolean): ServedFile[] {
  const walk = new ServedFileWalk(mount, accept);
  const out = walk.loose();
  for (const m of walk.manifests) for (const f of walk.members(m)) out.push(f);
  return out;
}
