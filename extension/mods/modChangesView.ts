/**
 * The "Mod Changes" view (issue 23 items 2 and 6): each active mod, then each of its files with
 * what it does in the overlaid mount (extension/mods/modChangesModel.ts); a click diffs the file
 * against the copy it replaces (the next source's copy through Compare with Next Copy, or the copy
 * a bundle's container embeds through `arch06-replaced:`); the check's problems (core/mod
 * `checkMounted`, run after every mount) as diagnostics on the mod's files and as the rows' icons.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type Mount, type Source, readEntryChecked, resolveBundle } from '../../core/archive';
import { type CheckedMod, type ModProblem, checkMounted, modFilePath, openModFolder } from '../../core/mod';
import { renderText, textKindOf } from '../../core/text';
import { isArch06Error } from '../../core/errors';
import type { MountService } from '../mountService';
import { mergedUri, sourceUri } from '../fs/uris';
import { textUri } from '../views/textView';
import type { CopiesView } from '../views/copiesView';
import { compareWithNextCopyCommand } from '../commands/copies';
import type { ModProjects, OpenMod } from './modProjects';
import { type ModChangeRow, describeChange, modChangeRows, unplacedProblems } from './modChangesModel';
import { memberRowsAt } from '../../core/search';

type Node = { kind: 'mod'; mod: OpenMod } | { kind: 'file'; mod: OpenMod; row: ModChangeRow } | { kind: 'problem'; mod: OpenMod; problem: ModProblem };

const SEVERITY: Record<ModProblem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export class ModChangesView implements vscode.TreeDataProvider<Node>, vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly replacedScheme = 'arch06-replaced';
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('arch06 mod');
  private checks = new Map<string, CheckedMod>();
  private checking: Promise<void> = Promise.resolve();
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly service: MountService,
    private readonly projects: ModProjects,
    private readonly copies: CopiesView,
  ) {
    this.subscriptions.push(
      service.onDidChange(() => this.recheck()),
      projects.onDidChange(() => this.changed.fire()),
      vscode.workspace.registerTextDocumentContentProvider(ModChangesView.replacedScheme, this),
      vscode.commands.registerCommand('arch06.modChanges.open', (node: Node) => this.openNode(node)),
      vscode.commands.registerCommand('arch06.checkMods', () => this.recheck(true)),
    );
    this.recheck();
  }

  /** Run the check for every active mod over the current mount (after each mount; the last run wins). */
  recheck(show = false): Promise<void> {
    const m = this.service.mount;
    const gen = ++this.generation;
    if (!m || !this.projects.mods.length) {
      this.checks.clear();
      this.diagnostics.clear();
      this.changed.fire();
      return Promise.resolve();
    }
    this.checking = Promise.resolve(
      vscode.window.withProgress({ location: { viewId: 'arch06.modChanges' }, title: 'checking the mods' }, async () => {
        const started = Date.now();
        try {
          const targets = this.projects.mods.flatMap((mod) => {
            const source = sourceOf(m, mod);
            if (!source) return [];
            return [{ name: mod.name, source, folder: openModFolder(mod.folder) }];
          });
          const results = await checkMounted(m, targets, { pause: () => new Promise((r) => setImmediate(r)) });
          if (gen !== this.generation) return;
          this.checks = new Map(results.map((r) => [r.diskPath, r]));
          this.publish();
          const count = results.reduce((n, r) => n + r.problems.filter((p) => p.severity !== 'info').length, 0);
          this.service.log(`mod check: ${results.length} mod(s), ${count} problem(s) in ${Date.now() - started} ms`);
          if (show) void vscode.commands.executeCommand('workbench.actions.view.problems');
        } catch (e) {
          if (gen === this.generation) this.service.log(`mod check failed: ${isArch06Error(e) ? e.message : String(e)}`);
        }
        this.changed.fire();
      }),
    );
    return this.checking;
  }

  private publish(): void {
    this.diagnostics.clear();
    for (const mod of this.projects.mods) {
      const r = this.checks.get(mod.folder);
      if (!r) continue;
      const byFile = new Map<string, vscode.Diagnostic[]>();
      for (const p of r.problems) {
        const file = p.path && !/^\.\.|[<>"|?*]/.test(p.path) ? modFilePath(mod.folder, p.path) : path.join(mod.folder, 'arch06-mod.json');
        const d = new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 0),
          `${p.message}${p.path && file.endsWith('arch06-mod.json') ? ` (${p.path})` : ''}`,
          SEVERITY[p.severity],
        );
        d.code = p.code;
        d.source = 'arch06 mod';
        byFile.set(file, [...(byFile.get(file) ?? []), d]);
      }
      for (const [file, ds] of byFile) this.diagnostics.set(vscode.Uri.file(file), ds);
    }
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.projects.mods.map((mod) => ({ kind: 'mod', mod }));
    if (node.kind !== 'mod') return [];
    const m = this.service.mount;
    const source = m && sourceOf(m, node.mod);
    if (!m || !source) return [];
    const problems = this.checks.get(node.mod.folder)?.problems ?? [];
    const rows = modChangeRows(m, source, problems, (p) => this.embeddedOf(m, source, p));
    return [
      ...unplacedProblems(rows, problems).map((problem): Node => ({ kind: 'problem', mod: node.mod, problem })),
      ...rows.map((row): Node => ({ kind: 'file', mod: node.mod, row })),
    ];
  }

  /** The container copy a mod file replaces, from the bundle members the service lists. */
  private embeddedOf(m: Mount, source: Source, p: string): { container: string; source: string; bundle: string } | undefined {
    const listed = this.service.readyPathsWithMembers();
    // A member served loose (the mod's copy) is listed as its mounted path, apart from `members`.
    const row = listed && memberRowsAt(listed, p).find((r) => r.servedFrom === 'loose' && r.source === source.name);
    if (!row) {
      if (!listed) void this.service.pathsWithMembers()?.then(() => this.changed.fire());
      return undefined;
    }
    try {
      const b = resolveBundle(m, row.bundle);
      return b.container ? { container: b.container.path, source: b.container.source, bundle: row.bundle } : undefined;
    } catch (e) {
      if (isArch06Error(e)) return undefined;
      throw e;
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'mod') {
      const r = this.checks.get(node.mod.folder);
      const count = r?.problems.filter((p) => p.severity !== 'info').length ?? 0;
      const item = new vscode.TreeItem(node.mod.name, vscode.TreeItemCollapsibleState.Expanded);
      const pos = node.mod.position.kind === 'bottom' ? 'first in the search order' : `above ${node.mod.position.name}`;
      item.description = `${pos}${r ? ` · ${r.files} files · ${count ? `${count} problem${count === 1 ? '' : 's'}` : 'no problems'}` : ''}`;
      item.tooltip = `${node.mod.folder}\nversion ${node.mod.manifest.version}${node.mod.manifest.author ? ` by ${node.mod.manifest.author}` : ''}\narchive ${node.mod.manifest.archive}`;
      item.iconPath = new vscode.ThemeIcon('package');
      item.contextValue = 'arch06.mod';
      item.resourceUri = vscode.Uri.file(node.mod.folder);
      return item;
    }
    if (node.kind === 'problem') {
      const item = new vscode.TreeItem(`${node.problem.code}${node.problem.path ? ` ${node.problem.path}` : ''}`);
      item.description = node.problem.message;
      item.tooltip = node.problem.message;
      item.iconPath = new vscode.ThemeIcon(node.problem.severity === 'error' ? 'error' : node.problem.severity === 'warning' ? 'warning' : 'info');
      return item;
    }
    const { row } = node;
    const item = new vscode.TreeItem(row.path);
    const worst = row.problems.find((p) => p.severity === 'error') ?? row.problems.find((p) => p.severity === 'warning');
    item.description = describeChange(row) + (row.problems.length ? ` · ${row.problems.map((p) => p.code).join(', ')}` : '');
    item.tooltip = [describeChange(row), ...row.problems.map((p) => `${p.severity}: ${p.message}`)].join('\n');
    item.iconPath = new vscode.ThemeIcon(
      worst
        ? worst.severity === 'error'
          ? 'error'
          : 'warning'
        : row.kind === 'adds'
          ? 'diff-added'
          : row.kind === 'shadowed'
            ? 'eye-closed'
            : 'diff-modified',
    );
    item.resourceUri = vscode.Uri.file(modFilePath(node.mod.folder, row.path));
    item.contextValue = 'arch06.modFile';
    item.command = { command: 'arch06.modChanges.open', title: 'Compare with the Replaced Copy', arguments: [node] };
    return item;
  }

  /** A file row: the diff against the copy it replaces, or the file itself when it replaces nothing. */
  private async openNode(node: Node): Promise<void> {
    const m = this.service.mount;
    if (!m || node.kind !== 'file') return;
    const { row, mod } = node;
    const source = sourceOf(m, mod);
    if (!source) return;
    const mine = sourceUri(m, source.name, row.path);
    if (row.kind === 'overrides' || row.kind === 'shadowed') {
      await compareWithNextCopyCommand(this.service, this.copies, mine);
      return;
    }
    const embedded = this.embeddedOf(m, source, row.path);
    if (row.kind === 'member' && embedded) {
      const left = vscode.Uri.from({
        scheme: ModChangesView.replacedScheme,
        path: mergedUri(row.path).path,
        query: new URLSearchParams({ bundle: embedded.bundle }).toString(),
      });
      const right = textKindOf(row.path) ? textUri(mine) : vscode.Uri.file(modFilePath(mod.folder, row.path));
      await vscode.commands.executeCommand(
        'vscode.diff',
        left,
        right,
        `${path.basename(row.path)}: ${path.basename(embedded.container)} in ${embedded.source} ↔ ${mod.name}`,
      );
      return;
    }
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(modFilePath(mod.folder, row.path)));
  }

  /** `arch06-replaced:` the copy a bundle's container embeds, as text (decoded for the formats with a text view). */
  provideTextDocumentContent(uri: vscode.Uri): string {
    const m = this.service.mount;
    if (!m) return '# no install is mounted\n';
    const bundle = new URLSearchParams(uri.query).get('bundle') ?? '';
    const gamePath = decodeURIComponent(uri.path).replace(/^\//, '').replace(/\//g, '\\');
    try {
      const b = resolveBundle(m, bundle);
      const member = b.members.find((x) => x.path.toLowerCase() === gamePath.toLowerCase());
      if (!member?.embedded || !b.container) return `# ${gamePath}: ${bundle} embeds no copy of it\n`;
      const entry = m.entry(b.container.path, b.container.source);
      const bytes = readEntryChecked(
        entry,
        { name: member.path, maxBytes: m.maxEntryBytes },
        member.embedded.offset,
        member.embedded.offset + member.embedded.size,
      );
      const kind = textKindOf(gamePath);
      if (kind) return renderText(kind, bytes, gamePath).text;
      const head = bytes.subarray(0, 4096);
      return head.includes(0)
        ? `# ${gamePath}: ${bytes.length} bytes of binary data, embedded in ${b.container.path} (${b.container.source})\n`
        : Buffer.from(bytes).toString('utf8');
    } catch (e) {
      return `# ${gamePath}: ${isArch06Error(e) ? e.message : String(e)}\n`;
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.diagnostics.dispose();
    this.changed.dispose();
  }
}

/** A mod's source in the mount (the overlay names it `<name> (mod)`; matched by folder). */
export function sourceOf(m: Mount, mod: { folder: string }): Source | undefined {
  return m.sources.find((s) => path.resolve(s.diskPath) === mod.folder);
}
