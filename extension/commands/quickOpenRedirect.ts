/**
 * Ctrl+P / Ctrl+Shift+F to arch06's Go to File / Find in Files while the window holds the mounted
 * `arch06:` workspace: keeps the keybindings' context key (quickOpenRedirectModel.ts decides it) in
 * step with the mount, the workspace folders and the setting, and shows the one-time hint the first
 * time one of the keys is taken over.
 */
import * as vscode from 'vscode';
import { MountService } from '../mountService';
import {
  HINT_KEEP,
  HINT_SHOWN_KEY,
  HINT_USE_VSCODE,
  REDIRECT_CONTEXT_KEY,
  REDIRECT_SETTING,
  hintText,
  redirectWanted,
  redirectedBy,
} from '../quickOpenRedirectModel';
import { showInformation } from '../notify';

/** Keeps the context key up to date; dispose to stop. */
export function quickOpenRedirect(service: MountService): vscode.Disposable {
  const update = (): void => {
    const on = redirectWanted({
      folderSchemes: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.scheme),
      mounted: service.mount !== undefined,
      enabled: vscode.workspace.getConfiguration('arch06').get<boolean>(REDIRECT_SETTING, true),
    });
    void vscode.commands.executeCommand('setContext', REDIRECT_CONTEXT_KEY, on);
  };
  update();
  return vscode.Disposable.from(
    service.onDidChange(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`arch06.${REDIRECT_SETTING}`)) update();
    }),
  );
}

/**
 * Called with the command's arguments: when a redirected key brought the user here, say why once
 * (per user), with a button that gives the keys back to VS Code.
 */
export function redirectHint(context: vscode.ExtensionContext, args: unknown): void {
  const key = redirectedBy(args);
  if (!key || context.globalState.get(HINT_SHOWN_KEY)) return;
  void context.globalState.update(HINT_SHOWN_KEY, true);
  void showInformation(hintText(key, process.platform === 'darwin'), HINT_KEEP, HINT_USE_VSCODE).then(async (pick) => {
    if (pick === HINT_USE_VSCODE) {
      await vscode.workspace.getConfiguration('arch06').update(REDIRECT_SETTING, false, vscode.ConfigurationTarget.Global);
      void showInformation(`Ctrl+P and Ctrl+Shift+F are VS Code's again (setting arch06.${REDIRECT_SETTING}); arch06's stay on Ctrl+Alt+P and Ctrl+Alt+F.`);
    }
  });
}
