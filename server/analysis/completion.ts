/**
 * Completion from what the install teaches: after `Global.` or `Global:` the members the mount's
 * scripts use on that global (most used first) and those the seeds document; after `self.`/`self:`
 * in an `hmake` object's method (or a name standing for an object) that object's members; after
 * another local the methods and fields this script defines; elsewhere the locals in scope before
 * the cursor, the engine globals by use, this script's definitions and the keywords. Unknown
 * globals are never errors, so nothing here is exhaustive: it is what the scripts show.
 */
import { KEYWORDS, type ScriptSymbol, objectAt, objectMembers, useAt } from '../../core/havokScript';
import { type AnalysedScript, DOCUMENTED_API, DOCUMENTED_CLASSES, documentedApi } from '../../core/scriptIndex';
import { allSymbols } from './navigation';
import type { ScriptWorkspace } from './workspace';

export type CompletionKind = 'function' | 'method' | 'field' | 'class' | 'variable' | 'keyword' | 'module';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Sorts before others of lower rank (use counts). */
  rank: number;
}

const MEMBER_BEFORE = /([A-Za-z_][A-Za-z0-9_]*)\s*([.:])\s*([A-Za-z_][A-Za-z0-9_]*)?$/;
/**
 * How much of the line before the cursor MEMBER_BEFORE reads: an end-anchored pattern tries every
 * start, so a long line costs its length squared (the fuzz harness's server case 83 of seed
 * 176504706: 835 KB of one line, minutes of CPU per completion).
 */
const MEMBER_WINDOW = 512;

export function completion(ws: ScriptWorkspace, uri: string, offset: number): CompletionEntry[] {
  const doc = ws.document(uri);
  if (!doc) return [];
  // An offset outside the text (a client's or a fuzzer's) reads nothing: slice(0, -1) is the whole text.
  const at = Math.max(0, Math.min(offset, doc.text.length));
  const line = doc.text.slice(Math.max(doc.text.lastIndexOf('\n', at - 1) + 1, at - MEMBER_WINDOW), at);
  const member = MEMBER_BEFORE.exec(line);
  if (member) {
    const [whole, object, indexer] = member;
    // The object's name as the last parse resolved it (the use right before the indexer).
    const use = useAt(doc.names.names, at - whole.length + object.length);
    const owner = use?.name === object && use.owner !== undefined ? objectAt(doc.symbols, use.owner) : undefined;
    if (owner) return objectCompletions(doc, owner, indexer as '.' | ':');
    const local = use?.name === object ? use.scope === 'local' : doc.names.names.some((n) => n.name === object && n.scope === 'local' && n.start < offset);
    return local || object === 'self' ? ownMembers(ws, uri) : globalMembers(ws, object, indexer as '.' | ':');
  }
  const out: CompletionEntry[] = [];
  const seen = new Set<string>();
  const push = (e: CompletionEntry): void => {
    if (seen.has(e.label)) return;
    seen.add(e.label);
    out.push(e);
  };
  for (const n of localsInScope(doc.names.names, offset)) push({ label: n, kind: 'variable', detail: 'local', rank: 1_000_000 });
  for (const s of allSymbols(doc)) if (s.bindable) push({ label: s.name, kind: s.kind === 'hmake' ? 'module' : 'function', detail: s.detail, rank: 500_000 });
  for (const g of ws.usage().ranked()) {
    const isClass = g.members.size > 0 && /^[A-Z]/.test(g.name);
    push({ label: g.name, kind: isClass ? 'class' : g.calls > 0 ? 'function' : 'variable', detail: `engine global · used ${g.uses}×`, rank: g.uses });
  }
  for (const c of DOCUMENTED_CLASSES) push({ label: c, kind: 'class', detail: 'engine class (seed 001)', rank: 0 });
  for (const k of KEYWORDS) push({ label: k, kind: 'keyword', rank: -1 });
  return out;
}

/** The members used on a global across the mount, and those the seeds document. */
function globalMembers(ws: ScriptWorkspace, object: string, indexer: '.' | ':'): CompletionEntry[] {
  const out: CompletionEntry[] = [];
  const used = ws.usage().globals.get(object);
  for (const m of used?.members.values() ?? []) {
    if (m.indexer !== indexer) continue;
    const d = documentedApi(object, indexer, m.name);
    out.push({
      label: m.name,
      kind: indexer === ':' ? 'method' : m.calls > 0 ? 'function' : 'field',
      detail: `${object}${indexer}${m.name} · used ${m.uses}×`,
      ...(d ? { documentation: `${d.signature}\n\n${d.doc}` } : {}),
      rank: m.uses,
    });
  }
  for (const d of DOCUMENTED_API) {
    const m = new RegExp(`^${object}\\${indexer}([A-Za-z_]+)$`).exec(d.name);
    if (m && !out.some((e) => e.label === m[1])) out.push({ label: m[1], kind: 'method', detail: d.signature, documentation: d.doc, rank: 0 });
  }
  if (indexer === '.' && !out.some((e) => e.label === 'Create') && (used?.members.size || DOCUMENTED_CLASSES.includes(object))) {
    const d = documentedApi(object, '.', 'Create')!;
    out.push({ label: 'Create', kind: 'function', detail: d.signature, documentation: d.doc, rank: 0 });
  }
  return out;
}

/** One object's members (`self:` in its methods): its methods after `:`, its methods and fields after `.`. */
function objectCompletions(doc: AnalysedScript, object: ScriptSymbol, indexer: '.' | ':'): CompletionEntry[] {
  const out: CompletionEntry[] = [];
  for (const s of objectMembers(doc.symbols, object)) {
    const method = s.kind === 'method' || s.detail === 'ifunction';
    if (indexer === ':' && !method) continue;
    out.push({
      label: s.name,
      kind: method ? 'method' : 'field',
      detail: `${object.name}${indexer}${s.name}${s.detail && s.kind === 'method' ? ' ' + s.detail : s.detail ? ' : ' + s.detail : ''}`,
      rank: method ? 1 : 0,
    });
  }
  return out;
}

/** The methods and fields this script's hmake objects and hstructures define (an object not known: all of them). */
function ownMembers(ws: ScriptWorkspace, uri: string): CompletionEntry[] {
  const doc = ws.document(uri)!;
  const out = new Map<string, CompletionEntry>();
  for (const s of allSymbols(doc)) {
    if (s.kind !== 'method' && s.kind !== 'field') continue;
    if (!out.has(s.name))
      out.set(s.name, {
        label: s.name,
        kind: s.kind === 'method' ? 'method' : 'field',
        ...(s.detail ? { detail: s.detail } : {}),
        rank: s.kind === 'method' ? 1 : 0,
      });
  }
  return [...out.values()];
}

/** Locals declared before the cursor: a superset of those in scope (completion offers, it does not judge). */
function localsInScope(names: readonly { name: string; role: string; start: number }[], offset: number): string[] {
  const out = new Set<string>();
  for (const n of names) if (n.role === 'declaration' && n.start < offset) out.add(n.name);
  return [...out];
}

/** A sort key that puts higher ranks first: a zero-padded inverse of the rank sorts ascending. */
export const rankSortText = (rank: number): string => String(1e9 - Math.min(1e9, Math.max(-1, rank))).padStart(10, '0');

/** Completion cut to the `max` highest ranked entries, with how many there were. */
export function cappedCompletion(ws: ScriptWorkspace, uri: string, offset: number, max: number): { items: CompletionEntry[]; total: number } {
  const all = completion(ws, uri, offset);
  return { items: all.length > max ? [...all].sort((a, b) => b.rank - a.rank).slice(0, max) : all, total: all.length };
}
