/**
 * Mod projects on the command line (issue 23): `new-mod`, `pack`, `install`, `uninstall`, `check`,
 * each a thin layer over core/mod. Install and uninstall print the list change as a diff; a change
 * to the game's own `default.archcfg` is applied only with `--yes` (without it the diff is shown
 * and nothing is written); `--dry-run` shows any change without applying it. `check` exits 1
 * when it finds problems (errors or warnings; notes alone do not count).
 */
import * as path from 'node:path';
import { Arch06Error } from '../../core/errors';
import {
  type CheckReport,
  type InstallPlan,
  type ModProblem,
  type UninstallPlan,
  MOD_MANIFEST,
  applyInstall,
  applyUninstall,
  checkMods,
  countsAsProblem,
  createMod,
  packMod,
  parsePosition,
  planInstall,
  planUninstall,
} from '../../core/mod';
import { ParsedArgs, flagList, flagString, need } from '../args';
import { escapeControls, escapeName, formatSize, printJson, writeOut } from '../output';
import { ProgressLine } from '../progress';
import { cfgOption, jobsOption, poolWorkerFile } from './mountCommands';
import { WorkerPool } from '../../core/archive';

const json = (args: ParsedArgs): boolean => args.flags.has('json');

function oneOf<T extends string>(args: ParsedArgs, name: string, values: readonly T[]): T | undefined {
  const v = flagString(args, name);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) throw new Arch06Error('BAD_ARGUMENT', `--${name} is ${values.join(' or ')}`, { field: name, actual: v });
  return v as T;
}

export function newModCommand(args: ParsedArgs): number {
  const folder = path.resolve(need(args, 0, '<folder>'));
  const name = flagString(args, 'name') ?? path.basename(folder);
  const position = flagString(args, 'position');
  const manifest = createMod(folder, name, position ? { position: parsePosition(position) } : {});
  if (json(args)) printJson({ folder, manifest: { ...manifest, position: flagString(args, 'position') ?? 'bottom' } });
  else
    writeOut(
      `created mod ${escapeName(manifest.name)} in ${escapeControls(folder)}\n` +
        `  ${MOD_MANIFEST}: archive ${manifest.archive}, position ${position ?? 'bottom'}\n` +
        `  put files at their game paths beside it (worlds/retail/.../x.scripts is worlds\\retail\\...\\x.scripts)\n`,
    );
  return 0;
}

export async function packCommand(args: ParsedArgs): Promise<number> {
  const folder = need(args, 0, '<mod folder>');
  const out = args.positionals[1];
  const progress = new ProgressLine(process.stderr, 'packing', { quiet: args.flags.has('quiet') || json(args) });
  let r;
  let started = false;
  try {
    r = await packMod(folder, {
      ...(out ? { out } : {}),
      onProgress: progress.enabled
        ? (bytes, totalBytes, files, totalFiles) => {
            if (!started) progress.start(totalFiles, totalBytes);
            started = true;
            progress.update(files, totalFiles, bytes);
          }
        : undefined,
    });
  } finally {
    progress.end();
  }
  if (json(args)) printJson(r);
  else {
    const lines = [
      `packed ${r.files} files (${formatSize(r.bytes)}) into ${escapeControls(r.archive)} (${formatSize(r.archiveBytes)}, stored chunks)`,
      r.indexRows ? `  path index: ${r.indexRows} rows${r.indexIsRecord0 ? ', record 0' : ''}` : '  no path index: the mod holds no file of the kinds it lists',
      `  read back with the archive reader: ${r.verified} of ${r.files} files equal`,
      ...r.notes.map((n) => `  note: ${escapeControls(n)}`),
    ];
    writeOut(lines.join('\n') + '\n');
  }
  return 0;
}

