/**
 * "arch06: Extract to Folder…" for a file or folder of the merged view, of one source or of a
 * bundle folder. The picker opens outside the install (extractTargetModel.ts: the last folder
 * extracted to, kept in globalState, else home); a folder chosen inside it is refused before
 * anything is read. The progress notification (with Cancel) ends when the extraction ends; the
 * result is shown after it, so an unanswered "Reveal" leaves nothing spinning.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { BundleFolders, collectEntries, extractEntries, extractEntriesParallel, type SourceEntry } from '../../core/archive';
import type { WorkPool } from '../workPool';
import { isInsideReal } from '../../core/io/node';
import { MountService } from '../mountService';
import { ROOT_URI, SCHEME, parseUri } from '../fs/uris';
import { LAST_EXTRACT_FOLDER_KEY, defaultExtractFolder, refuseExtractFolder } from './extractTargetModel';
import { showInformation, showWarning } from '../notify';

type ExtractResult = Awaited<ReturnType<typeof extractEntries>>;

export async function extractCommand(
  service: MountService,
  bundles: BundleFolders,
  state: vscode.Memento,
  workers: WorkPool,
  target?: vscode.Uri,
  targetFolder?: vscode.Uri,
): Promise<void> {
  const m = service.mount;
  if (!m) {
    void showInformation('No install is mounted. Run "arch06: Open Game Folder as Workspace" first.');
    return;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const uri = target ?? (active?.scheme === SCHEME ? active : ROOT_URI);
  const u = parseUri(uri);
  if (u.view === 'sources') {
    void showInformation('Pick one source (or a folder inside it) to extract.');
    return;
  }
  let entries: SourceEntry[];
  try {
    entries = u.view === 'bundle' ? bundles.resolve(m, u.bundle).entries(u.member) : collectEntries(m, u.path, u.view === 'source' ? u.source : undefined);
  } catch (e) {
    service.reportError('Nothing to extract', e);
    return;
  }
  const places = m.readOnlyPlaces();
  const forbidden = (p: string): boolean => places.some((place) => isInsideReal(p, place));
  const files = `${entries.length.toLocaleString('en')} ${entries.length === 1 ? 'file' : 'files'}`;
  const folder = targetFolder ?? (await pickFolder(state, m.root, forbidden, files));
  if (!folder) return;
  await state.update(LAST_EXTRACT_FOLDER_KEY, folder.fsPath);

  const total = entries.reduce((n, e) => n + e.size, 0);
  // The progress ends with the extraction: nothing after it is awaited inside.
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Extracting ${files}`, cancellable: true },
    async (progress, token): Promise<ExtractResult | undefined> => {
      let reported = 0;
      try {
        const options = {
          isCancelled: () => token.isCancellationRequested,
          onProgress: (done: number, count: number, bytes: number) => {
            const pct = total ? Math.floor((bytes / total) * 100) : Math.floor((done / count) * 100);
            progress.report({ increment: pct - reported, message: `${done} / ${count}` });
            reported = pct;
          },
        };
        // A folder across the pool's workers (setting arch06.workers); a single file, or one worker, here.
        const pool = entries.length > 1 ? workers.get() : undefined;
        if (!pool) return await extractEntries(m, entries, folder.fsPath, options);
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        try {
          return await extractEntriesParallel(m, entries, folder.fsPath, { ...options, pool, signal: abort.signal });
        } finally {
          cancel.dispose();
        }
      } catch (e) {
        service.reportError('Extract failed', e);
        return undefined;
      }
    },
  );
  if (!r) return;
  for (const f of r.failures) service.log(`extract: ${f.source}:${f.path}: ${f.message}`);
  const msg = `Extracted ${r.files.toLocaleString('en')} ${r.files === 1 ? 'file' : 'files'}, ${r.bytes.toLocaleString('en')} bytes, to ${folder.fsPath}${r.cancelled ? ' (cancelled)' : ''}${r.failures.length ? `; ${r.failures.length} failed (see the arch06 output)` : ''}`;
  service.log(msg);
  void (r.failures.length ? showWarning(msg, 'Show Details') : showInformation(msg, 'Reveal')).then((pick) => {
    if (pick === 'Show Details') service.output.show(true);
    if (pick === 'Reveal') void vscode.commands.executeCommand('revealFileInOS', folder);
  });
}

const isFolder = (p: string): boolean => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** The folder picker, opened outside the install; a folder inside it is refused and the picker opens again. */
async function pickFolder(state: vscode.Memento, installRoot: string, forbidden: (p: string) => boolean, files: string): Promise<vscode.Uri | undefined> {
  let start = defaultExtractFolder({
    last: state.get(LAST_EXTRACT_FOLDER_KEY),
    home: os.homedir(),
    installRoot,
    tmp: os.tmpdir(),
    forbidden,
    isFolder,
  });
  for (;;) {
    const picked = (
      await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        openLabel: 'Extract here',
        title: `Extract ${files} to…`,
        defaultUri: vscode.Uri.file(start),
      })
    )?.[0];
    if (!picked) return undefined;
    const refusal = picked.scheme !== 'file' ? 'arch06 extracts to a folder on disk.' : refuseExtractFolder(picked.fsPath, installRoot, forbidden);
    if (!refusal) return picked;
    const again = await showWarning(refusal, 'Choose Another Folder');
    if (again !== 'Choose Another Folder') return undefined;
    start = defaultExtractFolder({ last: undefined, home: os.homedir(), installRoot, tmp: os.tmpdir(), forbidden, isFolder });
  }
}
