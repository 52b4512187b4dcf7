/**
 * The warm mount (issue 25 item 4): a mount's merged distinct-path index and its bundle member
 * catalogue, kept between sessions in a cache folder outside the install (the extension's global
 * storage, the CLI's user cache folder), one file per install (core/archive/mountCacheFile.ts).
 * The file carries a key of everything they were made from: the cfg (path, size, mtime, and the
 * overlay's list text), the -arch archives, the per-entry cap, and each source in search order
 * (an archive's device, inode, size and mtime as opened; a folder's every file with its stamp).
 * (an archive's stamp includes its ctime, which user space cannot set: an archive rewritten with its
 * size and mtime restored is a new key.) A file of another key is stale, a file that does not read
 * back is corrupt: either way the index and catalogue are built again and the file rewritten
 * through the one write primitive.
 *
 * A warm mount reads no archive's tables (measured: reading and validating the 488,751 records of
 * the full-scale install was most of a warm mount; a digest of the tables to prove them unchanged
 * costs as much as reading them). The cache also keeps a sha-256 of each archive's tables, and a
 * mount opened with `deferTables` is settled here at once: with a usable cache its archives stay
 * unread until first used, and are then validated as at any open and checked against that digest;
 * else every table is read now (an archive that fails is a broken source) and the parts are built.
 * A deferred archive that fails its first read (its tables bad, or not those the cache was made
 * from) fails with that typed error, serves nothing more, and the cache file is removed, so the
 * next mount builds it again.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Arch06Error, isArch06Error } from '../errors';
import { FileByteSource } from '../io/node/fileSource';
import { errnoSummary, isErrnoException } from '../io/node/errno';
import { OutputFolder, writeFileAtomic } from '../io/node/outputFolder';
import type { LtarArchive } from '../formats/archive/ltar/reader';
import { LooseEntry } from './directorySource';
import { LtarSource, type TablesTrust } from './ltarSource';
import { MemberCatalog } from './memberCatalog';
import { MergedIndex } from './mergedIndex';
import type { Mount } from './mount';
import {
  type CatalogParts,
  type MountCacheContents,
  type MountCacheRead,
  encodeMountCache,
  readMountCacheHeader,
  readMountCacheIndex,
  MOUNT_CACHE_HEADER_BYTES,
  MOUNT_CACHE_VERSION,
} from './mountCacheFile';

/** A cache file as this mount holds it: the index read, the catalogue read when asked for. */
type Loaded = Omit<MountCacheRead, 'readCatalog'> & { catalog?: () => CatalogParts };

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
      const ctime = s instanceof LtarSource && s.bytes instanceof FileByteSource ? s.bytes.stamp.ctimeMs : undefined;
      h.update(`archive\0${s.name}\0${(s as { identity?: string }).identity ?? s.diskPath}\0${ctime ?? '-'}\n`);
      continue;
    }
    h.update(`directory\0${s.name}\0${s.diskPath}\0${s.fileCount}\n`);
    for (let i = 0; i < s.fileCount; i++) {
      const e = s.entryAt(i);
      h.update(`${e.identity}\0${e instanceof LooseEntry ? (e.stamp.ctimeMs ?? '-') : '-'}\n`);
    }
  }
  return new Uint8Array(h.digest());
}

/** The cache file of an install (one per root and cfg, so a stale file is replaced, not added to). */
export function mountCacheFile(folder: string, mount: Mount): string {
  const id = createHash('sha256').update(`${mount.root}\0${mount.cfgPath}`).digest('hex').slice(0, 16);
  return path.join(folder, `mount-${id}.a6mc`);
}

const digests = new WeakMap<LtarArchive, Uint8Array>();

/** sha-256 of an archive's header counts and tables (name pool, file and folder records), once per opened archive. */
export function tablesDigest(a: LtarArchive): Uint8Array {
  let d = digests.get(a);
  if (!d) {
    const h = a.header;
    const hash = createHash('sha256').update(`${h.namePoolSize}:${h.folderCount}:${h.fileCount}\0`);
    digests.set(a, (d = new Uint8Array(hash.update(a.tableBytes).digest())));
  }
  return d;
}

const hex = (d: Uint8Array): string => Buffer.from(d).toString('hex');
const sameKey = (a: Uint8Array | undefined, b: Uint8Array): boolean => a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * One mount's cache: read when made, written when a part is built. Every failure to read or
 * write is said through `log` and costs a rebuild, never the mount.
 */
export class MountCache {
  readonly file: string;
  private currentKey: Uint8Array;
  private read: { contents?: Loaded; reason?: string };

  constructor(
    readonly mount: Mount,
    folder: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.file = mountCacheFile(folder, mount);
    this.currentKey = mountCacheKey(mount);
    this.read = this.load();
    this.settleTables();
  }

  /** The key of everything the mount's index and catalogue are made from (its sources as settled). */
  get key(): Uint8Array {
    return this.currentKey;
  }

