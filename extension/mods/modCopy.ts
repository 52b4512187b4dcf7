/**
 * "arch06: Copy to Mod" (issue 23 item 3) on a file, folder or bundle member of the `arch06:`
 * view (Explorer, editor title, Copies view): the bytes of the copy shown (the winning one in the
 * merged view) written into the mod at the same game path, through core/mod (the one write
 * primitive, into the mod folder only), then the copy opened for editing: a string table as its
 * editable text and a script as its source (`arch06-modtext:`, written back as SKDB / SCRI on
 * save), anything else as the file. A
 * saved bundle member whose size no longer matches what the winning manifest declares gets a
 * patched copy of that manifest in the mod.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type BundleFolders, type Mount, type SourceEntry, collectEntries, readEntryChecked } from '../../core/archive';
import { isArch06Error } from '../../core/errors';
import { readFileBytes } from '../../core/io/node';
import { modFilePath, scriptSourceForEditing, scriptWithSource, servedAsModText, stringTableFromText, stringTableText, writeModFile } from '../../core/mod';
import type { MountService } from '../mountService';
import type { CopyNode } from '../views/copiesView';
import { SCHEME, parseUri } from '../fs/uris';
import { activeTabUri, archUriOf } from '../views/textView';
import type { HashNames } from '../hashNames';
import type { ModProjects } from './modProjects';
import { showInformation, showWarning } from '../notify';
import { forbiddenFor } from './modWrites';
import { MOD_TEXT_SCHEME, modTextFileOf, modTextUriOf } from './modTextUris';

/** Files one Copy to Mod takes without asking. */
const ASK_ABOVE = 200;

function entriesOf(m: Mount, bundles: BundleFolders, arg: CopyNode | vscode.Uri | undefined): SourceEntry[] {
  if (arg && !(arg instanceof vscode.Uri)) return [arg.copies[arg.index]];
  const uri = archUriOf(arg ?? activeTabUri() ?? vscode.Uri.from({ scheme: 'none', path: '/' }));
  if (uri.scheme !== SCHEME) return [];
  const u = parseUri(uri);
  if (u.view === 'sources') return [];
  if (u.view === 'bundle') return bundles.resolve(m, u.bundle).entries(u.member);
  return collectEntries(m, u.path, u.view === 'source' ? u.source : undefined);
}

/** The entries a command's argument names, or undefined when that fails (reported under `title`). */
function entriesOrReport(
  service: MountService,
  m: Mount,
  bundles: BundleFolders,
  arg: CopyNode | vscode.Uri | undefined,
  title: string,
): SourceEntry[] | undefined {
  try {
    return entriesOf(m, bundles, arg);
  } catch (e) {
    service.reportError(title, e);
    return undefined;
  }
}

export async function copyToModCommand(service: MountService, projects: ModProjects, bundles: BundleFolders, arg?: CopyNode | vscode.Uri): Promise<void> {
  const m = service.mount;
  const entries = m && entriesOrReport(service, m, bundles, arg, 'Nothing to copy');
  if (!m || !entries) return;
  if (!entries.length) {
    void showInformation('Copy to Mod works on a file, folder or bundle member of the arch06 workspace.');
    return;
  }
  const mod = await projects.pick('Copy to which mod?');
  if (!mod) return;
  if (entries.length > ASK_ABOVE) {
    const go = await showWarning(`Copy ${entries.length.toLocaleString('en')} files into ${mod.name}?`, { modal: true }, 'Copy');
    if (go !== 'Copy') return;
  }
  const existing = entries.filter((e) => fileExists(modFilePath(mod.folder, e.path)));
  let overwrite = false;
  if (existing.length) {
    const pick = await showWarning(
      `${existing.length === 1 ? existing[0].path : `${existing.length} files`} already in ${mod.name}: replace with the game's copy?`,
      { modal: true },
      'Replace',
      "Keep the Mod's",
    );
    if (pick === undefined) return;
    overwrite = pick === 'Replace';
  }
  const forbid = forbiddenFor(service, projects.mods);
  const written: string[] = [];
  const failed: string[] = [];
  for (const e of entries) {
    if (!overwrite && existing.includes(e)) continue;
    const result = copyEntry(service, m, mod, e, { overwrite, forbid });
    if (typeof result === 'string') written.push(result);
    else failed.push(`${e.path}: ${result.failed}`);
  }
  projects.scheduleRemount(0);
  if (failed.length) void showWarning(`Copy to Mod: ${failed.length} file(s) not copied (first: ${failed[0]}); see the arch06 output.`);
  if (written.length === 1) await openForEditing(written[0]);
  else if (written.length) void showInformation(`Copied ${written.length.toLocaleString('en')} files into ${mod.name}.`);
}

/** One entry's bytes written into the mod at its game path (the one write primitive): the disk path, or why not. */
function copyEntry(
  service: MountService,
  m: Mount,
  mod: { folder: string; name: string },
  e: SourceEntry,
  options: { overwrite: boolean; forbid: readonly string[] },
): string | { failed: string } {
  try {
    const bytes = readEntryChecked(e, { name: `${e.source.name}:${e.path}`, maxBytes: m.maxEntryBytes, raiseHint: m.maxEntryHint });
    const written = writeModFile(mod.folder, e.path, bytes, options);
    service.log(`copy to mod ${mod.name}: ${e.path} (${e.size} bytes, from ${e.source.name})`);
    return written;
  } catch (err) {
    if (!isArch06Error(err) && !(err as NodeJS.ErrnoException).code) throw err;
    service.log(`copy to mod ${mod.name}: ${e.path} failed: ${(err as Error).message}`);
    return { failed: (err as Error).message };
  }
}

