/**
 * Workspace symbols (Ctrl+T): every definition of every served script whose name holds the query
 * (case-insensitive): top-level functions and `hmake` objects, and each object's methods, named
 * with their object (a method name such as `Init` is in many objects).
 */
import type { ScriptDefinition } from '../../core/havokScript';
import { definitionOffset } from './navigation';
import type { ScriptLocation, ScriptWorkspace } from './workspace';

export interface WorkspaceSymbol {
  name: string;
  kind: ScriptDefinition['kind'];
  /** The method's object and the script's path, or the path alone. */
  container: string;
  location: ScriptLocation;
}

/** At most `max` symbols matching `query` (all when it is empty), in script path and source order, and how many match in all. */
export function workspaceSymbols(ws: ScriptWorkspace, query: string, max = 2000): { found: WorkspaceSymbol[]; total: number } {
  const q = query.toLowerCase();
  const out: WorkspaceSymbol[] = [];
  let total = 0;
  for (const script of ws.scripts()) {
    for (const d of script.allDefinitions) {
      if (q && !d.name.toLowerCase().includes(q)) continue;
      if (total++ >= max) continue; // counted, not located
      const at = definitionOffset(script.text, d.line, d.name);
      if (at < 0) continue;
      out.push({
        name: d.name,
        kind: d.kind,
        container: d.object ? `${d.object} · ${script.path}` : script.path,
        location: { script, span: { start: at, end: at + d.name.length } },
      });
    }
  }
  return { found: out, total };
}
