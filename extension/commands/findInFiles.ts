/** "arch06: Find in Files…": text in the merged view's files and bundle members matching a glob, with progress and cancel. */
import * as vscode from 'vscode';
import { searchText } from '../../core/search';
import { MountService } from '../mountService';
import { SearchResultsView } from '../views/searchResultsView';

export async function findInFilesCommand(context: vscode.ExtensionContext, service: MountService, view: SearchResultsView): Promise<void> {
  const m = service.mount;
  if (!m) {
    void vscode.window.showInformationMessage('No install is mounted. Run "arch06: Open Game Folder as Workspace" first.');
    return;
  }
  const query = await vscode.window.showInputBox({
    title: 'arch06: Find in Files (1/2)',
    prompt: 'Text to find (prefix with re: for a regular expression)',
    value: context.workspaceState.get('arch06.lastQuery', ''),
  });
  if (!query) return;
  const include = await vscode.window.showInputBox({
    title: 'arch06: Find in Files (2/2)',
    prompt: 'Files to include (glob, e.g. *.scripts or worlds/**/*.txt; empty = all)',
    value: context.workspaceState.get('arch06.lastInclude', ''),
  });
  if (include === undefined) return;
  await context.workspaceState.update('arch06.lastQuery', query);
  await context.workspaceState.update('arch06.lastInclude', include);
  const isRegExp = query.startsWith('re:');
  const text = isRegExp ? query.slice(3) : query;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Searching for "${text}"`, cancellable: true },
    async (progress, token) => {
      let last = 0;
      // Searching is synchronous work over the mount; yield now and then so progress and cancel stay live.
      await new Promise((r) => setTimeout(r, 0));
      try {
        progress.report({ message: 'listing bundle members…' });
        const all = await service.pathsWithMembers();
        if (token.isCancellationRequested || service.mount !== m) return;
        progress.report({
          message: `searching ${all ? `${all.looseCount.toLocaleString('en')} paths and ${all.members.length.toLocaleString('en')} bundle members` : 'the mounted paths'}…`,
        });
        await new Promise((r) => setTimeout(r, 0)); // let the message paint before the synchronous search
        const result = searchText(m, {
          ...(all ? { members: all.members } : {}),
          query: text,
          isRegExp,
          include,
          isCancelled: () => token.isCancellationRequested,
          onProgress: (done, total) => {
            const pct = Math.floor((done / Math.max(1, total)) * 100);
            if (pct > last) {
              progress.report({ increment: pct - last, message: `${done.toLocaleString('en')} / ${total.toLocaleString('en')} files` });
              last = pct;
            }
          },
        });
        view.show(text, result);
        await vscode.commands.executeCommand('arch06.searchResults.focus');
      } catch (e) {
        service.reportError('Find in Files failed', e);
      }
    },
  );
}
