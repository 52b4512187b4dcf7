/**
 * Hashes decoded inline. Every name in the engine's data is a 32-bit StringHash (seed 000), so the
 * server keeps one dictionary of candidate names (ScriptWorkspace.gatherNames, through
 * core/nameSources: every mounted path and bundle member, path indexes, every script's literals
 * and definitions, the registries' OBJL and SCRB names, skeletons' names, the user's files). A
 * hash literal under the cursor shows its names and where each came from, or says that none is
 * known; inlay hints (off by default) put the name after raw hex hashes.
 */
import { formatHash } from '../../core/hash';
import type { Span } from '../../core/havokScript';
import type { ScriptWorkspace } from './workspace';

/** `0x` + 1-8 hex digits + optional `hi`; a 64-bit `hl` literal is not a StringHash. */
const HEX = /0[xX]([0-9a-fA-F]{1,16})(hi|hl)?\b/g;

export interface HashLiteral {
  span: Span;
  text: string;
  hash: number;
}

/** The hash literal holding `offset`: a `…hi` literal, or a raw `0x` with exactly 8 digits. */
export function hashLiteralAt(text: string, offset: number): HashLiteral | undefined {
  const from = Math.max(0, offset - 24);
  const window = text.slice(from, offset + 24);
  for (const m of window.matchAll(HEX)) {
    const start = from + m.index;
    const end = start + m[0].length;
    if (offset < start || offset > end) continue;
    const literal = hashLiteral(m, start);
    if (literal) return literal;
  }
  return undefined;
}

function hashLiteral(m: RegExpMatchArray, start: number): HashLiteral | undefined {
  const [text, digits, suffix] = m;
  if (suffix === 'hl' || digits.length > 8) return undefined;
  if (!suffix && digits.length !== 8) return undefined;
  return { span: { start, end: start + text.length }, text, hash: parseInt(digits, 16) >>> 0 };
}

/** Every hash literal of `text` inside `range` (for inlay hints). */
export function hashLiterals(text: string, range: Span): HashLiteral[] {
  const out: HashLiteral[] = [];
  for (const m of text.slice(range.start, range.end).matchAll(HEX)) {
    const l = hashLiteral(m, range.start + m.index);
    if (l) out.push(l);
  }
  return out;
}

/** A hover's text for a hash: its candidate names with their origins, or that none is known. */
export function hashNames(ws: ScriptWorkspace, hash: number, literal: string): string {
  const dict = ws.dictionary();
  const e = dict.entry(hash);
  const head = `\`${literal}\` = StringHash ${formatHash(hash)}`;
  const gathering = ws.namesComplete ? '' : ' (still gathering names: this may change)';
  if (!e)
    return `${head}\n\nNo known name has this hash${gathering}: the dictionary holds ${dict.size.toLocaleString('en')} names (paths, path indexes, bundle members, script literals and definitions, registry and skeleton names, your dictionary files).`;
  const rows = [e, ...(e.others ?? [])].map((n) => `- \`${n.name}\` (${n.origin})`);
  return `${head}\n\n${rows.length > 1 ? 'Names with this hash' : 'Name'}${gathering}:\n${rows.join('\n')}`;
}
