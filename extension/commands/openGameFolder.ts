/**
 * Finding and mounting the install: from the settings, from an open folder that holds
 * x64/default.archcfg, or from a folder the user picks; then the `arch06:` workspace folder.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Mount } from '../../core/archive';
import { MountService } from '../mountService';
import { ROOT_URI, SCHEME } from '../fs/uris';
import { readStoredFolders, storedFolder } from './workspaceFile';
import { showError } from '../notify';

const LAST_ROOT = 'arch06.lastInstallRoot';

interface Settings {
  installRoot: string;
  archcfg: string;
  extraArchives: string[];
}

function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('arch06');
  return { installRoot: c.get('installRoot', ''), archcfg: c.get('archcfg', ''), extraArchives: c.get('extraArchives', []) };
}

/** An open (file) workspace folder that is a game install, if any. */
export function detectInstall(): string | undefined {
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    if (f.uri.scheme === 'file' && Mount.findCfg(f.uri.fsPath)) return f.uri.fsPath;
  }
  return undefined;
}

/** The install to mount without asking: settings, then an open folder, then the last one mounted. */
export function knownInstall(context: vscode.ExtensionContext): string | undefined {
  const s = readSettings();
  return s.installRoot || detectInstall() || context.globalState.get<string>(LAST_ROOT);
}

export async function mountInstall(context: vscode.ExtensionContext, service: MountService, root: string): Promise<boolean> {
  const s = readSettings();
  const extra = s.extraArchives.map((a) => (path.isAbsolute(a) ? a : path.join(root, a)));
  const m = await service.open({
    root,
    cfg: s.archcfg ? (path.isAbsolute(s.archcfg) ? s.archcfg : path.join(root, s.archcfg)) : undefined,
    extraArchives: extra,
  });
  if (m) await context.globalState.update(LAST_ROOT, root);
  return m !== undefined;
}

/**
 * Add `arch06:/` to the workspace unless it is there. A multi-root window takes it in place. A
 * single-folder window must become a workspace, which reloads it; rather than let VS Code convert
 * it to an untitled workspace (whose file the browser build can lose while the window unloads),
 * we write the workspace file first, into our own storage, and open it. The open disk folder is
 * written as a path, not a `file:` URI, so that a remote window (code-server, Remote-SSH, WSL)
 * resolves it on its own side (see workspaceFile.ts).
 */
export async function addWorkspaceFolder(context: vscode.ExtensionContext, root: string): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.some((f) => f.uri.scheme === SCHEME)) return;
  if (vscode.workspace.workspaceFile) {
    vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: ROOT_URI, name: ARCH_FOLDER_NAME });
    return;
  }
  const dir = vscode.Uri.joinPath(context.globalStorageUri, 'workspaces', createHash('sha1').update(root).digest('hex').slice(0, 12));
  const file = vscode.Uri.joinPath(dir, `${path.basename(root) || 'Shadow of War'}.code-workspace`);
  const content = {
    folders: [
      ...folders.map((f) => storedFolder({ name: f.name, scheme: f.uri.scheme, fsPath: f.uri.fsPath, uri: f.uri.toString() })),
      { name: ARCH_FOLDER_NAME, uri: ROOT_URI.toString() },
    ],
    settings: { 'arch06.installRoot': root },
  };
  await vscode.workspace.fs.createDirectory(dir);
  await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(content, null, 2)));
  await vscode.commands.executeCommand('vscode.openFolder', file, { forceReuseWindow: true });
}

const ARCH_FOLDER_NAME = 'Shadow of War (arch06)';

/**
 * A workspace file of ours that opened without its folders (seen in the browser build: the window
 * sometimes restores the workspace before its folders are resolved): add them back from the file.
 * Adding folders to a window that already has a workspace file needs no reload.
 */
export async function restoreLostFolders(context: vscode.ExtensionContext): Promise<boolean> {
  const file = vscode.workspace.workspaceFile;
  if (!file || (vscode.workspace.workspaceFolders?.length ?? 0) > 0) return false;
  if (!file.path.startsWith(vscode.Uri.joinPath(context.globalStorageUri, 'workspaces').path)) return false;
  try {
    const content: unknown = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'));
    // A path is a disk folder: a file URI on this (the extension host's) side, which VS Code maps
    // to the window's own URI for it in a remote window. Files written before paths were used
    // hold file: URIs, which read back the same way.
    const folders = readStoredFolders(content, file.fsPath).map((f) => ({
      uri: 'path' in f ? vscode.Uri.file(f.path) : vscode.Uri.parse(f.uri),
      name: f.name,
    }));
    return folders.length > 0 && vscode.workspace.updateWorkspaceFolders(0, 0, ...folders);
  } catch {
    return false;
  }
}

export async function openGameFolderCommand(context: vscode.ExtensionContext, service: MountService): Promise<void> {
  let root = readSettings().installRoot || detectInstall();
  if (!root) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: 'Mount this install',
      title: 'The Shadow of War install folder (it holds x64/default.archcfg)',
    });
    if (!picked?.length) return;
    root = picked[0].fsPath;
  }
  if (!Mount.findCfg(root)) {
    void showError(`${root} has no x64/default.archcfg: pick the folder where Shadow of War is installed, or set arch06.archcfg.`);
    return;
  }
  if (await mountInstall(context, service, root)) {
    await addWorkspaceFolder(context, root);
    void vscode.commands.executeCommand('arch06.searchOrder.focus');
  }
}
