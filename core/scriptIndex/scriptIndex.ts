/**
 * Every script and object registry of a mount, read as the engine serves them, and the links
 * between them (seed 001, "Binding from script"): a registry's SCRB block binds objects to names
 * of its part's own `.scripts` (the script hash is StringHash of that path), so each bound
 * function knows the objects bound to it, and each binding that names nothing in the served
 * script is a broken mod.
 *
 * Which copy counts (servedCopies.ts): a loose entry before the copy a bundle's container embeds
 * (the patch rule), as `resolveBundle` serves members; among loose copies, the search order's winner.
 *
 * Built once per mount, here (`build`) or across the worker pool (./indexPool.ts: the files read
 * by workers, taken here in the same order, so the same index), bounded: a script larger than `maxScriptBytes` is listed as skipped, and
 * every read failure is recorded on the index, never thrown.
 */
import { type Mount, readBundleMember, resolveBundle, toGamePath } from '../archive';
import { Arch06Error, isArch06Error } from '../errors';
import { defaultHasher, formatHash } from '../hash';
import { type ResolvedBinding, type ResolvedObject, ownScriptPath } from '../formats/registry';
import { parseScript } from '../formats/script';
import { bindableMap, scriptDefinitions } from '../havokScript';
import { type AnalysedScript, analyseScript } from './analysis';
import { checkIndexSnapshot } from './snapshotShape';
import { type FileRead, type IndexSink, IndexPlan, type NameList, type RegistryRead, type ScriptRead, namesOf, readIndexedFile } from './indexRead';
import type { BindingProblem, BindingSite, IndexSnapshot, IndexedScript, ScriptIndexOptions, ServedCopy } from './types';

export type { BindingProblem, BindingSite, IndexSnapshot, IndexedScript, ScriptIndexOptions, ServedCopy } from './types';

/** Full parses kept by `analysed` (the scripts a user is looking at, not the whole mount). */
const ANALYSES_KEPT = 32;

const SNAPSHOT_VERSION = 6;

/** Sites `boundBy` returns unless told otherwise (`boundByCount` is the true count). */
export const MAX_BOUND_SITES = 1000;

/** The lookup key of a game path; a string that is no game path (a document's URI, a crafted name) gets one no entry has. */
const key = (p: string): string => {
  try {
    return toGamePath(p).toLowerCase();
  } catch {
    return `\0${p}`;
  }
};

/**
 * One registry's bindings as its file holds them (issue 21): objects pointing at runs of binding
 * records, a run shared by N objects held once with N references. A bound name's sites (objects x
 * records, up to millions on a crafted file) are expanded only when asked for, as many as asked.
 */
interface RegistryBindings {
  registry: ServedCopy;
  /** The part's script its bindings name. */
  script: string;
  /** The index entries whose runs lie inside the records, in index order. */
  objects: ResolvedObject[];
  records: ResolvedBinding[];
  /** Objects per record. */
  coverage: Uint32Array;
}

/** A bound name of a script: the records naming it, in every registry, and how many sites they make. */
interface BoundName {
  /** As the first record spells it. */
  function: string;
  refs: { bindings: RegistryBindings; record: number }[];
  /** Sites: the objects covering each record, summed. */
  count: number;
}

/** At most `max` object names for a message, then how many more: `a, b, c and 997 more` (each name cut to a few dozen characters). */
export function siteObjectList(sites: readonly BindingSite[], total: number, max = 12): string {
  const shown = sites.slice(0, max).map((s) => (s.object === null ? formatHash(s.objectHash) : s.object.length > 80 ? `${s.object.slice(0, 80)}…` : s.object));
  return total > shown.length ? `${shown.join(', ')} and ${total - shown.length} more` : shown.join(', ');
}

