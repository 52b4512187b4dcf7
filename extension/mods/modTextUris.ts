/**
 * `arch06-modtext:` URIs as vscode.Uri: a mod file shown as the text it is edited in (modCopy.ts
 * `ModTexts`); the form itself is core/mod/modTextUri.ts, which the language server reads too.
 * Apart from the provider so that the mod list (modProjects.ts), which follows those saves, and
 * the provider, which asks the mod list, do not import each other.
 */
import * as vscode from 'vscode';
import { MOD_TEXT_SCHEME, modFileUriPath, modTextUriPath } from '../../core/mod';

export { MOD_TEXT_SCHEME };

/** The mod file an `arch06-modtext:` URI shows (its `.txt`/`.hks` suffix dropped). */
export function modTextFileOf(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.file(vscode.Uri.from({ scheme: 'file', path: modFileUriPath(uri.path) }).fsPath);
}

/** The `arch06-modtext:` URI of a mod file. */
export function modTextUriOf(fsPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: MOD_TEXT_SCHEME, path: modTextUriPath(vscode.Uri.file(fsPath).path) });
}
