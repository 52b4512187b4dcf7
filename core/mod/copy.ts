/**
 * Writing into a mod folder (issue 23 items 1 and 3): a new mod (its folder and manifest), a
 * game file copied in at its game path, and the patched manifest a bundle member needs when the
 * mod's copy changes its size (seed 004 "Standalone against embedded": the winning manifest
 * declares the loose copy's size). Every write goes through the one write primitive, into the
 * mod folder only; the install stays read-only.
 */
import * as path from 'node:path';
import { Arch06Error } from '../errors';
import { diskKind, listDirectory, realPathOf, resolveCaseInsensitive } from '../io/node/disk';
import { OutputFolder, type NameOrigin } from '../io/node/outputFolder';
import { patchDeclaredSizes } from '../formats/bundle';
import { type Mount, readEntryChecked, resolveBundle, toGamePath } from '../archive';
import { MOD_MANIFEST, type ModManifest, manifestText, newManifest } from './manifest';
import { modPathProblem } from './rules';

/** Create a mod: the folder (missing or empty) and its manifest. */
export function createMod(folder: string, name: string, fields: Partial<Omit<ModManifest, 'name'>> = {}, forbid: readonly string[] = []): ModManifest {
  const root = path.resolve(folder);
  const kind = diskKind(root);
  if (kind === 'file') throw new Arch06Error('BAD_ARGUMENT', 'a file is in the way: a mod is a folder', { file: root });
  if (kind === 'directory' && listDirectory(root).length > 0)
    throw new Arch06Error('BAD_ARGUMENT', 'the folder is not empty: a new mod starts in an empty (or new) folder', { file: root });
  const manifest = newManifest(name, fields);
  writeInto(root, [MOD_MANIFEST], Buffer.from(manifestText(manifest), 'utf8'), forbid, 'user');
  return manifest;
}

/** Rewrite a mod's manifest (the extension's edits of name, position, …). */
export function writeManifest(folder: string, manifest: ModManifest): void {
  writeInto(path.resolve(folder), [MOD_MANIFEST], Buffer.from(manifestText(manifest), 'utf8'), [], 'user');
}

/** One write into a mod folder through the one write primitive, the folder let go after it. */
function writeInto(root: string, segments: readonly string[], bytes: Uint8Array | readonly Uint8Array[], forbid: readonly string[], names: NameOrigin): void {
  const out = OutputFolder.open(root, { forbid, forbidWhat: 'the install' });
  try {
    out.writeSync(segments, bytes, { names });
  } finally {
    out.close();
  }
}

/** Where a game path lands in the mod folder. */
export function modFilePath(modRoot: string, gamePath: string): string {
  return path.join(path.resolve(modRoot), ...toGamePath(gamePath).split('\\'));
}

/**
 * Write `bytes` into the mod at `gamePath` (a name the engine could not load is refused with its
 * reason). `overwrite: false` refuses an existing file. `bytes` may be parts, written back to
 * back (a string table's unedited text stays views of the bytes read). Returns the disk path.
 */
export function writeModFile(
  modRoot: string,
  gamePath: string,
  bytes: Uint8Array | readonly Uint8Array[],
  options: { overwrite?: boolean; forbid?: readonly string[] } = {},
): string {
  const p = toGamePath(gamePath);
  const problem = modPathProblem(p, false);
  if (problem) throw new Arch06Error('BAD_ARGUMENT', `${problem.message} [${problem.code}]`, { file: p });
  const dest = modFilePath(modRoot, p);
  if (!options.overwrite && diskKind(dest) !== 'missing') throw new Arch06Error('BAD_ARGUMENT', 'the mod already has this file', { file: dest });
  writeInto(path.resolve(modRoot), p.split('\\'), bytes, options.forbid ?? [], 'archive');
  return dest;
}

/**
 * The winning manifest of `bundle` with `member`'s declared size set to `size`, every other byte
 * kept; undefined when the manifest already declares that size.
 */
export function patchedManifest(mount: Mount, bundle: string, member: string, size: number): { path: string; bytes: Uint8Array; from: number } | undefined {
  const b = resolveBundle(mount, bundle);
  const entry = mount.entry(b.manifest.path);
  const bytes = readEntryChecked(entry, { name: `${entry.source.name}:${entry.path}`, maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint });
  const { bytes: out, changed } = patchDeclaredSizes(bytes, b.manifest.path, new Map([[member, size]]));
  if (!changed.length) return undefined;
  return { path: b.manifest.path, bytes: out, from: changed[0].from };
}

/**
 * The game install a file path lies in: the nearest folder above it (real paths: a link into the
 * install is the install) holding `x64/default.archcfg`, or undefined. A tool that writes a game
 * format refuses such an output unless told otherwise: the install is read-only.
 */
export function installAbove(file: string): string | undefined {
  for (let dir = path.dirname(realPathOf(file)); ;) {
    if (resolveCaseInsensitive(dir, 'x64/default.archcfg') !== undefined) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
