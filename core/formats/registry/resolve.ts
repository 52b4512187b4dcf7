/**
 * Bindings and groups resolved by name, as seed 001 gives the keys: SCRB and ONLS key objects by
 * StringHash(object name), so each key is matched against the hashes of the OBJL's names; a
 * binding's script hash must be StringHash of the part's own `.scripts` path, and the bound name
 * must be a function or `hmake` script object of that script (the caller lists them: the
 * bindable definitions of core/havokScript's `scriptDefinitions`). Anything that does not resolve is reported on its row and in
 * `problems`, never thrown.
 *
 * Shared records stay shared (issue 21): objects pointing at one run of binding records, owners
 * pointing at one group, records naming one string are resolved once each; the object-binding
 * rows are expanded only when asked for, as many as asked for (`bindingRows`).
 */
import { defaultHasher } from '../../hash/stringHash';
import { MessageList, quoteShort } from '../../io/bounded';
import { hex32 } from '../../io/fieldReader';
import { ObjectRegistry } from './objr';
import { OnlsGroup } from './onls';

export interface BindingRow {
  /** The object's name, or null when no OBJL name has its hash. */
  object: string | null;
  objectHash: number;
  /** The object's class (null when the object is unknown or the OBJL records did not validate). */
  class: string | null;
  event: string | null;
  function: string | null;
  scriptHash: number;
  /** The script path whose hash it is (the part's own), or null when it is not. */
  script: string | null;
  /** Index of the binding record. */
  binding: number;
  /** Whether the function was found in the script (undefined when no function list was given). */
  functionFound?: boolean;
  /** What did not resolve on this row. */
  problems: string[];
}

/** An entry of the SCRB object index whose run lies inside the binding records, resolved by name. */
export interface ResolvedObject {
  /** Index in the SCRB object index. */
  index: number;
  /** The object's OBJL name, or null when no OBJL name has its hash. */
  object: string | null;
  objectHash: number;
  /** Its class (null when the object is unknown or the OBJL records did not validate). */
  class: string | null;
  /** Its run of binding records: [firstBinding, firstBinding + count). Several objects may share one. */
  firstBinding: number;
  count: number;
}

/** One SCRB binding record, resolved to its script and checked against the script's names. */
export interface ResolvedBinding {
  /** Index of the record. */
  binding: number;
  event: string | null;
  function: string | null;
  scriptHash: number;
  /** The part's own script path when the record carries its hash, else null. */
  script: string | null;
  /** Whether the function was found in the script (undefined when no function list was given). */
  functionFound?: boolean;
}

export interface GroupRow {
  owner: string | null;
  ownerHash: number;
  /** The group's members: owners whose index entries point at one group share this array. */
  members: readonly string[];
  /** Members that are no OBJL name (shared the same way). */
  unknownMembers: readonly string[];
}

export interface ResolveOptions {
  /** The part's own script path (`….scripts`), whose StringHash every binding must carry. */
  scriptPath?: string;
  /** The names the part's script defines; when given, every bound name must be one. */
  functions?: ReadonlySet<string>;
}

/**
 * A registry's bindings and groups resolved by name. Objects sharing a run of binding records
 * share it here too: `objects` (one per index entry) and `records` (one per binding record) are
 * what the file holds, and the object-binding rows (`rowCount` of them, up to objects x records on
 * a crafted file) are expanded only on demand, by `bindingRows`.
 */
export interface ResolvedRegistry {
  /** The SCRB index entries whose runs lie inside the binding records, in index order. */
  objects: ResolvedObject[];
  /** Every binding record, in file order. */
  records: ResolvedBinding[];
  /** How many objects' runs cover each record (index for index with `records`). */
  coverage: Uint32Array;
  /** Object-binding rows: the sum of the objects' counts. */
  rowCount: number;
  groups: GroupRow[];
  /** Every binding row resolves: object, class, event, function, script. */
  bindingsResolved: boolean;
  /** What does not resolve, each object, record and group once (the first `MAX_MESSAGES`, then a count). */
  problems: string[];
  /** Whether the OBJL records validated (an object without a class then has no record). */
  validated: boolean;
  /** The options the rows were checked with. */
  scriptPath?: string;
  checkedFunctions: boolean;
}

