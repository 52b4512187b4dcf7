/**
 * The `arch06:` file system: a read-only, case-insensitive view of the mount. The merged tree is
 * what the engine loads (first source in search order wins); `@sources/<NN> <name>/` shows one
 * source as it is, the folders numbered in search order as the Search Order view numbers them
 * (core/archive/viewPaths.ts: the Explorer sorts by name, so the number orders them); `x.bndl [bundle]/` shows a bundle's members as the engine serves them. Engine errors
 * become FileSystemErrors here, and only here.
 */
import * as vscode from 'vscode';
import { isArch06Error } from '../../core/errors';
import { BundleFolders, ROOT, type UriFile, locateUri, memberName, readEntryCheckedAsync, sourceFolderNames } from '../../core/archive';
import { MountService } from '../mountService';
import { BUNDLE_SUFFIX, ROOT_URI, SCHEME, SOURCES_FOLDER, parseUri } from './uris';

/** Reads whose served copy is remembered (see `served`). */
const MAX_REMEMBERED = 4096;

export class Arch06FileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  private mountedAt = Date.now();
  /** Whether the workbench has been answered anything (stat, listing, read) yet. */
  private answered = false;
  readonly bundles = new BundleFolders();
  /**
   * The identity (core: `SourceEntry.identity`) of the copy served for each URI read, so that
   * after a remount the disk caused, an editor can be told its copy changed or vanished. Bounded:
   * the oldest reads are forgotten first.
   */
  private readonly served = new Map<string, string>();

  constructor(private readonly service: MountService) {
    service.onDidChange(() => {
      this.mountedAt = Date.now();
      // A new mount changes everything below the root, for whoever has listed it. Before the first
      // answer there is nothing to refresh, and a refresh then would re-render (and collapse) the
      // root the Explorer is expanding.
      if (this.answered) this.changes.fire([{ type: vscode.FileChangeType.Changed, uri: ROOT_URI }]);
    });
  }

  register(): vscode.Disposable {
    return vscode.workspace.registerFileSystemProvider(SCHEME, this, { isReadonly: true, isCaseSensitive: false });
  }

  /** The mount (callers first await `service.settled()`, so a mount in progress is waited for). */
  private mount(uri: vscode.Uri) {
    const m = this.service.mount;
    if (!m) throw vscode.FileSystemError.Unavailable(`${uri.toString()}: no Shadow of War install is mounted (run "arch06: Open Game Folder as Workspace")`);
    return m;
  }

  private translate(uri: vscode.Uri, e: unknown): Error {
    if (e instanceof vscode.FileSystemError) return e;
    if (isArch06Error(e)) {
      if (e.code === 'NOT_FOUND') return vscode.FileSystemError.FileNotFound(uri);
      if (e.code === 'CHANGED_ON_DISK') {
        // Never stale bytes: refuse this read and have the mount checked (and remounted) now.
        this.service.sawChangeOnDisk();
        this.service.log(`${uri.toString()}: ${e.message}`);
        return vscode.FileSystemError.Unavailable(`${uri.path}: ${e.message} (arch06 is mounting it again)`);
      }
      this.service.log(`${uri.toString()}: ${e.message}`);
      return vscode.FileSystemError.Unavailable(`${uri.path}: ${e.message}`);
    }
    return e instanceof Error ? e : new Error(String(e));
  }

  private guard<T>(uri: vscode.Uri, f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw this.translate(uri, e);
    }
  }

  private fileStat(type: vscode.FileType, size: number): vscode.FileStat {
    return { type, ctime: this.mountedAt, mtime: this.mountedAt, size, permissions: vscode.FilePermission.Readonly };
  }

  /** The file a URI names (core/archive `locateUri`), or undefined when it names a folder (or nothing). */
  private file(uri: vscode.Uri): UriFile | undefined {
    return locateUri(this.mount(uri), uri.path, this.bundles);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    await this.service.settled();
    this.answered = true;
    return this.guard(uri, () => {
      const m = this.mount(uri);
      const u = parseUri(uri);
      if (u.view === 'sources') return this.fileStat(vscode.FileType.Directory, 0);
      const f = locateUri(m, u, this.bundles);
      if (f) return this.fileStat(vscode.FileType.File, f.view === 'bundle' ? (f.declared.size ?? 0) : f.entry.size);
      const isDir =
        u.view === 'bundle'
          ? this.bundles.resolve(m, u.bundle).list(u.member) !== undefined
          : u.view === 'merged'
            ? m.hasFolder(u.path)
            : (m.source(u.source)?.hasFolder(u.path) ?? false);
      if (isDir) return this.fileStat(vscode.FileType.Directory, 0);
      throw vscode.FileSystemError.FileNotFound(uri);
    });
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    await this.service.settled();
    this.answered = true;
    return this.guard(uri, () => {
      const m = this.mount(uri);
      const u = parseUri(uri);
      if (u.view === 'sources') return sourceFolderNames(m.sources).map((name) => [name, vscode.FileType.Directory]);
      const out: [string, vscode.FileType][] = [];
      if (u.view === 'bundle') {
        const l = this.bundles.resolve(m, u.bundle).list(u.member);
        if (!l) throw vscode.FileSystemError.FileNotFound(uri);
        for (const f of l.folders) out.push([f, vscode.FileType.Directory]);
        for (const f of l.files) out.push([memberName(f), vscode.FileType.File]);
      } else if (u.view === 'merged') {
        const l = m.list(u.path);
        if (!l) throw vscode.FileSystemError.FileNotFound(uri);
        if (u.path === ROOT) out.push([SOURCES_FOLDER, vscode.FileType.Directory]);
        for (const f of l.folders) out.push([f.name, vscode.FileType.Directory]);
        for (const f of l.files) {
          out.push([f.name, vscode.FileType.File]);
          // A manifest also shows as a folder of its members.
          if (/\.bndl$/i.test(f.name)) out.push([f.name + BUNDLE_SUFFIX, vscode.FileType.Directory]);
        }
      } else {
        const l = m.source(u.source)?.list(u.path);
        if (!l) throw vscode.FileSystemError.FileNotFound(uri);
        for (const f of l.folders) out.push([f, vscode.FileType.Directory]);
        for (const f of l.files) out.push([f.path.slice(f.path.lastIndexOf('\\') + 1), vscode.FileType.File]);
      }
      return out;
    });
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    await this.service.settled();
    let f: UriFile | undefined;
    try {
      f = this.file(uri);
      if (f?.view === 'bundle') {
        const { folder, declared } = f;
        if (declared.servedFrom === 'missing') {
          throw vscode.FileSystemError.Unavailable(
            `${declared.path}: declared by ${folder.bundle.manifest.path} (${folder.bundle.manifest.source}) but neither in the container nor shipped loose`,
          );
        }
        const bytes = await folder.read(declared);
        this.remember(uri, folder.identity(declared));
        return bytes;
      }
    } catch (err) {
      throw this.translate(uri, err);
    }
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    const e = f.entry;
    try {
      // Within the mount's per-entry cap (core/archive/entryRead.ts): a crafted entry that decodes to gigabytes is refused, not allocated.
      const bytes = await readEntryCheckedAsync(e, { checkHeader: null, maxBytes: this.mount(uri).maxEntryBytes });
      this.remember(uri, e.identity);
      return bytes;
    } catch (err) {
      throw this.translate(uri, err);
    }
  }

  private remember(uri: vscode.Uri, identity: string): void {
    const key = uri.toString();
    this.served.delete(key);
    this.served.set(key, identity);
    if (this.served.size > MAX_REMEMBERED) this.served.delete(this.served.keys().next().value!);
  }

  /** The identity of the copy last read for `uri`, if it was read. */
  servedIdentity(uri: vscode.Uri): string | undefined {
    return this.served.get(uri.toString());
  }

  /** The identity of the copy the current mount serves for `uri`, or undefined when it serves none. */
  identityOf(uri: vscode.Uri): string | undefined {
    const m = this.service.mount;
    if (!m) return undefined;
    try {
      const f = locateUri(m, uri.path, this.bundles);
      if (f?.view !== 'bundle') return f?.entry.identity;
      return f.declared.servedFrom !== 'missing' ? f.folder.identity(f.declared) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Tell the workbench these files changed (an open text editor of one reads it again). */
  fireChanged(uris: readonly vscode.Uri[]): void {
    if (uris.length) this.changes.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  watch(): vscode.Disposable {
    // The disk is watched once for the whole mount (extension/diskWatch.ts); a remount fires a
    // change for the root, and a reload of an open file a change for that file.
    return new vscode.Disposable(() => undefined);
  }

  private readOnly(uri: vscode.Uri): never {
    throw vscode.FileSystemError.NoPermissions(`${uri.path}: the game's archives are read-only in arch06 (extract a file to edit it)`);
  }
  createDirectory(uri: vscode.Uri): void {
    this.readOnly(uri);
  }
  writeFile(uri: vscode.Uri): void {
    this.readOnly(uri);
  }
  delete(uri: vscode.Uri): void {
    this.readOnly(uri);
  }
  rename(uri: vscode.Uri): void {
    this.readOnly(uri);
  }
}
