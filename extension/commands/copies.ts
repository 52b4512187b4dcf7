/** Opening one copy of a path, and diffing a copy with the next one in search order. */
import * as vscode from 'vscode';
import { SourceEntry } from '../../core/archive';
import { CopiesView, CopyNode } from '../views/copiesView';
import { MountService } from '../mountService';
import { SCHEME, gamePathOf, parseUri, sourceUri } from '../fs/uris';

const copyUri = (e: SourceEntry): vscode.Uri => sourceUri(e.source.name, e.path);

/** The copies and the index of the one a command is about: a Copies item, an arch06 URI, or the active editor. */
function resolve(service: MountService, view: CopiesView, arg?: CopyNode | vscode.Uri): { copies: SourceEntry[]; index: number } | undefined {
  if (arg && !(arg instanceof vscode.Uri)) return { copies: arg.copies, index: arg.index };
  const uri = arg ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== SCHEME) {
    const p = view.currentPath;
    return p ? { copies: view.copiesOf(p), index: 0 } : undefined;
  }
  const u = parseUri(uri);
  const path = gamePathOf(u);
  if (!path) return undefined;
  const copies = service.mount?.which(path)?.copies ?? [];
  const index = u.view === 'source' ? copies.findIndex((c) => c.source.name.toLowerCase() === u.source.toLowerCase()) : 0;
  return { copies, index: Math.max(0, index) };
}

export async function openCopyCommand(service: MountService, view: CopiesView, arg?: CopyNode | vscode.Uri): Promise<void> {
  const r = resolve(service, view, arg);
  if (!r || !r.copies.length) return;
  await vscode.commands.executeCommand('vscode.open', copyUri(r.copies[r.index]));
}

export async function compareWithNextCopyCommand(service: MountService, view: CopiesView, arg?: CopyNode | vscode.Uri): Promise<void> {
  const r = resolve(service, view, arg);
  if (!r) return;
  const a = r.copies[r.index];
  const b = r.copies[r.index + 1];
  if (!a || !b) {
    void vscode.window.showInformationMessage(
      a ? `${a.path}: no further copy below ${a.source.name} in the search order.` : 'This path has no copies to compare.',
    );
    return;
  }
  // Left: the lower-ranked copy (what the higher one replaces); right: the higher-ranked one.
  await vscode.commands.executeCommand(
    'vscode.diff',
    copyUri(b),
    copyUri(a),
    `${a.path.slice(a.path.lastIndexOf('\\') + 1)}: ${b.source.name} ↔ ${a.source.name}`,
  );
}
