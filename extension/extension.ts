/**
 * Extension entry point: one MountService shared by the `arch06:` file system, the views and the
 * commands. Each part registers itself here; none of them reads archives directly (core/ does).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MountService } from './mountService';
import { startLanguageClient } from './languageClient';
import { Arch06FileSystem } from './fs/provider';
import { SCHEME } from './fs/uris';
import { SearchOrderView } from './views/searchOrderView';
import { CopiesView } from './views/copiesView';
import { SearchResultsView } from './views/searchResultsView';
import { ShadowDecorations } from './views/decorations';
import { mountStatusBar } from './statusBar';
import { addWorkspaceFolder, detectInstall, knownInstall, mountInstall, openGameFolderCommand, restoreLostFolders } from './commands/openGameFolder';
import { goToFileCommand } from './commands/goToFile';
import { findInFilesCommand } from './commands/findInFiles';
import { quickOpenRedirect, redirectHint } from './commands/quickOpenRedirect';
import { extractCommand } from './commands/extract';
import { compareWithNextCopyCommand, openCopyCommand } from './commands/copies';
import { readHashTableCommand } from './commands/hashTable';
import { hashSelectionCommand, hashStringCommand, reverseHashLookupCommand } from './commands/hashCommands';
import { HashNames } from './hashNames';
import { TexturePathHover } from './hovers/texturePathHover';
import { DecodePool } from '../core/image/node';
import { WorkPool } from './workPool';
import { SearchPreparation } from '../core/search';
import { MeshEditorProvider } from './editors/meshEditor';
import { TextureEditorProvider } from './editors/textureEditor';
import { BundleEditorProvider } from './editors/bundleEditor';
import { RegistryEditorProvider } from './editors/registryEditor';
import { StringTableEditorProvider } from './editors/stringTableEditor';
import { HexEditorProvider } from './editors/hexEditor';
import { TextRedirectProvider } from './editors/scriptEditor';
import { TextViews } from './views/textView';
import { DiskWatch } from './diskWatch';
import { ModProjects } from './mods/modProjects';
import { ModChangesView } from './mods/modChangesView';
import { ModTexts, copyToModCommand, editInModCommand } from './mods/modCopy';
import { ListTexts, buildModArchiveCommand, installModCommand, uninstallModCommand, watchResets } from './mods/modInstall';
import { showInformation } from './notify';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // The warm mount: each install's merged index and member catalogue, kept in the extension's storage.
  const service = new MountService(path.join(context.globalStorageUri.fsPath, 'mount-cache'));
  // One hash dictionary per mount, shared by the string-table editor and the hash commands.
  const hashNames = new HashNames(service);
  const copies = new CopiesView(service);
  const results = new SearchResultsView();
  const fileSystem = new Arch06FileSystem(service);
  // One decode pool for the editors: large texture levels are decoded off the host's thread.
  // One worker pool for whole-game work (Find in Files, extracting a folder), sized by arch06.workers.
  const workers = new WorkPool(context.extensionPath);
  // Once a mount is listed, the workers open its archives and decode its texts in the background
  // (a search arriving meanwhile goes first): later searches then find the texts decoded. A new
  // mount cancels the previous mount's preparation.
  const preparation = new SearchPreparation();
  const prepare = service.onDidChange((m) => {
    const decoded = vscode.workspace.getConfiguration('arch06').get<boolean>('findInFiles.decodedViews', false);
    preparation.start(m, () => service.distinctPaths(m!), m && workers.get(), decoded);
    void preparation.going?.catch((e) => service.log(`Find in Files: preparing the workers failed: ${String(e)}`));
  });
  const pool = new DecodePool({ workerFile: path.join(context.extensionPath, 'dist', 'nodeDecodeWorker.js') });
  // The active mods are read before the first mount: the overlay is part of it.
  const projects = new ModProjects(context, service);
  const modChanges = new ModChangesView(service, projects, copies);
  const listTexts = new ListTexts();
  context.subscriptions.push(
    projects,
    modChanges,
    vscode.window.registerTreeDataProvider('arch06.modChanges', modChanges),
    vscode.workspace.registerTextDocumentContentProvider(ListTexts.scheme, listTexts),
    vscode.workspace.registerFileSystemProvider(ModTexts.scheme, new ModTexts(service, projects, hashNames), { isCaseSensitive: true }),
    vscode.commands.registerCommand('arch06.copyToMod', (arg) => copyToModCommand(service, projects, fileSystem.bundles, arg)),
    vscode.commands.registerCommand('arch06.editInMod', (arg?: vscode.Uri) => editInModCommand(service, projects, fileSystem.bundles, arg)),
    vscode.commands.registerCommand('arch06.buildModArchive', () => buildModArchiveCommand(service, projects)),
    vscode.commands.registerCommand('arch06.installMod', () => installModCommand(service, projects, listTexts)),
    vscode.commands.registerCommand('arch06.uninstallMod', () => uninstallModCommand(service, listTexts)),
    watchResets(service, listTexts),
  );
  context.subscriptions.push(
    { dispose: () => void pool.dispose() },
    workers,
    prepare,
    preparation,
    service,
    fileSystem.register(),
    vscode.window.registerTreeDataProvider('arch06.searchOrder', new SearchOrderView(service)),
    vscode.window.registerTreeDataProvider('arch06.copies', copies),
    vscode.window.registerTreeDataProvider('arch06.searchResults', results),
    vscode.window.registerFileDecorationProvider(new ShadowDecorations(service, fileSystem.bundles)),
    mountStatusBar(service),
    TextureEditorProvider.register(context, service, pool),
    TexturePathHover.register(service),
    MeshEditorProvider.register(context, service, pool, hashNames),
    BundleEditorProvider.register(context, service, fileSystem.bundles),
    RegistryEditorProvider.register(context, service, fileSystem.bundles, projects),
    StringTableEditorProvider.register(context, service, hashNames, projects),
    HexEditorProvider.register(context, service, fileSystem),
    hashNames,
    new TextViews(service).register(),
    TextRedirectProvider.register(),
    startLanguageClient(context, service),
    new DiskWatch(service, fileSystem),
    service.onDidChange((m) => void vscode.commands.executeCommand('setContext', 'arch06.mounted', m !== undefined)),
    vscode.commands.registerCommand('arch06.openGameFolder', () => openGameFolderCommand(context, service)),
    vscode.commands.registerCommand('arch06.remount', async () => {
      const root = service.mount?.root ?? knownInstall(context);
      if (root) await mountInstall(context, service, root);
      else await openGameFolderCommand(context, service);
    }),
    // Ctrl+P / Ctrl+Shift+F reach these with `args` while the arch06: workspace is open: say why, once.
    quickOpenRedirect(service),
    vscode.commands.registerCommand('arch06.goToFile', (args?: unknown) => (redirectHint(context, args), goToFileCommand(service))),
    vscode.commands.registerCommand(
      'arch06.findInFiles',
      (args?: unknown) => (redirectHint(context, args), findInFilesCommand(context, service, results, workers)),
    ),
    vscode.commands.registerCommand('arch06.extract', (uri?: vscode.Uri) => extractCommand(service, fileSystem.bundles, context.globalState, workers, uri)),
    vscode.commands.registerCommand('arch06.openCopy', (arg) => openCopyCommand(service, copies, arg)),
    vscode.commands.registerCommand('arch06.compareWithNextCopy', (arg) => compareWithNextCopyCommand(service, copies, arg)),
    vscode.commands.registerCommand('arch06.showMount', () => vscode.commands.executeCommand('arch06.searchOrder.focus')),
    vscode.commands.registerCommand('arch06.hashString', () => hashStringCommand(context)),
    vscode.commands.registerCommand('arch06.hashSelection', () => hashSelectionCommand(context)),
    vscode.commands.registerCommand('arch06.reverseHashLookup', () => reverseHashLookupCommand(service, hashNames)),
    vscode.commands.registerCommand('arch06.readHashTable', () => readHashTableCommand(context)),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      // Only what the mount is made of remounts; the hash settings are read where they are used.
      const mountSettings = ['arch06.installRoot', 'arch06.archcfg', 'arch06.extraArchives'];
      if (service.mount && mountSettings.some((k) => e.affectsConfiguration(k)))
        await mountInstall(context, service, knownInstall(context) ?? service.mount.root);
    }),
  );

  // The file system answers only once this first mount has settled (see MountService.track).
  await service.track(startupMount(context, service));
}

/** Put back folders the browser build lost, then mount at once if an arch06: folder is open. */
async function startupMount(context: vscode.ExtensionContext, service: MountService): Promise<void> {
  if (await restoreLostFolders(context)) {
    // The folder list updates when the change event fires.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      };
      const sub = vscode.workspace.onDidChangeWorkspaceFolders(done);
      const timer = setTimeout(done, 5000);
    });
  }
  // An arch06: folder in the workspace (e.g. after the reload that adding it causes): mount at once.
  const hasArchFolder = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === SCHEME);
  const root = knownInstall(context);
  if (hasArchFolder && root) await mountInstall(context, service, root);
  else if (!hasArchFolder) offerToMount(context, service);
}

/** A game install is open as a plain folder: offer the arch06 workspace (once per folder, unless asked again). */
function offerToMount(context: vscode.ExtensionContext, service: MountService): void {
  const root = detectInstall();
  if (!root || !vscode.workspace.getConfiguration('arch06').get('offerToMount', true)) return;
  const key = `arch06.declined:${root}`;
  if (context.globalState.get(key)) return;
  void showInformation(
    "This folder is a Shadow of War install. Browse its archives as one folder, in the game's search order?",
    'Mount Archives',
    'Not Now',
    "Don't Ask Again",
  ).then(async (pick) => {
    if (pick === 'Mount Archives') {
      if (await mountInstall(context, service, root)) await addWorkspaceFolder(context, root);
    } else if (pick === "Don't Ask Again") await context.globalState.update(key, true);
  });
}

export function deactivate(): void {}
