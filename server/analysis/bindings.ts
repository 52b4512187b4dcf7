/**
 * The registries' side of a script (seed 001, "Group members (ONLS) and script bindings (SCRB)"):
 * which objects each bound function runs for, and what is wrong with the bindings. The code lens
 * "bound by N objects" and the hover's object list come from here; the binding diagnostics are
 * core's (core/scriptIndex/diagnostics.ts), shared with `arch06 scripts`.
 */
import type { Span } from '../../core/havokScript';
import type { AnalysedScript, BindingSite } from '../../core/scriptIndex';
import { allSymbols } from './navigation';
import type { ScriptWorkspace } from './workspace';

export interface BindingLens {
  /** The bound definition's name. */
  span: Span;
  name: string;
  sites: BindingSite[];
}

/** "bound by N objects" on every definition a served registry binds. */
export function bindingLenses(ws: ScriptWorkspace, script: AnalysedScript): BindingLens[] {
  if (!ws.index) return [];
  const out: BindingLens[] = [];
  for (const s of allSymbols(script)) {
    if (!s.bindable) continue;
    const sites = ws.index.boundBy(script.path, s.name);
    if (sites.length) out.push({ span: s.selection, name: s.name, sites });
  }
  return out;
}

/** One line per site: `GateAlarm_00.SR (ScriptRelay) · Script1 · worlds\…\fortgate.objres`. */
export function siteLine(s: BindingSite): string {
  return `${s.object ?? `object 0x${s.objectHash.toString(16).padStart(8, '0')}`} (${s.class ?? 'class unknown'}) · ${s.event ?? 'event unknown'} · ${s.registry.path}${
    s.registry.from === 'loose' ? ` (${s.registry.source})` : ''
  }`;
}
