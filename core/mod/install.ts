/**
 * Installing a mod into a game folder and taking it out again (issue 23 item 5), the only writes
 * arch06 makes under an install. Three ways, all reversible: the mod folder as a directory line
 * (no pack needed), the packed archive beside the game's with an archive line, and either of them
 * through the separate list `x64/arch06-mods.archcfg` (the default list plus the mod lines, read
 * by the game when started with `-archcfg arch06-mods.archcfg`), which leaves every game file as
 * it is. Editing `default.archcfg` in place is offered too: a backup first (`default.archcfg.bak`),
 * an atomic write, the change as a diff. Every change is planned first (`planInstall`,
 * `planUninstall`: the lists before and after, the diff) and applied after (`applyInstall`,
 * `applyUninstall`), which refuses when a list changed in between. Uninstall takes out exactly the
 * line install added (./cfgList.ts), so the list is restored byte for byte; a separate list left
 * without mod lines is removed, as is a backup equal to the restored list.
 */
import * as path from 'node:path';
import { Arch06Error, isArch06Error } from '../errors';
import { FileByteSource, readFileBytes } from '../io/node/fileSource';
import { diskKind, listDirectory, resolveCaseInsensitive } from '../io/node/disk';
import { OutputFolder } from '../io/node/outputFolder';
import { LtarSource, Mount, parseArchcfg, toGamePath } from '../archive';
import { type ModManifest, type ModPosition, parseManifest } from './manifest';
import { readModManifest } from './modFolder';
import { packMod } from './pack';
import { ARCHIVE_MANIFEST_PATH } from './rules';
import { MODS_LIST, findModLines, insertLine, lineDiff, lineMatches, lineTargetName, modLine, removeModLines } from './cfgList';

export type ListChoice = 'default' | 'mods';

export interface InstallRequest {
  root: string;
  /** A mod folder or a packed archive. */
  mod: string;
  /** Default: `folder` for a folder, `archive` for an archive. */
  as?: 'folder' | 'archive';
  /** Default: `mods`, the separate list (no game file changes). */
  list?: ListChoice;
  /** Default: the manifest's position. */
  position?: ModPosition;
}

export interface ListChange {
  list: ListChoice;
  file: string;
  /** The list's text before (latin1), or undefined when the file does not exist yet. */
  before: string | undefined;
  /** After, or undefined when the file is removed. */
  after: string | undefined;
  diff: string;
}

export interface InstallPlan {
  root: string;
  mod: { name: string; source: string; kind: 'folder' | 'archive'; manifest?: ModManifest };
  as: 'folder' | 'archive';
  change: ListChange;
  /** The line added (empty when the mod's line is already there and only its archive is updated). */
  line: string;
  /** The archive written beside the game's (as archive). */
  archive?: { to: string; replaces: boolean; pack: boolean };
  /** With the separate list: what to add to the game's launch options. */
  launchOption?: string;
  notes: string[];
}

/** The install's lists: `default.archcfg` and, beside it, `arch06-mods.archcfg`. */
export function listFiles(root: string): { folder: string; default: string; mods: string } {
  const cfg = Mount.findCfg(path.resolve(root));
  if (!cfg)
    throw new Arch06Error('NOT_FOUND', 'no archive config list: expected x64/default.archcfg under the install root', {
      file: path.join(root, 'x64', 'default.archcfg'),
    });
  const folder = path.dirname(cfg);
  return { folder, default: cfg, mods: resolveCaseInsensitive(folder, MODS_LIST) ?? path.join(folder, MODS_LIST) };
}

