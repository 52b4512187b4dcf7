/**
 * Where an editable editor's save goes (issue 24 item 6), decided in one place for every editor:
 *
 * - a file already in an active mod (a disk path inside the mod folder, or an `arch06:` URI whose
 *   copy is served by a mod's source) saves there;
 * - a file served from the install first asks to save into a mod at the same game path (the
 *   active one, one picked, or a new one: ModProjects.pick), then saves there; the game's copy is
 *   never written;
 * - any other disk file (a table the user keeps outside install and mods) saves in place.
 *
 * Writes go through core/mod `writeModFile` / core/io `writeFileAtomic` (the one write primitive),
 * with the install's places forbidden; a saved bundle member gets its manifest patched
 * (modWrites.ts) and the mount is refreshed so the mod's copy wins at once.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { modSourceName, writeModFile } from '../../core/mod';
import { writeFileAtomic } from '../../core/io/node';
import type { MountService } from '../mountService';
import { SCHEME, locate, parseUri } from '../fs/uris';
import { showWarning } from '../notify';
import type { ModProjects, OpenMod } from './modProjects';
import { forbiddenFor, patchManifestAfterSave } from './modWrites';

/** A save's destination: a game path in a mod, or a disk file outside install and mods. */
export type SaveTarget = { kind: 'mod'; mod: OpenMod; gamePath: string } | { kind: 'disk'; fsPath: string };

/** The button of the copy-into-mod question (the E2E test clicks it by this label). */
export const SAVE_INTO_MOD = 'Save into a Mod';

/** The game path `uri` shows and whether a mod serves it now; undefined when it names no file. */
function servedAt(service: MountService, projects: ModProjects, uri: vscode.Uri): { gamePath: string; mod?: OpenMod } | undefined {
  const u = parseUri(uri);
  if (u.view === 'sources') return undefined;
  const gamePath = u.view === 'bundle' ? u.member : u.path;
  let source: string | undefined;
  try {
    const f = locate(service.mount, uri);
    if (f?.view === 'merged' || f?.view === 'source') source = f.entry.source.name;
  } catch {
    // A member or an unmounted path: only a mod's own source says it is the mod's.
  }
  if (u.view === 'source') source = u.source;
  const mod = projects.mods.find((m) => modSourceName(m.name) === source);
  return { gamePath, mod };
}

/**
 * Where a save of `uri` goes; undefined when the user declined the copy into a mod (nothing is
 * written then). `what` names the file in the question.
 */
export async function editorSaveTarget(service: MountService, projects: ModProjects, uri: vscode.Uri): Promise<SaveTarget | undefined> {
  if (uri.scheme === 'file') {
    const mod = projects.modOf(uri.fsPath);
    if (mod) return { kind: 'mod', mod, gamePath: path.relative(mod.folder, uri.fsPath).split(path.sep).join('\\') };
    const root = service.mount?.root;
    const inInstall = (service.mount?.readOnlyPlaces() ?? []).some((p) => uri.fsPath === p || uri.fsPath.startsWith(p + path.sep));
    if (!inInstall || !root) return { kind: 'disk', fsPath: uri.fsPath };
    return askForMod(projects, path.relative(root, uri.fsPath).split(path.sep).join('\\'));
  }
  if (uri.scheme !== SCHEME) return undefined;
  const at = servedAt(service, projects, uri);
  if (!at) return undefined;
  if (at.mod) return { kind: 'mod', mod: at.mod, gamePath: at.gamePath };
  return askForMod(projects, at.gamePath);
}

/** The install's file: save into a mod at the same game path, once the user says so. */
async function askForMod(projects: ModProjects, gamePath: string): Promise<SaveTarget | undefined> {
  const go = await showWarning(
    `${gamePath} comes from the game install, which arch06 never writes. Save your edits into a mod at the same game path (the mod's copy then wins)?`,
    { modal: true },
    SAVE_INTO_MOD,
  );
  if (go !== SAVE_INTO_MOD) return undefined;
  const mod = await projects.pick(`Save ${path.basename(gamePath.split('\\').join('/'))} into which mod?`);
  return mod ? { kind: 'mod', mod, gamePath } : undefined;
}

/**
 * Write a save's bytes (parts written back to back) to its target through the write primitive,
 * then refresh the mount (the mod's copy wins) and patch a bundle member's manifest. Returns the
 * disk path written.
 */
export async function writeEditorSave(
  service: MountService,
  projects: ModProjects,
  target: SaveTarget,
  bytes: Uint8Array | readonly Uint8Array[],
): Promise<string> {
  const forbid = forbiddenFor(service, projects.mods);
  if (target.kind === 'disk') {
    writeFileAtomic(target.fsPath, bytes, { forbid });
    service.log(`saved ${target.fsPath}`);
    return target.fsPath;
  }
  const written = writeModFile(target.mod.folder, target.gamePath, bytes, { overwrite: true, forbid });
  service.log(`mod ${target.mod.name}: ${target.gamePath} saved from its editor`);
  await patchManifestAfterSave(service, target.mod, written, () => projects.scheduleRemount(0));
  projects.scheduleRemount(0);
  return written;
}