export class ScriptIndex implements IndexSink {
  private readonly scriptsByPath = new Map<string, IndexedScript>();
  private readonly analyses = new Map<string, AnalysedScript>();
  private readonly registryBindings: RegistryBindings[] = [];
  private readonly boundByScript = new Map<string, Map<string, BoundName>>();
  readonly problems: BindingProblem[] = [];
  /** Files that could not be read or parsed, with why. */
  readonly failures: { path: string; reason: string }[] = [];
  readonly skipped: { path: string; reason: string }[] = [];
  /** The names the registries spell out (hash dictionary candidates): OBJL tables, SCRB events and functions. */
  private readonly objectNameSet = new Set<string>();
  private readonly bindingNameSet = new Set<string>();
  /** A snapshot's names, split on first use. */
  private namesJoined: { objects: string; bindings: string } | undefined;
  /** The registries' names as read, added to the sets on first use (in registry order, so the sets' order is the files'). */
  private readonly namesRead: { objects: NameList; bindings: NameList }[] = [];
  registries = 0;
  cancelled = false;
  /** Why files were left out to stay under a memory ceiling (they are in `skipped`), if they were. */
  degraded: string | undefined;

  private constructor() {}

  /** Read every script and registry the mount serves, then link the bindings. */
  static build(mount: Mount, options: ScriptIndexOptions = {}): ScriptIndex {
    const { index, plan } = ScriptIndex.start(mount, options);
    for (let i = 0; i < plan.files.length && !plan.cancelled(); i++) {
      const f = plan.files[i];
      plan.take(i, () => readIndexedFile(f.kind, f.path, f.read));
    }
    return index;
  }

  /**
   * An empty index and the plan of its build: the files in order, each taken in its turn
   * (`build` reads them here; ./indexPool.ts on the worker pool, merged in the same order).
   */
  static start(mount: Mount, options: ScriptIndexOptions = {}): { index: ScriptIndex; plan: IndexPlan } {
    const index = new ScriptIndex();
    return { index, plan: new IndexPlan(mount, index, options) };
  }

  /** One file's reading, in file order (scripts come first: a registry's bindings are checked as it is taken). */
  take(copy: ServedCopy, read: FileRead): void {
    if ('failure' in read) this.failures.push({ path: copy.path, reason: read.failure });
    else if ('script' in read) this.addScript(copy, read.script);
    else this.addRegistry(copy, read.registry);
  }

  /**
   * What the index learned, as plain data for a cache: everything but the scripts' texts, which a
   * snapshot-made index reads again from the mount when first asked (one script at a time).
   */
  toSnapshot(): IndexSnapshot {
    const registryCopies: ServedCopy[] = [];
    const copies = new Map<ServedCopy, number>();
    const copyIndex = (c: ServedCopy): number => {
      let i = copies.get(c);
      if (i === undefined) {
        copies.set(c, (i = registryCopies.length));
        registryCopies.push(c);
      }
      return i;
    };
    const names: string[] = [];
    const nameIds = new Map<string, number>();
    const nameId = (n: string | null): number => {
      if (n === null) return -1;
      let i = nameIds.get(n);
      if (i === undefined) {
        nameIds.set(n, (i = names.length));
        names.push(n);
      }
      return i;
    };
    return {
      version: SNAPSHOT_VERSION,
      scripts: this.scripts().map((s) => ({
        path: s.path,
        from: s.from,
        source: s.source,
        ...(s.bundle ? { bundle: s.bundle } : {}),
        kind: s.kind,
        definitions: [...s.allDefinitions],
      })),
      registryCopies,
      bindings: this.registryBindings.map((b) => ({
        registry: copyIndex(b.registry),
        script: b.script,
        objects: b.objects.map((o): [number, number, number, number, number] => [nameId(o.object), o.objectHash, nameId(o.class), o.firstBinding, o.count]),
        records: b.records.map((r): [number, number, number] => [nameId(r.event), nameId(r.function), r.scriptHash]),
      })),
      names,
      problems: this.problems,
      failures: this.failures,
      skipped: this.skipped,
      objectNames: [...this.registryNames().objects].join('\n'),
      bindingNames: [...this.registryNames().bindings].join('\n'),
      registries: this.registries,
    };
  }

