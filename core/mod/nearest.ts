/**
 * "Did you mean": for a mod file that replaces nothing, the game paths it most likely meant: the
 * same file name in another folder (a folder typed wrong), else a name one or two edits away in
 * the same folder (a file name typed wrong). Built once per check from the mount's paths.
 */
import type { Mount, Source } from '../archive';

const leafOf = (p: string): string => p.slice(p.lastIndexOf('\\') + 1).toLowerCase();

/** Edit distance, stopping early once it passes `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** A finder over the mount's paths that `source` (the mod) does not hold alone. */
export function nearestPaths(mount: Mount, source: Source): (path: string) => string[] {
  const byLeaf = new Map<string, string[]>();
  const ix = mount.index();
  const paths = mount.distinctPaths();
  const modIndex = mount.sources.indexOf(source);
  paths.forEach((p, d) => {
    if (ix.winnerSource[d] === modIndex) return; // the mod's own files are what is being checked
    const k = leafOf(p);
    const list = byLeaf.get(k);
    if (!list) byLeaf.set(k, [p]);
    else if (list.length < 3) list.push(p);
  });
  return (p: string): string[] => {
    const same = byLeaf.get(leafOf(p));
    if (same?.length) return same;
    const cut = p.lastIndexOf('\\');
    const folder = cut < 0 ? '' : p.slice(0, cut);
    const listing = mount.list(folder);
    if (!listing) return [];
    const leaf = leafOf(p);
    return listing.files
      .filter((f) => f.winner.source !== source && f.name.toLowerCase() !== leaf && distance(f.name.toLowerCase(), leaf, 2) <= 2)
      .slice(0, 3)
      .map((f) => (folder ? `${folder}\\${f.name}` : f.name));
  };
}
