/**
 * Files the text editor would call binary but that have a text view open as it. This read-only
 * custom editor only redirects: a file of the arch06: workspace opens as its text view
 * (views/textView.ts), in the same column and with the same preview state, and the redirecting
 * tab closes. Two view types use it (package.json):
 * - `arch06.script`, `.scripts`: a SCRI script starts with a binary header; its text view is
 *   exactly the source, in Havok Script, the header in a CodeLens and the status bar. A `.scripts`
 *   file anywhere else opens in the default text editor, as before.
 * - `arch06.pathIndex`, `archivepatchloosefiles.txt`: the path index is binary despite its name;
 *   its text view lists the rows (core/text/pathIndexText.ts). Elsewhere it opens in the hex view.
 */
import * as vscode from 'vscode';
import { SCHEME } from '../fs/uris';
import { textUri } from '../views/textView';
import { HEX_ANY_VIEW_TYPE } from './hexModel';

export const SCRIPT_VIEW_TYPE = 'arch06.script';
export const PATH_INDEX_VIEW_TYPE = 'arch06.pathIndex';

export class TextRedirectProvider implements vscode.CustomReadonlyEditorProvider {
  private constructor(
    private readonly viewType: string,
    /** What a file outside the arch06: workspace opens with instead. */
    private readonly elsewhere: string,
  ) {}

  static register(): vscode.Disposable {
    const options = { supportsMultipleEditorsPerDocument: true };
    return vscode.Disposable.from(
      vscode.window.registerCustomEditorProvider(SCRIPT_VIEW_TYPE, new TextRedirectProvider(SCRIPT_VIEW_TYPE, 'default'), options),
      vscode.window.registerCustomEditorProvider(PATH_INDEX_VIEW_TYPE, new TextRedirectProvider(PATH_INDEX_VIEW_TYPE, HEX_ANY_VIEW_TYPE), options),
    );
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = '<!DOCTYPE html><html><body><p>Opening the file as text…</p></body></html>';
    const column = panel.viewColumn;
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === this.viewType && t.input.uri.toString() === document.uri.toString());
    const preview = tab?.isPreview ?? true;
    try {
      if (document.uri.scheme === SCHEME) await vscode.window.showTextDocument(textUri(document.uri), { viewColumn: column, preview });
      else await vscode.commands.executeCommand('vscode.openWith', document.uri, this.elsewhere, { viewColumn: column, preview });
    } finally {
      panel.dispose();
    }
  }
}