  /**
   * Read the cache file's header and index part (not its catalogue part: most of the file, read
   * when the catalogue is asked for, from the same file: a file replaced since is CHANGED_ON_DISK).
   */
  private load(): { contents?: Loaded; reason?: string } {
    let f: FileByteSource;
    try {
      f = FileByteSource.open(this.file);
    } catch {
      return { reason: 'absent' };
    }
    try {
      const header = readMountCacheHeader(f.readSync(0, Math.min(MOUNT_CACHE_HEADER_BYTES, f.size)), f.size, this.file);
      if (!sameKey(header.key, this.currentKey)) return { reason: 'stale' };
      const shape = { fileCounts: this.mount.sources.map((s) => s.fileCount) };
      const { readCatalog, ...index } = readMountCacheIndex(f.readSync(0, header.catalogAt), header, shape, this.file);
      const stamp = f.stamp;
      const catalog = readCatalog
        ? (): CatalogParts => {
            const again = FileByteSource.open(this.file, this.file, stamp);
            try {
              return readCatalog(again.readSync(header.catalogAt, again.size - header.catalogAt));
            } finally {
              again.close();
            }
          }
        : undefined;
      return { contents: { ...index, catalog } };
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      this.log(`mount cache ${this.file} not used (${e.message}); rebuilding`);
      return { reason: e.message };
    } finally {
      f.close();
    }
  }

  /**
   * Trust the cache for the archives' tables, or read them all now. An archive whose tables are
   * open already is checked at once; a deferred one when first read.
   */
  private settleTables(): void {
    if (this.trustTables() || !this.mount.tablesDeferred) return;
    this.mount.openTables();
    // An archive that failed is a broken source now, out of the key: the file may be that mount's.
    const key = mountCacheKey(this.mount);
    if (sameKey(key, this.currentKey)) return;
    this.currentKey = key;
    this.read = this.load();
    this.trustTables();
  }

  /** Whether the cache read back and describes every archive's tables (then each is given its check). */
  private trustTables(): boolean {
    const contents = this.read.contents;
    if (!contents) return false;
    const sources = this.mount.sources;
    const unusable = sources.findIndex(
      (s, i) => s instanceof LtarSource && (!contents.tables[i] || (s.tablesOpen && !sameKey(tablesDigest(s.archive), contents.tables[i]!))),
    );
    if (unusable >= 0) {
      this.read = { reason: `stale (the tables of ${sources[unusable].name} are not those it was made from)` };
      return false;
    }
    sources.forEach((s, i) => {
      if (s instanceof LtarSource && !s.tablesOpen) s.trust(this.trustFor(s, contents.tables[i]!));
    });
    this.mount.tablesTrusted();
    return true;
  }

  private trustFor(s: LtarSource, expected: Uint8Array): TablesTrust {
    return {
      check: (archive) => {
        const actual = tablesDigest(archive);
        if (!sameKey(actual, expected)) {
          throw new Arch06Error(
            'CHANGED_ON_DISK',
            'archive tables are not those the mount cache was made from (rewritten, its stamp kept): the cache entry is dropped, mount again',
            { file: s.diskPath, field: 'tables (sha-256)', expected: hex(expected), actual: hex(actual) },
          );
        }
      },
      failed: (e) => this.drop(e),
    };
  }

  /** Remove the cache file (through the write primitive's folder), so the next mount builds it again. */
  private drop(e: Arch06Error): void {
    this.read = { reason: `dropped: ${e.message}` };
    this.log(`mount cache ${this.file} dropped: ${e.message}`);
    try {
      const { folder, leaf } = OutputFolder.forFile(this.file, { forbid: this.mount.readOnlyPlaces() });
      try {
        folder.removeSync([leaf], { names: 'user' });
      } finally {
        folder.close();
      }
    } catch (err) {
      this.log(`mount cache ${this.file} not removed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Give the mount its merged index: from the cache file when it is this mount's, else built and stored. */
  index(): MountCacheUse {
    const { contents, reason } = this.read;
    if (contents) {
      this.mount.adoptIndex(MergedIndex.fromParts(contents.index));
      return { from: 'cache' };
    }
    const index = this.mount.index();
    this.store({ key: this.currentKey, index, tables: this.tableDigests() });
    return { from: 'built', reason };
  }

  /** The member catalogue: from the cache file when stored there (and reading back), else `build` (stored unless cancelled). */
  async catalog(build: () => Promise<MemberCatalog>): Promise<MountCacheUse & { catalog: MemberCatalog }> {
    const { contents, reason } = this.read;
    let why = contents ? 'not listed yet' : reason;
    if (contents?.catalog) {
      try {
        return { from: 'cache', catalog: MemberCatalog.fromParts(contents.catalog()) };
      } catch (e) {
        // The file changed or went away since the mount read it, or its catalogue does not read back.
        if (!isArch06Error(e) && !isErrnoException(e)) throw e;
        why = isArch06Error(e) ? e.message : errnoSummary(e);
        this.log(`mount cache ${this.file}: catalogue not used (${why}); rebuilding it`);
      }
    }
    const catalog = await build();
    if (!catalog.cancelled && !this.read.reason?.startsWith('dropped')) {
      const parts: CatalogParts = { manifests: catalog.manifests, rows: catalog.rows, failures: catalog.failures };
      this.store({ key: this.currentKey, index: this.mount.index(), catalog: parts, tables: this.tableDigests() });
    }
    return { from: 'built', reason: why, catalog };
  }

  /** Each source's tables digest: an open archive's own, a trusted one's as the cache has it. */
  private tableDigests(): (Uint8Array | undefined)[] {
    return this.mount.sources.map((s, i) =>
      s instanceof LtarSource ? (s.tablesOpen ? tablesDigest(s.archive) : (this.read.contents?.tables[i] ?? tablesDigest(s.archive))) : undefined,
    );
  }

  private store(contents: MountCacheContents): void {
    try {
      writeFileAtomic(this.file, encodeMountCache(contents), { forbid: this.mount.readOnlyPlaces() });
      const { catalog, ...rest } = contents;
      this.read = { contents: { ...rest, catalog: catalog && (() => catalog) } };
    } catch (e) {
      this.log(`mount cache not written to ${this.file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
