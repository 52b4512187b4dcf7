/**
 * The window's mod projects (issue 23 item 1): the active mods, in order, kept in the workspace
 * state; "arch06: New Mod…", "Open Mod…", "Close Mod". Each active mod is overlaid on the mount
 * (MountService.activeMods, core/mod's overlay), so every view sees its files where they will win.
 * A mod folder gaining or losing files remounts (its files are part of the merged index); a saved
 * bundle member whose size changed gets a patched manifest in the mod (seed 004 "Standalone
 * against embedded").
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type ActiveMod, type ModManifest, createMod, modSourceName, readModManifest } from '../../core/mod';
import { isArch06Error } from '../../core/errors';
import type { MountService } from '../mountService';
import { MOD_TEXT_SCHEME, modTextFileOf } from './modTextUris';
import { patchManifestAfterSave } from './modWrites';
import { showError, showInformation, showWarning } from '../notify';

const STATE_KEY = 'arch06.activeMods';

export interface OpenMod extends ActiveMod {
  manifest: ModManifest;
}

export class ModProjects implements vscode.Disposable {
  private list: OpenMod[] = [];
  private watchers: vscode.Disposable[] = [];
  private remountTimer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly service: MountService,
  ) {
    // Before the first mount: the overlay is part of it.
    for (const folder of context.workspaceState.get<string[]>(STATE_KEY, [])) {
      const m = this.load(folder);
      if (m) this.list.push(m);
    }
    service.activeMods = this.list;
    this.watch();
    void vscode.commands.executeCommand('setContext', 'arch06.hasMods', this.list.length > 0);
    this.subscriptions.push(
      vscode.workspace.onDidSaveTextDocument((d) => void this.saved(d.uri)),
      vscode.commands.registerCommand('arch06.newMod', () => this.newModCommand()),
      vscode.commands.registerCommand('arch06.openMod', (uri?: vscode.Uri) => this.openModCommand(uri)),
      // From the Mod Changes view the argument is the mod's row ({ mod: { folder } }).
      vscode.commands.registerCommand('arch06.closeMod', (arg?: { mod?: { folder?: string } }) => this.closeModCommand(arg?.mod?.folder)),
    );
  }

  /** The active mods, in order (a later one at the bottom ranks above an earlier one). */
  get mods(): readonly OpenMod[] {
    return this.list;
  }

  /** The active mod holding a disk path, if any. */
  modOf(fsPath: string): OpenMod | undefined {
    const p = path.resolve(fsPath);
    return this.list.find((m) => p === m.folder || p.startsWith(m.folder + path.sep));
  }

  /** The mod a command works on: the only one, or the one picked. */
  async pick(title: string): Promise<OpenMod | undefined> {
    if (this.list.length === 0) {
      const choice = await showInformation('No mod is open in this window.', 'New Mod…', 'Open Mod…');
      if (choice === 'New Mod…') await this.newModCommand();
      else if (choice === 'Open Mod…') await this.openModCommand();
      return this.mods.length === 1 ? this.mods[0] : undefined;
    }
    if (this.list.length === 1) return this.list[0];
    const picked = await vscode.window.showQuickPick(
      this.list.map((m) => ({ label: m.name, description: m.folder, mod: m })),
      { title },
    );
    return picked?.mod;
  }

  private load(folder: string): OpenMod | undefined {
    try {
      const manifest = readModManifest(folder);
      return { folder: path.resolve(folder), name: manifest.name, position: manifest.position, manifest };
    } catch (e) {
      this.service.log(`mod ${folder} not opened: ${isArch06Error(e) ? e.message : String(e)}`);
      return undefined;
    }
  }

  /** Re-read the manifests (a position or name edited) and mount again. */
  async reload(): Promise<void> {
    this.list = this.list.map((m) => this.load(m.folder) ?? m);
    await this.apply();
  }

  private async apply(): Promise<void> {
    await this.context.workspaceState.update(
      STATE_KEY,
      this.list.map((m) => m.folder),
    );
    void vscode.commands.executeCommand('setContext', 'arch06.hasMods', this.list.length > 0);
    this.watch();
    this.changed.fire();
    await this.service.setMods(this.list);
  }

  /** Files created or deleted in a mod folder change the merged index: mount again, once the burst is over. */
  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = this.list.map((m) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(m.folder), '**/*'));
      const again = (): void => this.scheduleRemount();
      return vscode.Disposable.from(w, w.onDidCreate(again), w.onDidDelete(again));
    });
  }

  scheduleRemount(delayMs = 400): void {
    clearTimeout(this.remountTimer);
    this.remountTimer = setTimeout(() => {
      this.changed.fire();
      void this.service.remount();
    }, delayMs);
  }

  async add(folder: string): Promise<OpenMod | undefined> {
    const m = this.load(folder);
    if (!m) {
      void showError(`${folder} is not a mod folder: it has no valid arch06-mod.json (see the arch06 output).`);
      return undefined;
    }
    if (this.list.some((x) => x.folder === m.folder)) return m;
    if (
      this.service.mount &&
      this.service.mount
        .readOnlyPlaces()
        .slice(0, 2)
        .some((p) => m.folder === p || m.folder.startsWith(p + path.sep))
    ) {
      void showWarning(`${m.folder} is inside the install: arch06 writes into a mod folder, so keep mods outside the game folder.`);
    }
    this.list.push(m);
    await this.apply();
    this.service.log(
      `mod ${m.name} (${m.folder}) is active, as the source "${modSourceName(m.name)}" at ${m.manifest.position.kind === 'bottom' ? 'the bottom of the list' : `the line above ${m.manifest.position.name}`}`,
    );
    return m;
  }

  async remove(folder: string): Promise<void> {
    this.list = this.list.filter((m) => m.folder !== path.resolve(folder));
    await this.apply();
  }

  private async newModCommand(): Promise<void> {
    const name = await vscode.window.showInputBox({
      title: 'arch06: New Mod (1/2): its name',
      prompt: 'Letters, digits, spaces, _ - . (it names the archive too)',
      validateInput: (v) =>
        /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/.test(v)
          ? undefined
          : 'A mod name is 1-64 letters, digits, spaces, "_", "-" or ".", starting with a letter or digit',
    });
    if (!name) return;
    const parent = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: 'Create the mod here',
      title: `arch06: New Mod (2/2): the folder to create ${name.replace(/ /g, '')} in (outside the game folder)`,
    });
    if (!parent?.length) return;
    const folder = path.join(parent[0].fsPath, name.replace(/ /g, ''));
    try {
      createMod(folder, name, {}, this.service.mount?.readOnlyPlaces().slice(0, 2) ?? []);
    } catch (e) {
      this.service.reportError('Could not create the mod', e);
      return;
    }
    await this.add(folder);
    void showInformation(`Mod ${name} created in ${folder} and opened: Copy to Mod puts game files into it.`);
    void vscode.commands.executeCommand('arch06.modChanges.focus');
  }

  private async openModCommand(uri?: vscode.Uri): Promise<void> {
    const folder =
      uri?.scheme === 'file'
        ? uri.fsPath
        : (
            await vscode.window.showOpenDialog({
              canSelectFolders: true,
              canSelectFiles: false,
              openLabel: 'Open this mod',
              title: 'arch06: Open Mod: a folder with arch06-mod.json',
            })
          )?.[0]?.fsPath;
    if (!folder) return;
    if (await this.add(folder)) void vscode.commands.executeCommand('arch06.modChanges.focus');
  }

  private async closeModCommand(folder?: string): Promise<void> {
    const target = folder ? this.list.find((m) => m.folder === folder) : await this.pick('Close which mod?');
    if (target) await this.remove(target.folder);
  }

  private async saved(uri: vscode.Uri): Promise<void> {
    // A string table's or a script's text saves into its mod file (modCopy.ts ModTexts): that file changed.
    const fsPath = uri.scheme === 'file' ? uri.fsPath : uri.scheme === MOD_TEXT_SCHEME ? modTextFileOf(uri).fsPath : undefined;
    if (fsPath === undefined) return;
    const mod = this.modOf(fsPath);
    if (!mod) return;
    if (path.resolve(fsPath) === path.join(mod.folder, 'arch06-mod.json')) {
      await this.reload();
      return;
    }
    await patchManifestAfterSave(this.service, mod, fsPath, () => this.scheduleRemount(0));
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.remountTimer);
    for (const w of this.watchers) w.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
