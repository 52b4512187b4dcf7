/**
 * Hover: what the thing under the cursor is, from what the install says about it.
 *
 * - a hash literal (`0x19f44e0dhi`, or any 8-digit `0x…`): the names with that hash and
 *   where each comes from, or that none is known;
 * - a bound function or script object: its signature, its doc comment (the retail scripts put the
 *   binding's event and prefab there) and the objects the registries bind to it;
 * - a member on a known object (`self:Escape` in one of its methods): that object's method or
 *   field; a member whose object nothing names: that it cannot be resolved, and the objects
 *   defining that name, not one of them picked;
 * - an engine global or member (`System:LoadWorld`, `ScriptRelay.Create`): the seeds'
 *   documentation when they have it, and how the mount's scripts use it;
 * - a local: where it is declared, with its `: type`.
 */
import { type MemberUse, type ScriptSymbol, type Span, memberTarget, objectAt, useAt } from '../../core/havokScript';
import { mdCode, mdFence, mdLines, mdText } from '../../core/io';
import { type AnalysedScript, documentedApi, type IndexedScript } from '../../core/scriptIndex';
import { siteLine } from './bindings';
import { hashLiteralAt, hashNames } from './hashes';
import { allSymbols, symbolAt } from './navigation';
import type { ScriptWorkspace } from './workspace';

export interface HoverResult {
  markdown: string;
  span: Span;
}

/** Rows of a list shown before "and N more". */
const LIST_ROWS = 12;

/** Game text in a code block: nothing inside is markup. */
const code = (text: string): string => mdFence(text, 'havokscript');
const lineOf = (script: IndexedScript, offset: number): number => script.text.slice(0, offset).split('\n').length;

export function hover(ws: ScriptWorkspace, uri: string, offset: number): HoverResult | undefined {
  const doc = ws.document(uri);
  if (!doc) return undefined;

  const literal = hashLiteralAt(doc.text, offset);
  if (literal) return { span: literal.span, markdown: hashNames(ws, literal) };

  const name = useAt(doc.names.names, offset);
  const member = name ? undefined : useAt(doc.names.members, offset);
  const own = name || member ? undefined : symbolAt(doc, offset);

  if (member) {
    const h = memberHover(ws, doc, member);
    if (h) return h;
  }
  // A definition of this script (its own name, or a use of a global it defines).
  const defined = own ?? (name?.scope === 'global' ? allSymbols(doc).find((s) => s.name === name.name && s.kind !== 'field') : undefined);
  if (defined && isCode(defined)) {
    const object = own && allSymbols(doc).find((o) => o.kind === 'hmake' && o.children.includes(own));
    return { span: span(own ? own.selection : name!), markdown: definitionText(ws, doc, defined, object) };
  }

  if (name?.scope === 'local' && name.declaration) {
    const decl = doc.names.names.find((n) => n.start === name.declaration!.start);
    const typed = declarationType(doc, name.declaration);
    const object = name.owner === undefined ? undefined : objectAt(doc.symbols, name.owner);
    // An implicit `self` (`function O:M()`) has no declaration of its own to point at.
    const where = decl
      ? `Declared at line ${lineOf(doc, decl.start)}.`
      : `The implicit ${mdCode('self')} of the method at line ${lineOf(doc, name.declaration.start)}.`;
    return {
      span: span(name),
      markdown: `${code(`local ${name.name}${typed ? ' : ' + typed : ''}`)}\n${where}${object ? `\n\nStands for the object ${mdCode(object.name)} (${mdCode(`hmake ${object.detail ?? ''}`)}, line ${lineOf(doc, object.selection.start)}).` : ''}`,
    };
  }

  if (name) {
    const usage = ws.usage().globals.get(name.name);
    const defs = ws.globalDefinitions(name.name);
    const parts = [code(`global ${name.name}`)];
    if (usage) parts.push(usageLine(usage.uses, usage.calls, new Set(usage.sites.map((s) => s.script)).size));
    if (usage?.members.size) {
      const top = [...usage.members.values()].sort((a, b) => b.uses - a.uses).slice(0, 8);
      parts.push(`Members used: ${top.map((m) => `${mdCode(m.indexer + m.name)} ×${m.uses}`).join(', ')}`);
    }
    if (defs.length) parts.push(`Defined in ${defs.map((d) => `${mdText(d.script.path)}:${lineOf(d.script, d.span.start)}`).join(', ')}.`);
    else parts.push('Provided by the engine (no script defines it).');
    return { span: { start: name.start, end: name.end }, markdown: parts.join('\n\n') };
  }

  if (member) {
    const parts: string[] = [];
    const t = memberTarget(doc.symbols, member);
    if (t.kind === 'unresolved' && t.objects.length > 0) return { span: span(member), markdown: unresolvedText(doc, member, t.objects) };
    const doc0 = member.objectIsGlobal ? documentedApi(member.object, member.indexer, member.member) : undefined;
    parts.push(code(`${member.object ?? '…'}${member.indexer}${member.member}`));
    if (doc0) parts.push(`${code(doc0.signature)}\n${doc0.doc}\n\n*${doc0.from}*`);
    if (member.objectIsGlobal && member.object) {
      const mu = ws.usage().globals.get(member.object)?.members.get(`${member.indexer}${member.member}`);
      if (mu) parts.push(usageLine(mu.uses, mu.calls, new Set(mu.sites.map((s) => s.script)).size));
    }
    return { span: { start: member.start, end: member.end }, markdown: parts.join('\n\n') };
  }
  return undefined;
}