/** The script a registry's bindings name: its own path with `.scripts` for `.objres`. */
export function ownScriptPath(objresPath: string): string {
  return objresPath.replace(/\//g, '\\').replace(/\.objres$/i, '') + '.scripts';
}

interface NameInfo {
  name: string;
  className: string | null;
}

/** OBJL names by StringHash (the first of names sharing a hash; later ones are reported). */
function namesByHash(reg: ObjectRegistry, problems: MessageList): Map<number, NameInfo> {
  const out = new Map<number, NameInfo>();
  const l = reg.objectList;
  if (!l) return out;
  const classes = new Map<string, string>();
  for (const o of l.objects) if (!classes.has(o.name)) classes.set(o.name, o.className);
  let unhashable = 0;
  for (const name of l.names.byOffset.values()) {
    const h = defaultHasher.tryHash(name);
    if (!h.ok) {
      unhashable++;
      continue;
    }
    const prev = out.get(h.hash);
    if (prev === undefined) out.set(h.hash, { name, className: classes.get(name) ?? null });
    else if (prev.name.toLowerCase() !== name.toLowerCase())
      problems.add(() => `OBJL names ${quoteShort(prev.name)} and ${quoteShort(name)} share the hash ${hex32(h.hash)}`);
  }
  if (unhashable) problems.add(`${unhashable} OBJL names hold bytes whose StringHash value is unknown: they cannot be matched`);
  return out;
}

/** What does not resolve about an object, on every row of its run. */
function objectProblems(res: ResolvedRegistry, o: ResolvedObject): string[] {
  if (o.object === null) return [`object ${hex32(o.objectHash)} is no OBJL name`];
  if (o.class === null)
    return [res.validated ? `object ${quoteShort(o.object)} has no OBJL record` : 'its class is unknown: the OBJL record layout did not validate'];
  return [];
}

/** What does not resolve about a binding record, on every row that uses it. */
function recordProblems(res: ResolvedRegistry, b: ResolvedBinding): string[] {
  const out: string[] = [];
  if (b.event === null) out.push('the event name does not resolve');
  if (b.function === null) out.push('the function name does not resolve');
  if (res.scriptPath !== undefined && b.script === null)
    out.push(`script hash ${hex32(b.scriptHash)} is not StringHash of the part's own script ${quoteShort(res.scriptPath)}`);
  if (b.functionFound === false && b.function !== null) out.push(`${quoteShort(b.function)} is neither a function nor an hmake object of the script`);
  return out;
}

/** The row of object `o` and record `b`. */
export function bindingRow(res: ResolvedRegistry, o: ResolvedObject, b: ResolvedBinding): BindingRow {
  const row: BindingRow = {
    object: o.object,
    objectHash: o.objectHash,
    class: o.class,
    event: b.event,
    function: b.function,
    scriptHash: b.scriptHash,
    script: b.script,
    binding: b.binding,
    problems: [...objectProblems(res, o), ...recordProblems(res, b)],
  };
  if (b.functionFound !== undefined) row.functionFound = b.functionFound;
  return row;
}

/** The object-binding rows, per object in index order, each object's run in order; at most `limit` of them. */
export function* bindingRows(res: ResolvedRegistry, limit = Infinity): Generator<BindingRow> {
  let n = 0;
  for (const o of res.objects)
    for (let k = 0; k < o.count; k++) {
      if (n++ >= limit) return;
      yield bindingRow(res, o, res.records[o.firstBinding + k]);
    }
}

/** Resolve every binding record, index entry and group of a registry (shared runs and groups stay shared). */
export function resolveRegistry(reg: ObjectRegistry, options: ResolveOptions = {}): ResolvedRegistry {
  const problems = new MessageList();
  const names = namesByHash(reg, problems);
  const scriptHash = options.scriptPath !== undefined ? defaultHasher.tryHash(options.scriptPath) : undefined;
  if (scriptHash && !scriptHash.ok) problems.add(`the script path ${quoteShort(options.scriptPath!)} holds a byte whose StringHash value is unknown`);
  const validated = reg.objectList?.recordLayout.validated ?? false;
  if (!reg.objectList) problems.add('no OBJL block: objects cannot be named');

  const s = reg.bindings;
  const records: ResolvedBinding[] = (s?.bindings ?? []).map((b) => {
    const r: ResolvedBinding = {
      binding: b.index,
      event: b.event,
      function: b.function,
      scriptHash: b.scriptHash,
      script: scriptHash?.ok && scriptHash.hash === b.scriptHash ? options.scriptPath! : null,
    };
    if (options.functions && b.function !== null) r.functionFound = options.functions.has(b.function);
    return r;
  });
  const objects: ResolvedObject[] = [];
  // Objects per record, by a difference array over the runs: O(objects + records), however the runs overlap.
  const delta = new Int32Array(records.length + 1);
  let rowCount = 0;
  for (const o of s?.objects ?? []) {
    if (o.firstBinding + o.count > records.length) continue; // reported by the SCRB reader
    const info = names.get(o.hash);
    objects.push({
      index: o.index,
      object: info?.name ?? null,
      objectHash: o.hash,
      class: info?.className ?? null,
      firstBinding: o.firstBinding,
      count: o.count,
    });
    delta[o.firstBinding]++;
    delta[o.firstBinding + o.count]--;
    rowCount += o.count;
  }
  const coverage = new Uint32Array(records.length);
  for (let i = 0, c = 0; i < records.length; i++) coverage[i] = c += delta[i];

  const res: ResolvedRegistry = {
    objects,
    records,
    coverage,
    rowCount,
    groups: [],
    bindingsResolved: false,
    problems: [],
    validated,
    ...(options.scriptPath !== undefined ? { scriptPath: options.scriptPath } : {}),
    checkedFunctions: options.functions !== undefined,
  };
  // Each object and each record that some row uses is reported once, not once per row.
  let unresolved = 0;
  for (const o of objects) {
    if (o.count === 0) continue;
    const p = objectProblems(res, o);
    if (!p.length) continue;
    unresolved++;
    problems.add(() => `SCRB object ${o.index} (${o.object === null ? hex32(o.objectHash) : quoteShort(o.object)}, ${o.count} rows): ${p.join('; ')}`);
  }
  records.forEach((b, i) => {
    if (coverage[i] === 0) return;
    const p = recordProblems(res, b);
    if (!p.length) return;
    unresolved++;
    problems.add(() => `binding record ${b.binding} (${coverage[i]} rows): ${p.join('; ')}`);
  });
  for (const p of s?.problems ?? []) problems.add(`SCRB: ${p}`);

  res.groups = resolveGroups(reg, names, problems);
  res.bindingsResolved = unresolved === 0 && (s?.problems.length ?? 0) === 0 && !!reg.objectList;
  res.problems = problems.list();
  return res;
}

/** The ONLS index resolved: owners by hash, each group's unknown members found once however many owners share it. */
function resolveGroups(reg: ObjectRegistry, names: Map<number, NameInfo>, problems: MessageList): GroupRow[] {
  const lower = new Set<string>();
  for (const n of reg.objectList?.names.byOffset.values() ?? []) lower.add(n.toLowerCase());
  const unknownOf = new Map<OnlsGroup, readonly string[]>();
  const none: readonly string[] = [];
  const groups = (reg.groups?.index ?? []).map((e) => {
    const members = e.group?.members ?? none;
    let unknownMembers = e.group ? unknownOf.get(e.group) : none;
    if (unknownMembers === undefined) unknownOf.set(e.group!, (unknownMembers = members.filter((m) => !lower.has(m.toLowerCase()))));
    const row: GroupRow = { owner: names.get(e.ownerHash)?.name ?? null, ownerHash: e.ownerHash, members, unknownMembers };
    if (row.owner === null) problems.add(`ONLS owner ${hex32(e.ownerHash)} is no OBJL name`);
    if (unknownMembers.length)
      problems.add(() => `ONLS group of ${row.owner === null ? hex32(e.ownerHash) : quoteShort(row.owner)}: ${unknownMembers.length} members are no OBJL name`);
    return row;
  });
  for (const p of reg.groups?.problems ?? []) problems.add(`ONLS: ${p}`);
  return groups;
}

/** The names a registry spells out, for a hash dictionary. */
export interface SpelledNames {
  /** Every string of the OBJL's three tables: object names, classes, groups (also those no valid record uses). */
  objects: string[];
  /** The SCRB's event and function names, each once. */
  bindings: string[];
}

/** The names of `reg` (its bindings resolved now unless `resolved` is given). */
export function spelledNames(reg: ObjectRegistry, resolved?: ResolvedRegistry): SpelledNames {
  const l = reg.objectList;
  const objects = l ? [...l.names.byOffset.values(), ...l.classes.byOffset.values(), ...l.groups.byOffset.values()] : [];
  // From the records, not the rows, each name once: 20,000 records naming one 300 KB string give it once.
  const bindings = new Set<string>();
  for (const r of (resolved ?? resolveRegistry(reg)).records) {
    if (r.event !== null) bindings.add(r.event);
    if (r.function !== null) bindings.add(r.function);
  }
  return { objects, bindings: [...bindings] };
}
