/**
 * What the Copies of the Active File view lists (no vscode, unit-tested in plain node): every
 * loose copy of the active file's path in search order, then the copy its bundle's container
 * embeds (views/textViewModel.ts `bundleCopyOf`: the bundle folder it was opened from, else the
 * bundle of its stem). A loose copy wins over the container's (seed 004 "Which copy wins"), so the
 * embedded copy wins only when no loose one exists: a layer's script or registry served from its
 * bundle lists that one copy instead of nothing.
 */
import type { Mount, SourceEntry } from '../../core/archive';
import { bundleCopyOf } from './textViewModel';

export interface EmbeddedCopy {
  /** The manifest whose member it is, and the member's path as the manifest spells it. */
  manifest: string;
  member: string;
  container: string;
  /** The container's source. */
  source: string;
  size: number;
  /** Whether the engine serves this copy (no loose copy wins). */
  served: boolean;
}

export interface CopyList {
  path: string;
  /** Loose copies in search order, the winner first. */
  copies: SourceEntry[];
  embedded?: EmbeddedCopy;
}

/** The copies of `path` (a bundle member's own path when `bundle`, the manifest of the folder it was opened from, is given). */
export function copyListOf(m: Mount, path: string, bundle?: string): CopyList {
  let copies: SourceEntry[] = [];
  try {
    copies = m.which(path)?.copies ?? [];
  } catch {
    // Not a path the mount can look up: only a bundle's copy can be listed.
  }
  const b = bundleCopyOf(m, path, bundle);
  if (!b?.member.embedded) return { path, copies };
  const embedded: EmbeddedCopy = {
    manifest: b.bundle.manifest.path,
    member: b.member.path,
    container: b.container,
    source: b.source,
    size: b.member.embedded.size,
    served: copies.length === 0 && b.served,
  };
  return { path, copies, embedded };
}

/** How row `index` of a list reads: the copies first, then the embedded one. */
export function describeCopy(list: CopyList, index: number): { label: string; description: string; tooltip: string; wins: boolean } {
  const winner = list.copies[0]?.source.name ?? (list.embedded?.served ? list.embedded.source : undefined);
  const e = list.copies[index];
  if (e) {
    const wins = index === 0;
    return {
      label: e.source.name,
      description: `${wins ? 'wins' : 'shadowed'} · ${e.size.toLocaleString('en')} bytes · ${e.storage}`,
      tooltip: `${e.path}\nin ${e.source.name} (${e.source.diskPath})\n${wins ? 'The engine loads this copy.' : `Shadowed by ${winner}.`}`,
      wins,
    };
  }
  const x = list.embedded!;
  const leaf = x.container.slice(x.container.lastIndexOf('\\') + 1);
  return {
    label: x.source,
    description: `${x.served ? 'wins' : 'shadowed'} · ${x.size.toLocaleString('en')} bytes · in ${leaf}`,
    tooltip: `${x.member}\nembedded in ${x.container} (${x.source}), a member of ${x.manifest}\n${
      x.served ? 'The engine loads this copy: no loose copy of the path ships.' : `Shadowed by the loose copy in ${winner}.`
    }`,
    wins: x.served,
  };
}
