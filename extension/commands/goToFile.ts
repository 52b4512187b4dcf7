/**
 * "arch06: Go to File…": Quick Open over every path of the merged view and every bundle member.
 * VS Code cannot search a custom scheme with its own Quick Open (that API is proposed-only), so
 * this is ours: the core's fuzzy index filters hundreds of thousands of paths per keystroke and
 * only the best 200 are shown. Mounted paths are there at once; bundle members join when every
 * manifest has been resolved (once per mount), and each says which bundle serves it from where (a
 * member served from a loose copy is that path, listed once: core/search `pathList`). Words the
 * query spaces apart are matched each on its own, folder words counting (core/search `FuzzyIndex`).
 */
import * as vscode from 'vscode';
import { describeMember } from '../../core/archive';
import { type FuzzyIndex, pathListKey } from '../../core/search';
import { MountService, type PathsAndMembers } from '../mountService';
import { memberUri, mergedUri } from '../fs/uris';
import { showInformation } from '../notify';

interface PathItem extends vscode.QuickPickItem {
  uri: vscode.Uri;
}

export function goToFileCommand(service: MountService): void {
  // Once the members are listed, their index holds every path too; before, the paths alone.
  const ready = service.readyPathsWithMembers();
  const loose = ready ? undefined : service.fuzzyIndex();
  const first: { fuzzy: FuzzyIndex; all?: PathsAndMembers } | undefined = ready ? { fuzzy: ready.fuzzy, all: ready } : loose && { fuzzy: loose };
  if (!first) {
    void showInformation('No install is mounted. Run "arch06: Open Game Folder as Workspace" first.');
    return;
  }
  let current = first;
  const qp = vscode.window.createQuickPick<PathItem>();
  const placeholder = (): string =>
    current.all
      ? `Search ${current.all.looseCount.toLocaleString('en')} game paths and ${current.all.members.length.toLocaleString('en')} bundle members by name (fuzzy)`
      : `Search ${current.fuzzy.size.toLocaleString('en')} game paths by name (fuzzy); bundle members are being listed…`;
  qp.placeholder = placeholder();
  qp.matchOnDescription = false;
  qp.busy = !ready;
  const update = (): void => {
    const { fuzzy, all } = current;
    qp.items = fuzzy.match(qp.value, 200).map((m) => {
      const p = fuzzy.paths[m.index];
      const cut = Math.max(p.lastIndexOf('\\'), p.lastIndexOf('/'));
      const nameStart = cut + 1;
      const highlights: [number, number][] = m.positions.filter((x) => x >= nameStart).map((x) => [x - nameStart, x - nameStart + 1]);
      const member = all && m.index >= all.looseCount ? all.members[m.index - all.looseCount] : undefined;
      // A mounted path a bundle also declares (served from this loose copy) is listed once, with its bundle.
      const declared = member ?? (all && all.alsoDeclared.size ? all.alsoDeclared.get(pathListKey(p)) : undefined);
      return {
        label: p.slice(nameStart),
        description: cut > 0 ? p.slice(0, cut) : '',
        ...(declared ? { detail: `$(package) ${describeMember(declared)}` } : {}),
        uri: member ? memberUri(member.bundle, member.path) : mergedUri(p),
        // We filter ourselves; keep VS Code's own filter from hiding our matches.
        alwaysShow: true,
        highlights: { label: highlights },
      } as PathItem;
    });
  };
  let open = true;
  void service.pathsWithMembers()?.then(
    (all) => {
      if (!open) return;
      current = { fuzzy: all.fuzzy, all };
      qp.busy = false;
      qp.placeholder = placeholder();
      if (qp.value) update();
    },
    (e) => {
      qp.busy = false;
      service.reportError('Listing bundle members failed', e);
    },
  );
  qp.onDidChangeValue(update);
  qp.onDidAccept(() => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    if (item) void vscode.commands.executeCommand('vscode.open', item.uri);
    qp.hide();
  });
  qp.onDidHide(() => {
    open = false;
    qp.dispose();
  });
  qp.show();
}