/**
 * "arch06: Edit in Mod" (issue 24 item 3) on a game script or string table the arch06: workspace
 * shows read-only: the mod's copy opened as its editable text (`arch06-modtext:`), copied there
 * first, as Copy to Mod copies it, when the mod has none yet; a copy the mod already has is opened
 * as it is, never replaced.
 */
export async function editInModCommand(service: MountService, projects: ModProjects, bundles: BundleFolders, arg?: vscode.Uri): Promise<void> {
  const m = service.mount;
  const entries = m && entriesOrReport(service, m, bundles, arg, 'Nothing to edit');
  if (!m || !entries) return;
  if (entries.length !== 1 || !ModTexts.serves(entries[0].path)) {
    void showInformation('Edit in Mod works on a script (.scripts) or string table (.strdb) of the arch06 workspace.');
    return;
  }
  const e = entries[0];
  const mod = await projects.pick('Edit in which mod?');
  if (!mod) return;
  const target = modFilePath(mod.folder, e.path);
  if (!fileExists(target)) {
    const result = copyEntry(service, m, mod, e, { overwrite: false, forbid: forbiddenFor(service, projects.mods) });
    if (typeof result !== 'string') {
      void showWarning(`Edit in Mod: ${e.path} not copied into ${mod.name}: ${result.failed}`);
      return;
    }
    projects.scheduleRemount(0);
  }
  await openForEditing(target);
}

function fileExists(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Open a mod file to edit it: a string table as its editable text, a script as its source, anything else as itself. */
export async function openForEditing(fsPath: string): Promise<void> {
  if (ModTexts.serves(fsPath)) await vscode.window.showTextDocument(ModTexts.uriOf(fsPath), { preview: false });
  else await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(fsPath), { preview: false });
}

/**
 * `arch06-modtext:` — a mod's file as the text it is edited in, written back on save: a string
 * table as its text (core/mod/stringTableText.ts; `<file>.txt`), a script as its source alone
 * (`<file>.hks`, so Havok Script highlighting applies and lines are the source's; the SCRI header is
 * kept from the file and the payload size set from the new source). Only files inside an active
 * mod are written; the game's copy never is.
 */
export class ModTexts implements vscode.FileSystemProvider {
  static readonly scheme = MOD_TEXT_SCHEME;
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  constructor(
    private readonly service: MountService,
    private readonly projects: ModProjects,
    private readonly hashNames: HashNames,
  ) {}

  static serves(fsPath: string): boolean {
    return servedAsModText(fsPath);
  }

  static uriOf(fsPath: string): vscode.Uri {
    return modTextUriOf(fsPath);
  }

  /** The mod file a text of this scheme shows. */
  static fileOf(uri: vscode.Uri): vscode.Uri {
    return modTextFileOf(uri);
  }

  private async render(uri: vscode.Uri): Promise<Uint8Array> {
    const file = ModTexts.fileOf(uri);
    const bytes = await vscode.workspace.fs.readFile(file);
    const name = path.basename(file.fsPath);
    try {
      if (/\.scripts$/i.test(name)) return Buffer.from(scriptSourceForEditing(bytes, name), 'utf8');
      const m = this.service.mount;
      const dict = m ? await Promise.race([this.hashNames.forMount(m), new Promise<undefined>((r) => setTimeout(() => r(undefined), 2000))]) : undefined;
      return Buffer.from(
        stringTableText(bytes, name, (h) => dict?.name(h)),
        'utf8',
      );
    } catch (e) {
      throw vscode.FileSystemError.Unavailable(`${file.fsPath}: ${(e as Error).message}`);
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const st = await vscode.workspace.fs.stat(ModTexts.fileOf(uri));
    return { type: vscode.FileType.File, ctime: st.ctime, mtime: st.mtime, size: (await this.render(uri)).length };
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.render(uri);
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const file = ModTexts.fileOf(uri).fsPath;
    const mod = this.projects.modOf(file);
    if (!mod) throw vscode.FileSystemError.NoPermissions(`${file} is not in an open mod: only a mod's files are written`);
    const gamePath = path.relative(mod.folder, file).split(path.sep).join('\\');
    try {
      const text = Buffer.from(content).toString('utf8');
      const bytes = /\.scripts$/i.test(file)
        ? scriptWithSource(readFileBytes(file, this.service.mount?.maxEntryBytes), path.basename(file), text)
        : stringTableFromText(text, path.basename(file));
      writeModFile(mod.folder, gamePath, bytes, { overwrite: true, forbid: forbiddenFor(this.service, this.projects.mods) });
      this.service.log(`mod ${mod.name}: ${gamePath} written from its text (${bytes.length} bytes)`);
    } catch (e) {
      throw vscode.FileSystemError.Unavailable(isArch06Error(e) ? e.message : String(e));
    }
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.projects.scheduleRemount(0);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
}