  /** An index from a snapshot; texts are read from `mount` on first use (a failed read leaves it empty and says so in `failures`). */
  static fromSnapshot(mount: Mount, snap: IndexSnapshot): ScriptIndex {
    if (snap?.version !== SNAPSHOT_VERSION)
      throw new Arch06Error('UNSUPPORTED_VERSION', 'a script index snapshot of another version', { actual: String(snap?.version) });
    checkIndexSnapshot(snap);
    const index = new ScriptIndex();
    for (const s of snap.scripts) {
      const { definitions, ...copy } = s;
      let text: string | undefined;
      const load = (): string => {
        try {
          const bytes =
            copy.from === 'container' && copy.bundle
              ? readBundleMember(mount, resolveBundle(mount, copy.bundle), copy.path)
              : mount.entry(copy.path, copy.source).readSync();
          return parseScript(bytes, copy.path).source ?? '';
        } catch (e) {
          index.failures.push({ path: copy.path, reason: isArch06Error(e) ? e.message : String(e) });
          return '';
        }
      };
      const script: IndexedScript = {
        ...copy,
        get text(): string {
          return (text ??= load());
        },
        definitions: bindableMap(definitions),
        allDefinitions: definitions,
      };
      index.scriptsByPath.set(key(s.path), script);
    }
    for (const b of snap.bindings) index.link(bindingsFromSnapshot(snap, b));
    index.problems.push(...snap.problems);
    index.failures.push(...snap.failures);
    index.skipped.push(...snap.skipped);
    index.namesJoined = { objects: snap.objectNames, bindings: snap.bindingNames };
    index.registries = snap.registries;
    return index;
  }

  /** The registries' names (hash dictionary candidates). */
  registryNames(): { objects: ReadonlySet<string>; bindings: ReadonlySet<string> } {
    if (this.namesJoined) {
      for (const n of this.namesJoined.objects.split('\n')) if (n) this.objectNameSet.add(n);
      for (const n of this.namesJoined.bindings.split('\n')) if (n) this.bindingNameSet.add(n);
      this.namesJoined = undefined;
    }
    for (const r of this.namesRead) {
      for (const n of namesOf(r.objects)) this.objectNameSet.add(n);
      for (const n of namesOf(r.bindings)) this.bindingNameSet.add(n);
    }
    this.namesRead.length = 0;
    return { objects: this.objectNameSet, bindings: this.bindingNameSet };
  }

  private sorted: IndexedScript[] | undefined;

