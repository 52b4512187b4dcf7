/**
 * The mount: the engine's search order over an install (seed 004 "The archive config list and
 * the search order", seed 000 "The file system").
 *
 * Mounting follows the engine: archives named with -arch first, then every cfg line top to
 * bottom; a directory becomes a directory source, an existing file an archive source, and a line
 * that names nothing is skipped and reported. The mount vector is the mount order reversed, so
 * the bottom cfg line is consulted first, the -arch archives last, and the first source that
 * holds a path wins.
 */
import * as path from 'node:path';
import { Arch06Error, isArch06Error } from '../errors';
import { DEFAULT_MAX_ENTRY_BYTES, readTextFile } from '../io/node/fileSource';
import { FileStamp, diskKind, fileStamp, listDirectory, resolveCaseInsensitive } from '../io/node/disk';
import { parsePathIndex, PathIndexProblem, PathIndexRow } from '../formats/archive/pathIndex';
import { PATH_INDEX_NAME } from '../formats/archive/ltar/layout';
import { defaultHasher, StringHasher } from '../hash/stringHash';
import { parseArchcfg } from './archcfg';
import { DirectorySource } from './directorySource';
import { readEntryChecked } from './entryRead';
import { GamePath, ROOT, gamePathKey, joinGamePath, toGamePath } from './gamePath';
import { LtarSource } from './ltarSource';
import { MergedIndex } from './mergedIndex';
import { Source, SourceEntry } from './source';

export interface MountOptions {
  /** The install root (the folder that holds x64/default.archcfg). */
  root: string;
  /** An explicit cfg (the engine's -archcfg); default: root/x64/default.archcfg. */
  cfg?: string;
  /**
   * The list's text in place of the cfg file's (its lines still resolve against the cfg's folder):
   * a list as it will be once a mod is installed (core/mod's overlay), mounted by this same rule.
   */
  cfgText?: string;
  /** Names for directory sources by absolute disk path (a mod folder outside the install). */
  sourceNames?: ReadonlyMap<string, string>;
  /** Archives mounted before the cfg list (the engine's -arch); they rank below every line. */
  extraArchives?: string[];
  /** Bytes one entry may hold in memory when a reader takes it whole (default 1 GiB): `maxEntryBytes`. */
  maxEntryBytes?: number;
  /** How a user raises that cap, said when it is hit (the CLI names its environment variable). */
  maxEntryHint?: string;
  /**
   * Sources of a previous mount to keep (core/archive/remount.ts): given a path the cfg names,
   * an open source of that file that has not changed on disk, or undefined to open it anew.
   */
  reuse?: (diskPath: string) => Source | undefined;
  /**
   * Read only each archive's header now, its tables when first needed (core/archive/ltarSource.ts):
   * for a mount handed at once to a `MountCache`, which either trusts the cached index (the tables
   * are checked against it on first use) or has every table read now (`openTables`), so that an
   * archive whose tables are bad is a broken source, as in an eager mount.
   */
  deferTables?: boolean;
}

/**
 * What a mount was made from, as it was on disk when mounted, for telling later what changed
 * (core/archive/remount.ts): the cfg's stamp, each broken source's, each line that named nothing.
 */
export interface MountBasis {
  /** The options it was opened with (a remount opens the same install the same way). */
  options: MountOptions;
  cfg: FileStamp | undefined;
  /** Broken sources' files by disk path, as they were. */
  broken: Map<string, FileStamp | undefined>;
  /** Lines that named nothing: the folder each is relative to, and the line. */
  missing: { line: number; text: string; base: string }[];
}

export interface SkippedLine {
  /** 1-based cfg line, or 0 for an -arch archive. */
  line: number;
  text: string;
  reason: string;
}

/**
 * A cfg line (or -arch archive) that names an existing file which is not a readable archive.
 * Not skipped: a modder whose mod archive is broken must hear about it, and the mount is incomplete.
 */
export interface BrokenSource {
  /** 1-based cfg line, or 0 for an -arch archive. */
  line: number;
  /** The line as written. */
  text: string;
  /** Absolute disk path. */
  path: string;
  /** One line: why it is not a valid archive. */
  reason: string;
  /** The Arch06Error code, or the errno code when the file could not be read. */
  code: string;
}

