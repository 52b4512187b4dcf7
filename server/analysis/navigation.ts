/**
 * Go to definition and find references. A name is what Lua's scoping makes it (core/havokScript
 * scopes.ts): a local goes to its declaration and finds its uses in the same script; a global goes
 * to its top-level definitions in every script of the mount and finds its uses in all of them; a
 * member (`self:OpenGate`, `parent.__eventmap`) goes to the methods and fields of that name the
 * script defines (its hmake objects, its hstructures). A definition's own name counts as a place
 * of itself.
 */
import { type ScriptSymbol, type Span, flattenOutline, useAt } from '../../core/havokScript';
import type { AnalysedScript, IndexedScript } from '../../core/scriptIndex';
import { ownScriptPath } from '../../core/formats/registry';
import type { ScriptLocation, ScriptWorkspace } from './workspace';

/** Every symbol of a script's outline, flattened. */
export const allSymbols = (script: AnalysedScript): ScriptSymbol[] => flattenOutline(script.symbols);

/** The symbol whose name (selection) holds `offset`. */
export function symbolAt(script: AnalysedScript, offset: number): ScriptSymbol | undefined {
  return allSymbols(script).find((s) => s.selection.start <= offset && offset <= s.selection.end);
}

const at = (script: IndexedScript, span: Span, uri?: string): ScriptLocation => ({
  script,
  span: { start: span.start, end: span.end },
  ...(uri ? { uri } : {}),
});

/** What the name at `offset` of document `uri` refers to, resolved to its definitions. */
export function definition(ws: ScriptWorkspace, uri: string, offset: number): ScriptLocation[] {
  const doc = ws.document(uri);
  if (!doc) return [];
  const name = useAt(doc.names.names, offset);
  if (name) {
    if (name.scope === 'local') return name.declaration ? [at(doc, name.declaration, uri)] : [];
    return ws.globalDefinitions(name.name).map((d) => at(d.script, d.span, d.script === doc ? uri : undefined));
  }
  const member = useAt(doc.names.members, offset);
  if (member) {
    // The code a member names, when the script has it (an hmake method); else its declarations (hstructure fields).
    const named = membersNamed(doc, member.member);
    const code = named.filter((s) => s.kind !== 'field');
    return (code.length ? code : named).map((s) => at(doc, s.selection, uri));
  }
  const own = symbolAt(doc, offset);
  return own ? [at(doc, own.selection, uri)] : [];
}

/** Methods, functions and fields a script defines under `name`; functions first. */
function membersNamed(script: AnalysedScript, name: string): ScriptSymbol[] {
  const found = allSymbols(script).filter((s) => s.name === name);
  const rank = (s: ScriptSymbol): number => (s.kind === 'method' || s.kind === 'function' || s.kind === 'hmake' ? 0 : 1);
  return found.sort((a, b) => rank(a) - rank(b));
}

/** Every place the name at `offset` is used (with its definitions when `includeDeclaration`). */
export function references(ws: ScriptWorkspace, uri: string, offset: number, includeDeclaration: boolean): ScriptLocation[] {
  const doc = ws.document(uri);
  if (!doc) return [];
  const name = useAt(doc.names.names, offset);
  if (name?.scope === 'local') {
    const decl = name.declaration;
    return doc.names.names
      .filter((n) => n.declaration && decl && n.declaration.start === decl.start && (includeDeclaration || n.role !== 'declaration'))
      .map((n) => at(doc, n, uri));
  }
  if (name) {
    return ws
      .globalPlaces(name.name)
      .filter((p) => includeDeclaration || p.role !== 'write')
      .map((p) => at(p.script, p.span, p.script.path.toLowerCase() === doc.path.toLowerCase() ? uri : undefined));
  }
  const memberName = useAt(doc.names.members, offset)?.member ?? symbolAt(doc, offset)?.name;
  if (memberName === undefined) return [];
  const out = doc.names.members.filter((m) => m.member === memberName).map((m) => at(doc, m, uri));
  if (includeDeclaration) for (const s of membersNamed(doc, memberName)) out.push(at(doc, s.selection, uri));
  return out.sort((a, b) => a.span.start - b.span.start);
}

/**
 * In a registry's decoded text (its bindings name functions of the part's own script): the bound
 * function under the cursor, in the copy of the script the search order serves.
 */
export function boundFunctionDefinition(ws: ScriptWorkspace, uri: string, text: string, offset: number): ScriptLocation[] {
  const path = ws.gamePathOf(uri);
  if (!path || !/\.objres$/i.test(path) || !ws.index) return [];
  let a = offset;
  let b = offset;
  while (a > 0 && /[\w]/.test(text[a - 1])) a--;
  while (b < text.length && /[\w]/.test(text[b])) b++;
  const word = text.slice(a, b);
  const script = ws.index.script(ownScriptPath(path));
  const d = word && script?.definitions.get(word.toLowerCase());
  if (!script || !d) return [];
  const at = definitionOffset(script.text, d.line, d.name);
  return at < 0 ? [] : [{ script, span: { start: at, end: at + d.name.length } }];
}

/** Where a listed definition's name is: on its 1-based line (the lister's names start it); -1 when the text has no such line. */
export function definitionOffset(text: string, line: number, name: string): number {
  let lineStart = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', lineStart);
    if (next < 0) return -1;
    lineStart = next + 1;
  }
  const at = text.indexOf(name, lineStart);
  const lineEnd = text.indexOf('\n', lineStart);
  return at < 0 || (lineEnd >= 0 && at > lineEnd) ? -1 : at;
}

/** Workspace symbols: the served scripts' definitions whose names hold `query` (any case), the first `max` located, all counted. */
export function workspaceSymbols(
  ws: ScriptWorkspace,
  query: string,
  max: number,
): { found: (ScriptLocation & { name: string; kind: 'hmake' | 'function' })[]; total: number } {
  const q = query.toLowerCase();
  const found: (ScriptLocation & { name: string; kind: 'hmake' | 'function' })[] = [];
  let total = 0;
  for (const script of ws.scripts()) {
    for (const d of script.definitions.values()) {
      if (q && !d.name.toLowerCase().includes(q)) continue;
      if (total++ >= max) continue; // counted, not located
      const at = definitionOffset(script.text, d.line, d.name);
      if (at >= 0) found.push({ script, span: { start: at, end: at + d.name.length }, name: d.name, kind: d.kind === 'hmake' ? 'hmake' : 'function' });
    }
  }
  return { found, total };
}
