/**
 * Edits of a registry model (./model.ts): pure functions, each returning a new model whose edited
 * blocks are regenerated on save (string areas rebuilt, offsets recomputed) while every other
 * block keeps its bytes. Each edit is re-validated with the checks the reader runs: the result is
 * written, read again by `parseObjr` and resolved (`resolveRegistry` against the part's own script
 * path), and an edit that makes any rule break that held before (a record that does not validate,
 * an SCRB or ONLS key that names no object, an unsorted index …) is refused with a typed
 * `Arch06Error` naming the rule, and nothing changes.
 *
 * Objects are named by their OBJL name (unique on every real registry; SCRB and ONLS key them by
 * its StringHash). A rename carries the object's bindings and group entries along; a delete takes
 * them with it. Binding edits keep shared runs shared where they can: an edit for one object of a
 * shared run gives that object its own run (an equal existing run if there is one), records nobody
 * points at any more are dropped and the runs after them renumbered.
 */
import { Arch06Error } from '../../errors';
import { defaultHasher } from '../../hash/stringHash';
import { quoteShort } from '../../io/bounded';
import { parseObjr } from './objr';
import { ownScriptPath, resolveRegistry } from './resolve';
import { ModelBlock, ModelObject, ObjlBlock, RegistryModel, ScrbBlock, blockOf, saveRegistry } from './model';
import { EulerDegrees, Quaternion, normalizedF32, quaternionFromDegrees } from './rotation';
import { ScrbIndexSpec, ScrbRecordSpec } from './writer';

const bad = (message: string, field: string, actual?: string): Arch06Error => new Arch06Error('BAD_ARGUMENT', message, { field, actual });

/** StringHash of a name the registry will hold (single-byte text, no NUL, not empty). */
function nameHash(name: string, field: string): number {
  if (name === '' || name.includes('\0') || [...name].some((c) => c.charCodeAt(0) > 0xff))
    throw bad('a registry name is non-empty single-byte text without NUL', field, quoteShort(name));
  const h = defaultHasher.tryHash(name);
  if (!h.ok) throw bad(`byte 0x${h.byte.toString(16)} has no StringHash value`, field, quoteShort(name));
  return h.hash;
}

/** Problems per model: an edit's result is the next edit's start, so each model is checked once. */
const checkedProblems = new WeakMap<RegistryModel, string[]>();

/** Every problem the reader and the resolver report on the registry's bytes. */
function problemsOf(model: RegistryModel): string[] {
  const known = checkedProblems.get(model);
  if (known) return known;
  const out = readProblems(model);
  checkedProblems.set(model, out);
  return out;
}

function readProblems(model: RegistryModel): string[] {
  const reg = parseObjr(saveRegistry(model), model.file);
  const out = reg.blocks.filter((b) => b.error).map((b) => `block ${b.index}: ${b.error!.message}`);
  const l = reg.objectList;
  if (l && !l.recordLayout.validated) out.push(`OBJL: ${l.recordLayout.reason ?? 'the records do not validate'}`);
  out.push(...resolveRegistry(reg, { scriptPath: ownScriptPath(model.file) }).problems);
  return out;
}

/** `after` when it breaks no rule `before` kept; a typed error naming the first new problem otherwise. */
function checked(before: RegistryModel, after: RegistryModel, what: string): RegistryModel {
  const was = problemsOf(before);
  const now = problemsOf(after);
  const known = new Set(was);
  const fresh = now.filter((p) => !known.has(p));
  if (now.length > was.length || (was.length === 0 && fresh.length)) {
    throw new Arch06Error('INVALID', `${what} breaks a rule the reader checks: ${fresh[0] ?? now[now.length - 1]}`, { file: before.file, field: what });
  }
  return after;
}

function replaced(model: RegistryModel, old: ModelBlock, block: ModelBlock): RegistryModel {
  return { ...model, blocks: model.blocks.map((b) => (b === old ? block : b)) };
}

function editable<K extends 'OBJL' | 'SCRB' | 'ONLS'>(model: RegistryModel, kind: K): Extract<ModelBlock, { kind: K }> {
  const b = blockOf(model, kind);
  if (b) return b;
  const raw = model.blocks.find((x) => x.kind === 'raw' && x.tag === kind);
  throw new Arch06Error(
    'INVALID',
    raw?.kind === 'raw' ? `the ${kind} block is kept as bytes (${raw.why ?? 'not decoded'}): it cannot be edited` : `the registry has no ${kind} block`,
    {
      file: model.file,
      field: kind,
    },
  );
}

