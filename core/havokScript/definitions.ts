/**
 * What a script defines, the one answer every front end uses (the CLI's `dump` and `scripts`, the
 * registry editor and text views checking bindings, the name sources, the script index and the
 * language server): the parser's outline (outline.ts) as plain rows with 1-based lines, top-level
 * functions and `hmake` objects first-class, each object's methods with their object.
 *
 * `bindable` is what a registry's SCRB block can name (outline.ts): the section tables' fields and
 * the top-level functions. A binding check looks at those only.
 */
import { lineNumbers } from './lines';
import { type ScriptSymbol, outline } from './outline';
import { parseHavokScript } from './parser';

export interface ScriptDefinition {
  name: string;
  /** 1-based line of the name. */
  line: number;
  /** `function` and `hmake` are top-level (or section-table) definitions; `method` is a function of an object or a `function a.b:c()`. */
  kind: 'function' | 'hmake' | 'method';
  /** An `hmake` object's type (e.g. `_ambsentry_SO_Script_9dfba427_meta`). */
  type?: string;
  /** A method's object, when it is one of the script's `hmake` objects. */
  object?: string;
  /** A name a registry's SCRB block can bind. */
  bindable: boolean;
}

/** The definitions of an outline, in source order (parents before their methods). */
export function definitionsOf(symbols: readonly ScriptSymbol[], source: string): ScriptDefinition[] {
  const lineOf = lineNumbers(source);
  const out: ScriptDefinition[] = [];
  const visit = (list: readonly ScriptSymbol[], parent?: ScriptSymbol): void => {
    for (const s of list) {
      if (s.kind === 'function' || s.kind === 'hmake' || s.kind === 'method') {
        out.push({
          name: s.name,
          line: lineOf(s.selection.start),
          kind: s.kind,
          ...(s.kind === 'hmake' && s.detail ? { type: s.detail } : {}),
          ...(s.kind === 'method' && parent?.kind === 'hmake' ? { object: parent.name } : {}),
          bindable: s.bindable,
        });
      }
      visit(s.children, s);
    }
  };
  visit(symbols);
  return out;
}

/** What `source` defines (parsed here; a caller holding the parse uses `definitionsOf`). */
export function scriptDefinitions(source: string): ScriptDefinition[] {
  return definitionsOf(outline(parseHavokScript(source), source), source);
}

/** The bindable names of a definition list (what a binding check accepts). */
export const bindableNames = (definitions: readonly ScriptDefinition[]): Set<string> => new Set(definitions.filter((d) => d.bindable).map((d) => d.name));

/** The bindable definitions of a list by lower-case name, the first of each name kept (bindings are looked up case-insensitively). */
export function bindableMap(definitions: readonly ScriptDefinition[]): Map<string, ScriptDefinition> {
  const out = new Map<string, ScriptDefinition>();
  for (const d of definitions) if (d.bindable && !out.has(d.name.toLowerCase())) out.set(d.name.toLowerCase(), d);
  return out;
}
