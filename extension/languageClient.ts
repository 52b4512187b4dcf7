/**
 * The language server's client: starts dist/server.js over IPC for Havok Script documents (the
 * script views, `arch06:` files, loose `.scripts`/`.hks` on disk, new untitled scripts), tells it which install is
 * mounted (it mounts and indexes it itself) and the user's hash settings, again on every remount
 * or settings change; and the one command the server's code lenses run, "bound by N objects",
 * which lists the objects and opens the registry that binds the one picked.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { BUNDLE_SUFFIX, mergedUriPath } from '../core/archive';
import { SCHEME } from './fs/uris';
import type { MountService } from './mountService';
import { MOD_TEXT_SCHEME } from './mods/modTextUris';

/** What a "bound by N objects" lens carries (server/server.ts builds it). */
interface BindingsArgument {
  function: string;
  script: string;
  /** How many objects are bound (the lens carries the first few hundred in `sites`). */
  total?: number;
  sites: {
    object: string | null;
    class: string | null;
    event: string | null;
    label: string;
    registry: { path: string; from: 'loose' | 'container'; source: string; bundle?: string };
  }[];
}

function serverSettings(context: vscode.ExtensionContext, service: MountService): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration('arch06');
  const m = service.mount;
  const root = m?.root;
  const files = c.get<string[]>('hashDictionaries', []).map((f) => (path.isAbsolute(f) || !root ? f : path.join(root, f)));
  return {
    ...(m
      ? {
          installRoot: m.root,
          cfg: m.cfgPath,
          extraArchives: c.get<string[]>('extraArchives', []).map((a) => (path.isAbsolute(a) ? a : path.join(m.root, a))),
          // The active mods, so the server's mount is the same overlay as the window's.
          mods: service.activeMods,
        }
      : {}),
    cacheFolder: path.join(context.globalStorageUri.fsPath, 'script-index'),
    dictionaryFiles: files,
    inlayHints: c.get<boolean>('hashInlayHints', false),
    maxMemoryMB: maxMemoryMB(),
    // The cold index's threads, as the host's pool is sized (0: the cores; 1: the server's own thread).
    workers: c.get<number>('workers', 0),
  };
}

/** The server's memory ceiling (setting `arch06.languageServer.maxMemoryMB`); V8's heap limit is set a little above it. */
const maxMemoryMB = (): number => Math.max(64, Math.floor(vscode.workspace.getConfiguration('arch06').get<number>('languageServer.maxMemoryMB', 2048) || 2048));

export function startLanguageClient(context: vscode.ExtensionContext, service: MountService): vscode.Disposable {
  const module = path.join(context.extensionPath, 'dist', 'server.js');
  const heap = `--max-old-space-size=${maxMemoryMB() + 256}`;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { execArgv: [heap] } },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019', heap] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: 'havokscript', scheme: 'arch06-text' },
      { language: 'havokscript', scheme: SCHEME },
      { language: 'havokscript', scheme: 'file' },
      { language: 'havokscript', scheme: 'untitled' },
      // A mod's script edited as its source (extension/mods): the server serves it in the game's copy's place.
      { language: 'havokscript', scheme: MOD_TEXT_SCHEME },
      // Decoded texts (registries, string tables, bundles): hashes hover as their names.
      { language: 'arch06-text', scheme: 'arch06-text' },
    ],
    initializationOptions: serverSettings(context, service),
    outputChannelName: 'arch06 Havok Script',
  };
  const client = new LanguageClient('arch06.havokScript', 'arch06 Havok Script', serverOptions, clientOptions);
  const started = client.start().catch((e: unknown) => service.reportError('The Havok Script language server did not start', e));
  const update = (): void =>
    void started
      .then(() => (client.isRunning() ? client.sendNotification('arch06/settings', serverSettings(context, service)) : undefined))
      .catch((e: unknown) => service.log(`language server settings not sent: ${e instanceof Error ? e.message : String(e)}`));
  const modWatch = new ModFolderWatch(
    service,
    (changes) =>
      void started
        .then(() => (client.isRunning() ? client.sendNotification('arch06/modFilesChanged', { changes }) : undefined))
        .catch((e: unknown) => service.log(`language server not told of mod file changes: ${e instanceof Error ? e.message : String(e)}`)),
  );
  const subscriptions = [
    modWatch,
    service.onDidChange(update),
    service.onDidChange(() => modWatch.follow()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('arch06.hashDictionaries') || e.affectsConfiguration('arch06.hashInlayHints') || e.affectsConfiguration('arch06.workers'))
        update();
    }),
    vscode.commands.registerCommand('arch06.showBindings', (arg: BindingsArgument) => showBindings(arg)),
  ];
  return new vscode.Disposable(() => {
    for (const s of subscriptions) s.dispose();
    void client.stop();
  });
}

/** The objects a bound function runs for; the one picked opens its registry (the copy in effect). */
async function showBindings(arg: BindingsArgument | undefined): Promise<void> {
  if (!arg?.sites?.length) return;
  const pick = await vscode.window.showQuickPick(
    arg.sites.map((s) => ({ label: s.object ?? '(unnamed object)', description: `${s.class ?? ''} · ${s.event ?? ''}`, detail: s.label, site: s })),
    { title: bindingsTitle(arg), matchOnDescription: true, matchOnDetail: true },
  );
  if (!pick) return;
  const r = pick.site.registry;
  const uriPath = r.from === 'container' && r.bundle ? `${mergedUriPath(r.bundle)}${BUNDLE_SUFFIX}${mergedUriPath(r.path)}` : mergedUriPath(r.path);
  const uri = vscode.Uri.from({ scheme: SCHEME, path: uriPath, ...(pick.site.object ? { fragment: `object=${encodeURIComponent(pick.site.object)}` } : {}) });
  await vscode.commands.executeCommand('vscode.openWith', uri, 'arch06.registry');
}

/** The quick pick's title: the true count, and how many are listed when the lens carries fewer. */
function bindingsTitle(arg: BindingsArgument): string {
  const total = Math.max(arg.total ?? 0, arg.sites.length);
  const listed = total > arg.sites.length ? ` (the first ${arg.sites.length} listed)` : '';
  return `${arg.function}: bound by ${total} object${total === 1 ? '' : 's'}${listed}`;
}

type ModFileChange = { path: string; kind: 'created' | 'changed' | 'deleted' };

/**
 * The active mods' folders watched for the language server: files saved, created or deleted there
 * (by arch06's own writes or any other tool) are sent as one `arch06/modFilesChanged` per burst, so
 * the server's index follows the mod on disk.
 */
class ModFolderWatch implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private folders = '';
  private pending: ModFileChange[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly service: MountService,
    private readonly send: (changes: ModFileChange[]) => void,
  ) {
    this.follow();
  }

  /** Watch the folders of the mods active now (a no-op when they are the same). */
  follow(): void {
    const folders = this.service.activeMods.map((m) => m.folder);
    if (folders.join('\0') === this.folders) return;
    this.folders = folders.join('\0');
    for (const w of this.watchers) w.dispose();
    this.watchers = folders.map((folder) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**/*'));
      const on = (kind: ModFileChange['kind']) => (uri: vscode.Uri) => this.queue({ path: uri.fsPath, kind });
      return vscode.Disposable.from(w, w.onDidCreate(on('created')), w.onDidChange(on('changed')), w.onDidDelete(on('deleted')));
    });
  }

  private queue(c: ModFileChange): void {
    if (this.pending.length < 10_000) this.pending.push(c);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const changes = this.pending;
      this.pending = [];
      this.send(changes);
    }, 300);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
  }
}
