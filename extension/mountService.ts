/**
 * The mounted install, shared by every part of the extension: opening it (with progress), the
 * merged path list for Go to File, change events, and the output channel where details go.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isInsideReal, writeFileAtomic } from '../core/io/node';
import { type DiskChange, Mount, type RemountResult, describeChanges, remount } from '../core/archive';
import { FuzzyIndex, pathList } from '../core/search';
import { MemberCatalog, MountCache, type MemberRow } from '../core/archive';
import { isArch06Error } from '../core/errors';
import { brokenNotice } from './mountSummary';
import { type ActiveMod, openOverlay } from '../core/mod';
import { showError, showWarning } from './notify';

export interface MountRequest {
  root: string;
  cfg?: string;
  extraArchives?: string[];
}

/**
 * Go to File's index over paths and bundle members (core/search `pathList`): `fuzzy.paths[i]` is a
 * path for i < looseCount, else `members[i - looseCount]`; a member served loose is its path, listed
 * once, and found in `alsoDeclared`.
 */
export interface PathsAndMembers {
  fuzzy: FuzzyIndex;
  looseCount: number;
  members: readonly MemberRow[];
  alsoDeclared: ReadonlyMap<string, MemberRow>;
  /** Manifests that did not resolve. */
  failures: number;
}

export class MountService implements vscode.Disposable {
  private current: Mount | undefined;
  /** What the current mount was opened from (a remount with other mods reuses it). */
  private lastRequest: MountRequest | undefined;
  /**
   * The window's active mods (extension/mods/modProjects.ts), overlaid on every mount at their
   * positions by core/mod's overlay: the mod folders become sources of the merged view.
   */
  activeMods: readonly ActiveMod[] = [];
  /** Work that will (or may) mount an install: the file system waits for it instead of failing. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private fuzzy: FuzzyIndex | undefined;
  /** The current mount's distinct paths, listed once (Go to File's indexes and every Find in Files share the strings). */
  private paths: { mount: Mount; paths: string[] } | undefined;
  private withMembers: { mount: Mount; index: Promise<PathsAndMembers>; ready?: PathsAndMembers } | undefined;
  private readonly changed = new vscode.EventEmitter<Mount | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly sawChange = new vscode.EventEmitter<void>();
  /** A read failed with CHANGED_ON_DISK: the disk watch checks the mount at once. */
  readonly onDidSeeChangeOnDisk = this.sawChange.event;
  readonly output = vscode.window.createOutputChannel('arch06');
  /** The current mount's cache (core/archive/mountCache.ts), when the service has a cache folder. */
  private cache: MountCache | undefined;

  /** `cacheFolder`: where each install's merged index and member catalogue are kept (outside the install). */
  constructor(private readonly cacheFolder?: string) {}

  get mount(): Mount | undefined {
    return this.current;
  }

  /**
   * Mark `work` as mounting (activation's first mount, a remount): until it settles, `settled()`
   * waits for it. The workbench resolves an `arch06:` workspace folder as soon as the provider is
   * registered, which is before activation has mounted anything; answering "nothing mounted" then
   * leaves the Explorer with a root it never lists.
   */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = (): void => void this.inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves when no tracked mount is in progress (at once when none is). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Mount an install, replacing the current one. Shows progress; returns undefined on failure (after telling the user). */
  async open(request: MountRequest): Promise<Mount | undefined> {
    return this.track(this.openWithProgress(request));
  }

