/**
 * The overlay (issue 23 item 2): the install mounted as it will be once the active mods are
 * installed as folders. Each mod's line is added to the list in effect, at its position, by the
 * same edit install makes (./cfgList.ts), and that text is mounted by the one search-order rule
 * (core/archive/mount.ts); the mod folders become directory sources named `<name> (mod)`. Every
 * front end that reads the mount (the `arch06:` view, badges, Copies, Search Order, Go to File,
 * the editors, the language server) then sees the mods' files win where they will win.
 */
import * as path from 'node:path';
import { Arch06Error, isArch06Error } from '../errors';
import { readTextFile } from '../io/node/fileSource';
import { Mount, type MountOptions } from '../archive';
import type { ModPosition } from './manifest';
import { insertLine, modLine } from './cfgList';

export interface ActiveMod {
  /** The mod folder, absolute. */
  folder: string;
  name: string;
  position: ModPosition;
}

/** The name a mod folder's source has in the overlay (Search Order, `@sources`, Copies). */
export function modSourceName(name: string): string {
  return `${name}${MOD_SOURCE_SUFFIX}`;
}

const MOD_SOURCE_SUFFIX = ' (mod)';

/**
 * Whether a source of the overlay is an active mod's folder: a change there is the modder's own
 * save (the mount follows it without telling them the install changed).
 */
export function isModSourceName(name: string): boolean {
  return name.endsWith(MOD_SOURCE_SUFFIX);
}

export interface OverlayOptions {
  options: MountOptions;
  /** Mods placed at the bottom because their `above NAME` names no line. */
  notes: string[];
}

/**
 * Mount options for `base` with `mods` added in order (a later mod at the bottom ranks above an
 * earlier one, as installing them in that order would make it).
 */
export function overlayMountOptions(base: MountOptions, mods: readonly ActiveMod[]): OverlayOptions {
  if (!mods.length) return { options: base, notes: [] };
  const root = path.resolve(base.root);
  const cfg = base.cfg ? path.resolve(base.cfg) : Mount.findCfg(root);
  if (!cfg)
    throw new Arch06Error('NOT_FOUND', 'no archive config list: expected x64/default.archcfg under the install root', {
      file: path.join(root, 'x64', 'default.archcfg'),
    });
  let text = base.cfgText ?? readTextFile(cfg);
  const notes: string[] = [];
  const names = new Map(base.sourceNames ?? []);
  for (const m of mods) {
    const folder = path.resolve(m.folder);
    const line = modLine(folder, m.name);
    try {
      text = insertLine(text, line, m.position, path.basename(cfg)).text;
    } catch (e) {
      if (!isArch06Error(e) || e.code !== 'NOT_FOUND') throw e;
      notes.push(`${m.name}: ${e.description}; shown at the bottom`);
      text = insertLine(text, line, { kind: 'bottom' }).text;
    }
    names.set(folder, modSourceName(m.name));
  }
  return { options: { ...base, root, cfg, cfgText: text, sourceNames: names }, notes };
}

/** The install with the mods overlaid (`Mount.open` of `overlayMountOptions`). */
export function openOverlay(base: MountOptions, mods: readonly ActiveMod[]): { mount: Mount; notes: string[] } {
  const { options, notes } = overlayMountOptions(base, mods);
  return { mount: Mount.open(options), notes };
}