function installJson(plan: InstallPlan, applied: boolean): unknown {
  return {
    applied,
    mod: plan.mod.name,
    source: plan.mod.source,
    as: plan.as,
    list: plan.change.list,
    file: plan.change.file,
    line: plan.line,
    diff: plan.change.diff,
    ...(plan.archive ? { archive: plan.archive.to, replaces: plan.archive.replaces, packed: plan.archive.pack } : {}),
    ...(plan.launchOption ? { launchOption: plan.launchOption } : {}),
    notes: plan.notes,
  };
}

/** Whether a change to default.archcfg may be applied: only with --yes; --dry-run never applies. */
function confirmed(args: ParsedArgs, touchesDefault: boolean): { apply: boolean; refused: boolean } {
  if (args.flags.has('dry-run')) return { apply: false, refused: false };
  if (touchesDefault && !args.flags.has('yes')) return { apply: false, refused: true };
  return { apply: true, refused: false };
}

export async function installCommand(args: ParsedArgs): Promise<number> {
  const root = need(args, 0, '<root>');
  const position = flagString(args, 'position');
  const plan = planInstall({
    root,
    mod: need(args, 1, '<mod folder|archive>'),
    as: oneOf(args, 'as', ['folder', 'archive'] as const),
    list: oneOf(args, 'list', ['default', 'mods'] as const),
    ...(position ? { position: parsePosition(position) } : {}),
  });
  const { apply, refused } = confirmed(args, plan.change.list === 'default' && plan.change.after !== plan.change.before);
  const progress = new ProgressLine(process.stderr, plan.archive?.pack ? 'packing' : 'copying', { quiet: args.flags.has('quiet') || json(args) });
  if (apply) {
    try {
      progress.start(1);
      await applyInstall(plan, { onProgress: progress.enabled ? (done, total) => progress.update(done >= total ? 1 : 0, 1, done) : undefined });
    } finally {
      progress.end();
    }
  }
  if (json(args)) printJson(installJson(plan, apply));
  else {
    const lines: string[] = [];
    lines.push(
      `${apply ? 'installed' : 'would install'} ${escapeName(plan.mod.name)} as ${plan.as === 'folder' ? 'a folder' : 'an archive'} through ${escapeControls(plan.change.file)}`,
    );
    if (plan.archive)
      lines.push(
        `  archive: ${escapeControls(plan.archive.to)}${plan.archive.replaces ? ' (replacing an earlier build)' : ''}${plan.archive.pack ? ' (packed from the folder)' : ''}`,
      );
    if (plan.change.diff)
      lines.push(
        ...plan.change.diff
          .trimEnd()
          .split('\n')
          .map((l) => `  ${escapeControls(l)}`),
      );
    for (const n of plan.notes) lines.push(`  note: ${escapeControls(n)}`);
    if (plan.launchOption) {
      lines.push(
        `  start the game with this list: add to the store client's launch options`,
        `    ${plan.launchOption}`,
        `  (a name relative to the game's x64 folder, as default.archcfg is named; UNCERTAIN whether the game also takes it with a full path)`,
      );
    }
    writeOut(lines.join('\n') + '\n');
  }
  if (refused) {
    process.stderr.write(
      `arch06: not applied: this edits the game's default.archcfg (a backup default.archcfg.bak is made first); run again with --yes to apply\n`,
    );
    return 2;
  }
  return 0;
}

function uninstallJson(plan: UninstallPlan, applied: boolean): unknown {
  return {
    applied,
    name: plan.name,
    changes: plan.changes.map((c) => ({ list: c.list, file: c.file, removed: c.after === undefined, diff: c.diff })),
    ...(plan.removeArchive ? { removeArchive: plan.removeArchive } : {}),
    ...(plan.removeBackup ? { removeBackup: plan.removeBackup } : {}),
    notes: plan.notes,
  };
}

