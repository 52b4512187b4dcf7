/**
 * Hashes decoded inline. Names in the engine's data are 32-bit StringHashes (seed 000), so the
 * server keeps one dictionary of candidate names (ScriptWorkspace.gatherNames, through
 * core/nameSources: every mounted path and bundle member, path indexes, every script's literals
 * and definitions, the registries' OBJL and SCRB names, skeletons' names, the user's files). A
 * script's `0x…hi` literals are another function (core/hash hiHash.ts, found on the retail
 * scripts' `__eventmap` pairs), which the same dictionary answers for its identifier names. A hash
 * literal under the cursor shows its names, the function and where each name came from, or says
 * that none is known; inlay hints (off by default) put the name after the literals.
 */
import {
  HASH_LITERAL_PATTERN,
  HI_HASH_RULE,
  HI_HASH_VERIFIED,
  HL_UNKNOWN,
  type DictionaryEntry,
  formatHash,
  hiHashVerifiedFor,
  namesOfHash,
  sourceHashLiteral,
} from '../../core/hash';
import type { Span } from '../../core/havokScript';
import { mdCode, mdText } from '../../core/io';
import type { ScriptWorkspace } from './workspace';

const HEX = new RegExp(HASH_LITERAL_PATTERN, 'g');

export interface HashLiteral {
  span: Span;
  text: string;
  hash: number;
  /** Which function: a `hi` literal's (hiHash), a 64-bit `hl` literal's (unknown), else StringHash (8 raw hex digits). */
  kind: 'hi' | 'hl' | 'string';
}

/** The hash literal holding `offset`: a `…hi` or `…hl` literal, or a raw `0x` with exactly 8 digits. */
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
  const value = sourceHashLiteral(digits, suffix);
  return value && { span: { start, end: start + text.length }, text, ...value };
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

/** The dictionary's names for a literal (none for an `hl` one, whose function is unknown). */
export function literalNames(ws: ScriptWorkspace, literal: HashLiteral): DictionaryEntry | undefined {
  return namesOfHash(ws.dictionary(), literal);
}

/** A hover's text for a hash literal: its candidate names with their origins and the function, or that none is known. */
export function hashNames(ws: ScriptWorkspace, literal: HashLiteral): string {
  if (literal.kind === 'hl') return `${mdCode(literal.text)}: ${HL_UNKNOWN}.`;
  const dict = ws.dictionary();
  const e = literalNames(ws, literal);
  const head =
    literal.kind === 'hi'
      ? `${mdCode(literal.text)} = hi hash ${formatHash(literal.hash)} (not StringHash: ${HI_HASH_RULE})`
      : `${mdCode(literal.text)} = StringHash ${formatHash(literal.hash)}`;
  const gathering = ws.namesComplete ? '' : ' (still gathering names: this may change)';
  const origin = literal.kind === 'hi' ? `\n\nThe rule ${HI_HASH_VERIFIED}.` : '';
  if (!e)
    return `${head}\n\nNo known name has this hash${gathering}: the dictionary holds ${dict.size.toLocaleString('en')} names (paths, path indexes, bundle members, script literals and definitions, registry and skeleton names, your dictionary files).${origin}`;
  const extended = (name: string): string => (literal.kind === 'hi' && !hiHashVerifiedFor(name) ? ', beyond the letters the rule is verified on' : '');
  const rows = [e, ...(e.others ?? [])].map((n) => `- ${mdCode(n.name)} (${mdText(n.origin)}${extended(n.name)})`);
  return `${head}\n\n${rows.length > 1 ? 'Names with this hash' : 'Name'}${gathering}:\n${rows.join('\n')}${origin}`;
}