/** Where an object is: its set and index in the set. */
function find(l: ObjlBlock, name: string): { set: number; at: number } {
  for (let s = 0; s < l.sets.length; s++) {
    const at = l.sets[s].objects.findIndex((o) => o.name === name);
    if (at >= 0) return { set: s, at };
  }
  throw new Arch06Error('NOT_FOUND', `no object named ${quoteShort(name)}`, { field: 'object', actual: quoteShort(name) });
}

/** The OBJL block with one object replaced (or removed when `next` is null). */
function withObject(l: ObjlBlock, name: string, next: (o: ModelObject) => ModelObject | null): ObjlBlock {
  const { set, at } = find(l, name);
  const sets = l.sets.map((s, i) => {
    if (i !== set) return s;
    const objects = [...s.objects];
    const o = next(objects[at]);
    if (o) objects[at] = o;
    else objects.splice(at, 1);
    return { ...s, objects };
  });
  return { kind: 'OBJL', nameHash: l.nameHash, sets };
}

export interface ObjectTransform {
  /** Centimetres. */
  position?: [number, number, number];
  /** A quaternion x, y, z, w (normalized and rounded to f32 before it is stored). */
  rotation?: Quaternion;
  /** [pitch, yaw, roll] in degrees (./rotation.ts), instead of `rotation`. */
  rotationDegrees?: EulerDegrees;
}

/** Move and/or turn an object. */
export function setObjectTransform(model: RegistryModel, name: string, t: ObjectTransform): RegistryModel {
  if (t.position && !t.position.every(Number.isFinite)) throw bad('a position is three finite numbers', 'position', t.position.join(', '));
  const q = t.rotationDegrees ? quaternionFromDegrees(t.rotationDegrees) : t.rotation ? normalizedF32(t.rotation) : undefined;
  if (t.rotation && !t.rotation.every(Number.isFinite)) throw bad('a rotation is four finite numbers', 'rotation', t.rotation.join(', '));
  const l = editable(model, 'OBJL');
  const position = t.position?.map((x) => Math.fround(x)) as [number, number, number] | undefined;
  const next = withObject(l, name, (o) => ({ ...o, position: position ?? o.position, rotation: q ?? o.rotation }));
  return checked(model, replaced(model, l, next), 'the transform');
}

/** Change an object's class. */
export function setObjectClass(model: RegistryModel, name: string, className: string): RegistryModel {
  nameHash(className, 'className');
  const l = editable(model, 'OBJL');
  return checked(
    model,
    replaced(
      model,
      l,
      withObject(l, name, (o) => ({ ...o, className })),
    ),
    'the class',
  );
}

const sortedIndex = (index: ScrbIndexSpec[]): ScrbIndexSpec[] => [...index].sort((a, b) => (a.hash >>> 0) - (b.hash >>> 0));

/** Rename an object; its SCRB index entry and ONLS entries (owner and member) follow the new name. */
export function renameObject(model: RegistryModel, name: string, newName: string): RegistryModel {
  const to = nameHash(newName, 'name');
  const from = nameHash(name, 'name');
  const l = editable(model, 'OBJL');
  if (newName !== name && l.sets.some((s) => s.objects.some((o) => o.name === newName)))
    throw bad(`an object named ${quoteShort(newName)} exists already`, 'name', quoteShort(newName));
  let out = replaced(
    model,
    l,
    withObject(l, name, (o) => ({ ...o, name: newName })),
  );
  const s = blockOf(out, 'SCRB');
  if (s?.index.some((e) => e.hash === from))
    out = replaced(out, s, {
      kind: 'SCRB',
      nameHash: s.nameHash,
      records: s.records,
      index: sortedIndex(s.index.map((e) => (e.hash === from ? { ...e, hash: to } : e))),
    });
  const g = blockOf(out, 'ONLS');
  if (g?.groups.some((x) => x.owners.includes(from) || x.members.includes(name))) {
    const groups = g.groups.map((x) => ({ members: x.members.map((m) => (m === name ? newName : m)), owners: x.owners.map((h) => (h === from ? to : h)) }));
    out = replaced(out, g, { kind: 'ONLS', nameHash: g.nameHash, groups });
  }
  return checked(model, out, 'the rename');
}

