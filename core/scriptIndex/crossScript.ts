/**
 * What needs every name of every script: where each global is defined and used (definition and
 * references across the mount) and the engine API as the scripts use it (usage.ts). Built by one
 * pass that parses each served script, keeps only these facts and drops the tree, so the memory it
 * holds is the facts', not the trees'.
 */
import { analyseScript } from './analysis';
import type { IndexedScript } from './scriptIndex';
import { UsageIndex } from './usage';

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

  /** The top-level definitions of a global, in the served scripts. */
  globalDefinitions(name: string): readonly GlobalSite[] {
    return this.definitions.get(name) ?? [];
  }

  /** Every use and definition of a global, in the served scripts. */
  globalSites(name: string): readonly GlobalSite[] {
    return this.sites.get(name) ?? [];
  }
}
