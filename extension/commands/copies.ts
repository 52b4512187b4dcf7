/**
 * Opening one copy of a path, and diffing a copy with the next one in search order. A file with a
 * decoded text (core/text: bundles, string tables, registries, skeletons, scripts) is diffed as
 * its text views, so binary formats compare line by line. Below the last copy the mount serves,
 * the copy a bundle's container embeds counts as the next one (seed 001's patch rule: a
 * standalone `.objres` replaces the registry in its part's container).
 */
import * as vscode from 'vscode';
import { type Mount, SourceEntry } from '../../core/archive';
import { textKindOf } from '../../core/text';
import { CopiesView, CopyNode, embeddedTarget } from '../views/copiesView';
import { MountService } from '../mountService';
import { SCHEME, gamePathOf, memberUri, parseUri, sourceUri } from '../fs/uris';
import { archUriOf, textUri } from '../views/textView';
import { TEXT_SCHEME } from '../views/textViewModel';
import { showInformation } from '../notify';

/** A copy's URI under its source's numbered `@sources` folder (as the Explorer lists it). */
const copyUri = (mount: Mount, e: SourceEntry): vscode.Uri => sourceUri(mount, e.source.name, e.path);

/** The copies and the index of the one a command is about: a Copies item, an arch06 URI, or the active editor. */
function resolve(view: CopiesView, arg?: CopyNode | vscode.Uri): CopyNode | undefined {
  if (arg && !(arg instanceof vscode.Uri)) return arg;
  const given = arg ?? vscode.window.activeTextEditor?.document.uri;
  const uri = given?.scheme === TEXT_SCHEME ? archUriOf(given) : given;
  if (!uri || uri.scheme !== SCHEME) {
    const list = view.listOf();
    return list && { ...list, index: 0 };
  }
  const u = parseUri(uri);
  const path = gamePathOf(u);
  const list = path ? view.listOf(path, u.view === 'bundle' ? u.bundle : undefined) : undefined;
  if (!list) return undefined;
  if (u.view === 'bundle' && list.embedded?.served) return { ...list, index: list.copies.length };
  const index = u.view === 'source' ? list.copies.findIndex((c) => c.source.name.toLowerCase() === u.source.toLowerCase()) : 0;
  return { ...list, index: Math.max(0, index) };
}

export async function openCopyCommand(service: MountService, view: CopiesView, arg?: CopyNode | vscode.Uri): Promise<void> {
  const r = resolve(view, arg);
  const m = service.mount;
  if (!r || !m) return;
  const e = r.copies[r.index];
  const target = e ? copyUri(m, e) : embeddedTarget(r);
  if (target) await vscode.commands.executeCommand('vscode.open', target);
}

export async function compareWithNextCopyCommand(service: MountService, view: CopiesView, arg?: CopyNode | vscode.Uri): Promise<void> {
  const r = resolve(view, arg);
  const m = service.mount;
  if (!r || !m) return;
  const a = r.copies[r.index];
  const b = r.copies[r.index + 1];
  const leaf = (p: string): string => p.slice(p.lastIndexOf('\\') + 1);
  const asText = (u: vscode.Uri, path: string): vscode.Uri => (textKindOf(path) ? textUri(u) : u);
  const decoded = a && textKindOf(a.path) ? ' (decoded text)' : '';
  const embedded = a && !b ? r.embedded : undefined;
  if (a && embedded) {
    // Left: the container's own copy (what the loose one replaces); right: the copy the engine loads.
    await vscode.commands.executeCommand(
      'vscode.diff',
      textUri(memberUri(embedded.manifest, embedded.member), 'embedded'),
      asText(copyUri(m, a), a.path),
      `${leaf(a.path)}: ${leaf(embedded.container)} in ${embedded.source} ↔ ${a.source.name}${decoded}`,
    );
    return;
  }
  if (!a || !b) {
    const only = r.embedded?.served ? `${r.path}: served from ${leaf(r.embedded.container)} in ${r.embedded.source}, its only copy.` : undefined;
    void showInformation(a ? `${a.path}: no further copy below ${a.source.name} in the search order.` : (only ?? 'This path has no copies to compare.'));
    return;
  }
  // Left: the lower-ranked copy (what the higher one replaces); right: the higher-ranked one.
  await vscode.commands.executeCommand(
    'vscode.diff',
    asText(copyUri(m, b), b.path),
    asText(copyUri(m, a), a.path),
    `${leaf(a.path)}: ${b.source.name} ↔ ${a.source.name}${decoded}`,
  );
}