export function uninstallCommand(args: ParsedArgs): number {
  const plan = planUninstall({ root: need(args, 0, '<root>'), name: need(args, 1, '<name>'), list: oneOf(args, 'list', ['default', 'mods'] as const) });
  const { apply, refused } = confirmed(
    args,
    plan.changes.some((c) => c.list === 'default'),
  );
  if (apply) applyUninstall(plan);
  if (json(args)) printJson(uninstallJson(plan, apply));
  else {
    const lines = [`${apply ? 'uninstalled' : 'would uninstall'} ${escapeName(plan.name)}`];
    for (const c of plan.changes) {
      lines.push(`  ${escapeControls(c.file)}${c.after === undefined ? ': removed (no mod line left in it)' : ''}`);
      lines.push(
        ...c.diff
          .trimEnd()
          .split('\n')
          .map((l) => `    ${escapeControls(l)}`),
      );
    }
    if (plan.removeArchive) lines.push(`  archive removed: ${escapeControls(plan.removeArchive)}`);
    if (plan.removeBackup) lines.push(`  backup removed (it equals the restored list): ${escapeControls(plan.removeBackup)}`);
    for (const n of plan.notes) lines.push(`  note: ${escapeControls(n)}`);
    writeOut(lines.join('\n') + '\n');
  }
  if (refused) {
    process.stderr.write(`arch06: not applied: this edits the game's default.archcfg; run again with --yes to apply\n`);
    return 2;
  }
  return 0;
}

const notes = (n: number): string => `${n} note${n === 1 ? '' : 's'}`;

function problemLine(p: ModProblem): string {
  return `  ${p.severity.padEnd(7)} ${p.code.padEnd(22)} ${p.path ? `${escapeName(p.path)}: ` : ''}${escapeControls(p.message)}`;
}

/** Lines printed per mod before "… and N more" (--json has them all). */
const MAX_PROBLEM_LINES = 200;

export async function checkCommand(args: ParsedArgs): Promise<number> {
  const jobs = jobsOption(args);
  // The script index (bindings against scripts) read across the pool's workers; 1: this thread alone.
  const pool = jobs > 1 ? new WorkerPool(poolWorkerFile(), jobs) : undefined;
  let report: CheckReport;
  try {
    report = await checkMods(
      { root: need(args, 0, '<root>'), cfg: cfgOption(need(args, 0, '<root>'), flagString(args, 'cfg')), extraArchives: flagList(args, 'arch') },
      { mod: flagString(args, 'mod'), pause: () => new Promise((r) => setImmediate(r)), ...(pool ? { pool } : {}) },
    );
  } finally {
    await pool?.terminate();
  }
  const all = [...report.mods.flatMap((m) => m.problems), ...report.install];
  const counted = all.filter(countsAsProblem);
  if (json(args)) printJson({ ...report, problems: counted.length });
  else {
    const lines: string[] = [];
    if (!report.mods.length)
      lines.push(flagString(args, 'mod') ? 'the mod folder is not mounted' : 'no arch06 mod in the list (lines marked "; arch06 mod: NAME")');
    for (const m of report.mods) {
      lines.push(`${escapeName(m.name)} (${m.kind} ${escapeControls(m.diskPath)}, ${m.files} files)`);
      for (const p of m.problems.slice(0, MAX_PROBLEM_LINES)) lines.push(problemLine(p));
      if (m.problems.length > MAX_PROBLEM_LINES) lines.push(`  … and ${m.problems.length - MAX_PROBLEM_LINES} more (--json lists all)`);
    }
    if (report.install.length) lines.push('the install:', ...report.install.map(problemLine));
    for (const n of report.notes) lines.push(`note: ${escapeControls(n)}`);
    const errors = counted.filter((p) => p.severity === 'error').length;
    lines.push(
      counted.length
        ? `${counted.length} problem${counted.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${counted.length - errors} warning${counted.length - errors === 1 ? '' : 's'})${all.length > counted.length ? `, ${notes(all.length - counted.length)}` : ''}`
        : `no problems${all.length ? ` (${notes(all.length)})` : ''}`,
    );
    writeOut(lines.join('\n') + '\n');
  }
  return counted.length ? 1 : 0;
}
