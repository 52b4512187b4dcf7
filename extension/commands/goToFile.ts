/**
 * "arch06: Go to File…": Quick Open over every path of the merged view. VS Code cannot search a
 * custom scheme with its own Quick Open (that API is proposed-only), so this is ours: the core's
 * fuzzy index filters hundreds of thousands of paths per keystroke and only the best 200 are shown.
 */
import * as vscode from 'vscode';
import { MountService } from '../mountService';
import { mergedUri } from '../fs/uris';

interface PathItem extends vscode.QuickPickItem {
  path: string;
}

export function goToFileCommand(service: MountService): void {
  const ix = service.fuzzyIndex();
  if (!ix) {
    void vscode.window.showInformationMessage('No install is mounted. Run "arch06: Open Game Folder as Workspace" first.');
    return;
  }
  const qp = vscode.window.createQuickPick<PathItem>();
  qp.placeholder = `Search ${ix.size.toLocaleString('en')} game paths by name (fuzzy)`;
  qp.matchOnDescription = false;
  const update = (): void => {
    const matches = ix.match(qp.value, 200);
    qp.items = matches.map((m) => {
      const p = ix.paths[m.index];
      const cut = p.lastIndexOf('\\');
      const nameStart = cut + 1;
      const highlights: [number, number][] = m.positions.filter((x) => x >= nameStart).map((x) => [x - nameStart, x - nameStart + 1]);
      return {
        label: p.slice(nameStart),
        description: cut > 0 ? p.slice(0, cut) : '',
        path: p,
        // We filter ourselves; keep VS Code's own filter from hiding our matches.
        alwaysShow: true,
        highlights: { label: highlights },
      } as PathItem;
    });
  };
  qp.onDidChangeValue(update);
  qp.onDidAccept(() => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    if (item) void vscode.commands.executeCommand('vscode.open', mergedUri(item.path));
    qp.hide();
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
}
