/**
 * "arch06: Build Mod Archive", "Install Mod…", "Uninstall Mod…" (issue 23 items 4 and 5), thin
 * over core/mod: every list change is planned first, shown as a diff (the list before and after,
 * side by side, and the unified diff in the confirmation) and applied only once confirmed. A list
 * the store client reset (a mod archive still in the install, its line gone) is found after each
 * mount of an install and offered back.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isArch06Error } from '../../core/errors';
import {
  type InstallPlan,
  type ListChange,
  type ListChoice,
  ModRefusedError,
  applyInstall,
  applyUninstall,
  findModLines,
  findResets,
  listFiles,
  packMod,
  planInstall,
  planUninstall,
} from '../../core/mod';
import type { MountService } from '../mountService';
import type { ModProjects } from './modProjects';
import { forbiddenFor } from './modWrites';
import { showInformation, showWarning } from '../notify';

/** `arch06-list:` the text of a list before or after a change, for the diff editor. */
export class ListTexts implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'arch06-list';
  private readonly texts = new Map<string, string>();
  private next = 0;

  uri(name: string, text: string): vscode.Uri {
    const id = String(++this.next);
    this.texts.set(id, text);
    if (this.texts.size > 20) this.texts.delete(this.texts.keys().next().value!);
    return vscode.Uri.from({ scheme: ListTexts.scheme, path: `/${name}`, query: id });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }
}

/** Show a change as a diff and ask; true when confirmed. */
async function confirmChange(lists: ListTexts, change: ListChange, title: string, action: string, extra: string[] = []): Promise<boolean> {
  const name = path.basename(change.file);
  if (change.diff) {
    await vscode.commands.executeCommand(
      'vscode.diff',
      lists.uri(`${name} (before)`, change.before ?? ''),
      lists.uri(`${name} (after)`, change.after ?? ''),
      `${name}: ${title}`,
      { preview: true },
    );
  }
  const detail = [change.diff || `${name} does not change.`, ...extra].join('\n');
  return (await showWarning(title, { modal: true, detail }, action)) === action;
}

export async function buildModArchiveCommand(service: MountService, projects: ModProjects): Promise<string | undefined> {
  const mod = await projects.pick('Build which mod?');
  if (!mod) return undefined;
  const target = await vscode.window.showSaveDialog({
    title: `Build ${mod.name} into…`,
    saveLabel: 'Build',
    defaultUri: vscode.Uri.file(path.join(path.dirname(mod.folder), mod.manifest.archive)),
    filters: { 'LTAR archive': ['arch06'] },
  });
  if (!target) return undefined;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Building ${mod.name}` }, async (progress) => {
    let reported = 0;
    try {
      const r = await packMod(mod.folder, {
        out: target.fsPath,
        forbid: forbiddenFor(service, projects.mods),
        onProgress: (done, total) => {
          const pct = Math.floor((done / Math.max(1, total)) * 100);
          progress.report({ increment: pct - reported, message: `${pct}%` });
          reported = pct;
        },
      });
      const msg = `Built ${path.basename(r.archive)}: ${r.files} file(s), ${r.archiveBytes.toLocaleString('en')} bytes${r.indexRows ? `, a path index of ${r.indexRows} row(s)` : ''}; read back and equal to the mod folder.`;
      service.log(`${msg} (${r.archive})${r.notes.map((n) => `\n  note: ${n}`).join('')}`);
      void showInformation(msg, 'Install…', 'Reveal').then((pick) => {
        if (pick === 'Install…') void vscode.commands.executeCommand('arch06.installMod');
        if (pick === 'Reveal') void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(r.archive));
      });
      return r.archive;
    } catch (e) {
      if (e instanceof ModRefusedError) for (const p of e.problems) service.log(`  ${p.code}: ${p.path ?? ''}: ${p.message}`);
      service.reportError(`Could not build ${mod.name}`, e);
      return undefined;
    }
  });
}

const WAYS: { label: string; detail: string; as: 'folder' | 'archive'; list: ListChoice }[] = [
  {
    label: 'As an archive, through arch06-mods.archcfg',
    detail: 'No game file changes; start the game with -archcfg arch06-mods.archcfg',
    as: 'archive',
    list: 'mods',
  },
  { label: 'As a folder, through arch06-mods.archcfg', detail: 'No pack needed: the game reads the mod folder (fast iteration)', as: 'folder', list: 'mods' },
  {
    label: 'As an archive, in default.archcfg',
    detail: "Edits the game's list (a backup first); the store client's file check may reset it",
    as: 'archive',
    list: 'default',
  },
  { label: 'As a folder, in default.archcfg', detail: "Edits the game's list (a backup first)", as: 'folder', list: 'default' },
];

export async function installModCommand(service: MountService, projects: ModProjects, lists: ListTexts): Promise<void> {
  const root = service.mount?.root;
  if (!root) return;
  const mod = await projects.pick('Install which mod?');
  if (!mod) return;
  const way = await vscode.window.showQuickPick(WAYS, { title: `Install ${mod.name} into ${root}` });
  if (!way) return;
  let plan: InstallPlan;
  try {
    plan = planInstall({ root, mod: mod.folder, as: way.as, list: way.list });
  } catch (e) {
    service.reportError(`Cannot install ${mod.name}`, e);
    return;
  }
  await confirmAndInstall(service, lists, plan, `Install ${mod.name} ${way.label.toLowerCase()}?`);
}

async function confirmAndInstall(service: MountService, lists: ListTexts, plan: InstallPlan, title: string): Promise<void> {
  const extra = [
    ...(plan.archive ? [`The archive ${plan.archive.pack ? 'is packed into' : 'is copied to'} ${plan.archive.to}.`] : []),
    ...plan.notes,
    ...(plan.launchOption ? [`Then start the game with the launch option: ${plan.launchOption}`] : []),
  ];
  if (!(await confirmChange(lists, plan.change, title, 'Install', extra))) return;
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Installing ${plan.mod.name}` }, () => applyInstall(plan));
  } catch (e) {
    service.reportError(`Could not install ${plan.mod.name}`, e);
    return;
  }
  service.log(`installed ${plan.mod.name} (${plan.as}) through ${plan.change.file}${plan.archive ? `; archive ${plan.archive.to}` : ''}`);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  if (plan.launchOption) {
    const pick = await showInformation(
      `${plan.mod.name} is installed in arch06-mods.archcfg. Start the game with the launch option ${plan.launchOption} (the store client's launch options).`,
      'Copy Launch Option',
    );
    if (pick) await vscode.env.clipboard.writeText(plan.launchOption);
  } else void showInformation(`${plan.mod.name} is installed in ${path.basename(plan.change.file)}.`);
  if (path.resolve(plan.change.file) === path.resolve(service.mount?.cfgPath ?? '')) await service.remount();
}

