/**
 * What the Explorer shows beside an `arch06:` file, without vscode (decorations.ts turns it into a
 * `FileDecoration`): in the merged view, the number of copies when a path ships in several
 * sources; in a source's own view, W on the copy that wins and S on a shadowed one; in a bundle
 * folder, where a member's bytes come from (L loose, C container, ! missing).
 */
import { BundleFolders, GamePath, Mount } from '../../core/archive';
import type { ArchUri } from '../../core/archive';

/** Theme colours by role (decorations.ts maps them to VS Code's theme colour ids). */
export type DecorationColour = 'warning' | 'error' | 'disabled';

export interface Decoration {
  badge: string;
  tooltip: string;
  colour?: DecorationColour;
}

/** The decoration for `u` in `mount`, or undefined (one copy, a folder, `@sources`, or anything unreadable). */
export function decorationFor(mount: Mount, bundles: BundleFolders, u: ArchUri): Decoration | undefined {
  try {
    if (u.view === 'bundle') return memberDecoration(mount, bundles, u.bundle, u.member);
    if (u.view === 'sources' || !u.path) return undefined;
    const w = mount.which(u.path);
    if (!w || w.copies.length < 2) return undefined;
    if (u.view === 'merged') {
      const below = w.copies.slice(1).map((c) => c.source.name);
      return {
        badge: String(Math.min(w.copies.length, 99)),
        tooltip: `${w.copies.length} copies: ${w.winner.source.name} wins, shadowing ${below.join(', ')}`,
        colour: 'warning',
      };
    }
    if (w.winner.source.name.toLowerCase() !== u.source.toLowerCase()) {
      return { badge: 'S', tooltip: `Shadowed: the game loads the copy in ${w.winner.source.name}`, colour: 'disabled' };
    }
    return { badge: 'W', tooltip: `Wins over ${w.copies.length - 1} other cop${w.copies.length === 2 ? 'y' : 'ies'}` };
  } catch {
    return undefined;
  }
}

/** A bundle member: where its bytes come from (L loose, C container, ! missing). */
function memberDecoration(mount: Mount, bundles: BundleFolders, bundle: GamePath, member: GamePath): Decoration | undefined {
  const b = bundles.resolve(mount, bundle);
  const x = b.member(member);
  if (!x) return undefined;
  const sizeNote = x.sizeMatchesDeclared ? '' : ` (the manifest declares ${x.declaredSize} bytes${x.size !== undefined ? `, the copy has ${x.size}` : ''})`;
  if (x.servedFrom === 'empty') return { badge: '0', tooltip: 'Declared with 0 bytes: a container stores no zero-size member, so nothing is missing' };
  if (x.servedFrom === 'missing') return { badge: '!', tooltip: 'Declared by the manifest, but neither in the container nor shipped loose', colour: 'error' };
  if (x.servedFrom === 'loose')
    return { badge: 'L', tooltip: `Served from a loose entry in ${x.source}${sizeNote}${x.note ? `\n${x.note}` : ''}`, colour: 'warning' };
  return { badge: 'C', tooltip: `Served from the container ${b.bundle.container?.path} in ${x.source}${sizeNote}` };
}
