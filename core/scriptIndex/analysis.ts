/**
 * A script's full analysis: its syntax tree, outline and resolved names (core/havokScript), for
 * the scripts a user has open and for the passes that need every name (crossScript.ts).
 */
import { type Chunk, type ScriptNames, type ScriptSymbol, flattenOutline, lineNumbers, outline, parseHavokScript, resolveNames } from '../havokScript';
import type { IndexedScript, ServedCopy } from './scriptIndex';
import type { ScriptFunction } from '../formats/script';

export interface AnalysedScript extends IndexedScript {
  chunk: Chunk;
  symbols: ScriptSymbol[];
  names: ScriptNames;
  /** Bindable definitions with their ranges, by lower-case name (the first of a name). */
  bindable: Map<string, ScriptSymbol>;
}

/** Parse a served script. */
export function analyseScript(script: IndexedScript): AnalysedScript {
  return analyseText(script, script.text, script.kind);
}

/** Parse `text` as the script at `copy` (an open editor's text in place of the served copy's). */
export function analyseText(copy: ServedCopy, text: string, kind: 'source' | 'bytecode' = 'source'): AnalysedScript {
  const chunk = parseHavokScript(kind === 'source' ? text : '');
  const symbols = kind === 'source' ? outline(chunk, text) : [];
  const bindable = new Map<string, ScriptSymbol>();
  const definitions = new Map<string, ScriptFunction>();
  const lineOf = lineNumbers(text);
  for (const s of flattenOutline(symbols)) {
    if (!s.bindable) continue;
    const k = s.name.toLowerCase();
    if (bindable.has(k)) continue;
    bindable.set(k, s);
    definitions.set(k, {
      name: s.name,
      line: lineOf(s.selection.start),
      kind: s.kind === 'hmake' ? 'hmake' : 'function',
      ...(s.kind === 'hmake' && s.detail ? { type: s.detail } : {}),
    });
  }
  return { ...copy, text, kind, definitions, chunk, symbols, names: resolveNames(chunk), bindable };
}
