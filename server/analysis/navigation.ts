/**
 * Go to definition and find references. A name is what Lua's scoping makes it (core/havokScript
 * scopes.ts): a local goes to its declaration and finds its uses in the same script; a global goes
 * to its top-level definitions in every script of the mount and finds its uses in all of them; a
 * member goes through the object its left side stands for (core/havokScript objects.ts):
 * `self:OpenGate` inside an `hmake` object's method to that object's own `OpenGate`, `parent.X`
 * in its constructor likewise; a member of an engine global to nothing of the script; a member
 * whose object nothing names to every method and field of that name (the candidates). A
 * definition's own name counts as a place of itself.
 */
import { type MemberUse, type ScriptSymbol, type Span, flattenOutline, memberTarget, objectAt, objectMember, useAt } from '../../core/havokScript';
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
  if (member) return memberDefinitions(doc, member).map((s) => at(doc, s.selection, uri));
  const own = symbolAt(doc, offset);
  return own ? [at(doc, own.selection, uri)] : [];
}

/**
 * Where a member use goes: its object's member (the code when there is some, else the field's
 * declaration), nothing for an engine global's member, and for a member whose object is not known
 * every candidate of that name (code first).
 */
export function memberDefinitions(doc: AnalysedScript, member: MemberUse): ScriptSymbol[] {
  const t = memberTarget(doc.symbols, member);
  if (t.kind === 'engine') return [];
  return t.kind === 'object' ? objectPlaces(t.found) : codeFirst(t.candidates);
}

/** Of the candidates, the code (methods, functions) when there is some, else all of them. */
function codeFirst(named: ScriptSymbol[]): ScriptSymbol[] {
  const code = named.filter((s) => s.kind !== 'field');
  return code.length ? code : named;
}

/** Where one object's member is: its code (a table defining it twice holds both), else its first declaration. */
const objectPlaces = (found: ScriptSymbol[]): ScriptSymbol[] => {
  const code = found.filter((s) => s.kind !== 'field');
  return code.length ? code : found.slice(0, 1);
};

/** The object a member use stands on, when it is known (`self` in a method, a global object). */
const ownerObject = (doc: AnalysedScript, m: MemberUse): ScriptSymbol | undefined => (m.owner === undefined ? undefined : objectAt(doc.symbols, m.owner));

/** The object whose table defines `symbol` (a method or field of an hmake object), if any. */
function objectOfSymbol(doc: AnalysedScript, symbol: ScriptSymbol): ScriptSymbol | undefined {
  return allSymbols(doc).find((o) => o.kind === 'hmake' && o.children.includes(symbol));
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
  const use = useAt(doc.names.members, offset);
  const own = use ? undefined : symbolAt(doc, offset);
  const memberName = use?.member ?? own?.name;
  if (memberName === undefined) return [];
  // The object asked about: the use's, or the one defining the symbol under the cursor.
  const object = use ? ownerObject(doc, use) : own && objectOfSymbol(doc, own);
  if (use && !object && memberTarget(doc.symbols, use).kind === 'engine') {
    // An engine global's member: its uses on that global in this script.
    return doc.names.members.filter((m) => m.member === memberName && m.object === use.object && m.objectIsGlobal).map((m) => at(doc, m, uri));
  }
  // With a known object: the uses on it, and those whose object nothing names (they may be it); never another object's.
  const same = (m: MemberUse): boolean => {
    if (m.member !== memberName) return false;
    const o = ownerObject(doc, m);
    if (object) return o === object || (!o && memberTarget(doc.symbols, m).kind === 'unresolved');
    return memberTarget(doc.symbols, m).kind !== 'engine';
  };
  const out = doc.names.members.filter(same).map((m) => at(doc, m, uri));
  if (includeDeclaration) {
    const defs = object ? objectPlaces(objectMember(doc.symbols, object, memberName)) : use ? memberDefinitions(doc, use) : own ? [own] : [];
    for (const s of defs) out.push(at(doc, s.selection, uri));
  }
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