export interface WhichResult {
  path: string;
  winner: SourceEntry;
  /** Every copy in search order, the winner first. */
  copies: SourceEntry[];
}

export interface MergedListing {
  folders: { name: string; sources: Source[] }[];
  files: { name: string; winner: SourceEntry; copies: number }[];
}

export interface PathTable {
  /** Every archive's rows merged, sorted by hash, one row per distinct (hash, path). */
  rows: PathIndexRow[];
  /** Archives that carry an index. */
  archives: string[];
  problems: { archive: string; problem: PathIndexProblem }[];
  /** Archives whose index could not be read at all. */
  errors: { archive: string; error: Arch06Error }[];
}

export class Mount {
  /** What it was made from, as it was on disk (set by `open`). */
  basis: MountBasis = { options: { root: '' }, cfg: undefined, broken: new Map(), missing: [] };
  private merged: MergedIndex | undefined;
  /** Archives opened with their tables deferred and not yet read, with the cfg line that named each. */
  private readonly deferred = new Map<LtarSource, { line: number; text: string }>();
  private pathTableCache: PathTable | undefined;
  /** The per-entry cap every whole-entry read through this mount keeps (core/archive/entryRead.ts). */
  maxEntryBytes = DEFAULT_MAX_ENTRY_BYTES;
  maxEntryHint: string | undefined;

  private constructor(
    readonly root: string,
    readonly cfgPath: string,
    /** Search order: index 0 is consulted first. */
    readonly sources: Source[],
    readonly skipped: SkippedLine[],
    /** `.arch06` files in the root that the cfg does not name (not mounted, as in the game). */
    readonly unlisted: string[],
    /** Existing files the cfg names that are not valid archives (the rest of the install still mounts). */
    readonly broken: BrokenSource[],
  ) {}

  /** Whether every source the cfg names could be mounted. */
  get complete(): boolean {
    return this.broken.length === 0;
  }

  static findCfg(root: string): string | undefined {
    return resolveCaseInsensitive(root, 'x64/default.archcfg');
  }

