/**
 * A changing disk under the mount (issue 21): the cfg, every archive and broken source, the
 * install's folder (archives added) and every mounted folder (`Game`: loose files) are watched;
 * a change, once the disk has been quiet for a moment, remounts the affected sources
 * (core/archive/remount.ts, through `MountService.applyDiskChanges`) and says what changed. Open
 * editors whose served copy changed are offered a reload; those whose file no source serves any
 * more are told so. The stamps are also polled, so a change no watcher reports (a network drive)
 * is seen within the poll, and a read that meets a changed file asks for a check at once. What the
 * notices say is ./diskChangeModel.ts.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type DiskChange, type Mount, looseChange, mountChanges, needsRemount } from '../core/archive';
import { MountService } from './mountService';
import { Arch06FileSystem } from './fs/provider';
import { SCHEME } from './fs/uris';
import { isModSourceName, namedByModsList } from '../core/mod';
import {
  type OpenCopy,
  changeNotice,
  copyLabel,
  modsListNotice,
  onlyModChanges,
  reloadNotice,
  sortCopies,
  unlistedNotice,
  vanishedNotice,
} from './diskChangeModel';
import { showInformation, showWarning } from './notify';

/** Quiet time after the last event before the mount is checked (a copy in progress fires many). */
const SETTLE_MS = 250;
/** How often the stamps are compared when no watcher has spoken. */
const POLL_MS = 700;

/** An open tab showing an `arch06:` file, with how to open it again. */
interface OpenTab {
  tab: vscode.Tab;
  uri: vscode.Uri;
  /** The custom editor's view type; undefined for a text editor. */
  viewType?: string;
}

