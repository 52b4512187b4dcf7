/** "arch06: Extract to Folder…" for a file or folder of the merged view or of one source. */
import * as vscode from 'vscode';
import { BundleFolders, collectEntries, extractEntries } from '../../core/archive';
import { MountService } from '../mountService';
import { ROOT_URI, SCHEME, parseUri } from '../fs/uris';

export async function extractCommand(service: MountService, bundles: BundleFolders, target?: vscode.Uri, targetFolder?: vscode.Uri): Promise<void> {
  const m = service.mount;
  if (!m) {
    void vscode.window.showInformationMessage('No install is mounted. Run "arch06: Open Game Folder as Workspace" first.');
    return;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const uri = target ?? (active?.scheme === SCHEME ? active : ROOT_URI);
  const u = parseUri(uri);
  if (u.view === 'sources') {
    void vscode.window.showInformationMessage('Pick one source (or a folder inside it) to extract.');
    return;
  }
  let entries;
  try {
    entries = u.view === 'bundle' ? bundles.resolve(m, u.bundle).entries(u.member) : collectEntries(m, u.path, u.view === 'source' ? u.source : undefined);
  } catch (e) {
    service.reportError('Nothing to extract', e);
    return;
  }
  const folder =
    targetFolder ??
    (
      await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: 'Extract here',
        title: `Extract ${entries.length.toLocaleString('en')} file(s) to…`,
      })
    )?.[0];
  if (!folder) return;
  const total = entries.reduce((n, e) => n + e.size, 0);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Extracting ${entries.length.toLocaleString('en')} file(s)`, cancellable: true },
    async (progress, token) => {
      let reported = 0;
      try {
        const r = await extractEntries(m, entries, folder.fsPath, {
          isCancelled: () => token.isCancellationRequested,
          onProgress: (done, count, bytes) => {
            const pct = total ? Math.floor((bytes / total) * 100) : Math.floor((done / count) * 100);
            progress.report({ increment: pct - reported, message: `${done} / ${count}` });
            reported = pct;
          },
        });
        for (const f of r.failures) service.log(`extract: ${f.source}:${f.path}: ${f.message}`);
        const msg = `Extracted ${r.files.toLocaleString('en')} file(s), ${r.bytes.toLocaleString('en')} bytes, to ${folder.fsPath}${r.cancelled ? ' (cancelled)' : ''}${r.failures.length ? `; ${r.failures.length} failed (see the arch06 output)` : ''}`;
        service.log(msg);
        const pick = await (r.failures.length ? vscode.window.showWarningMessage(msg, 'Show Details') : vscode.window.showInformationMessage(msg, 'Reveal'));
        if (pick === 'Show Details') service.output.show(true);
        if (pick === 'Reveal') void vscode.commands.executeCommand('revealFileInOS', folder);
      } catch (e) {
        service.reportError('Extract failed', e);
      }
    },
  );
}