  static open(options: MountOptions): Mount {
    const root = path.resolve(options.root);
    if (diskKind(root) !== 'directory') throw new Arch06Error('NOT_FOUND', 'install root is not a folder', { file: root });
    const cfgPath = options.cfg ? path.resolve(options.cfg) : Mount.findCfg(root);
    if (!cfgPath || diskKind(cfgPath) !== 'file') {
      const what = options.cfg
        ? 'the archive config list given (--cfg / arch06.archcfg) is not a file'
        : 'no archive config list: expected x64/default.archcfg under the install root';
      throw new Arch06Error('NOT_FOUND', what, { file: cfgPath ?? path.join(root, 'x64', 'default.archcfg') });
    }
    const cfgDir = path.dirname(cfgPath);
    const mounted: Source[] = []; // in mount order
    const skipped: SkippedLine[] = [];
    const broken: BrokenSource[] = [];
    const byDiskPath = new Map<string, number>();
    const deferred = new Map<LtarSource, { line: number; text: string }>();
    const dirCache = new Map<string, Map<string, string>>();
    const basis: MountBasis = { options, cfg: fileStamp(cfgPath), broken: new Map(), missing: [] };

    const mountOne = (line: number, text: string, abs: string | undefined, base: string): void => {
      const kind = abs ? diskKind(abs) : 'missing';
      if (!abs || kind === 'missing') {
        skipped.push({ line, text, reason: 'names nothing on disk' });
        basis.missing.push({ line, text, base });
        return;
      }
      const prior = byDiskPath.get(abs);
      let source: Source;
      try {
        const kept = options.reuse?.(abs);
        if (kept) source = kept;
        else if (kind === 'directory') {
          const rel = path.relative(root, abs).split(path.sep).join('/');
          source = new DirectorySource(options.sourceNames?.get(path.resolve(abs)) ?? (rel && !rel.startsWith('..') ? rel : abs), abs);
        } else {
          source = LtarSource.openFile(abs, path.basename(abs), { deferTables: options.deferTables });
          if (options.deferTables) deferred.set(source as LtarSource, { line, text });
        }
      } catch (e) {
        if (!isArch06Error(e) && !(e as NodeJS.ErrnoException).code) throw e;
        const code = isArch06Error(e) ? e.code : String((e as NodeJS.ErrnoException).code);
        const reason = isArch06Error(e) ? e.message : `cannot read: ${(e as Error).message}`;
        broken.push({ line, text, path: abs, reason, code });
        basis.broken.set(abs, fileStamp(abs));
        return;
      }
      if (prior !== undefined) {
        // The same source twice: the later mount ranks higher; keep one source under its name.
        mounted[prior].close();
        mounted.splice(prior, 1);
        for (const [k, v] of byDiskPath) if (v > prior) byDiskPath.set(k, v - 1);
        skipped.push({ line, text, reason: 'mounted again: ranks at this later line' });
      }
      byDiskPath.set(abs, mounted.length);
      mounted.push(source);
    };

    for (const extra of options.extraArchives ?? []) {
      const abs = path.isAbsolute(extra) ? extra : resolveCaseInsensitive(root, extra, dirCache);
      mountOne(0, extra, abs, root);
    }
    const lines = parseArchcfg(options.cfgText ?? readTextFile(cfgPath));
    for (const l of lines) mountOne(l.line, l.text, resolveCaseInsensitive(cfgDir, l.text, dirCache), cfgDir);

    const listed = new Set([...mounted.map((s) => s.diskPath), ...broken.map((b) => b.path)]);
    // Names filtered before the stat: the install's folder holds every mounted archive.
    const unlisted = listDirectory(root, (name) => /\.arch06$/i.test(name) && !listed.has(path.join(root, name)))
      .filter((e) => !e.isDirectory)
      .map((e) => e.name)
      .sort();
    const mount = new Mount(root, cfgPath, mounted.reverse(), skipped, unlisted, broken);
    if (options.maxEntryBytes !== undefined) mount.maxEntryBytes = options.maxEntryBytes;
    mount.maxEntryHint = options.maxEntryHint;
    mount.basis = { ...basis, options: { ...options, reuse: undefined } };
    for (const [s, at] of deferred) if (mount.sources.includes(s)) mount.deferred.set(s, at);
    return mount;
  }

  /** Whether some archive's tables were deferred and are neither read nor trusted yet. */
  get tablesDeferred(): boolean {
    return this.deferred.size > 0;
  }

  /**
   * The mount cache vouches for the deferred archives (core/archive/mountCache.ts has given each
   * its `trust`): they stay unread until used.
   */
  tablesTrusted(): void {
    this.deferred.clear();
  }

  /**
   * Read and validate every deferred archive's tables now, as an eager mount does at open: one
   * that fails becomes a broken source (left out of the search order, its reason kept).
   */
  openTables(): void {
    for (const [s, at] of this.deferred) {
      try {
        void s.archive;
      } catch (e) {
        if (!isArch06Error(e)) throw e;
        this.sources.splice(this.sources.indexOf(s), 1);
        s.close();
        this.broken.push({ line: at.line, text: at.text, path: s.diskPath, reason: e.message, code: e.code });
        this.basis.broken.set(s.diskPath, fileStamp(s.diskPath));
      }
    }
    this.deferred.clear();
    this.broken.sort((a, b) => a.line - b.line); // cfg order, as an eager mount lists them
  }

  /**
   * Everything of the game's that arch06 must never write into: the install, the cfg's folder,
   * every mounted source and every broken one (cfg lines may name places outside the install).
   */
  readOnlyPlaces(): string[] {
    return [this.root, path.dirname(this.cfgPath), ...this.sources.map((s) => s.diskPath), ...this.broken.map((b) => b.path)];
  }

  source(name: string): Source | undefined {
    const k = name.toLowerCase();
    return this.sources.find((s) => s.name.toLowerCase() === k);
  }

