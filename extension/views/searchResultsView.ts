/**
 * "Search Results" for "arch06: Find in Files…": files, then their matching lines; a click opens
 * the line. Matches stream in as the search finds them (the tree is refreshed at most every
 * 150 ms); the first line says what was searched and what was skipped (core/search `describeSearch`).
 */
import * as vscode from 'vscode';
import { describeSearch, type TextMatch, type TextSearchResult } from '../../core/search';
import { memberUri, mergedUri } from '../fs/uris';
import { textUri } from './textView';

type FileNode = { kind: 'file'; path: string; bundle?: string; matches: TextMatch[] };
type Node = FileNode | { kind: 'match'; match: TextMatch } | { kind: 'info'; text: string };

/** The file a match (or a file of matches) is in: its merged path, or a member in its bundle's folder. */
const uriOf = (x: { path: string; bundle?: string }): vscode.Uri => (x.bundle ? memberUri(x.bundle, x.path) : mergedUri(x.path));

/**
 * Where a match opens, and its line there: a script's source and a decoded text open as their text
 * view (the script's lines are the source's; a decoded view has one more line, the copy's origin,
 * after its first: extension/views/textViewModel.ts), anything else as the file itself.
 */
function openAt(m: TextMatch): { uri: vscode.Uri; line: number } {
  if (m.view === 'text') return { uri: uriOf(m), line: m.line };
  return { uri: textUri(uriOf(m)), line: m.view === 'decoded' && m.line >= 1 ? m.line + 1 : m.line };
}

const REFRESH_MS = 150;

export class SearchResultsView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private files: FileNode[] = [];
  private byFile = new Map<string, FileNode>();
  private query = '';
  private count = 0;
  private summary: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** The result line last shown. */
  get summaryText(): string {
    return this.summary ?? '';
  }

  /** A new search: the old results go, the line says it is searching. */
  begin(query: string): void {
    this.query = query;
    this.files = [];
    this.byFile = new Map();
    this.count = 0;
    this.summary = `Searching for "${query}"…`;
    this.refreshNow();
  }

  /** One match, as found; the tree catches up within REFRESH_MS. */
  add(m: TextMatch): void {
    const key = `${m.bundle ?? ''}\0${m.path}`;
    let file = this.byFile.get(key);
    if (!file) {
      file = { kind: 'file', path: m.path, ...(m.bundle ? { bundle: m.bundle } : {}), matches: [] };
      this.byFile.set(key, file);
      this.files.push(file);
    }
    file.matches.push(m);
    this.count++;
    this.summary = `Searching for "${this.query}"… ${this.count.toLocaleString('en')} results in ${this.files.length.toLocaleString('en')} files so far`;
    this.timer ??= setTimeout(() => this.refreshNow(), REFRESH_MS);
  }

  /** The search ended (undefined: it failed): the result line. */
  finish(result: TextSearchResult | undefined): void {
    this.summary = result ? describeSearch(result, this.query) : `Find in Files "${this.query}" failed (see the arch06 output)`;
    this.refreshNow();
  }

  private refreshNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
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
      item.tooltip = node.text;
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
    item.description = `line ${m.line + 1}${m.view === 'decoded' ? ' (decoded)' : ''}`;
    const at = openAt(m);
    item.command = { command: 'vscode.open', title: 'Open', arguments: [at.uri, { selection: new vscode.Range(at.line, m.start, at.line, m.end) }] };
    return item;
  }
}
