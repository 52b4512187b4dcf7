/**
 * "Search Order": the mounted sources in the order the engine consults them (first wins), with
 * file counts, then the cfg lines that were skipped and why, then archives the cfg does not name.
 */
import * as vscode from 'vscode';
import { MountService } from '../mountService';
import { sourceUri } from '../fs/uris';

type Node =
  | { kind: 'source'; index: number }
  | { kind: 'group'; label: 'skipped' | 'unlisted' }
  | { kind: 'skipped'; index: number }
  | { kind: 'unlisted'; name: string };

export class SearchOrderView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly service: MountService) {
    service.onDidChange(() => this.changed.fire());
  }

  getChildren(node?: Node): Node[] {
    const m = this.service.mount;
    if (!m) return [];
    if (!node) {
      const out: Node[] = m.sources.map((_, index) => ({ kind: 'source', index }));
      if (m.skipped.length) out.push({ kind: 'group', label: 'skipped' });
      if (m.unlisted.length) out.push({ kind: 'group', label: 'unlisted' });
      return out;
    }
    if (node.kind === 'group' && node.label === 'skipped') return m.skipped.map((_, index) => ({ kind: 'skipped', index }));
    if (node.kind === 'group' && node.label === 'unlisted') return m.unlisted.map((name) => ({ kind: 'unlisted', name }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const m = this.service.mount!;
    switch (node.kind) {
      case 'source': {
        const s = m.sources[node.index];
        const item = new vscode.TreeItem(`${node.index + 1}. ${s.name}`);
        item.description = `${s.kind} · ${s.fileCount.toLocaleString('en')} files`;
        item.tooltip = new vscode.MarkdownString(
          `**${s.name}** (${s.kind})\n\n${s.diskPath}\n\nConsulted ${ordinal(node.index + 1)} of ${m.sources.length}: a path it holds is shadowed only by the sources above it.`,
        );
        item.iconPath = new vscode.ThemeIcon(s.kind === 'archive' ? 'archive' : 'folder-library');
        item.resourceUri = sourceUri(s.name);
        item.contextValue = 'arch06.source';
        item.command = { command: 'revealInExplorer', title: 'Reveal', arguments: [sourceUri(s.name)] };
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.label === 'skipped' ? `Skipped cfg lines (${m.skipped.length})` : `Not in the cfg (${m.unlisted.length})`, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon(node.label === 'skipped' ? 'warning' : 'circle-slash');
        item.tooltip = node.label === 'skipped' ? 'Lines of the archive config list that name nothing on disk, or a file that is not a readable archive.' : 'Archives in the install folder that the config list does not name: the game does not mount them.';
        return item;
      }
      case 'skipped': {
        const s = m.skipped[node.index];
        const item = new vscode.TreeItem(s.text);
        item.description = s.line ? `line ${s.line}: ${s.reason}` : s.reason;
        item.tooltip = `${m.cfgPath}${s.line ? `:${s.line}` : ''}\n${s.reason}`;
        if (s.line) item.command = { command: 'vscode.open', title: 'Open cfg', arguments: [vscode.Uri.file(m.cfgPath), { selection: new vscode.Range(s.line - 1, 0, s.line - 1, 0) }] };
        return item;
      }
      case 'unlisted': {
        const item = new vscode.TreeItem(node.name);
        item.description = 'not mounted';
        return item;
      }
    }
  }
}

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}
