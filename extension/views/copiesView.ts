/**
 * "Copies": for the active arch06 file, every copy of its path in search order, the winner
 * first, with sizes. Items open that copy; "Compare with Next Copy" diffs it with the one below.
 */
import * as vscode from 'vscode';
import { SourceEntry, viewedPath } from '../../core/archive';
import { MountService } from '../mountService';
import { SCHEME, gamePathOf, parseUri, sourceUri } from '../fs/uris';
import { TEXT_SCHEME } from './textViewModel';

export interface CopyNode {
  path: string;
  index: number;
  copies: SourceEntry[];
}

export class CopiesView implements vscode.TreeDataProvider<CopyNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private path: string | undefined;

  constructor(private readonly service: MountService) {
    service.onDidChange(() => this.changed.fire());
    vscode.window.onDidChangeActiveTextEditor(() => this.follow());
    vscode.window.tabGroups.onDidChangeTabs(() => this.follow());
    this.follow();
  }

  /** Track the active tab's arch06 path (text editors, text views, custom editors and diffs alike). */
  private follow(): void {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const input = tab?.input;
    const shown =
      input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom
        ? input.uri
        : input instanceof vscode.TabInputTextDiff
          ? input.modified
          : undefined;
    // A text view (views/textView.ts) is about the arch06: file whose path it carries.
    const uri = shown?.scheme === TEXT_SCHEME ? vscode.Uri.from({ scheme: SCHEME, path: viewedPath(shown.path) }) : shown;
    if (!uri || uri.scheme !== SCHEME) return;
    try {
      const p = gamePathOf(parseUri(uri));
      if (p && p !== this.path) {
        this.path = p;
        this.changed.fire();
      }
    } catch {
      // Not a game path: keep showing the last one.
    }
  }

  /** The copies of `path` in search order (winner first). */
  copiesOf(path: string): SourceEntry[] {
    return this.service.mount?.which(path)?.copies ?? [];
  }

  get currentPath(): string | undefined {
    return this.path;
  }

  getChildren(node?: CopyNode): CopyNode[] {
    if (node || !this.path) return [];
    const copies = this.copiesOf(this.path);
    return copies.map((_, index) => ({ path: this.path!, index, copies }));
  }

  getTreeItem(node: CopyNode): vscode.TreeItem {
    const e = node.copies[node.index];
    const item = new vscode.TreeItem(e.source.name);
    item.description = `${node.index === 0 ? 'wins' : 'shadowed'} · ${e.size.toLocaleString('en')} bytes · ${e.storage}`;
    item.iconPath = new vscode.ThemeIcon(node.index === 0 ? 'pass-filled' : 'circle-outline');
    item.tooltip = `${e.path}\nin ${e.source.name} (${e.source.diskPath})\n${node.index === 0 ? 'The engine loads this copy.' : `Shadowed by ${node.copies[0].source.name}.`}`;
    const mount = this.service.mount;
    if (mount) item.resourceUri = sourceUri(mount, e.source.name, e.path);
    item.contextValue = node.index + 1 < node.copies.length ? 'arch06.copy.hasNext' : 'arch06.copy';
    item.command = { command: 'arch06.openCopy', title: 'Open This Copy', arguments: [node] };
    return item;
  }
}
