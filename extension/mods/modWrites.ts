/**
 * Writes into mod folders that more than one command makes: the install's places no write may
 * touch, and the manifest a saved bundle member needs patched. Apart from modCopy.ts and
 * modProjects.ts so that neither imports the other.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MemberRow, Mount } from '../../core/archive';
import { memberRowsAt } from '../../core/search';
import { type ActiveMod, patchedManifest, writeModFile } from '../../core/mod';
import type { MountService } from '../mountService';
import { showInformation } from '../notify';

/** The install's places no write may touch, without the active mod folders (which are sources of the overlay). */
export function forbiddenFor(service: MountService, mods: readonly { folder: string }[]): string[] {
  const m = service.mount;
  if (!m) return [];
  const modFolders = new Set(mods.map((x) => path.resolve(x.folder)));
  return m.readOnlyPlaces().filter((p) => !modFolders.has(path.resolve(p)));
}

/**
 * The member rows of `gamePath` on a mount that stayed current while they were listed. Saving a
 * mod file also makes the disk watch remount, which cancels a member listing of the mount it
 * replaces: then list again on the new one (a few times at most).
 */
async function membersOnSettledMount(service: MountService, gamePath: string): Promise<{ m: Mount; rows: MemberRow[] } | undefined> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const m = service.mount;
    if (!m) return undefined;
    let listed;
    try {
      listed = await service.pathsWithMembers();
    } catch (e) {
      if (service.mount !== m) continue;
      throw e;
    }
    if (service.mount !== m) continue;
    if (!listed) return undefined;
    // The mod's copy is served loose: its row is the one listed as a mounted path.
    const rows = memberRowsAt(listed, gamePath);
    return rows.length ? { m, rows } : undefined;
  }
  return undefined;
}

/**
 * After a mod file is saved: when it is a bundle member served from the mod and its size differs
 * from the winning manifest's declared size, add (or update) the mod's copy of that manifest with
 * the size patched (core/mod `patchedManifest`: one size word changed, every other byte kept).
 */
export async function patchManifestAfterSave(service: MountService, mod: ActiveMod, fsPath: string, remount: () => void): Promise<void> {
  const gamePath = path.relative(mod.folder, fsPath).split(path.sep).join('\\');
  // The size first: from the settled mount on, nothing awaits, so no remount (the disk watch
  // follows this very save) can close the mount's archives while the manifest is read from them.
  const size = (await vscode.workspace.fs.stat(vscode.Uri.file(fsPath))).size;
  const found = await membersOnSettledMount(service, gamePath);
  if (!found) {
    service.log(`mod ${mod.name}: saved ${gamePath}: no bundle of the mount declares it, no manifest to patch`);
    return;
  }
  const { m, rows } = found;
  for (const bundle of new Set(rows.map((r) => r.bundle))) {
    try {
      const patched = patchedManifest(m, bundle, gamePath, size);
      if (!patched) {
        service.log(`mod ${mod.name}: saved ${gamePath}: ${bundle} already declares ${size} bytes`);
        continue;
      }
      writeModFile(mod.folder, patched.path, patched.bytes, { overwrite: true, forbid: forbiddenFor(service, [mod]) });
      service.log(`mod ${mod.name}: ${patched.path} patched: ${gamePath} declared ${size} bytes (was ${patched.from})`);
      void showInformation(
        `${path.basename(gamePath)} is a member of ${path.basename(patched.path)}: the mod now ships that manifest declaring ${size} bytes (was ${patched.from}), as the game's patches do.`,
      );
      remount();
    } catch (e) {
      service.reportError(`Could not patch ${bundle} for ${gamePath}`, e);
    }
  }
}
