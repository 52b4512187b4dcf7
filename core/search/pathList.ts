/**
 * Go to File's list of everything that opens: every distinct path of the merged view, then the
 * bundle members no mounted path already is. A member the engine serves from a loose copy is that
 * mounted path (seed 004: 14,172 asset paths ship both inside a container and loose), so it is
 * listed once, as the path, and remembered as declared by its bundle for the item's detail.
 */
import type { MemberRow } from '../archive/memberCatalog';

export interface PathList {
  /** The mounted paths, then the listed members' paths: `paths[i]` is a member for i >= looseCount. */
  paths: string[];
  looseCount: number;
  /** The members listed after the mounted paths (served from a container, or missing). */
  members: MemberRow[];
  /** Members served from a loose copy, by their lower-cased path: listed as that path. */
  alsoDeclared: Map<string, MemberRow>;
}

/** The lower-cased, backslashed key of a path, for `alsoDeclared`. */
export const pathListKey = (path: string): string => path.toLowerCase().replace(/\//g, '\\');

export function pathList(paths: readonly string[], rows: readonly MemberRow[]): PathList {
  const members: MemberRow[] = [];
  const alsoDeclared = new Map<string, MemberRow>();
  for (const r of rows) {
    if (r.servedFrom !== 'loose') members.push(r);
    else {
      const k = pathListKey(r.path);
      if (!alsoDeclared.has(k)) alsoDeclared.set(k, r);
    }
  }
  const all = new Array<string>(paths.length + members.length);
  for (let i = 0; i < paths.length; i++) all[i] = paths[i];
  for (let i = 0; i < members.length; i++) all[paths.length + i] = members[i].path;
  return { paths: all, looseCount: paths.length, members, alsoDeclared };
}

/**
 * Every row of `path` in the list: those listed as members and the one listed as its mounted path
 * (a member served loose, as a mod's copy is). Not a scan of the catalogue: a member listed twice
 * in `members` is there once per declaring bundle.
 */
export function memberRowsAt(list: { members: readonly MemberRow[]; alsoDeclared: ReadonlyMap<string, MemberRow> }, path: string): MemberRow[] {
  const key = pathListKey(path);
  const rows = list.members.filter((r) => pathListKey(r.path) === key);
  const loose = list.alsoDeclared.get(key);
  if (loose) rows.push(loose);
  return rows;
}