export async function uninstallModCommand(service: MountService, lists: ListTexts): Promise<void> {
  const root = service.mount?.root;
  if (!root) return;
  let files;
  try {
    files = listFiles(root);
  } catch (e) {
    service.reportError('Cannot uninstall', e);
    return;
  }
  const installed: { label: string; description: string; name: string; list: ListChoice }[] = [];
  for (const [list, file] of [
    ['mods', files.mods],
    ['default', files.default],
  ] as const) {
    let text: string;
    try {
      text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(file))).toString('latin1');
    } catch {
      continue;
    }
    for (const l of findModLines(text)) installed.push({ label: l.mod, description: `${path.basename(file)}, line ${l.line}: ${l.target}`, name: l.mod, list });
  }
  if (!installed.length) {
    void showInformation("No arch06 mod is installed in this install's lists.");
    return;
  }
  const pick = await vscode.window.showQuickPick(installed, { title: 'Uninstall which mod?' });
  if (!pick) return;
  try {
    const plan = planUninstall({ root, name: pick.name, list: pick.list });
    const extra = [
      ...(plan.removeArchive ? [`The archive ${plan.removeArchive} is removed.`] : []),
      ...(plan.removeBackup ? [`The backup ${path.basename(plan.removeBackup)} is removed: it equals the restored list.`] : []),
      ...plan.notes,
    ];
    if (!(await confirmChange(lists, plan.changes[0], `Uninstall ${pick.name}?`, 'Uninstall', extra))) return;
    applyUninstall(plan);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    service.log(`uninstalled ${pick.name} from ${plan.changes.map((c) => c.file).join(', ')}`);
    void showInformation(`${pick.name} is uninstalled: ${plan.changes.map((c) => path.basename(c.file)).join(', ')} as before.`);
    if (plan.changes.some((c) => path.resolve(c.file) === path.resolve(service.mount?.cfgPath ?? ''))) await service.remount();
  } catch (e) {
    service.reportError(`Could not uninstall ${pick.name}`, e);
  }
}

/** After a mount: mod archives the lists no longer name (a reset list), offered back once per install and session. */
export function watchResets(service: MountService, lists: ListTexts): vscode.Disposable {
  const asked = new Set<string>();
  return service.onDidChange((m) => {
    if (!m || asked.has(m.root)) return;
    asked.add(m.root);
    let resets;
    try {
      resets = findResets(m.root);
    } catch (e) {
      if (!isArch06Error(e)) service.log(`reset check: ${String(e)}`);
      return;
    }
    for (const r of resets) {
      const leaf = path.basename(r.archive);
      void showWarning(
        `${leaf} (mod ${r.manifest.name}) is in the install, but no list names it: the store client's file check may have reset default.archcfg.`,
        'Put It Back…',
      ).then(async (pick) => {
        if (!pick) return;
        try {
          await confirmAndInstall(
            service,
            lists,
            planInstall({ root: m.root, mod: r.archive, list: 'default' }),
            `Put ${r.manifest.name}'s line back into default.archcfg?`,
          );
        } catch (e) {
          service.reportError(`Cannot put ${r.manifest.name} back`, e);
        }
      });
    }
  });
}
