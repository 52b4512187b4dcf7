/**
 * Text views of `arch06:` files (the model, without vscode: ./textViewModel.ts): a read-only
 * document provider for `arch06-text:` URIs, the language each document is in (Havok Script for a
 * script's source, "arch06 decoded text" for decoded binaries), a CodeLens on a script's first
 * line and a status bar item with its SCRI header (the document itself is exactly the source, so
 * its line numbers are the source's), and "arch06: Open as Text".
 */
import * as vscode from 'vscode';
import { isArch06Error } from '../../core/errors';
import { textViewPath, viewedPath } from '../../core/archive';
import { textKindOf } from '../../core/text';
import { MountService } from '../mountService';
import { SCHEME, gamePathOf, parseUri } from '../fs/uris';
import { SCRIPT_LANGUAGE, TEXT_SCHEME, copyOfQuery, copyQuery, loadTextView } from './textViewModel';
import type { CopyKind, TextView } from './textViewModel';
import { showInformation } from '../notify';

/** The text view of an `arch06:` URI (or of the copy its bundle's container embeds). */
export function textUri(archUri: vscode.Uri, copy: CopyKind = 'served'): vscode.Uri {
  return vscode.Uri.from({ scheme: TEXT_SCHEME, path: textViewPath(archUri.path), query: copyQuery(copy) });
}

/** The `arch06:` URI a text view shows. */
export function archUriOf(uri: vscode.Uri): vscode.Uri {
  return uri.scheme === TEXT_SCHEME ? vscode.Uri.from({ scheme: SCHEME, path: viewedPath(uri.path) }) : uri;
}

/** The URI of the active tab: a text editor, a custom editor, or a diff's right side. */
export function activeTabUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  if (input instanceof vscode.TabInputTextDiff) return input.modified;
  return vscode.window.activeTextEditor?.document.uri;
}

export class TextViews implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  /** The last view rendered for each open URI. */
  private readonly views = new Map<string, TextView>();
  private readonly status = vscode.window.createStatusBarItem('arch06.textView', vscode.StatusBarAlignment.Right, 100);

  constructor(private readonly service: MountService) {
    this.status.name = 'arch06 text view';
    this.status.command = 'arch06.showTextViewHeader';
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      this.changed,
      this.lensesChanged,
      this.status,
      vscode.workspace.registerTextDocumentContentProvider(TEXT_SCHEME, this),
      vscode.languages.registerCodeLensProvider({ scheme: TEXT_SCHEME }, this),
      vscode.workspace.onDidOpenTextDocument((d) => {
        void this.applyLanguage(d);
        if (d.uri.scheme === TEXT_SCHEME) this.lensesChanged.fire();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme === TEXT_SCHEME && !vscode.workspace.textDocuments.some((x) => x !== d && x.uri.toString() === d.uri.toString()))
          this.views.delete(d.uri.toString());
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        this.updateStatus();
        if (e?.document.uri.scheme === TEXT_SCHEME) this.lensesChanged.fire();
      }),
      // A remount changes what every open view shows.
      this.service.onDidChange(() => {
        for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === TEXT_SCHEME) this.changed.fire(d.uri);
      }),
      vscode.commands.registerCommand('arch06.openAsText', (uri?: vscode.Uri) => this.openAsText(uri)),
      vscode.commands.registerCommand('arch06.showTextViewHeader', (uri?: vscode.Uri) => this.showHeader(uri)),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    // A view restored with the window asks before activation's mount has finished.
    await this.service.settled();
    const m = this.service.mount;
    if (!m) return `# arch06: no Shadow of War install is mounted (run "arch06: Open Game Folder as Workspace")\n`;
    try {
      const view = await loadTextView(m, viewedPath(uri.path), copyOfQuery(uri.query));
      this.views.set(uri.toString(), view);
      this.lensesChanged.fire();
      this.updateStatus();
      return view.text;
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      this.service.log(`${uri.toString()}: ${e.message}`);
      return `# arch06: ${viewedPath(uri.path)}: ${e.message}\n`;
    }
  }

  view(uri: vscode.Uri): TextView | undefined {
    return this.views.get(uri.toString());
  }

  /** Decoded texts are in the decoded-text language; a script's source in Havok Script (by its extension). */
  private async applyLanguage(d: vscode.TextDocument): Promise<void> {
    if (d.uri.scheme !== TEXT_SCHEME) return;
    const want = this.views.get(d.uri.toString())?.language;
    if (want && d.languageId !== want) await vscode.languages.setTextDocumentLanguage(d, want);
  }

  async provideCodeLenses(d: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    let v = this.views.get(d.uri.toString());
    const m = this.service.mount;
    if (!v && m) {
      // The view was dropped with an earlier copy of the document: read it again.
      v = await loadTextView(m, viewedPath(d.uri.path), copyOfQuery(d.uri.query)).catch(() => undefined);
      if (v) {
        this.views.set(d.uri.toString(), v);
        // Setting the language reopens the document, which dropped the view the status bar shows.
        this.updateStatus();
      }
    }
    if (!v?.fields) return [];
    const header = new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
      title: `$(file-binary) ${v.summary} · read-only view of the game file`,
      tooltip: v.fields.map((f) => `${f.label}: ${f.value}`).join('\n'),
      command: 'arch06.showTextViewHeader',
      arguments: [d.uri],
    });
    if (v.language !== SCRIPT_LANGUAGE) return [header];
    // A script's source is edited in the mod (modCopy.ts editInModCommand), never here.
    const edit = new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
      title: '$(edit) Edit in Mod',
      tooltip: "Copy this script into the active mod (if it is not there yet) and open the mod's copy to edit",
      command: 'arch06.editInMod',
      arguments: [d.uri],
    });
    return [header, edit];
  }

  private updateStatus(): void {
    const d = vscode.window.activeTextEditor?.document;
    const v = d && d.uri.scheme === TEXT_SCHEME ? this.views.get(d.uri.toString()) : undefined;
    if (!v) {
      this.status.hide();
      return;
    }
    this.status.text = `$(file-binary) ${v.fields ? v.summary : (v.kind ?? 'text')}`;
    this.status.tooltip = v.fields ? v.fields.map((f) => `${f.label}: ${f.value}`).join('\n') : v.summary;
    this.status.show();
  }

  private async showHeader(uri?: vscode.Uri): Promise<void> {
    const u = uri ?? vscode.window.activeTextEditor?.document.uri;
    const v = u ? this.views.get(u.toString()) : undefined;
    if (!u || !v) return;
    const items = (v.fields ?? [{ label: 'about', value: v.summary }]).map((f) => ({ label: f.label, description: f.value }));
    await vscode.window.showQuickPick(items, { title: `${u.path.slice(u.path.lastIndexOf('/') + 1)}: ${v.summary}`, canPickMany: false });
  }

  /** Open a file of the arch06: workspace as text: its decoded text, a script's source, or the file itself. */
  async openAsText(arg?: vscode.Uri): Promise<void> {
    const uri = arg ?? activeTabUri();
    if (!uri) return;
    if (uri.scheme === TEXT_SCHEME) {
      await vscode.window.showTextDocument(uri);
      return;
    }
    if (uri.scheme !== SCHEME) {
      void showInformation('arch06: Open as Text works on files of the arch06: workspace.');
      return;
    }
    let path: string | undefined;
    try {
      path = gamePathOf(parseUri(uri));
    } catch {
      path = undefined;
    }
    if (!path) return;
    if (textKindOf(path)) await vscode.window.showTextDocument(textUri(uri), { preview: false });
    else await vscode.commands.executeCommand('vscode.openWith', uri, 'default');
  }
}