  /** Every copy of `path` in search order; undefined when no source holds it. */
  which(input: string): WhichResult | undefined {
    const p = toGamePath(input);
    const copies: SourceEntry[] = [];
    for (const s of this.sources) {
      const e = s.lookup(p);
      if (e) copies.push(e);
    }
    return copies.length ? { path: copies[0].path, winner: copies[0], copies } : undefined;
  }

  /** The copy the engine loads (the first source in search order that holds the path), if any. */
  winner(input: string): SourceEntry | undefined {
    const p = toGamePath(input);
    for (const s of this.sources) {
      const e = s.lookup(p);
      if (e) return e;
    }
    return undefined;
  }

  /** The winning copy, or the copy in the named source. Throws NOT_FOUND. */
  entry(input: string, sourceName?: string): SourceEntry {
    const p = toGamePath(input);
    if (sourceName !== undefined) {
      const s = this.source(sourceName);
      if (!s) throw new Arch06Error('NOT_FOUND', `no mounted source named ${sourceName}`, { file: sourceName });
      const e = s.lookup(p);
      if (!e) throw new Arch06Error('NOT_FOUND', 'path not in this source', { file: `${sourceName}:${p}` });
      return e;
    }
    const e = this.winner(p);
    if (!e) throw new Arch06Error('NOT_FOUND', 'path not found in any mounted source', { file: p });
    return e;
  }

  /** Whether any source has this folder. */
  hasFolder(input: string): boolean {
    const folder = toGamePath(input);
    return folder === ROOT || this.sources.some((s) => s.hasFolder(folder));
  }

  /** One folder of the merged view: child folders (with the sources that have them) and winning files. */
  list(input: string = ROOT): MergedListing | undefined {
    const folder = toGamePath(input);
    const folders = new Map<string, { name: string; sources: Source[] }>();
    const files = new Map<string, { name: string; winner: SourceEntry; copies: number; last: Source }>();
    let found = false;
    for (const s of this.sources) {
      const l = s.list(folder);
      if (!l) continue;
      found = true;
      for (const name of l.folders) {
        const k = name.toLowerCase();
        const f = folders.get(k);
        if (!f) folders.set(k, { name, sources: [s] });
        else if (f.sources[f.sources.length - 1] !== s) f.sources.push(s);
      }
      for (const e of l.files) {
        const name = e.path.slice(e.path.lastIndexOf('\\') + 1);
        const k = name.toLowerCase();
        const f = files.get(k);
        if (!f) files.set(k, { name, winner: e, copies: 1, last: s });
        else if (f.last !== s) {
          // A second name from the same source is a duplicate inside it, not another copy.
          f.copies++;
          f.last = s;
        }
      }
    }
    if (!found) return undefined;
    const byName = (a: { name: string }, b: { name: string }): number =>
      a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;
    return {
      folders: [...folders.values()].sort(byName),
      files: [...files.values()].map(({ name, winner, copies }) => ({ name, winner, copies })).sort(byName),
    };
  }

  /**
   * Every file under `folder` in the merged view (winning copies), depth first. Iterative, and
   * each folder is visited once whatever the sources' tables say (a path only grows downwards).
   */
  *walk(input: string = ROOT): Generator<SourceEntry> {
    const stack: GamePath[] = [toGamePath(input)];
    const seen = new Set<string>();
    while (stack.length) {
      const folder = stack.pop()!;
      const key = gamePathKey(folder);
      if (seen.has(key)) continue;
      seen.add(key);
      const l = this.list(folder);
      if (!l) continue;
      for (const f of l.files) yield f.winner;
      for (let i = l.folders.length - 1; i >= 0; i--) stack.push(joinGamePath(folder, l.folders[i].name));
    }
  }

  /** The merged path table (built on first use). */
  index(): MergedIndex {
    if (!this.merged) this.openTables();
    this.merged ??= MergedIndex.build(this.sources);
    return this.merged;
  }

  /** Use an index made before for these very sources (core/archive/mountCache.ts), unless this mount has built its own. */
  adoptIndex(ix: MergedIndex): void {
    this.merged ??= ix;
  }