export class DiskWatch implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private settle: NodeJS.Timeout | undefined;
  private readonly poll: NodeJS.Timeout;
  /** Loose files the watchers saw change since the last check. */
  private readonly loose = new Map<string, 'added' | 'modified' | 'deleted'>();
  private readonly announcedUnlisted = new Set<string>();
  private checking: Promise<void> | undefined;

  constructor(
    private readonly service: MountService,
    private readonly fileSystem: Arch06FileSystem,
  ) {
    this.subscriptions.push(
      service.onDidChange((m) => this.watch(m)),
      service.onDidSeeChangeOnDisk(() => this.checkSoon(0)),
    );
    this.poll = setInterval(() => this.pollStamps(), POLL_MS);
    this.watch(service.mount);
  }

  /** Watch what `m` is made of (the watchers of the previous mount are let go). */
  private watch(m: Mount | undefined): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    if (!m) return;
    const bases = new Set<string>();
    const add = (base: string, pattern: string, loose = false): void => {
      const key = `${base}\0${pattern}`;
      if (bases.has(key)) return;
      bases.add(key);
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), pattern));
      const saw = (kind: 'added' | 'modified' | 'deleted') => (uri: vscode.Uri) => {
        // Only the disk: a save through another provider (a mod's `arch06-modtext:` view) is
        // seen when its file on disk changes, under its own name.
        if (uri.scheme !== 'file') return;
        if (loose) this.sawLoose(uri.fsPath, kind);
        this.checkSoon();
      };
      this.watchers.push(w, w.onDidCreate(saw('added')), w.onDidChange(saw('modified')), w.onDidDelete(saw('deleted')));
    };
    // The install's folder (archives changed or added beside the others) and the cfg's.
    add(m.root, '*');
    add(path.dirname(m.cfgPath), path.basename(m.cfgPath));
    for (const s of m.sources) {
      if (s.kind === 'directory') add(s.diskPath, '**/*', true);
      else add(path.dirname(s.diskPath), path.basename(s.diskPath));
    }
    for (const b of m.broken) add(path.dirname(b.path), path.basename(b.path));
    // Where a line that named nothing would find its file (the poll sees the rest).
    for (const x of m.basis.missing) add(path.dirname(path.resolve(x.base, x.text.replace(/\\/g, '/'))), '*');
  }

  private sawLoose(diskPath: string, kind: 'added' | 'modified' | 'deleted'): void {
    const m = this.service.mount;
    if (m && looseChange(m, diskPath, kind)) this.loose.set(diskPath, kind);
  }

  /** Check the mount once the disk has been quiet for `delay` ms. */
  private checkSoon(delay = SETTLE_MS): void {
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.settle = undefined;
      void this.check();
    }, delay);
  }

  /** The safety net: stamps compared without a watcher's word (a few dozen stats). */
  private pollStamps(): void {
    const m = this.service.mount;
    if (!m || this.checking || this.settle) return;
    try {
      const changes = mountChanges(m);
      if (needsRemount(changes) || changes.some((c) => c.role === 'unlisted' && !this.announcedUnlisted.has(c.path))) this.checkSoon();
    } catch (e) {
      this.service.log(`checking the install for changes: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** One check at a time; a check asked for during one runs after it. */
  private check(): Promise<void> {
    if (this.checking) return this.checking.then(() => this.check());
    this.checking = this.checkNow().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkNow(): Promise<void> {
    const m = this.service.mount;
    if (!m) return;
    const changes: DiskChange[] = mountChanges(m);
    for (const [p, kind] of this.loose) {
      const c = looseChange(m, p, kind);
      if (c) changes.push(c);
    }
    this.loose.clear();
    const unlisted = changes.filter((c) => c.role === 'unlisted' && !this.announcedUnlisted.has(c.path));
    if (unlisted.length) {
      for (const c of unlisted) this.announcedUnlisted.add(c.path);
      this.announceUnlisted(m.root, unlisted);
    }
    if (!needsRemount(changes)) return;
    const open = this.openTabs();
    const remembered = open.map((t) => ({ t, before: this.fileSystem.servedIdentity(t.uri) }));
    const r = this.service.applyDiskChanges(changes.filter((c) => c.role !== 'unlisted'));
    if (!r) return;
    // The modder's own saves into an active mod: the mount follows them without a notice.
    if (onlyModChanges(r.changes, isModSourceName)) return;
    void showInformation(changeNotice(r.changes), 'Show Search Order').then((pick) => {
      if (pick) void vscode.commands.executeCommand('arch06.searchOrder.focus');
    });
    const copies: (OpenCopy & { t: OpenTab })[] = [];
    for (const { t, before } of remembered) {
      if (before !== undefined) copies.push({ t, label: copyLabel(t.uri.path), before, after: this.fileSystem.identityOf(t.uri) });
    }
    const { changed, vanished } = sortCopies(copies);
    const gone = vanishedNotice(vanished, r.changes);
    if (gone) void showWarning(gone);
    const offer = reloadNotice(changed);
    if (offer) {
      void showInformation(offer, 'Reload', 'Keep').then((pick) => {
        if (pick === 'Reload') void this.reload(changed.map((c) => (c as OpenCopy & { t: OpenTab }).t));
      });
    }
  }

  /** Added archives no list the mount reads names: those the separate mods list names are told apart. */
  private announceUnlisted(root: string, unlisted: readonly DiskChange[]): void {
    const viaModsList = (c: DiskChange): boolean => {
      try {
        return namedByModsList(root, c.path);
      } catch {
        return false;
      }
    };
    const mods = unlisted.filter(viaModsList);
    const none = unlisted.filter((c) => !mods.includes(c));
    if (mods.length) void showInformation(modsListNotice(mods.map((c) => c.name)));
    if (none.length) void showInformation(unlistedNotice(none.map((c) => c.name)));
  }

  /** Every open tab showing an `arch06:` file (text or custom editor). */
  private openTabs(): OpenTab[] {
    const out: OpenTab[] = [];
    for (const g of vscode.window.tabGroups.all) {
      for (const tab of g.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText && input.uri.scheme === SCHEME) out.push({ tab, uri: input.uri });
        else if (input instanceof vscode.TabInputCustom && input.uri.scheme === SCHEME) out.push({ tab, uri: input.uri, viewType: input.viewType });
      }
    }
    return out;
  }

  /**
   * Read the files again: a text editor reads its file again when told it changed; a custom
   * editor's document holds what it read, so its tab is closed and the file opened again with the
   * same editor, in the same column.
   */
  private async reload(tabs: OpenTab[]): Promise<void> {
    this.fileSystem.fireChanged(tabs.map((t) => t.uri));
    for (const t of tabs) {
      if (t.viewType === undefined) continue;
      const column = t.tab.group.viewColumn;
      const preview = t.tab.isPreview;
      const focus = t.tab.isActive && t.tab.group.isActive;
      try {
        await vscode.window.tabGroups.close(t.tab);
        await vscode.commands.executeCommand('vscode.openWith', t.uri, t.viewType, { viewColumn: column, preview, preserveFocus: !focus });
      } catch (e) {
        this.service.reportError(`Could not reload ${copyLabel(t.uri.path)}`, e);
      }
    }
  }

  dispose(): void {
    clearInterval(this.poll);
    if (this.settle) clearTimeout(this.settle);
    for (const w of this.watchers) w.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