function readList(file: string): string | undefined {
  if (diskKind(file) !== 'file') return undefined;
  const b = readFileBytes(file, 16 << 20);
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

/** The manifest a packed archive carries (`arch06\arch06-mod.json`), or undefined. */
export function archiveManifest(file: string): ModManifest | undefined {
  const src = LtarSource.openFile(file, path.basename(file));
  try {
    const e = src.lookup(toGamePath(ARCHIVE_MANIFEST_PATH));
    if (!e || e.size > 1 << 20) return undefined;
    return parseManifest(Buffer.from(e.readSync()).toString('utf8'), `${path.basename(file)}:${ARCHIVE_MANIFEST_PATH}`);
  } catch (e) {
    if (isArch06Error(e)) return undefined;
    throw e;
  } finally {
    src.close();
  }
}

/** What a list line names on disk (resolved as the mount resolves it), or undefined. */
function lineTargetPath(listFolder: string, target: string): string | undefined {
  return resolveCaseInsensitive(listFolder, target);
}

export function planInstall(req: InstallRequest): InstallPlan {
  const root = path.resolve(req.root);
  if (diskKind(root) !== 'directory') throw new Arch06Error('NOT_FOUND', 'install root is not a folder', { file: root });
  const lists = listFiles(root);
  const modPath = path.resolve(req.mod);
  const kind = diskKind(modPath);
  if (kind === 'missing') throw new Arch06Error('NOT_FOUND', 'no mod folder or archive here', { file: modPath });
  const isFolder = kind === 'directory';
  const manifest = isFolder ? readModManifest(modPath) : archiveManifest(modPath);
  if (!isFolder) LtarSource.openFile(modPath, path.basename(modPath)).close(); // a valid archive, or the reader's error
  const name = manifest?.name ?? path.basename(modPath).replace(/\.arch06$/i, '');
  const as = req.as ?? (isFolder ? 'folder' : 'archive');
  if (as === 'folder' && !isFolder)
    throw new Arch06Error('BAD_ARGUMENT', 'an archive installs as an archive (--as folder needs a mod folder)', { file: modPath });
  const listChoice = req.list ?? 'mods';
  const notes: string[] = [];
  const defaultText = readList(lists.default) ?? '';
  const listFile = listChoice === 'default' ? lists.default : lists.mods;
  const existing = readList(listFile);
  const before = listChoice === 'default' ? defaultText : (existing ?? defaultText);

  let archive: InstallPlan['archive'];
  let target = modPath;
  if (as === 'archive') {
    const leaf = manifest?.archive ?? path.basename(modPath);
    const to = path.join(root, leaf);
    const gameLine = parseArchcfg(defaultText).find((l) => lineMatches(l.text, leaf) && !findModLines(defaultText).some((m) => m.line === l.line));
    if (gameLine)
      throw new Arch06Error('BAD_ARGUMENT', `${leaf} is a name the game's list uses (line ${gameLine.line}): choose another archive name in the manifest`, {
        file: to,
      });
    let replaces = false;
    const present = resolveCaseInsensitive(root, leaf);
    // The archive already in place (a list the store client reset): only its line goes back.
    const inPlace = present !== undefined && path.resolve(present) === modPath;
    if (present && !inPlace && diskKind(present) !== 'missing') {
      const theirs = diskKind(present) === 'file' ? archiveManifest(present) : undefined;
      if (theirs?.name.toLowerCase() !== name.toLowerCase())
        throw new Arch06Error(
          'BAD_ARGUMENT',
          `the install already holds ${path.basename(present)}, which is not this mod's archive: choose another archive name [ARCHIVE_NAME_TAKEN]`,
          {
            file: present,
          },
        );
      replaces = true;
      notes.push(`replaces the installed ${path.basename(present)} (an earlier build of ${name})`);
    }
    if (!inPlace) archive = { to: present ?? to, replaces, pack: isFolder };
    else notes.push(`${path.basename(present)} is already in the install: only its line is added`);
    target = path.basename(present ?? to);
    const rel = path.relative(lists.folder, root);
    if (rel) target = `${rel.split(path.sep).join('\\')}\\${target}`;
  }
  const already = findModLines(before).filter((m) => m.mod.toLowerCase() === name.toLowerCase());
  let after = before;
  let line = '';
  if (already.length) {
    if (as === 'folder')
      throw new Arch06Error('BAD_ARGUMENT', `${name} is already installed in ${path.basename(listFile)} (line ${already[0].line}): uninstall it first`, {
        file: listFile,
      });
    notes.push(`${name} already has its line in ${path.basename(listFile)} (line ${already[0].line}): only the archive is updated`);
  } else {
    line = modLine(target, name);
    after = insertLine(before, line, req.position ?? manifest?.position ?? { kind: 'bottom' }, path.basename(listFile)).text;
  }
  const otherText = listChoice === 'default' ? readList(lists.mods) : defaultText;
  if (otherText && findModLines(otherText).some((m) => m.mod.toLowerCase() === name.toLowerCase()))
    notes.push(`${name} is also installed in ${listChoice === 'default' ? MODS_LIST : 'default.archcfg'}`);
  const shownBefore =
    existing === undefined && listChoice === 'mods' ? `${path.basename(lists.default)} (${MODS_LIST} does not exist yet)` : path.basename(listFile);
  return {
    root,
    mod: { name, source: modPath, kind: isFolder ? 'folder' : 'archive', ...(manifest ? { manifest } : {}) },
    as,
    change: {
      list: listChoice,
      file: listFile,
      before: existing === undefined && listChoice === 'mods' ? undefined : before,
      after,
      diff: lineDiff(before, after, shownBefore, path.basename(listFile)),
    },
    line,
    ...(archive ? { archive } : {}),
    ...(listChoice === 'mods' ? { launchOption: `-archcfg ${MODS_LIST}` } : {}),
    notes,
  };
}

export interface ApplyOptions {
  onProgress?: (done: number, total: number) => void;
}

/** Apply a plan: the archive first (so a line never names a missing archive), then the list. */
export async function applyInstall(plan: InstallPlan, options: ApplyOptions = {}): Promise<void> {
  checkUnchanged(plan.change);
  if (plan.archive?.pack) await packMod(plan.mod.source, { out: plan.archive.to, onProgress: options.onProgress });
  else if (plan.archive) {
    const folder = OutputFolder.open(path.dirname(plan.archive.to));
    try {
      await copyArchive(plan.mod.source, folder, path.basename(plan.archive.to), options);
    } finally {
      folder.close();
    }
  }
  writeList(plan.change);
}

function checkUnchanged(change: ListChange): void {
  if (readList(change.file) !== change.before)
    throw new Arch06Error('INVALID', 'the list changed since the change was planned: nothing written; try again', { file: change.file });
}

function writeList(change: ListChange): void {
  if (change.after === change.before) return;
  const folder = OutputFolder.open(path.dirname(change.file));
  try {
    const leaf = path.basename(change.file);
    if (change.after === undefined) folder.removeSync([leaf], { names: 'user' });
    else folder.writeSync([leaf], Buffer.from(change.after, 'latin1'), { names: 'user', backup: change.list === 'default' });
  } finally {
    folder.close();
  }
}

/** Remove a file arch06 put into the install (the mod's archive, its backup), the folder let go after. */
function removeFile(file: string): void {
  const folder = OutputFolder.open(path.dirname(file));
  try {
    folder.removeSync([path.basename(file)], { names: 'user' });
  } finally {
    folder.close();
  }
}

/** Copy an archive into the install through the write primitive, checked as an archive before the rename. */
async function copyArchive(from: string, folder: OutputFolder, leaf: string, options: ApplyOptions): Promise<void> {
  const src = FileByteSource.open(from, path.basename(from));
  const piece = 1 << 20;
  let at = 0;
  try {
    await folder.writeBlocks(
      [leaf],
      async () => {
        if (at >= src.size) return undefined;
        const b = src.readSync(at, Math.min(piece, src.size - at));
        at += b.length;
        options.onProgress?.(at, src.size);
        return b;
      },
      { names: 'user', fsync: true, beforeRename: (tmp) => LtarSource.openFile(tmp, leaf).close() },
    );
  } finally {
    src.close();
  }
}

export interface UninstallRequest {
  root: string;
  /** The mod's name (or its archive's, without extension). */
  name: string;
  /** Default: whichever list holds the mod (the separate one first). */
  list?: ListChoice;
}

export interface UninstallPlan {
  root: string;
  name: string;
  changes: ListChange[];
  /** The mod archive taken out of the install (no list names it any more). */
  removeArchive?: string;
  /** `default.archcfg.bak` taken out: it equals the restored list. */
  removeBackup?: string;
  notes: string[];
}

export function planUninstall(req: UninstallRequest): UninstallPlan {
  const root = path.resolve(req.root);
  const lists = listFiles(root);
  const texts = { default: readList(lists.default), mods: readList(lists.mods) };
  const order: ListChoice[] = req.list ? [req.list] : ['mods', 'default'];
  const changes: ListChange[] = [];
  const targets: string[] = [];
  const matches = (m: { mod: string; target: string }): boolean =>
    m.mod.toLowerCase() === req.name.toLowerCase() ||
    lineTargetName(m.target)
      .replace(/\.arch06$/i, '')
      .toLowerCase() === req.name.toLowerCase();
  for (const list of order) {
    const before = texts[list];
    if (before === undefined) continue;
    const hits = findModLines(before).filter(matches);
    if (!hits.length) continue;
    let after: string | undefined = before;
    for (const mod of new Set(hits.map((h) => h.mod))) after = removeModLines(after!, mod).text;
    for (const h of hits) targets.push(h.target);
    if (list === 'mods' && findModLines(after!).length === 0) after = undefined; // arch06's own file, nothing left in it
    const file = list === 'default' ? lists.default : lists.mods;
    changes.push({
      list,
      file,
      before,
      after,
      // A separate list that goes is shown as the lines that go (the rest is the default list's).
      diff: lineDiff(
        before,
        after ?? removeAllModLines(before),
        path.basename(file),
        after === undefined ? `${path.basename(file)} (removed)` : path.basename(file),
      ),
    });
  }
  if (!changes.length)
    throw new Arch06Error(
      'NOT_FOUND',
      `no mod named ${req.name} in ${req.list ? path.basename(req.list === 'default' ? lists.default : lists.mods) : 'the lists'}`,
      { file: root },
    );
  const notes: string[] = [];
  let removeArchive: string | undefined;
  for (const t of targets) {
    const abs = lineTargetPath(lists.folder, t);
    if (!abs || diskKind(abs) !== 'file' || path.dirname(abs) !== root) continue;
    // Still named by a list that keeps it (the other list)?
    const remaining = (['default', 'mods'] as const).map((l) => {
      const c = changes.find((x) => x.list === l);
      return c ? c.after : texts[l];
    });
    const stillNamed = remaining.some((text) => text !== undefined && parseArchcfg(text).some((l) => lineTargetPath(lists.folder, l.text) === abs));
    if (stillNamed) notes.push(`${path.basename(abs)} stays: another list still names it`);
    else if (archiveManifest(abs)) removeArchive = abs;
    else notes.push(`${path.basename(abs)} stays: it carries no arch06 mod manifest`);
  }
  let removeBackup: string | undefined;
  const def = changes.find((c) => c.list === 'default');
  const bak = def && resolveCaseInsensitive(lists.folder, path.basename(lists.default) + '.bak');
  if (def && bak && readList(bak) === def.after) removeBackup = bak;
  return { root, name: req.name, changes, ...(removeArchive ? { removeArchive } : {}), ...(removeBackup ? { removeBackup } : {}), notes };
}

function removeAllModLines(text: string): string {
  let out = text;
  for (const m of new Set(findModLines(text).map((l) => l.mod))) out = removeModLines(out, m).text;
  return out;
}

export function applyUninstall(plan: UninstallPlan): void {
  for (const c of plan.changes) checkUnchanged(c);
  for (const c of plan.changes) writeList(c);
  if (plan.removeArchive) removeFile(plan.removeArchive);
  if (plan.removeBackup) removeFile(plan.removeBackup);
}

export interface ResetFinding {
  /** The archive in the install root that no list names. */
  archive: string;
  manifest: ModManifest;
}

/**
 * Mod archives the lists no longer name: an archive beside the game's carrying an arch06 manifest
 * whose line is gone from both lists (the store client's file check restores `default.archcfg`).
 */
export function findResets(root: string): ResetFinding[] {
  const abs = path.resolve(root);
  const lists = listFiles(abs);
  const named = namedPaths(lists.folder, [lists.default, lists.mods]);
  const out: ResetFinding[] = [];
  for (const e of listDirectory(abs)) {
    if (e.isDirectory || !/\.arch06$/i.test(e.name)) continue;
    const p = path.join(abs, e.name);
    if (named.has(p)) continue;
    let manifest: ModManifest | undefined;
    try {
      manifest = archiveManifest(p);
    } catch (err) {
      if (!isArch06Error(err) && !(err as NodeJS.ErrnoException).code) throw err;
    }
    if (manifest) out.push({ archive: p, manifest });
  }
  return out;
}

/** The disk paths the lines of `files` name (a list that does not exist names nothing). */
function namedPaths(listFolder: string, files: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (const file of files) {
    const text = readList(file);
    if (text === undefined) continue;
    for (const l of parseArchcfg(text)) {
      const p = lineTargetPath(listFolder, l.text);
      if (p) named.add(p);
    }
  }
  return named;
}

/**
 * Whether the separate list `arch06-mods.archcfg` names the archive at `archivePath`: an archive
 * installed through it is loaded when the game starts with `-archcfg`, though `default.archcfg`
 * (the list the mount reads) does not name it.
 */
export function namedByModsList(root: string, archivePath: string): boolean {
  const lists = listFiles(path.resolve(root));
  return namedPaths(lists.folder, [lists.mods]).has(path.resolve(archivePath));
}
