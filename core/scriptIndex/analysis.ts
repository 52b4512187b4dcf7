/**
 * A script's full analysis: its syntax tree, outline and resolved names (core/havokScript), for
 * the scripts a user has open and for the passes that need every name (crossScript.ts).
 */
import {
  type Chunk,
  type ScriptNames,
  type ScriptSymbol,
  bindableMap,
  definitionsOf,
  flattenOutline,
  outline,
  parseHavokScript,
  resolveNames,
} from '../havokScript';
import type { IndexedScript, ServedCopy } from './types';

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
  for (const s of flattenOutline(symbols)) if (s.bindable && !bindable.has(s.name.toLowerCase())) bindable.set(s.name.toLowerCase(), s);
  const allDefinitions = definitionsOf(symbols, text);
  return { ...copy, text, kind, definitions: bindableMap(allDefinitions), allDefinitions, chunk, symbols, names: resolveNames(chunk), bindable };
}
