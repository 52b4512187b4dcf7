/**
 * The engine's API as the scripts use it: every global a script reads or calls and every member of
 * a global (`System:LoadWorld`, `ScriptRelay.Create`), with how often it is used and a few call
 * sites to show as examples. Completion and hover are built from this and from engineApi.ts.
 */
import type { AnalysedScript } from './analysis';

export interface UsageSite {
  script: string;
  start: number;
  end: number;
}

export interface GlobalUsage {
  name: string;
  uses: number;
  /** How many uses call it (`Name(…)`) rather than read it. */
  calls: number;
  /** Whether some script defines it (writes it at the top level). */
  defined: boolean;
  sites: UsageSite[];
  /** Its members as used: `.` fields and `:` methods. */
  members: Map<string, MemberUsage>;
}

export interface MemberUsage {
  name: string;
  indexer: '.' | ':';
  uses: number;
  calls: number;
  sites: UsageSite[];
}

/** Examples kept per name: enough to show, bounded whatever the number of scripts. */
const SITES_KEPT = 3;

export class UsageIndex {
  readonly globals = new Map<string, GlobalUsage>();

  static of(scripts: Iterable<AnalysedScript>): UsageIndex {
    const u = new UsageIndex();
    for (const s of scripts) u.add(s);
    return u;
  }

  private global(name: string): GlobalUsage {
    let g = this.globals.get(name);
    if (!g) this.globals.set(name, (g = { name, uses: 0, calls: 0, defined: false, sites: [], members: new Map() }));
    return g;
  }

  add(script: AnalysedScript): void {
    // Calls are recorded as member uses (`a:b(`) or as a name directly followed by `(`.
    for (const n of script.names.names) {
      if (n.scope !== 'global') continue;
      const g = this.global(n.name);
      if (n.role === 'write') {
        g.defined = true;
        continue;
      }
      g.uses++;
      if (/^\s*[("{]/.test(script.text.slice(n.end, n.end + 8))) g.calls++;
      if (g.sites.length < SITES_KEPT) g.sites.push({ script: script.path, start: n.start, end: n.end });
    }
    for (const m of script.names.members) {
      if (!m.objectIsGlobal || m.object === undefined) continue;
      const g = this.global(m.object);
      const k = `${m.indexer}${m.member}`;
      let mu = g.members.get(k);
      if (!mu) g.members.set(k, (mu = { name: m.member, indexer: m.indexer, uses: 0, calls: 0, sites: [] }));
      mu.uses++;
      if (m.call) mu.calls++;
      if (mu.sites.length < SITES_KEPT) mu.sites.push({ script: script.path, start: m.start, end: m.end });
    }
  }

  /** Globals by use count, most used first (completion's order). */
  ranked(): GlobalUsage[] {
    return [...this.globals.values()].sort((a, b) => b.uses - a.uses || a.name.localeCompare(b.name));
  }
}
