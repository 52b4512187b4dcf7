/**
 * What needs every name of every script: where each global is defined and used (definition and
 * references across the mount) and the engine API as the scripts use it (usage.ts). Built by one
 * pass that parses each served script, keeps only these facts and drops the tree, so the memory it
 * holds is the facts', not the trees'.
 */
import { Arch06Error } from '../errors';
import { analyseScript } from './analysis';
import { checkCrossSnapshot } from './snapshotShape';
import type { IndexedScript } from './scriptIndex';
import { type UsageSite, UsageIndex } from './usage';

const CROSS_SNAPSHOT_VERSION = 1;

/**
 * `CrossScriptIndex.toSnapshot()`: plain JSON, compact (a site is four numbers in a flat list,
 * its script an index into `paths`), so a cache of a whole install's facts reads back faster than
 * the pass that made them.
 */
export interface CrossSnapshot {
  version: number;
  paths: string[];
  /** [name, flat sites: path index, start, end, 1 for a write / 0 for a read]. */
  sites: [string, number[]][];
  /** [name, uses, calls, defined, flat example sites (path index, start, end), members]. */
  usage: [string, number, number, boolean, number[], [string, '.' | ':', number, number, number[]][]][];
}

export interface GlobalSite {
  /** The script's game path. */
  path: string;
  start: number;
  end: number;
  /** `write`: a top-level definition (`function Name()`, `Name = …`). */
  role: 'read' | 'write';
}

export class CrossScriptIndex {
  readonly usage = new UsageIndex();
  private readonly sites = new Map<string, GlobalSite[]>();
  /** The `write` sites again, apart: a definition lookup must not walk every use of `print`. */
  private readonly definitions = new Map<string, GlobalSite[]>();
  /** Milliseconds the pass took. */
  buildMs = 0;

  static build(scripts: Iterable<IndexedScript>): CrossScriptIndex {
    const started = performance.now();
    const x = new CrossScriptIndex();
    for (const script of scripts) {
      if (script.kind !== 'source') continue;
      const a = analyseScript(script);
      x.usage.add(a);
      for (const n of a.names.names) {
        if (n.scope !== 'global' || n.role === 'declaration') continue;
        const site: GlobalSite = { path: script.path, start: n.start, end: n.end, role: n.role };
        for (const map of n.role === 'write' ? [x.sites, x.definitions] : [x.sites]) {
          const list = map.get(n.name);
          if (list) list.push(site);
          else map.set(n.name, [site]);
        }
      }
    }
    x.buildMs = performance.now() - started;
    return x;
  }

  /** The facts as plain data for a cache (the server keeps it beside the index snapshot, under the same key). */
  toSnapshot(): CrossSnapshot {
    const paths: string[] = [];
    const pathIndex = new Map<string, number>();
    const ix = (p: string): number => {
      let i = pathIndex.get(p);
      if (i === undefined) pathIndex.set(p, (i = paths.push(p) - 1));
      return i;
    };
    const flat = (sites: readonly UsageSite[]): number[] => sites.flatMap((u) => [ix(u.script), u.start, u.end]);
    return {
      version: CROSS_SNAPSHOT_VERSION,
      paths,
      sites: [...this.sites].map(([name, list]) => [name, list.flatMap((x) => [ix(x.path), x.start, x.end, x.role === 'write' ? 1 : 0])]),
      usage: [...this.usage.globals.values()].map((g) => [
        g.name,
        g.uses,
        g.calls,
        g.defined,
        flat(g.sites),
        [...g.members.values()].map((m): [string, '.' | ':', number, number, number[]] => [m.name, m.indexer, m.uses, m.calls, flat(m.sites)]),
      ]),
    };
  }

  /** The facts a snapshot holds (a snapshot of another version is refused: the caller runs the pass). */
  static fromSnapshot(snap: CrossSnapshot): CrossScriptIndex {
    if (snap?.version !== CROSS_SNAPSHOT_VERSION)
      throw new Arch06Error('UNSUPPORTED_VERSION', 'a cross-script snapshot of another version', { actual: String(snap?.version) });
    checkCrossSnapshot(snap);
    const started = performance.now();
    const x = new CrossScriptIndex();
    const pathAt = (i: number): string => snap.paths[i] ?? '';
    for (const [name, f] of snap.sites) {
      const list: GlobalSite[] = [];
      for (let k = 0; k + 3 < f.length; k += 4) list.push({ path: pathAt(f[k]), start: f[k + 1], end: f[k + 2], role: f[k + 3] === 1 ? 'write' : 'read' });
      x.sites.set(name, list);
      const writes = list.filter((site) => site.role === 'write');
      if (writes.length) x.definitions.set(name, writes);
    }
    const sites = (f: number[]): UsageSite[] => {
      const out: UsageSite[] = [];
      for (let k = 0; k + 2 < f.length; k += 3) out.push({ script: pathAt(f[k]), start: f[k + 1], end: f[k + 2] });
      return out;
    };
    for (const [name, uses, calls, defined, f, members] of snap.usage)
      x.usage.globals.set(name, {
        name,
        uses,
        calls,
        defined,
        sites: sites(f),
        members: new Map(
          members.map(([m, indexer, mUses, mCalls, mf]) => [`${indexer}${m}`, { name: m, indexer, uses: mUses, calls: mCalls, sites: sites(mf) }]),
        ),
      });
    x.buildMs = performance.now() - started;
    return x;
  }

  /** The top-level definitions of a global, in the served scripts. */
  globalDefinitions(name: string): readonly GlobalSite[] {
    return this.definitions.get(name) ?? [];
  }

  /** Every use and definition of a global, in the served scripts. */
  globalSites(name: string): readonly GlobalSite[] {
    return this.sites.get(name) ?? [];
  }
}