const span = (s: Span): Span => ({ start: s.start, end: s.end });
const isCode = (s: ScriptSymbol): boolean => s.kind === 'function' || s.kind === 'method' || s.kind === 'hmake';

/** A function, method or object of this script: signature, doc comment, the objects bound to it, its line. */
function definitionText(ws: ScriptWorkspace, doc: IndexedScript, defined: ScriptSymbol, object?: ScriptSymbol): string {
  const head = defined.kind === 'hmake' ? `${defined.name} = hmake ${defined.detail ?? ''}` : `${defined.name} = function ${defined.detail ?? '()'}`;
  const parts = [code(head)];
  if (object) parts.push(`Method of the object ${mdCode(object.name)} (${mdCode(`hmake ${object.detail ?? ''}`)}).`);
  if (defined.doc) parts.push(mdLines(defined.doc));
  if (defined.bindable && ws.index) {
    const total = ws.index.boundByCount(doc.path, defined.name);
    if (total) {
      const rows = ws.index.boundBy(doc.path, defined.name, LIST_ROWS).map((s) => `- ${mdText(siteLine(s))}`);
      if (total > LIST_ROWS) rows.push(`- … and ${total - LIST_ROWS} more`);
      parts.push(`**Bound by ${total} object${total === 1 ? '' : 's'}:**\n${rows.join('\n')}`);
    } else parts.push('No registry in the mount binds it.');
  }
  parts.push(`Defined at line ${lineOf(doc, defined.selection.start)}.`);
  return parts.join('\n\n');
}

/** A member on a known object: its method, its field's declaration, or that the object has none of that name. */
function memberHover(ws: ScriptWorkspace, doc: AnalysedScript, member: MemberUse): HoverResult | undefined {
  const t = memberTarget(doc.symbols, member);
  if (t.kind !== 'object') return undefined;
  const [first] = t.found;
  if (first && isCode(first)) return { span: span(member), markdown: definitionText(ws, doc, first, t.object) };
  const head = code(`${member.object ?? '…'}${member.indexer}${member.member}`);
  const of = `${mdCode(t.object.name)} (${mdCode(`hmake ${t.object.detail ?? ''}`)}, line ${lineOf(doc, t.object.selection.start)})`;
  if (!first)
    return { span: span(member), markdown: `${head}\n\nThe object ${of} defines no member ${mdCode(member.member)} (neither its table nor its structures).` };
  const structure = allSymbols(doc).find((s) => s.kind === 'structure' && s.children.includes(first));
  const decl = `${first.name}${first.detail ? ' : ' + first.detail : ''}`;
  return {
    span: span(member),
    markdown: `${head}\n\n${code(decl)}\nField of the object ${of}${structure ? `, declared by ${mdCode(`hstructure ${structure.name}`)}` : ''} at line ${lineOf(doc, first.selection.start)}.`,
  };
}

/** A member whose object nothing names: say so, and which objects define a member of that name, instead of picking one. */
function unresolvedText(doc: IndexedScript, member: MemberUse, objects: ScriptSymbol[]): string {
  const why =
    member.object === undefined
      ? 'its object is an expression'
      : `${mdCode(member.object)} is not bound to one ${mdCode('hmake')} object here (not ${mdCode('self')} or ${mdCode('parent')} of an object's method, nor a local set from them)`;
  const rows = objects.slice(0, LIST_ROWS).map((o) => `- ${mdCode(o.name)} (line ${lineOf(doc, o.selection.start)})`);
  if (objects.length > LIST_ROWS) rows.push(`- … and ${objects.length - LIST_ROWS} more`);
  return `${code(`${member.object ?? '…'}${member.indexer}${member.member}`)}\n\nCannot be resolved to one object: ${why}. ${objects.length === 1 ? 'One object of this script defines' : `${objects.length} objects of this script define`} ${mdCode(member.member)}:\n${rows.join('\n')}`;
}

function usageLine(uses: number, calls: number, scripts: number): string {
  return `Used ${uses} time${uses === 1 ? '' : 's'} (${calls} call${calls === 1 ? '' : 's'}) in the mount's scripts${scripts > 1 ? `, across at least ${scripts} scripts` : ''}.`;
}

/** The `: type` written at a local's declaration, if any. */
function declarationType(doc: IndexedScript, decl: Span): string | undefined {
  const m = /^\s*:\s*([A-Za-z_][A-Za-z0-9_.]*)/.exec(doc.text.slice(decl.end, decl.end + 80));
  return m?.[1];
}
