/**
 * "Search Order": a summary line (sources, broken, skipped, not in the cfg), then the mounted
 * sources in the order the engine consults them (first wins), with file counts, each revealing its
 * numbered `@sources` folder; the broken sources (cfg lines naming a file that is not a valid archive) above
 * them with an error icon; then the cfg lines that were skipped and why, then archives the cfg
 * does not name. What each node says is decided in searchOrderModel.ts (no vscode there).
 */
import * as vscode from 'vscode';
import { MountService } from '../mountService';
import { SCHEME, sourceUriPath } from '../../core/archive';
import { SearchOrderNode, searchOrderNodes } from './searchOrderModel';

export class SearchOrderView implements vscode.TreeDataProvider<SearchOrderNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private nodes: SearchOrderNode[] | undefined;

  constructor(private readonly service: MountService) {
    service.onDidChange(() => {
      this.nodes = undefined;
      this.changed.fire();
    });
  }

  getChildren(node?: SearchOrderNode): SearchOrderNode[] {
    const m = this.service.mount;
    if (!m) return [];
    if (!node) return (this.nodes ??= searchOrderNodes(m));
    return node.children ?? [];
  }

  getTreeItem(node: SearchOrderNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, node.children ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    if (node.tooltip !== undefined) item.tooltip = node.tooltipIsMarkdown ? new vscode.MarkdownString(node.tooltip) : node.tooltip;
    if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
    // The source's folder as `@sources` lists it (numbered), so the Explorer can find and reveal it.
    const folderUri = (folder: string): vscode.Uri => vscode.Uri.from({ scheme: SCHEME, path: sourceUriPath(folder) });
    if (node.folder !== undefined) item.resourceUri = folderUri(node.folder);
    item.contextValue = node.contextValue;
    const a = node.action;
    if (a?.kind === 'revealSource') item.command = { command: 'revealInExplorer', title: 'Reveal', arguments: [folderUri(a.folder)] };
    else if (a?.kind === 'openCfg' && this.service.mount) {
      item.command = {
        command: 'vscode.open',
        title: 'Open cfg',
        arguments: [vscode.Uri.file(this.service.mount.cfgPath), { selection: new vscode.Range(a.line - 1, 0, a.line - 1, 0) }],
      };
    }
    return item;
  }
}
