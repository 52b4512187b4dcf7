/** "Search Results" for "arch06: Find in Files…": files, then their matching lines; a click opens the line. */
import * as vscode from 'vscode';
import { TextMatch, TextSearchResult } from '../../core/search';
import { memberUri, mergedUri } from '../fs/uris';

type Node = { kind: 'file'; path: string; bundle?: string; matches: TextMatch[] } | { kind: 'match'; match: TextMatch } | { kind: 'info'; text: string };

/** Where a match (or a file of matches) opens: its merged path, or a member in its bundle's folder. */
const uriOf = (x: { path: string; bundle?: string }): vscode.Uri => (x.bundle ? memberUri(x.bundle, x.path) : mergedUri(x.path));

export class SearchResultsView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private files: Node[] = [];
  private summary: string | undefined;

  show(query: string, result: TextSearchResult): void {
    const byFile = new Map<string, TextMatch[]>();
    for (const m of result.matches) {
      const key = `${m.bundle ?? ''}\0${m.path}`;
      const list = byFile.get(key);
      if (list) list.push(m);
      else byFile.set(key, [m]);
    }
    this.files = [...byFile.values()].map((matches) => ({
      kind: 'file',
      path: matches[0].path,
      ...(matches[0].bundle ? { bundle: matches[0].bundle } : {}),
      matches,
    }));
    const extra = [
      result.limitHit ? 'result limit reached' : '',
      result.cancelled ? 'cancelled' : '',
      result.filesSkipped.length ? `${result.filesSkipped.length} files skipped` : '',
    ]
      .filter(Boolean)
      .join(', ');
    this.summary = `${result.matches.length} results for "${query}" in ${byFile.size} files (${result.filesSearched} searched${extra ? '; ' + extra : ''})`;
    this.changed.fire();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return [...(this.summary ? [{ kind: 'info', text: this.summary } as Node] : []), ...this.files];
    if (node.kind === 'file') return node.matches.map((match) => ({ kind: 'match', match }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'info') {
      const item = new vscode.TreeItem(node.text);
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    if (node.kind === 'file') {
      const item = new vscode.TreeItem(uriOf(node), vscode.TreeItemCollapsibleState.Expanded);
      item.description = node.bundle ? `${node.matches.length} · in ${node.bundle.slice(node.bundle.lastIndexOf('\\') + 1)}` : `${node.matches.length}`;
      return item;
    }
    const m = node.match;
    const item = new vscode.TreeItem({ label: m.preview.trim(), highlights: [] });
    item.description = `line ${m.line + 1}`;
    item.command = { command: 'vscode.open', title: 'Open', arguments: [uriOf(m), { selection: new vscode.Range(m.line, m.start, m.line, m.end) }] };
    return item;
  }
}
