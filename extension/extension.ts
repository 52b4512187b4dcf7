/**
 * Extension entry point. For now it offers the search order and the name hash; the `arch06:`
 * file system, the editors and the language client register here as they land.
 */
import * as vscode from 'vscode';
import { defaultHasher, formatHash } from '../core/hash/stringHash';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('arch06.hashString', async () => {
      const name = await vscode.window.showInputBox({ prompt: 'Name to hash with StringHash (case-insensitive, \\ and / differ)' });
      if (name === undefined) return;
      const r = defaultHasher.tryHash(name);
      if (r.ok) {
        const text = formatHash(r.hash);
        await vscode.env.clipboard.writeText(text);
        void vscode.window.showInformationMessage(`StringHash("${name}") = ${text} (copied)`);
      } else {
        void vscode.window.showWarningMessage(`Cannot hash "${name}": the value of byte 0x${r.byte.toString(16)} (position ${r.index}) in the engine's table is not known.`);
      }
    }),
  );
}

export function deactivate(): void {}
