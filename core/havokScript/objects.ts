/**
 * Members of a script's `hmake` objects, as the retail scripts define them: an object `O = hmake
 * T_meta { … }` has its table's methods and fields, the fields its `hstructure T_meta` declares
 * (methods as `ifunction`, `__eventmap`), and, for what `self` holds at run time, the fields of
 * `hstructure T_inst` (the instance its constructor makes). What a member use names follows from
 * the object its left side stands for (scopes.ts `owner`): one object's member, an engine global's
 * member, or, when nothing says which object, only the candidates.
 */
import type { ScriptSymbol } from './outline';
import type { MemberUse } from './scopes';

/** What a member use names. */
export type MemberTarget =
  /** The object is known: its member of that name (code first; empty when it defines none). */
  | { kind: 'object'; object: ScriptSymbol; found: ScriptSymbol[] }
  /** The object is an engine global (a name the script neither declares nor makes an object). */
  | { kind: 'engine' }
  /** Nothing says which object: the objects and structures of the script defining that name. */
  | { kind: 'unresolved'; candidates: ScriptSymbol[]; objects: ScriptSymbol[] };

/** Every symbol of an outline with its parent (top-level ones have none). */
function* withParents(symbols: readonly ScriptSymbol[], parent?: ScriptSymbol): Generator<{ s: ScriptSymbol; parent?: ScriptSymbol }> {
  for (const s of symbols) {
    yield parent ? { s, parent } : { s };
    yield* withParents(s.children, s);
  }
}

/** The `hmake` object whose definition holds `owner` (an `hmake` expression's start): the innermost one. */
export function objectAt(symbols: readonly ScriptSymbol[], owner: number): ScriptSymbol | undefined {
  let found: ScriptSymbol | undefined;
  for (const { s } of withParents(symbols)) if (s.kind === 'hmake' && s.start <= owner && owner < s.end && (!found || s.start >= found.start)) found = s;
  return found;
}

/** The structures an object's type names: `T_meta` (its own) and `T_inst` (its instances'). */
function structuresOf(symbols: readonly ScriptSymbol[], object: ScriptSymbol): ScriptSymbol[] {
  const meta = object.detail;
  if (!meta) return [];
  const inst = meta.endsWith('_meta') ? meta.slice(0, -5) + '_inst' : undefined;
  return symbols.filter((s) => s.kind === 'structure' && (s.name === meta || s.name === inst));
}

const isCode = (s: ScriptSymbol): boolean => s.kind === 'method' || s.kind === 'function' || s.kind === 'hmake';

/** Every member an object has, by name: its table's methods and fields first, then its structures' fields not already there. */
export function objectMembers(symbols: readonly ScriptSymbol[], object: ScriptSymbol): ScriptSymbol[] {
  const out = new Map<string, ScriptSymbol>();
  for (const c of object.children) if (!out.has(c.name) || (isCode(c) && !isCode(out.get(c.name)!))) out.set(c.name, c);
  for (const st of structuresOf(symbols, object)) for (const f of st.children) if (!out.has(f.name)) out.set(f.name, f);
  return [...out.values()];
}

/** An object's members named `name`: its code (methods) first, then fields and declarations. */
export function objectMember(symbols: readonly ScriptSymbol[], object: ScriptSymbol, name: string): ScriptSymbol[] {
  const own = object.children.filter((c) => c.name === name);
  const declared = structuresOf(symbols, object).flatMap((st) => st.children.filter((f) => f.name === name));
  return [...own.filter(isCode), ...own.filter((c) => !isCode(c)), ...declared];
}

/** What the member use `use` names, given the script's outline. */
export function memberTarget(symbols: readonly ScriptSymbol[], use: MemberUse): MemberTarget {
  const object = use.owner === undefined ? undefined : objectAt(symbols, use.owner);
  if (object) return { kind: 'object', object, found: objectMember(symbols, object, use.member) };
  if (use.objectIsGlobal && use.owner === undefined) return { kind: 'engine' };
  const candidates: ScriptSymbol[] = [];
  const objects: ScriptSymbol[] = [];
  for (const { s, parent } of withParents(symbols)) {
    if (s.name !== use.member || !parent || (parent.kind !== 'hmake' && parent.kind !== 'structure')) continue;
    candidates.push(s);
    if (parent.kind === 'hmake' && isCode(s)) objects.push(parent);
  }
  const rank = (s: ScriptSymbol): number => (isCode(s) ? 0 : 1);
  return { kind: 'unresolved', candidates: candidates.sort((a, b) => rank(a) - rank(b)), objects };
}