/** Records referenced before but by no entry now are dropped; the runs after them renumbered. */
function compact(records: ScrbRecordSpec[], before: ScrbIndexSpec[], index: ScrbIndexSpec[]): { records: ScrbRecordSpec[]; index: ScrbIndexSpec[] } {
  const used = (list: ScrbIndexSpec[]): Uint8Array => {
    const u = new Uint8Array(records.length);
    for (const e of list) u.fill(1, e.first, e.first + e.count);
    return u;
  };
  const was = used(before);
  const now = used(index);
  const shift = new Int32Array(records.length + 1);
  const kept: ScrbRecordSpec[] = [];
  records.forEach((r, i) => {
    shift[i + 1] = shift[i] + (was[i] && !now[i] ? 1 : 0);
    if (!(was[i] && !now[i])) kept.push(r);
  });
  return { records: kept, index: index.map((e) => ({ ...e, first: e.first - shift[e.first] })) };
}

/** The start of a run of records equal to `run`, or -1. */
function findRun(records: ScrbRecordSpec[], run: ScrbRecordSpec[], skip?: ScrbIndexSpec): number {
  const same = (a: ScrbRecordSpec, b: ScrbRecordSpec): boolean => a.event === b.event && a.function === b.function && a.scriptHash === b.scriptHash;
  for (let i = 0; i + run.length <= records.length; i++) {
    if (skip && i < skip.first + skip.count && i + run.length > skip.first) continue;
    if (run.every((r, k) => same(r, records[i + k]))) return i;
  }
  return -1;
}

/** The SCRB block with `hash`'s run replaced by `run` (null: the entry removed), sharing runs where it can. */
function withRun(s: ScrbBlock, hash: number, run: ScrbRecordSpec[] | null): ScrbBlock {
  const entry = s.index.find((e) => e.hash === hash);
  let records = s.records;
  let index = s.index.filter((e) => e !== entry);
  if (run) {
    const shared = entry !== undefined && index.some((e) => e.first < entry.first + entry.count && e.first + e.count > entry.first);
    let first = findRun(records, run, entry);
    if (first < 0 && entry && !shared && entry.count === run.length) {
      first = entry.first; // its own run: edited in place
      records = [...records.slice(0, first), ...run, ...records.slice(first + run.length)];
    } else if (first < 0) {
      first = records.length;
      records = [...records, ...run];
    }
    index = sortedIndex([...index, { hash, first, count: run.length }]);
  }
  return { kind: 'SCRB', nameHash: s.nameHash, ...compact(records, s.index, index) };
}

export interface BindingChange {
  event?: string;
  function?: string;
}

/** Change one binding of one object (its `k`-th record); objects sharing its run keep theirs. */
export function setObjectBinding(model: RegistryModel, name: string, k: number, change: BindingChange): RegistryModel {
  const s = editable(model, 'SCRB');
  const hash = nameHash(name, 'object');
  const e = s.index.find((x) => x.hash === hash);
  if (!e) throw new Arch06Error('NOT_FOUND', `${quoteShort(name)} has no bindings`, { field: 'object', actual: quoteShort(name) });
  if (!(k >= 0 && k < e.count)) throw bad(`${quoteShort(name)} has ${e.count} bindings`, 'binding', String(k));
  if (change.event !== undefined) nameHash(change.event, 'event');
  if (change.function !== undefined) nameHash(change.function, 'function');
  const run = s.records
    .slice(e.first, e.first + e.count)
    .map((r, i) => (i === k ? { ...r, event: change.event ?? r.event, function: change.function ?? r.function } : r));
  return checked(model, replaced(model, s, withRun(s, hash, run)), 'the binding');
}

/** Change a binding record for every object whose run holds it. */
export function setBindingRecord(model: RegistryModel, record: number, change: BindingChange): RegistryModel {
  const s = editable(model, 'SCRB');
  if (!(record >= 0 && record < s.records.length)) throw bad(`the SCRB block holds ${s.records.length} records`, 'record', String(record));
  if (change.event !== undefined) nameHash(change.event, 'event');
  if (change.function !== undefined) nameHash(change.function, 'function');
  const records = s.records.map((r, i) => (i === record ? { ...r, event: change.event ?? r.event, function: change.function ?? r.function } : r));
  return checked(model, replaced(model, s, { kind: 'SCRB', nameHash: s.nameHash, records, index: s.index }), 'the binding record');
}

/** Rename a bound function in every binding record that names it (the script's function was renamed). */
export function renameBoundFunction(model: RegistryModel, from: string, to: string): RegistryModel {
  const s = editable(model, 'SCRB');
  nameHash(to, 'function');
  if (!s.records.some((r) => r.function === from))
    throw new Arch06Error('NOT_FOUND', `no binding names ${quoteShort(from)}`, { field: 'function', actual: quoteShort(from) });
  const records = s.records.map((r) => (r.function === from ? { ...r, function: to } : r));
  return checked(model, replaced(model, s, { kind: 'SCRB', nameHash: s.nameHash, records, index: s.index }), 'the function rename');
}

