/**
 * `arch06-modtext:` URIs: a mod file shown as the text it is edited in (modCopy.ts `ModTexts`).
 * Apart from the provider so that the mod list (modProjects.ts), which follows those saves, and
 * the provider, which asks the mod list, do not import each other.
 */
import * as vscode from 'vscode';

export const MOD_TEXT_SCHEME = 'arch06-modtext';

/** The mod file an `arch06-modtext:` URI shows (its `.txt`/`.hks` suffix dropped). */
export function modTextFileOf(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.file(vscode.Uri.from({ scheme: 'file', path: uri.path.replace(/\.(txt|hks)$/, '') }).fsPath);
}
