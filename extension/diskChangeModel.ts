/**
 * What the extension says when the disk changes under the mount (extension/diskWatch.ts shows it),
 * as plain strings and choices: no `vscode` import, so it is unit-tested in plain node. The
 * changes themselves and the copies' identities come from core/archive/remount.ts.
 */
import { type CopyStatus, type DiskChange, copyStatus, describeChanges } from '../core/archive';
import { escapeName } from '../core/io';

/** An open editor's file: its label, the identity of the copy it read, and the one served now. */
export interface OpenCopy {
  /** How the user knows the file (`config/game.cfg`, `@sources/03 Patch_02.arch06/config/game.cfg`). */
  label: string;
  before: string;
  after: string | undefined;
}

/** The notification after a remount the disk caused: what changed, in one line. */
export function changeNotice(changes: readonly DiskChange[]): string {
  return `arch06: the install changed on disk: ${describeChanges(changes)}. The affected sources were mounted again.`;
}

/** Archives added to the install's folder that no cfg line names: said once each, nothing remounts. */
export function unlistedNotice(names: readonly string[]): string {
  const shown = names.slice(0, 3).map(escapeName).join(', ');
  const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
  const which = names.length === 1 ? `${shown} was` : `${shown}${more} were`;
  return `arch06: ${which} added to the install, but no line of the archive config list names ${names.length === 1 ? 'it' : 'them'}: the game does not load ${names.length === 1 ? 'it' : 'them'}, so arch06 does not mount ${names.length === 1 ? 'it' : 'them'} either.`;
}

/**
 * Archives added beside the game's that only `arch06-mods.archcfg` names (a mod installed through
 * the separate list): the game loads them when started with `-archcfg`; the mount reads the
 * default list, so the overlay, not the mount, shows them.
 */
export function modsListNotice(names: readonly string[]): string {
  const shown = names.slice(0, 3).map(escapeName).join(', ');
  const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
  const one = names.length === 1;
  return `arch06: ${shown}${more} ${one ? 'was' : 'were'} installed through arch06-mods.archcfg: the game loads ${one ? 'it' : 'them'} when started with -archcfg arch06-mods.archcfg. The workspace mounts default.archcfg; open the mod (arch06: Open Mod…) to see ${one ? 'it' : 'them'} in the merged view.`;
}

/** Whether every change is an active mod's own folder (the modder's saves): followed without a notice. */
export function onlyModChanges(changes: readonly DiskChange[], isModSource: (name: string) => boolean): boolean {
  return changes.length > 0 && changes.every((c) => (c.role === 'loose' || c.role === 'source') && isModSource(c.name));
}

/** The open copies by what became of them (unchanged ones left out). */
export function sortCopies(copies: readonly OpenCopy[]): { changed: OpenCopy[]; vanished: OpenCopy[] } {
  const out: Record<Exclude<CopyStatus, 'same'>, OpenCopy[]> = { changed: [], vanished: [] };
  for (const c of copies) {
    const s = copyStatus(c.before, c.after);
    if (s !== 'same') out[s].push(c);
  }
  return out;
}

const listed = (copies: readonly OpenCopy[]): string => {
  const names = copies.slice(0, 3).map((c) => `"${escapeName(c.label)}"`);
  return copies.length > 3 ? `${names.join(', ')} and ${copies.length - 3} more` : names.join(', ');
};

/** The offer to reload editors whose served copy changed, or undefined when none did. */
export function reloadNotice(changed: readonly OpenCopy[]): string | undefined {
  if (changed.length === 0) return undefined;
  const what =
    changed.length === 1
      ? `${listed(changed)} is open, and the copy the mount serves changed on disk`
      : `${changed.length} open files (${listed(changed)}) changed on disk`;
  return `arch06: ${what}: the editor shows the copy read before. Reload ${changed.length === 1 ? 'it' : 'them'}?`;
}

/** What to say about editors whose file no source serves any more, or undefined when there are none. */
export function vanishedNotice(vanished: readonly OpenCopy[], changes: readonly DiskChange[]): string | undefined {
  if (vanished.length === 0) return undefined;
  const gone = changes.filter((c) => c.kind === 'deleted' || c.kind === 'replaced' || c.kind === 'truncated');
  const why = gone.length ? ` (${describeChanges(gone, 2)})` : '';
  const are = vanished.length === 1 ? 'is' : 'are';
  return `arch06: ${listed(vanished)} ${are} no longer in the mount${why}: the editor shows what was read before; the file cannot be read again.`;
}

/** The label of an `arch06:` URI path for these notices: the path as the Explorer shows it. */
export function copyLabel(uriPath: string): string {
  return uriPath.replace(/^\/+/, '');
}