  /** Every indexed script, in path order. */
  scripts(): readonly IndexedScript[] {
    return (this.sorted ??= [...this.scriptsByPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
  }

  /** The served script at a game path (case-insensitive). */
  script(path: string): IndexedScript | undefined {
    return this.scriptsByPath.get(key(path));
  }

  /**
   * The objects bound to `name` of the script at `scriptPath`: at most `limit` sites (default
   * `MAX_BOUND_SITES`; a crafted registry can bind millions), `boundByCount` says how many there are.
   */
  boundBy(scriptPath: string, name: string, limit = MAX_BOUND_SITES): BindingSite[] {
    const bound = this.boundByScript.get(key(scriptPath))?.get(name.toLowerCase());
    return bound ? sitesOf(bound, limit) : [];
  }

  /** How many object-binding sites `name` of the script at `scriptPath` has (all of them, however many `boundBy` returns). */
  boundByCount(scriptPath: string, name: string): number {
    return this.boundByScript.get(key(scriptPath))?.get(name.toLowerCase())?.count ?? 0;
  }

  /** Every bound name of a script, lower-cased (sites not expanded). */
  boundNames(scriptPath: string): IterableIterator<string> {
    return (this.boundByScript.get(key(scriptPath)) ?? new Map<string, BoundName>()).keys();
  }

  /** Every bound name of a script (lower-cased) with its first `limit` sites per name (`boundByCount` for the true count). */
  bindingsOf(scriptPath: string, limit = MAX_BOUND_SITES): Map<string, BindingSite[]> {
    const out = new Map<string, BindingSite[]>();
    for (const [name, bound] of this.boundByScript.get(key(scriptPath)) ?? []) out.set(name, sitesOf(bound, limit));
    return out;
  }

  /** A served script with its full parse (the last few are kept). */
  analysed(path: string): AnalysedScript | undefined {
    const k = key(path);
    const hit = this.analyses.get(k);
    if (hit) {
      // Most recently used last.
      this.analyses.delete(k);
      this.analyses.set(k, hit);
      return hit;
    }
    const script = this.scriptsByPath.get(k);
    if (!script) return undefined;
    const a = analyseScript(script);
    this.analyses.set(k, a);
    if (this.analyses.size > ANALYSES_KEPT) this.analyses.delete(this.analyses.keys().next().value as string);
    return a;
  }

  private addScript(copy: ServedCopy, read: ScriptRead): void {
    const allDefinitions = read.definitions;
    this.scriptsByPath.set(key(copy.path), { ...copy, text: read.text, kind: read.kind, definitions: bindableMap(allDefinitions), allDefinitions });
  }

  private addRegistry(copy: ServedCopy, read: RegistryRead): void {
    this.registries++;
    const scriptPath = ownScriptPath(copy.path);
    const script = this.script(scriptPath);
    this.namesRead.push({ objects: read.objectNames, bindings: read.bindingNames });
    if (!read.bound) return;
    const bindings: RegistryBindings = {
      registry: copy,
      script: scriptPath,
      objects: read.objects,
      records: read.records,
      coverage: read.coverage,
    };
    this.link(bindings);
    const own = defaultHasher.tryHash(scriptPath);
    // Each record once, however many objects share it.
    bindings.records.forEach((r, i) => {
      if (!own.ok || r.scriptHash === own.hash || bindings.coverage[i] === 0) return;
      this.problems.push({
        kind: 'foreign-script',
        script: scriptPath,
        ...(r.function ? { function: r.function } : {}),
        registry: copy,
        message: `binding ${r.binding} (${bindings.coverage[i]} objects) names script hash ${formatHash(r.scriptHash)}, not the part's own script ${scriptPath} (${formatHash(own.hash)})`,
      });
    });
    if (!script) {
      if (read.rowCount)
        this.problems.push({
          kind: 'no-script',
          script: scriptPath,
          registry: copy,
          message: `the registry binds ${read.rowCount} object(s) to ${scriptPath}, which no mounted source serves`,
        });
      return;
    }
    this.missingFunctions(bindings, script);
  }

  /** A problem for each name `bindings` binds that `script` does not define. */
  private missingFunctions(bindings: RegistryBindings, script: IndexedScript): void {
    for (const [name, bound] of this.boundNamesOf(bindings)) {
      if (script.definitions.has(name)) continue;
      const sites = sitesOf(bound, 12, bindings);
      this.problems.push({
        kind: 'missing-function',
        script: bindings.script,
        function: bound.function,
        registry: bindings.registry,
        message: `${bound.function} is bound (${siteObjectList(sites, countIn(bound, bindings))}) but the served script does not define it`,
      });
    }
  }

  /** The served copies `replaceScript` stood in for, by key, until `restoreScript`. */
  private readonly replaced = new Map<string, IndexedScript>();

  /**
   * The script at `path` is now `text` (a mod's copy edited, or changed on disk): its definitions
   * read again and the bindings to it checked against them, so a bound function renamed or
   * removed is a `missing-function` problem at once. A path the index does not hold is refused
   * (false): only a served script is replaced. `copy` says where the text comes from, when it moved.
   */
  replaceScript(path: string, text: string, copy?: ServedCopy): boolean {
    const k = key(path);
    const current = this.scriptsByPath.get(k);
    if (!current) return false;
    if (!this.replaced.has(k)) this.replaced.set(k, current);
    const allDefinitions = scriptDefinitions(text);
    const from = copy ?? { path: current.path, from: current.from, source: current.source, ...(current.bundle ? { bundle: current.bundle } : {}) };
    this.install(k, { ...from, text, kind: 'source', definitions: bindableMap(allDefinitions), allDefinitions });
    return true;
  }

  /** The served copy back in place of what `replaceScript` put there (its problems with it); false when nothing was replaced. */
  restoreScript(path: string): boolean {
    const k = key(path);
    const original = this.replaced.get(k);
    if (!original) return false;
    this.replaced.delete(k);
    this.install(k, original);
    return true;
  }

  private install(k: string, script: IndexedScript): void {
    this.scriptsByPath.set(k, script);
    this.analyses.delete(k);
    this.sorted = undefined;
    for (let i = this.problems.length - 1; i >= 0; i--)
      if (this.problems[i].kind === 'missing-function' && key(this.problems[i].script) === k) this.problems.splice(i, 1);
    for (const b of this.registryBindings) if (key(b.script) === k) this.missingFunctions(b, script);
  }

  /** File a registry's bound names under its script. */
  private link(bindings: RegistryBindings): void {
    const k = key(bindings.script);
    let byName = this.boundByScript.get(k);
    if (!byName) this.boundByScript.set(k, (byName = new Map()));
    this.registryBindings.push(bindings);
    const lowered = new Map<string, string>(); // records sharing a name string fold it once
    bindings.records.forEach((r, i) => {
      if (r.function === null || bindings.coverage[i] === 0) return;
      let name = lowered.get(r.function);
      if (name === undefined) lowered.set(r.function, (name = r.function.toLowerCase()));
      let bound = byName.get(name);
      if (!bound) byName.set(name, (bound = { function: r.function, refs: [], count: 0 }));
      bound.refs.push({ bindings, record: i });
      bound.count += bindings.coverage[i];
    });
  }

  /** The names one registry binds (of those filed under its script). */
  private boundNamesOf(bindings: RegistryBindings): Map<string, BoundName> {
    const out = new Map<string, BoundName>();
    for (const [name, bound] of this.boundByScript.get(key(bindings.script)) ?? []) if (bound.refs.some((r) => r.bindings === bindings)) out.set(name, bound);
    return out;
  }
}

/** The sites of a bound name (of one registry's records only, when given), at most `limit`, in registry, record and index order. */
function sitesOf(bound: BoundName, limit: number, only?: RegistryBindings): BindingSite[] {
  const out: BindingSite[] = [];
  for (const { bindings, record } of bound.refs) {
    if (only && bindings !== only) continue;
    if (bindings.coverage[record] === 0) continue;
    const r = bindings.records[record];
    for (const o of bindings.objects) {
      if (out.length >= limit) return out;
      if (record < o.firstBinding || record >= o.firstBinding + o.count) continue;
      out.push({
        object: o.object,
        objectHash: o.objectHash,
        class: o.class,
        event: r.event,
        function: r.function!,
        registry: bindings.registry,
        binding: r.binding,
      });
    }
  }
  return out;
}

/** Sites a bound name has in one registry. */
function countIn(bound: BoundName, only: RegistryBindings): number {
  let n = 0;
  for (const { bindings, record } of bound.refs) if (bindings === only) n += bindings.coverage[record];
  return n;
}

/** A registry's bindings read back from a snapshot, every index checked (a snapshot is a file like any other). */
function bindingsFromSnapshot(snap: IndexSnapshot, b: IndexSnapshot['bindings'][number]): RegistryBindings {
  const bad = (what: string): never => {
    throw new Arch06Error('INVALID', `a script index snapshot with ${what}`);
  };
  const registry = snap.registryCopies[b.registry] ?? bad(`a binding naming registry ${b.registry} of ${snap.registryCopies.length}`);
  const name = (i: number): string | null => (i === -1 ? null : (snap.names[i] ?? bad(`a name index ${i} of ${snap.names.length}`)));
  const records: ResolvedBinding[] = b.records.map(([event, fn, scriptHash], i) => ({
    binding: i,
    event: name(event),
    function: name(fn),
    scriptHash,
    script: null,
  }));
  const delta = new Int32Array(records.length + 1);
  const objects: ResolvedObject[] = b.objects.map(([object, objectHash, cls, firstBinding, count], index) => {
    if (!(Number.isInteger(firstBinding) && Number.isInteger(count) && firstBinding >= 0 && count >= 0 && firstBinding + count <= records.length))
      bad(`a run ${firstBinding}+${count} outside its ${records.length} records`);
    delta[firstBinding]++;
    delta[firstBinding + count]--;
    return { index, object: name(object), objectHash, class: name(cls), firstBinding, count };
  });
  const coverage = new Uint32Array(records.length);
  for (let i = 0, c = 0; i < records.length; i++) coverage[i] = c += delta[i];
  return { registry, script: typeof b.script === 'string' ? b.script : bad('a binding without its script'), objects, records, coverage };
}
