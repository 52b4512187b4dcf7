/**
 * What the Mod Changes view shows (issue 23 item 2), without vscode: for each file of an active
 * mod, what it does in the mount it is overlaid on: it overrides the copy of another source (and
 * shadows every copy below), replaces the copy a bundle's container embeds, adds a path the game
 * does not have, or is itself shadowed by a source ranked above the mod (so the game will not load
 * it); with the check's problems for that path.
 */
import type { Mount, Source } from '../../core/archive';
import type { ModProblem } from '../../core/mod';

export type ChangeKind = 'overrides' | 'member' | 'adds' | 'shadowed';

export interface ModChangeRow {
  /** The game path, as the mod spells it. */
  path: string;
  kind: ChangeKind;
  /** For `overrides`: the copy it replaces (the next source below the mod), then every other shadowed one. */
  shadows: string[];
  /** For `member`: the container holding the copy it replaces, and its source. */
  embedded?: { container: string; source: string };
  /** For `shadowed`: the source that wins instead. */
  shadowedBy?: string;
  problems: ModProblem[];
}

/** The rows of one mod (its source in `mount`), sorted by path. `embeddedOf`: the container copy of a path, if a bundle embeds it. */
export function modChangeRows(
  mount: Mount,
  source: Source,
  problems: readonly ModProblem[],
  embeddedOf: (path: string) => { container: string; source: string } | undefined,
  files: readonly string[] = source.allPaths(),
): ModChangeRow[] {
  const byPath = new Map<string, ModProblem[]>();
  for (const p of problems) {
    if (p.path === undefined) continue;
    const k = p.path.toLowerCase();
    byPath.set(k, [...(byPath.get(k) ?? []), p]);
  }
  const rows: ModChangeRow[] = [];
  for (const p of files) {
    if (p.toLowerCase() === 'arch06-mod.json') continue;
    const copies = mount.which(p)?.copies ?? [];
    const at = copies.findIndex((c) => c.source === source);
    const below = at < 0 ? [] : copies.slice(at + 1).map((c) => c.source.name);
    const own = byPath.get(p.toLowerCase()) ?? [];
    if (at > 0) rows.push({ path: p, kind: 'shadowed', shadows: below, shadowedBy: copies[0].source.name, problems: own });
    else if (below.length) rows.push({ path: p, kind: 'overrides', shadows: below, problems: own });
    else {
      const embedded = embeddedOf(p);
      rows.push(embedded ? { path: p, kind: 'member', shadows: [], embedded, problems: own } : { path: p, kind: 'adds', shadows: [], problems: own });
    }
  }
  return rows.sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : 0));
}

/** The row's line: what the file does, in a few words. */
export function describeChange(row: ModChangeRow): string {
  switch (row.kind) {
    case 'overrides':
      return `overrides ${row.shadows[0]}${row.shadows.length > 1 ? ` (+${row.shadows.length - 1} more)` : ''}`;
    case 'member':
      return `replaces the copy in ${leaf(row.embedded!.container)} (${row.embedded!.source})`;
    case 'adds':
      return 'adds a new file';
    case 'shadowed':
      return `shadowed by ${row.shadowedBy}: not loaded`;
  }
}

const leaf = (p: string): string => p.slice(p.lastIndexOf('\\') + 1);

/** The problems of a mod that name no file of it (the install's lists, the folder itself). */
export function unplacedProblems(rows: readonly ModChangeRow[], problems: readonly ModProblem[]): ModProblem[] {
  const placed = new Set(rows.map((r) => r.path.toLowerCase()));
  return problems.filter((p) => p.path === undefined || !placed.has(p.path.toLowerCase()));
}
