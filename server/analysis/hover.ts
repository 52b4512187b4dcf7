/**
 * Hover: what the thing under the cursor is, from what the install says about it.
 *
 * - a hash literal (`0x3c9a61f2hi`, or any 8-digit `0x…`): the names with that StringHash and
 *   where each comes from, or that none is known;
 * - a bound function or script object: its signature, its doc comment (the retail scripts put the
 *   binding's event and prefab there) and the objects the registries bind to it;
 * - an engine global or member (`System:LoadWorld`, `ScriptRelay.Create`): the seeds'
 *   documentation when they have it, and how the mount's scripts use it;
 * - a local: where it is declared, with its `: type`.
 */
import { type Span, useAt } from '../../core/havokScript';
import { documentedApi, type IndexedScript } from '../../core/scriptIndex';
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

const code = (text: string): string => '```havokscript\n' + text + '\n```';
const lineOf = (script: IndexedScript, offset: number): number => script.text.slice(0, offset).split('\n').length;

export function hover(ws: ScriptWorkspace, uri: string, offset: number): HoverResult | undefined {
  const doc = ws.document(uri);
  if (!doc) return undefined;

  const literal = hashLiteralAt(doc.text, offset);
  if (literal) return { span: literal.span, markdown: hashNames(ws, literal.hash, literal.text) };

  const name = useAt(doc.names.names, offset);
  const member = name ? undefined : useAt(doc.names.members, offset);
  const own = name || member ? undefined : symbolAt(doc, offset);

  // A definition of this script (its own name, or a use of a global/member it defines).
  const defined =
    own ?? (name?.scope === 'global' || member ? allSymbols(doc).find((s) => s.name === (name?.name ?? member?.member) && s.kind !== 'field') : undefined);
  if (defined && (defined.kind === 'function' || defined.kind === 'method' || defined.kind === 'hmake')) {
    const span = own ? own.selection : (name ?? member)!;
    const head = defined.kind === 'hmake' ? `${defined.name} = hmake ${defined.detail ?? ''}` : `${defined.name} = function ${defined.detail ?? '()'}`;
    const parts = [code(head)];
    if (defined.doc) parts.push(defined.doc.replace(/\n/g, '  \n'));
    if (defined.bindable && ws.index) {
      const total = ws.index.boundByCount(doc.path, defined.name);
      if (total) {
        const rows = ws.index.boundBy(doc.path, defined.name, LIST_ROWS).map((s) => `- ${siteLine(s)}`);
        if (total > LIST_ROWS) rows.push(`- … and ${total - LIST_ROWS} more`);
        parts.push(`**Bound by ${total} object${total === 1 ? '' : 's'}:**\n${rows.join('\n')}`);
      } else parts.push('No registry in the mount binds it.');
    }
    parts.push(`Defined at line ${lineOf(doc, defined.selection.start)}.`);
    return { span: { start: span.start, end: span.end }, markdown: parts.join('\n\n') };
  }

  if (name?.scope === 'local' && name.declaration) {
    const decl = doc.names.names.find((n) => n.start === name.declaration!.start);
    const typed = declarationType(doc, name.declaration);
    return {
      span: { start: name.start, end: name.end },
      markdown: `${code(`local ${name.name}${typed ? ' : ' + typed : ''}`)}\nDeclared at line ${lineOf(doc, (decl ?? name.declaration).start)}.`,
    };
  }

  if (name) {
    const usage = ws.usage().globals.get(name.name);
    const defs = ws.globalDefinitions(name.name);
    const parts = [code(`global ${name.name}`)];
    if (usage) parts.push(usageLine(usage.uses, usage.calls, new Set(usage.sites.map((s) => s.script)).size));
    if (usage?.members.size) {
      const top = [...usage.members.values()].sort((a, b) => b.uses - a.uses).slice(0, 8);
      parts.push(`Members used: ${top.map((m) => `\`${m.indexer}${m.name}\` ×${m.uses}`).join(', ')}`);
    }
    if (defs.length) parts.push(`Defined in ${defs.map((d) => `${d.script.path}:${lineOf(d.script, d.span.start)}`).join(', ')}.`);
    else parts.push('Provided by the engine (no script defines it).');
    return { span: { start: name.start, end: name.end }, markdown: parts.join('\n\n') };
  }

  if (member) {
    const parts: string[] = [];
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

function usageLine(uses: number, calls: number, scripts: number): string {
  return `Used ${uses} time${uses === 1 ? '' : 's'} (${calls} call${calls === 1 ? '' : 's'}) in the mount's scripts${scripts > 1 ? `, across at least ${scripts} scripts` : ''}.`;
}

/** The `: type` written at a local's declaration, if any. */
function declarationType(doc: IndexedScript, decl: Span): string | undefined {
  const m = /^\s*:\s*([A-Za-z_][A-Za-z0-9_.]*)/.exec(doc.text.slice(decl.end, decl.end + 80));
  return m?.[1];
}