  /** Distinct path d of the merged index, as the winning source spells it. */
  indexPath(d: number): string {
    const ix = this.index();
    return this.sources[ix.winnerSource[d]].pathAt(ix.winnerFile[d]);
  }

  /** Every distinct path of the merged view (as its winning source spells it), in index order. */
  distinctPaths(): string[] {
    const ix = this.index();
    const perSource = this.sources.map(() => undefined as string[] | undefined);
    const out: string[] = new Array(ix.size);
    let touched = 0;
    for (let d = 0; d < ix.size; d++) {
      const s = ix.winnerSource[d];
      const paths = (perSource[s] ??= this.sources[s].allPaths());
      out[d] = paths[ix.winnerFile[d]];
      // A path is built as folder + leaf, which V8 keeps as a pair until a scan flattens it in
      // place: flattened here, once, every later scan (Go to File, each Find in Files) reads flat text.
      touched += out[d].charCodeAt(0);
    }
    return touched < 0 ? [] : out;
  }

  /** Every archive's path index merged into one hash -> path table, as Mount does at fs+0x80. */
  pathTable(hasher: StringHasher = defaultHasher): PathTable {
    if (this.pathTableCache && hasher === defaultHasher) return this.pathTableCache;
    const rows: PathIndexRow[] = [];
    const archives: string[] = [];
    const problems: PathTable['problems'] = [];
    const errors: PathTable['errors'] = [];
    for (const s of this.sources) {
      if (!(s instanceof LtarSource)) continue;
      const i = s.archive.find(PATH_INDEX_NAME);
      if (i < 0) continue;
      archives.push(s.name);
      try {
        const name = `${s.name}:${PATH_INDEX_NAME}`;
        const ix = parsePathIndex(readEntryChecked(s.entry(i), { name, maxBytes: this.maxEntryBytes, raiseHint: this.maxEntryHint }), name, hasher);
        for (const r of ix.rows) rows.push(r); // not push(...): a spread over ~200k rows overflows the stack
        for (const p of ix.problems) problems.push({ archive: s.name, problem: p });
      } catch (e) {
        if (!isArch06Error(e)) throw e;
        errors.push({ archive: s.name, error: e });
      }
    }
    // One row per distinct (hash, folded path), deduplicated before sorting so rows that repeat
    // one string cost one key each; folded keys are computed once per string.
    const folded = new Map<string, string>();
    const unique = new Map<string, { row: PathIndexRow; key: string }>();
    for (const r of rows) {
      let key = folded.get(r.path);
      if (key === undefined) folded.set(r.path, (key = gamePathKey(r.path)));
      const id = `${r.hash}:${key}`;
      if (!unique.has(id)) unique.set(id, { row: r, key });
    }
    const merged = [...unique.values()].sort((a, b) => a.row.hash - b.row.hash || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((u) => u.row);
    const table = { rows: merged, archives, problems, errors };
    if (hasher === defaultHasher) this.pathTableCache = table;
    return table;
  }

  /** Paths whose StringHash is `hash`: from the path-index table and from every mounted path. */
  unhash(hash: number, hasher: StringHasher = defaultHasher): { path: string; from: 'path-index' | 'mount' }[] {
    const out: { path: string; from: 'path-index' | 'mount' }[] = [];
    const seen = new Set<string>();
    const rows = this.pathTable(hasher).rows;
    // Rows are sorted by hash: binary search to the first match.
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rows[mid].hash < hash) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < rows.length && rows[i].hash === hash; i++) {
      seen.add(gamePathKey(rows[i].path));
      out.push({ path: rows[i].path, from: 'path-index' });
    }
    for (const p of this.distinctPaths()) {
      const h = hasher.tryHash(p);
      if (h.ok && h.hash === hash && !seen.has(gamePathKey(p))) {
        seen.add(gamePathKey(p));
        out.push({ path: p, from: 'mount' });
      }
    }
    return out;
  }

  /** Close every source, except those in `keep` (a remount's new mount uses them). */
  close(keep?: ReadonlySet<Source>): void {
    for (const s of this.sources) if (!keep?.has(s)) s.close();
  }
}
