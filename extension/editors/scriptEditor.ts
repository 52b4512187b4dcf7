/**
 * `.scripts` files open as their source. A SCRI script starts with a binary header, so the text
 * editor would call the file binary; this read-only custom editor (package.json `arch06.script`)
 * only redirects: a script of the arch06: workspace opens as its text view (views/textView.ts:
 * exactly the source, in Havok Script, the header in a CodeLens and the status bar), in the same
 * column and with the same preview state, and the redirecting tab closes. A `.scripts` file
 * anywhere else opens in the default text editor, as before.
 */
import * as vscode from 'vscode';
import { SCHEME } from '../fs/uris';
import { textUri } from '../views/textView';

export const SCRIPT_VIEW_TYPE = 'arch06.script';

export class ScriptRedirectProvider implements vscode.CustomReadonlyEditorProvider {
  static register(): vscode.Disposable {
    return vscode.window.registerCustomEditorProvider(SCRIPT_VIEW_TYPE, new ScriptRedirectProvider(), {
      supportsMultipleEditorsPerDocument: true,
    });
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = '<!DOCTYPE html><html><body><p>Opening the script as text…</p></body></html>';
    const column = panel.viewColumn;
    const tab = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === SCRIPT_VIEW_TYPE && t.input.uri.toString() === document.uri.toString());
    const preview = tab?.isPreview ?? true;
    try {
      if (document.uri.scheme === SCHEME) await vscode.window.showTextDocument(textUri(document.uri), { viewColumn: column, preview });
      else await vscode.commands.executeCommand('vscode.openWith', document.uri, 'default', { viewColumn: column, preview });
    } finally {
      panel.dispose();
    }
  }
}
