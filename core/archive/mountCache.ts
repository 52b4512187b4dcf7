/**
 * The warm mount (issue 25 item 4): a mount's merged distinct-path index and its bundle member
 * catalogue, kept between sessions in a cache folder outside the install (the extension's global
 * storage, the CLI's user cache folder), one file per install (core/archive/mountCacheFile.ts).
 * The file carries a key of everything they were made from: the cfg (path, size, mtime, and the
 * overlay's list text), the -arch archives, the per-entry cap, and each source in search order
 * (an archive's device, inode, size and mtime as opened; a folder's every file with its stamp).
 * A file of another key is stale, a file that does not read back is corrupt: either way the index
 * and catalogue are built again and the file rewritten through the one write primitive.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isArch06Error } from '../errors';
import { readFileBytes } from '../io/node/fileSource';
import { writeFileAtomic } from '../io/node/outputFolder';
import { MemberCatalog } from './memberCatalog';
import { MergedIndex } from './mergedIndex';
import type { Mount } from './mount';
import { type CatalogParts, type MountCacheContents, decodeMountCache, encodeMountCache, storedKey, MOUNT_CACHE_VERSION } from './mountCacheFile';

/** Where a part came from, and why not from the cache when it was built. */
export interface MountCacheUse {
  from: 'cache' | 'built';
  /** Why the cache was not used: 'absent', 'stale', or what did not read back. */
  reason?: string;
}

/** The key of everything `mount`'s index and catalogue are made from (sha-256). */
export function mountCacheKey(mount: Mount): Uint8Array {
  const h = createHash('sha256');
  const o = mount.basis.options;
  const cfg = mount.basis.cfg;
  h.update(`arch06 mount cache ${MOUNT_CACHE_VERSION}\0${mount.root}\0${mount.cfgPath}\0${cfg ? `${cfg.size}:${cfg.mtimeMs}` : 'unreadable'}\0`);
  h.update(
    `${o.cfgText === undefined ? '-' : createHash('sha256').update(o.cfgText).digest('hex')}\0${(o.extraArchives ?? []).join('\0')}\0${mount.maxEntryBytes}\n`,
  );
  for (const s of mount.sources) {
    if (s.kind === 'archive') {
      h.update(`archive\0${s.name}\0${(s as { identity?: string }).identity ?? s.diskPath}\n`);
      continue;
    }
    h.update(`directory\0${s.name}\0${s.diskPath}\0${s.fileCount}\n`);
    for (let i = 0; i < s.fileCount; i++) h.update(`${s.entryAt(i).identity}\n`);
  }
  return new Uint8Array(h.digest());
}

/** The cache file of an install (one per root and cfg, so a stale file is replaced, not added to). */
export function mountCacheFile(folder: string, mount: Mount): string {
  const id = createHash('sha256').update(`${mount.root}\0${mount.cfgPath}`).digest('hex').slice(0, 16);
  return path.join(folder, `mount-${id}.a6mc`);
}

const sameKey = (a: Uint8Array | undefined, b: Uint8Array): boolean => a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * One mount's cache: read once when first asked, written when a part is built. Every failure to
 * read or write is said through `log` and costs a rebuild, never the mount.
 */
export class MountCache {
  readonly file: string;
  readonly key: Uint8Array;
  private read: { contents?: MountCacheContents; reason?: string } | undefined;

  constructor(
    readonly mount: Mount,
    folder: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.file = mountCacheFile(folder, mount);
    this.key = mountCacheKey(mount);
  }

  private contents(): { contents?: MountCacheContents; reason?: string } {
    if (this.read) return this.read;
    let bytes: Uint8Array;
    try {
      bytes = readFileBytes(this.file);
    } catch {
      return (this.read = { reason: 'absent' });
    }
    if (!sameKey(storedKey(bytes), this.key)) return (this.read = { reason: 'stale' });
    try {
      return (this.read = { contents: decodeMountCache(bytes, { fileCounts: this.mount.sources.map((s) => s.fileCount) }, this.file) });
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      this.log(`mount cache ${this.file} not used (${e.message}); rebuilding`);
      return (this.read = { reason: e.message });
    }
  }

  /** Give the mount its merged index: from the cache file when it is this mount's, else built and stored. */
  index(): MountCacheUse {
    const { contents, reason } = this.contents();
    if (contents) {
      this.mount.adoptIndex(MergedIndex.fromParts(contents.index));
      return { from: 'cache' };
    }
    this.store({ key: this.key, index: this.mount.index() });
    return { from: 'built', reason };
  }

  /** The member catalogue: from the cache file when stored there, else `build` (stored unless cancelled). */
  async catalog(build: () => Promise<MemberCatalog>): Promise<MountCacheUse & { catalog: MemberCatalog }> {
    const { contents, reason } = this.contents();
    if (contents?.catalog) return { from: 'cache', catalog: MemberCatalog.fromParts(contents.catalog) };
    const catalog = await build();
    if (!catalog.cancelled) {
      const parts: CatalogParts = { manifests: catalog.manifests, rows: catalog.rows, failures: catalog.failures };
      this.store({ key: this.key, index: this.mount.index(), catalog: parts });
    }
    return { from: 'built', reason: contents ? 'not listed yet' : reason, catalog };
  }

  private store(contents: MountCacheContents): void {
    try {
      writeFileAtomic(this.file, encodeMountCache(contents), { forbid: this.mount.readOnlyPlaces() });
      this.read = { contents };
    } catch (e) {
      this.log(`mount cache not written to ${this.file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
