/**
 * Semantic highlighting: what the grammar cannot know. Engine classes (`ScriptRelay`, `System`:
 * globals no script defines whose members the scripts use) and engine functions
 * (`LithThreadSleep`: globals called, never defined) are marked as the engine's library; the
 * definitions a registry binds are marked as such (bound functions stand out from helpers);
 * parameters are marked as parameters. The first `MAX_SEMANTIC_TOKENS` in source order are returned.
 */
import { forEachNode } from '../../core/havokScript';
import { DOCUMENTED_CLASSES, type AnalysedScript } from '../../core/scriptIndex';
import { type Capped, MAX_SEMANTIC_TOKENS } from './caps';
import { allSymbols } from './navigation';
import type { ScriptWorkspace } from './workspace';

export const TOKEN_TYPES = ['class', 'function', 'parameter'] as const;
export const TOKEN_MODIFIERS = ['defaultLibrary', 'declaration'] as const;

export interface SemanticSpan {
  start: number;
  end: number;
  type: (typeof TOKEN_TYPES)[number];
  modifiers: (typeof TOKEN_MODIFIERS)[number][];
}

export function semanticSpans(ws: ScriptWorkspace, script: AnalysedScript, max = MAX_SEMANTIC_TOKENS): Capped<SemanticSpan> {
  const out: SemanticSpan[] = [];
  const usage = ws.usage();
  const engine = new Map<string, SemanticSpan['type'] | null>();
  const kindOf = (name: string): SemanticSpan['type'] | null => {
    let k = engine.get(name);
    if (k !== undefined) return k;
    const g = usage.globals.get(name);
    const defined = (g?.defined ?? false) || ws.globalDefinitions(name).length > 0;
    k = defined ? null : DOCUMENTED_CLASSES.includes(name) || (g && g.members.size > 0 && /^[A-Z]/.test(name)) ? 'class' : g && g.calls > 0 ? 'function' : null;
    engine.set(name, k);
    return k;
  };
  for (const n of script.names.names) {
    if (n.scope === 'global' && n.role === 'read') {
      const k = kindOf(n.name);
      if (k) out.push({ start: n.start, end: n.end, type: k, modifiers: ['defaultLibrary'] });
    }
  }
  // Parameters: the declarations inside a function's parameter list and their uses (the tree walked without recursion).
  const params = new Set<number>();
  forEachNode(script.chunk.body, (n) => {
    if (n.kind === 'Function' && Array.isArray(n.params)) for (const p of n.params as { start: number }[]) params.add(p.start);
  });
  for (const n of script.names.names) {
    if (n.scope === 'local' && n.declaration && params.has(n.declaration.start)) out.push({ start: n.start, end: n.end, type: 'parameter', modifiers: [] });
  }
  if (ws.index) {
    for (const s of allSymbols(script)) {
      if (s.bindable && ws.index.boundByCount(script.path, s.name) > 0)
        out.push({ start: s.selection.start, end: s.selection.end, type: 'function', modifiers: ['declaration'] });
    }
  }
  out.sort((a, b) => a.start - b.start);
  return { items: out.length > max ? out.slice(0, max) : out, total: out.length };
}

/** A span's token type index and modifier bits in the legend (TOKEN_TYPES, TOKEN_MODIFIERS). */
export function tokenCodes(t: SemanticSpan): [number, number] {
  return [TOKEN_TYPES.indexOf(t.type), t.modifiers.reduce((m, x) => m | (1 << TOKEN_MODIFIERS.indexOf(x)), 0)];
}