  private async openWithProgress(request: MountRequest): Promise<Mount | undefined> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'arch06: mounting the install…' }, async () => {
      const started = Date.now();
      try {
        // Mounting is synchronous file work; yield first so the progress indicator paints.
        await new Promise((r) => setTimeout(r, 0));
        // With a cache folder the mount goes to the mount cache at once: its archives' tables wait until used.
        const { mount: m, notes } = openOverlay(
          { root: request.root, cfg: request.cfg || undefined, extraArchives: request.extraArchives, deferTables: this.cacheFolder !== undefined },
          this.activeMods,
        );
        this.lastRequest = request;
        const cache = this.cacheFolder ? new MountCache(m, this.cacheFolder, (line) => this.log(line)) : undefined;
        const use = cache?.index();
        const paths = m.index().size;
        for (const n of notes) this.log(`  mod: ${n}`);
        this.replace(m);
        this.cache = cache;
        const how = use ? (use.from === 'cache' ? ', index from the cache' : `, index built (cache ${use.reason ?? 'absent'})`) : '';
        this.log(`mounted ${m.root} (${m.cfgPath}): ${m.sources.length} sources, ${paths} distinct paths in ${Date.now() - started} ms${how}`);
        for (const b of m.broken) this.log(`  BROKEN ${b.line ? `cfg line ${b.line}` : '-arch archive'}: ${b.text} (${b.path}): ${b.reason} [${b.code}]`);
        for (const s of m.skipped) this.log(`  skipped cfg line ${s.line}: ${s.text} (${s.reason})`);
        if (m.unlisted.length) this.log(`  on disk but not in the cfg (not mounted): ${m.unlisted.join(', ')}`);
        this.warnBroken(m);
        return m;
      } catch (e) {
        this.reportError('Could not mount the install', e);
        return undefined;
      }
    });
  }

  /**
   * Mount again after `changes` on disk (core/archive/remount.ts: unchanged sources carried over,
   * the rest opened anew), tracked so the file system waits for it. Undefined when nothing is
   * mounted or the remount failed (after telling the user; the old mount stays, and its changed
   * sources fail their reads with CHANGED_ON_DISK).
   */
  applyDiskChanges(changes: DiskChange[]): RemountResult | undefined {
    const old = this.current;
    if (!old) return undefined;
    const started = Date.now();
    let r: RemountResult;
    try {
      r = remount(old, changes);
    } catch (e) {
      this.reportError('Could not mount the install again after it changed on disk', e);
      return undefined;
    }
    // The cache first: it settles the new mount's deferred tables before anyone reads it.
    const cache = this.cacheFolder ? new MountCache(r.mount, this.cacheFolder, (line) => this.log(line)) : undefined;
    this.replace(r.mount, { closeOld: false });
    if (cache) this.cache = cache;
    this.log(`remounted after a change on disk (${describeChanges(changes, 20)}): ${r.kept} sources kept, ${r.opened} opened in ${Date.now() - started} ms`);
    const newlyBroken = r.mount.broken.filter((b) => !old.broken.some((o) => o.path === b.path));
    for (const b of newlyBroken) this.log(`  BROKEN ${b.line ? `cfg line ${b.line}` : '-arch archive'}: ${b.text} (${b.path}): ${b.reason} [${b.code}]`);
    if (newlyBroken.length) this.warnBroken(r.mount);
    return r;
  }

  /** A read met a file changed on disk (CHANGED_ON_DISK): have the mount checked now. */
  sawChangeOnDisk(): void {
    this.sawChange.fire();
  }

  /** Set the active mods and mount again with them (when an install is mounted). */
  async setMods(mods: readonly ActiveMod[]): Promise<Mount | undefined> {
    this.activeMods = mods;
    return this.lastRequest ? this.open(this.lastRequest) : undefined;
  }

  /** Mount the same install again (a mod folder gained or lost files). */
  async remount(): Promise<Mount | undefined> {
    return this.lastRequest ? this.open(this.lastRequest) : undefined;
  }

  /** One warning per mount (not per view refresh) when sources the cfg names are broken. */
  private warnBroken(m: Mount): void {
    const notice = brokenNotice(m.broken);
    if (!notice) return;
    void showWarning(notice, 'Show Search Order', 'Show Details').then((pick) => {
      if (pick === 'Show Search Order') void vscode.commands.executeCommand('arch06.searchOrder.focus');
      else if (pick === 'Show Details') this.output.show(true);
    });
  }

  private replace(m: Mount | undefined, options: { closeOld?: boolean } = {}): void {
    if (options.closeOld !== false) this.current?.close();
    this.current = m;
    this.cache = undefined;
    this.fuzzy = undefined;
    this.paths = undefined;
    this.withMembers = undefined;
    this.changed.fire(m);
  }

  /**
   * Every distinct path of the merged view, for Go to File until the bundle members are listed
   * (built on first use; dropped once `pathsWithMembers` is ready, whose index holds these paths too).
   */
  fuzzyIndex(): FuzzyIndex | undefined {
    const m = this.current;
    if (!m) return undefined;
    if (!this.fuzzy) {
      this.fuzzy = new FuzzyIndex(this.distinctPaths(m));
    }
    return this.fuzzy;
  }

  /** Every distinct path of `m` (the current mount), in index order, listed once per mount. */
  distinctPaths(m: Mount): string[] {
    if (this.paths?.mount !== m) this.paths = { mount: m, paths: m.distinctPaths() };
    return this.paths.paths;
  }

  /**
   * Every path of the merged view and every bundle member, for Go to File and Find in Files: each
   * manifest resolved once per mount (with progress in the status bar, yielding between
   * manifests). Undefined when nothing is mounted.
   */
  pathsWithMembers(): Promise<PathsAndMembers> | undefined {
    const m = this.current;
    if (!m) return undefined;
    if (this.withMembers?.mount !== m) {
      const index = vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'arch06: listing bundle members' }, async (progress) => {
        const started = Date.now();
        const build = (): Promise<MemberCatalog> =>
          MemberCatalog.build(m, {
            pause: () => new Promise((r) => setImmediate(r)),
            isCancelled: () => this.current !== m,
            onProgress: (done, total) => progress.report({ message: `${done.toLocaleString('en')} / ${total.toLocaleString('en')} bundles` }),
          });
        const cache = this.cache?.mount === m ? this.cache : undefined;
        const { catalog, from } = cache ? await cache.catalog(build) : { catalog: await build(), from: 'built' };
        const list = pathList(this.distinctPaths(m), catalog.rows);
        const fuzzy = new FuzzyIndex(list.paths);
        this.log(
          `bundle members: ${catalog.rows.length} in ${catalog.manifests} bundles in ${Date.now() - started} ms${from === 'cache' ? ' (from the cache)' : ''}` +
            (catalog.failures.length
              ? `; ${catalog.failures.length} manifests did not resolve (first: ${catalog.failures[0].bundle}: ${catalog.failures[0].reason})`
              : ''),
        );
        const ready = { fuzzy, looseCount: list.looseCount, members: list.members, alsoDeclared: list.alsoDeclared, failures: catalog.failures.length };
        if (this.withMembers?.mount === m) {
          this.withMembers.ready = ready;
          this.fuzzy = undefined; // the paths-only index: no longer needed, and as large
        }
        return ready;
      });
      this.withMembers = { mount: m, index: Promise.resolve(index) };
    }
    return this.withMembers.index;
  }

  /** `pathsWithMembers()` once it has resolved for the current mount, else undefined. */
  readyPathsWithMembers(): PathsAndMembers | undefined {
    return this.withMembers?.mount === this.current ? this.withMembers?.ready : undefined;
  }

  log(line: string): void {
    this.output.appendLine(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  }

  /**
   * Ask where to save an export (PNG, DDS, glTF). The dialog starts in the user's home folder;
   * a target inside the mounted install is refused (the game folder is read-only to arch06).
   */
  async exportTarget(options: { title: string; saveLabel: string; filters: Record<string, string[]>; fileName: string }): Promise<vscode.Uri | undefined> {
    const target = await vscode.window.showSaveDialog({
      title: options.title,
      saveLabel: options.saveLabel,
      filters: options.filters,
      defaultUri: vscode.Uri.file(path.join(os.homedir(), options.fileName)),
    });
    if (!target) return undefined;
    const root = this.current?.root;
    // Real paths: a link to the install (or the install given through one) is the install.
    const places = this.current?.readOnlyPlaces() ?? [];
    if (target.scheme === 'arch06' || (target.scheme === 'file' && places.some((p) => isInsideReal(target.fsPath, p)))) {
      void showWarning(`arch06 does not write into the game folder: choose a place outside ${root ?? 'the install'}.`);
      return undefined;
    }
    return target;
  }

  /**
   * Write an export to the target `exportTarget` chose. On disk through the engine's one write
   * primitive (real paths checked again at write time, exclusive temp file, rename); elsewhere
   * (a remote or virtual file system) through VS Code.
   */
  async writeExport(target: vscode.Uri, bytes: Uint8Array): Promise<void> {
    if (target.scheme === 'file') writeFileAtomic(target.fsPath, bytes, { forbid: this.current?.readOnlyPlaces() ?? [] });
    else await vscode.workspace.fs.writeFile(target, bytes);
  }

  /** One clear notification, details in the output channel. */
  reportError(what: string, e: unknown): void {
    const message = isArch06Error(e) ? e.message : e instanceof Error ? e.message : String(e);
    this.log(`${what}: ${message}`);
    if (e instanceof Error && !isArch06Error(e) && e.stack) this.log(e.stack);
    void showError(`${what}: ${message}`, 'Show Details').then((pick) => {
      if (pick) this.output.show(true);
    });
  }

  dispose(): void {
    this.replace(undefined);
    this.changed.dispose();
    this.sawChange.dispose();
    this.output.dispose();
  }
}
