/**
 * "arch06: Find in Files…": text in the merged view's files and bundle members matching a glob
 * (core/search: plain text, script source after its SCRI header, and decoded text views when the
 * setting `arch06.findInFiles.decodedViews` asks), with progress and cancel. Results stream into
 * the Search Results view as they are found; the mounted paths are searched at once and the bundle
 * members after them, so the first search of a session never waits for the member catalogue
 * before its first results.
 */
import * as vscode from 'vscode';
import { searchTextStreaming } from '../../core/search';
import { MountService } from '../mountService';
import { SearchResultsView } from '../views/searchResultsView';
import { showInformation } from '../notify';
import type { WorkPool } from '../workPool';

export async function findInFilesCommand(context: vscode.ExtensionContext, service: MountService, view: SearchResultsView, workers: WorkPool): Promise<void> {
  const m = service.mount;
  if (!m) {
    void showInformation('No install is mounted. Run "arch06: Open Game Folder as Workspace" first.');
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
  const decoded = vscode.workspace.getConfiguration('arch06').get<boolean>('findInFiles.decodedViews', false);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Searching for "${text}"`, cancellable: true },
    async (progress, token) => {
      const started = Date.now();
      let last = 0;
      try {
        view.begin(text);
        await vscode.commands.executeCommand('arch06.searchResults.focus');
        // The mount's paths are listed once per mount (the first search lists them, later ones reuse them).
        const ready = service.readyPathsWithMembers();
        // The mounted files across the pool's workers (setting arch06.workers); cancel stops them at once.
        const pool = workers.get();
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        const result = await searchTextStreaming(m, {
          ...(pool ? { pool, signal: abort.signal } : {}),
          query: text,
          isRegExp,
          include,
          decoded,
          keepMatches: false,
          paths: service.distinctPaths(m),
          ...(ready ? { members: ready.members } : {}),
          laterMembers: ready
            ? undefined
            : async () => {
                progress.report({ message: 'listing bundle members…' });
                const all = await service.pathsWithMembers();
                return token.isCancellationRequested || service.mount !== m ? undefined : all?.members;
              },
          pause: () => new Promise((r) => setTimeout(r, 0)),
          isCancelled: () => token.isCancellationRequested || service.mount !== m,
          onMatch: (match) => view.add(match),
          onProgress: (done, total) => {
            const pct = Math.floor((done / Math.max(1, total)) * 100);
            if (pct > last) {
              progress.report({ increment: pct - last, message: `${done.toLocaleString('en')} / ${total.toLocaleString('en')} files` });
              last = pct;
            }
          },
        }).finally(() => cancel.dispose());
        view.finish(result);
        service.log(
          `Find in Files "${text}" (${include || 'all files'}${decoded ? ', decoded views' : ''}): ${view.summaryText} in ${Date.now() - started} ms`,
        );
      } catch (e) {
        view.finish(undefined);
        service.reportError('Find in Files failed', e);
      }
    },
  );
}
