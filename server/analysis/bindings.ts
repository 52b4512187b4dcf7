/**
 * The registries' side of a script (seed 001, "Group members (ONLS) and script bindings (SCRB)"):
 * which objects each bound function runs for, and what is wrong with the bindings. The code lens
 * "bound by N objects" and the hover's object list come from here; the binding diagnostics are
 * core's (core/scriptIndex/diagnostics.ts), shared with `arch06 scripts`.
 *
 * Bounded: a crafted registry can bind a function to a million objects and a script define
 * thousands of bound functions, so a lens carries at most `MAX_LENS_SITES` objects with the true
 * count, and a document at most `MAX_CODE_LENSES` lenses.
 */
import type { Span } from '../../core/havokScript';
import type { AnalysedScript, BindingSite } from '../../core/scriptIndex';
import { MAX_CODE_LENSES, MAX_LENS_SITES } from './caps';
import { allSymbols } from './navigation';
import type { ScriptWorkspace } from './workspace';

export interface BindingLens {
  /** The bound definition's name. */
  span: Span;
  name: string;
  /** The first objects bound to it (at most `MAX_LENS_SITES`). */
  sites: BindingSite[];
  /** How many objects are bound to it in all. */
  count: number;
}

/** "bound by N objects" on every definition a served registry binds (the first `maxLenses`), and how many definitions have one. */
export function bindingLenses(ws: ScriptWorkspace, script: AnalysedScript, maxLenses = MAX_CODE_LENSES): { lenses: BindingLens[]; total: number } {
  const lenses: BindingLens[] = [];
  let total = 0;
  if (!ws.index) return { lenses, total };
  for (const s of allSymbols(script)) {
    if (!s.bindable) continue;
    const count = ws.index.boundByCount(script.path, s.name);
    if (count === 0) continue;
    if (total++ < maxLenses) lenses.push({ span: s.selection, name: s.name, sites: ws.index.boundBy(script.path, s.name, MAX_LENS_SITES), count });
  }
  return { lenses, total };
}

/** What a lens shows and hands to the client's `arch06.showBindings` command when clicked: the bound objects, one line each. */
export function lensCommand(l: BindingLens, scriptPath: string): { title: string; argument: object } {
  return {
    title: `bound by ${l.count} object${l.count === 1 ? '' : 's'}`,
    argument: {
      function: l.name,
      script: scriptPath,
      total: l.count,
      sites: l.sites.map((x) => ({ object: x.object, class: x.class, event: x.event, registry: x.registry, label: siteLine(x) })),
    },
  };
}

/** One line per site: `GateAlarm_00.SR (ScriptRelay) · Script1 · worlds\…\fortgate.objres`. */
export function siteLine(s: BindingSite): string {
  return `${s.object ?? `object 0x${s.objectHash.toString(16).padStart(8, '0')}`} (${s.class ?? 'class unknown'}) · ${s.event ?? 'event unknown'} · ${s.registry.path}${
    s.registry.from === 'loose' ? ` (${s.registry.source})` : ''
  }`;
}