/** Set the members of `owner`'s group (a group it shares with other owners is left to them; a new one is added). */
export function setGroupMembers(model: RegistryModel, owner: string, members: string[]): RegistryModel {
  const g = editable(model, 'ONLS');
  const hash = nameHash(owner, 'owner');
  members.forEach((m, i) => nameHash(m, `members[${i}]`));
  const at = g.groups.findIndex((x) => x.owners.includes(hash));
  let groups = g.groups;
  if (at >= 0 && g.groups[at].owners.length === 1) groups = groups.map((x, i) => (i === at ? { members: [...members], owners: x.owners } : x));
  else {
    groups = groups.map((x, i) => (i === at ? { members: x.members, owners: x.owners.filter((h) => h !== hash) } : x));
    groups = [...groups, { members: [...members], owners: [hash] }];
  }
  return checked(model, replaced(model, g, { kind: 'ONLS', nameHash: g.nameHash, groups }), 'the group');
}

export type NewObject = Pick<ModelObject, 'name' | 'className'> & Partial<ModelObject>;

export interface AddObjectOptions {
  /** The set (index) to add it to (default: the last). */
  set?: number;
  /** Its script bindings (functions of the part's own script). */
  bindings?: { event: string; function: string }[];
}

/** Add an object at the end of a set, with its bindings. */
export function addObject(model: RegistryModel, obj: NewObject, options: AddObjectOptions = {}): RegistryModel {
  const l = editable(model, 'OBJL');
  const hash = nameHash(obj.name, 'name');
  nameHash(obj.className, 'className');
  if (l.sets.some((s) => s.objects.some((o) => o.name === obj.name)))
    throw bad(`an object named ${quoteShort(obj.name)} exists already`, 'name', quoteShort(obj.name));
  const setIndex = options.set ?? l.sets.length - 1;
  if (!(setIndex >= 0 && setIndex < l.sets.length)) throw bad(`the OBJL block holds ${l.sets.length} sets`, 'set', String(options.set));
  const o: ModelObject = {
    className: obj.className,
    name: obj.name,
    group: obj.group ?? null,
    propertyIndex: obj.propertyIndex ?? 0,
    position: (obj.position ?? [0, 0, 0]).map((x) => Math.fround(x)) as [number, number, number],
    rotation: normalizedF32(obj.rotation ?? [0, 0, 0, 1]),
    templateId: obj.templateId ?? 0,
    reserved0C: obj.reserved0C ?? 0,
    word2A: obj.word2A ?? 0,
  };
  const sets = l.sets.map((s, i) => (i === setIndex ? { ...s, objects: [...s.objects, o] } : s));
  let out = replaced(model, l, { kind: 'OBJL', nameHash: l.nameHash, sets });
  if (options.bindings?.length) {
    const s = editable(out, 'SCRB');
    const scriptHash = s.records[0]?.scriptHash ?? nameHash(ownScriptPath(model.file), 'script');
    options.bindings.forEach((b, i) => (nameHash(b.event, `bindings[${i}].event`), nameHash(b.function, `bindings[${i}].function`)));
    out = replaced(
      out,
      s,
      withRun(
        s,
        hash,
        options.bindings.map((b) => ({ ...b, scriptHash })),
      ),
    );
  }
  return checked(model, out, 'the new object');
}

/** Delete an object with its bindings (records no other object uses), its group and its group memberships. */
export function deleteObject(model: RegistryModel, name: string): RegistryModel {
  const l = editable(model, 'OBJL');
  const hash = nameHash(name, 'name');
  let out = replaced(
    model,
    l,
    withObject(l, name, () => null),
  );
  const s = blockOf(out, 'SCRB');
  if (s?.index.some((e) => e.hash === hash)) out = replaced(out, s, withRun(s, hash, null));
  const g = blockOf(out, 'ONLS');
  if (g?.groups.some((x) => x.owners.includes(hash) || x.members.includes(name))) {
    const groups = g.groups
      .filter((x) => !(x.owners.length === 1 && x.owners[0] === hash))
      .map((x) => ({ members: x.members.filter((m) => m !== name), owners: x.owners.filter((h) => h !== hash) }));
    out = replaced(out, g, { kind: 'ONLS', nameHash: g.nameHash, groups });
  }
  return checked(model, out, 'the delete');
}
