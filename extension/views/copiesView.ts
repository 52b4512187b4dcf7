/**
 * "Copies": for the active arch06 file, every copy of its path in search order, the winner
 * first, with sizes, and the copy its bundle's container embeds (what the list holds:
 * ./copiesModel.ts). Items open that copy; "Compare with Next Copy" diffs it with the one below.
 */
import * as vscode from 'vscode';
import { viewedPath } from '../../core/archive';
import { textKindOf } from '../../core/text';
import { MountService } from '../mountService';
import { SCHEME, gamePathOf, memberUri, parseUri, sourceUri } from '../fs/uris';
import { TEXT_SCHEME } from './textViewModel';
import { type CopyList, copyListOf, describeCopy } from './copiesModel';
import { textUri } from './textView';

/** One row: `index` into the list's loose copies, or `copies.length` for the embedded copy. */
export interface CopyNode extends CopyList {
  index: number;
}

export class CopiesView implements vscode.TreeDataProvider<CopyNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private path: string | undefined;
  /** The manifest of the bundle folder the active file was opened from, if it was. */
  private bundle: string | undefined;

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
      const u = parseUri(uri);
      const p = gamePathOf(u);
      const bundle = u.view === 'bundle' ? u.bundle : undefined;
      if (p && (p !== this.path || bundle !== this.bundle)) {
        this.path = p;
        this.bundle = bundle;
        this.changed.fire();
      }
    } catch {
      // Not a game path: keep showing the last one.
    }
  }

  /** The copies of `path` (of the active file's path and bundle when not given). */
  listOf(path = this.path, bundle = path === this.path ? this.bundle : undefined): CopyList | undefined {
    const m = this.service.mount;
    return m && path ? copyListOf(m, path, bundle) : undefined;
  }

  get currentPath(): string | undefined {
    return this.path;
  }

  getChildren(node?: CopyNode): CopyNode[] {
    const list = node ? undefined : this.listOf();
    if (!list) return [];
    const n = list.copies.length + (list.embedded ? 1 : 0);
    return Array.from({ length: n }, (_, index) => ({ ...list, index }));
  }

  getTreeItem(node: CopyNode): vscode.TreeItem {
    const d = describeCopy(node, node.index);
    const item = new vscode.TreeItem(d.label);
    item.description = d.description;
    item.tooltip = d.tooltip;
    item.iconPath = new vscode.ThemeIcon(d.wins ? 'pass-filled' : 'circle-outline');
    const mount = this.service.mount;
    const e = node.copies[node.index];
    if (e) {
      if (mount) item.resourceUri = sourceUri(mount, e.source.name, e.path);
      // The last loose copy's next one is the container's (Compare with Next Copy diffs them).
      item.contextValue = node.index + 1 < node.copies.length || node.embedded ? 'arch06.copy.hasNext' : 'arch06.copy';
      item.command = { command: 'arch06.openCopy', title: 'Open This Copy', arguments: [node] };
    } else if (node.embedded) {
      item.contextValue = 'arch06.copy';
      item.resourceUri = memberUri(node.embedded.manifest, node.embedded.member);
      const target = embeddedTarget(node);
      if (target) item.command = { command: 'vscode.open', title: 'Open This Copy', arguments: [target] };
    }
    return item;
  }
}

/**
 * Where the embedded copy opens: its bundle folder when the engine serves it (the folder serves
 * the container's copy then); the text view of the container's copy when a loose one wins and the
 * file has a text view; otherwise nowhere (no URI names a shadowed embedded copy).
 */
export function embeddedTarget(node: CopyList): vscode.Uri | undefined {
  const x = node.embedded;
  if (!x) return undefined;
  if (x.served) return memberUri(x.manifest, x.member);
  return textKindOf(node.path) ? textUri(memberUri(x.manifest, x.member), 'embedded') : undefined;
}
