/**
 * Bindings and groups resolved by name, as seed 001 gives the keys: SCRB and ONLS key objects by
 * StringHash(object name), so each key is matched against the hashes of the OBJL's names; a
 * binding's script hash must be StringHash of the part's own `.scripts` path, and the bound name
 * must be a function or `hmake` script object of that script (the caller lists them, e.g. with
 * core/formats/script/functions.ts). Anything that does not resolve is reported on its row and in
 * `problems`, never thrown.
 */
import { defaultHasher } from '../../hash/stringHash';
import { hex32 } from '../../io/fieldReader';
import { ObjectRegistry } from './objr';

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

export interface GroupRow {
  owner: string | null;
  ownerHash: number;
  members: string[];
  /** Members that are no OBJL name. */
  unknownMembers: string[];
}

export interface ResolveOptions {
  /** The part's own script path (`….scripts`), whose StringHash every binding must carry. */
  scriptPath?: string;
  /** The names the part's script defines; when given, every bound name must be one. */
  functions?: ReadonlySet<string>;
}

export interface ResolvedRegistry {
  /** One row per object and binding (objects share binding records). */
  bindings: BindingRow[];
  groups: GroupRow[];
  /** Every binding row resolves: object, class, event, function, script. */
  bindingsResolved: boolean;
  problems: string[];
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
function namesByHash(reg: ObjectRegistry, problems: string[]): Map<number, NameInfo> {
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
      problems.push(`OBJL names ${JSON.stringify(prev.name)} and ${JSON.stringify(name)} share the hash ${hex32(h.hash)}`);
  }
  if (unhashable) problems.push(`${unhashable} OBJL names hold bytes whose StringHash value is unknown: they cannot be matched`);
  return out;
}

/** Resolve every binding row and group of a registry. */
export function resolveRegistry(reg: ObjectRegistry, options: ResolveOptions = {}): ResolvedRegistry {
  const problems: string[] = [];
  const names = namesByHash(reg, problems);
  const scriptHash = options.scriptPath !== undefined ? defaultHasher.tryHash(options.scriptPath) : undefined;
  if (scriptHash && !scriptHash.ok) problems.push(`the script path ${JSON.stringify(options.scriptPath)} holds a byte whose StringHash value is unknown`);
  const validated = reg.objectList?.recordLayout.validated ?? false;
  if (!reg.objectList) problems.push('no OBJL block: objects cannot be named');

  const bindings: BindingRow[] = [];
  const s = reg.bindings;
  for (const o of s?.objects ?? []) {
    const info = names.get(o.hash);
    if (o.firstBinding + o.count > (s?.bindings.length ?? 0)) continue; // reported by the SCRB reader
    for (let k = 0; k < o.count; k++) {
      const b = s!.bindings[o.firstBinding + k];
      const row: BindingRow = {
        object: info?.name ?? null,
        objectHash: o.hash,
        class: info?.className ?? null,
        event: b.event,
        function: b.function,
        scriptHash: b.scriptHash,
        script: scriptHash?.ok && scriptHash.hash === b.scriptHash ? options.scriptPath! : null,
        binding: b.index,
        problems: [],
      };
      if (!info) row.problems.push(`object ${hex32(o.hash)} is no OBJL name`);
      else if (row.class === null)
        row.problems.push(
          validated ? `object ${JSON.stringify(info.name)} has no OBJL record` : 'its class is unknown: the OBJL record layout did not validate',
        );
      if (b.event === null) row.problems.push('the event name does not resolve');
      if (b.function === null) row.problems.push('the function name does not resolve');
      if (options.scriptPath !== undefined && row.script === null)
        row.problems.push(`script hash ${hex32(b.scriptHash)} is not StringHash of the part's own script ${JSON.stringify(options.scriptPath)}`);
      if (options.functions && b.function !== null) {
        row.functionFound = options.functions.has(b.function);
        if (!row.functionFound) row.problems.push(`${JSON.stringify(b.function)} is neither a function nor an hmake object of the script`);
      }
      for (const p of row.problems) problems.push(`binding row ${bindings.length} (binding ${b.index}): ${p}`);
      bindings.push(row);
    }
  }
  for (const p of s?.problems ?? []) problems.push(`SCRB: ${p}`);

  const lower = new Set<string>();
  for (const n of reg.objectList?.names.byOffset.values() ?? []) lower.add(n.toLowerCase());
  const groups: GroupRow[] = (reg.groups?.index ?? []).map((e) => {
    const members = e.group?.members ?? [];
    const row: GroupRow = {
      owner: names.get(e.ownerHash)?.name ?? null,
      ownerHash: e.ownerHash,
      members,
      unknownMembers: members.filter((m) => !lower.has(m.toLowerCase())),
    };
    if (row.owner === null) problems.push(`ONLS owner ${hex32(e.ownerHash)} is no OBJL name`);
    if (row.unknownMembers.length) problems.push(`ONLS group of ${row.owner ?? hex32(e.ownerHash)}: ${row.unknownMembers.length} members are no OBJL name`);
    return row;
  });
  for (const p of reg.groups?.problems ?? []) problems.push(`ONLS: ${p}`);
  const bindingsResolved = bindings.every((b) => b.problems.length === 0) && (s?.problems.length ?? 0) === 0 && !!reg.objectList;
  return { bindings, groups, bindingsResolved, problems };
}

/** The names a registry spells out, for a hash dictionary. */
export interface SpelledNames {
  /** Every string of the OBJL's three tables: object names, classes, groups (also those no valid record uses). */
  objects: string[];
  /** The SCRB's event and function names. */
  bindings: string[];
}

/** The names of `reg` (its bindings resolved now unless `resolved` is given). */
export function spelledNames(reg: ObjectRegistry, resolved?: ResolvedRegistry): SpelledNames {
  const l = reg.objectList;
  const objects = l ? [...l.names.byOffset.values(), ...l.classes.byOffset.values(), ...l.groups.byOffset.values()] : [];
  const bindings: string[] = [];
  for (const row of (resolved ?? resolveRegistry(reg)).bindings) {
    if (row.event !== null) bindings.push(row.event);
    if (row.function !== null) bindings.push(row.function);
  }
  return { objects, bindings };
}
