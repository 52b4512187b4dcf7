/**
 * Every script and object registry of a mount, read as the engine serves them, and the links
 * between them (seed 001, "Binding from script"): a registry's SCRB block binds objects to names
 * of its part's own `.scripts` (the script hash is StringHash of that path), so each bound
 * function knows the objects bound to it, and each binding that names nothing in the served
 * script is a broken mod.
 *
 * Which copy counts: a loose entry of a path wins over the copy a bundle's container embeds (the
 * patch rule: a standalone `.objres` replaces the embedded one), exactly as `resolveBundle` serves
 * members; among loose copies, the search order's winner.
 *
 * Built once per mount, bounded: a script larger than `maxScriptBytes` is listed as skipped, and
 * every read failure is recorded on the index, never thrown.
 */
import { type Mount, type ServedFile, readBundleMember, resolveBundle, servedFiles, toGamePath } from '../archive';
import { Arch06Error, isArch06Error } from '../errors';
import { defaultHasher, formatHash } from '../hash';
import { parseObjr, resolveRegistry, ownScriptPath, spelledNames } from '../formats/registry';
import { type ScriptFunction, listFunctions, parseScript } from '../formats/script';
import { type AnalysedScript, analyseScript } from './analysis';

/** Full parses kept by `analysed` (the scripts a user is looking at, not the whole mount). */
const ANALYSES_KEPT = 32;

const SNAPSHOT_VERSION = 4;

/** `ScriptIndex.toSnapshot()`: plain JSON data. */
export interface IndexSnapshot {
  version: number;
  scripts: (ServedCopy & { kind: 'source' | 'bytecode'; definitions: ScriptFunction[] })[];
  /** The registries' copies, which `boundBy` rows name by index. */
  registryCopies: ServedCopy[];
  /** Per script key, per bound name: rows `[registry, object, objectHash, class, event, function, binding]` (columns, not objects: a full install has a hundred thousand). */
  boundBy: [string, [string, SnapshotSite[]][]][];
  problems: BindingProblem[];
  failures: { path: string; reason: string }[];
  skipped: { path: string; reason: string }[];
  /**
   * The registries' names joined by newlines (one string parses far faster than a million): OBJL
   * objects, classes and groups; SCRB events and functions.
   */
  objectNames: string;
  bindingNames: string;
  registries: number;
}

type SnapshotSite = [number, string | null, number, string | null, string | null, string, number];

/** Where the served copy of a script or registry comes from (core/archive's `ServedFile` without its bytes). */
export type ServedCopy = Pick<ServedFile, 'path' | 'from' | 'source' | 'bundle'>;

/**
 * A served script as the index keeps it: its text and what it defines at the top level (the cheap
 * line lister's view, enough to check bindings). The full parse is `analyseScript` (analysis.ts),
 * made on demand: a mount holds thousands of scripts, and a tree for each would cost seconds and
 * hundreds of megabytes before the first answer.
 */
export interface IndexedScript extends ServedCopy {
  /** The source text (a compiled script has none: `kind` says so). */
  text: string;
  kind: 'source' | 'bytecode';
  /** Top-level definitions (bindable names) by lower-case name. */
  definitions: Map<string, ScriptFunction>;
}

/** One object bound to a script name by a registry's SCRB block. */
export interface BindingSite {
  /** The object's OBJL name (null when no OBJL name has the hash). */
  object: string | null;
  objectHash: number;
  class: string | null;
  event: string | null;
  /** The bound name, as the registry spells it. */
  function: string;
  /** The registry's game path and where its served copy comes from. */
  registry: ServedCopy;
  /** Index of the SCRB binding record. */
  binding: number;
}

/** A problem of the registries' bindings against their scripts (the language server's diagnostics). */
export interface BindingProblem {
  /**
   * `missing-function`: the served script does not define the bound name; `foreign-script`: the
   * binding carries another script's hash; `no-script`: no source serves the part's script.
   */
  kind: 'missing-function' | 'foreign-script' | 'no-script';
  /** The script the binding names (its part's own path). */
  script: string;
  /** The bound name, when the problem is about one. */
  function?: string;
  registry: ServedCopy;
  message: string;
}

export interface ScriptIndexOptions {
  /** Scripts larger than this are not parsed (listed in `skipped`). Default 16 MiB. */
  maxScriptBytes?: number;
  /** Called after each file, with how many of the total are done. */
  onProgress?: (done: number, total: number) => void;
  /** Checked between files; true stops the build (the index holds what was read). */
  isCancelled?: () => boolean;
}

const key = (p: string): string => toGamePath(p).toLowerCase();

export class ScriptIndex {
  private readonly scriptsByPath = new Map<string, IndexedScript>();
  private readonly analyses = new Map<string, AnalysedScript>();
  private readonly boundByScript = new Map<string, Map<string, BindingSite[]>>();
  readonly problems: BindingProblem[] = [];
  /** Files that could not be read or parsed, with why. */
  readonly failures: { path: string; reason: string }[] = [];
  readonly skipped: { path: string; reason: string }[] = [];
  /** The names the registries spell out (hash dictionary candidates): OBJL tables, SCRB events and functions. */
  private readonly objectNameSet = new Set<string>();
  private readonly bindingNameSet = new Set<string>();
  /** A snapshot's names, split on first use. */
  private namesJoined: { objects: string; bindings: string } | undefined;
  registries = 0;
  cancelled = false;

  private constructor() {}

  /** Read every script and registry the mount serves, then link the bindings. */
  static build(mount: Mount, options: ScriptIndexOptions = {}): ScriptIndex {
    const index = new ScriptIndex();
    const maxBytes = options.maxScriptBytes ?? 16 * 1024 * 1024;
    const copies = servedCopies(mount);
    const total = copies.length;
    let done = 0;
    for (const c of copies) {
      if (options.isCancelled?.()) {
        index.cancelled = true;
        break;
      }
      const copy: ServedCopy = { path: c.path, from: c.from, source: c.source, ...(c.bundle ? { bundle: c.bundle } : {}) };
      try {
        if (c.kind === 'script' && c.size > maxBytes) index.skipped.push({ path: c.path, reason: `${c.size} bytes, above the ${maxBytes}-byte limit` });
        else {
          const bytes = c.read();
          // Scripts come first (servedCopies): a registry's bindings are checked as it is read.
          if (c.kind === 'script') index.addScript(copy, bytes);
          else index.addRegistry(copy, bytes);
        }
      } catch (e) {
        index.failures.push({ path: c.path, reason: isArch06Error(e) ? e.message : String(e) });
      }
      options.onProgress?.(++done, total);
    }
    return index;
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
    return {
      version: SNAPSHOT_VERSION,
      scripts: this.scripts().map((s) => ({
        path: s.path,
        from: s.from,
        source: s.source,
        ...(s.bundle ? { bundle: s.bundle } : {}),
        kind: s.kind,
        definitions: [...s.definitions.values()],
      })),
      registryCopies,
      boundBy: [...this.boundByScript].map(([script, byName]) => [
        script,
        [...byName].map(([fn, sites]): [string, SnapshotSite[]] => [
          fn,
          sites.map((x) => [copyIndex(x.registry), x.object, x.objectHash, x.class, x.event, x.function, x.binding]),
        ]),
      ]),
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
    if (snap.version !== SNAPSHOT_VERSION)
      throw new Arch06Error('UNSUPPORTED_VERSION', 'a script index snapshot of another version', { actual: String(snap.version) });
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
        definitions: new Map(definitions.map((d) => [d.name.toLowerCase(), d])),
      };
      index.scriptsByPath.set(key(s.path), script);
    }
    for (const [script, byName] of snap.boundBy) {
      const map = new Map<string, BindingSite[]>();
      for (const [fn, rows] of byName)
        map.set(
          fn,
          rows.map(([registry, object, objectHash, cls, event, fnName, binding]) => ({
            object,
            objectHash,
            class: cls,
            event,
            function: fnName,
            registry: snap.registryCopies[registry],
            binding,
          })),
        );
      index.boundByScript.set(script, map);
    }
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

  /** The objects bound to `name` of the script at `scriptPath`. */
  boundBy(scriptPath: string, name: string): BindingSite[] {
    return this.boundByScript.get(key(scriptPath))?.get(name.toLowerCase()) ?? [];
  }

  /** Every bound name of a script with its sites. */
  bindingsOf(scriptPath: string): Map<string, BindingSite[]> {
    return this.boundByScript.get(key(scriptPath)) ?? new Map();
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

  private addScript(copy: ServedCopy, bytes: Uint8Array): void {
    const file = parseScript(bytes, copy.path);
    const text = file.source ?? '';
    const definitions = new Map<string, ScriptFunction>();
    for (const f of file.kind === 'source' ? listFunctions(text) : []) if (!definitions.has(f.name.toLowerCase())) definitions.set(f.name.toLowerCase(), f);
    this.scriptsByPath.set(key(copy.path), { ...copy, text, kind: file.kind, definitions });
  }

  private addRegistry(copy: ServedCopy, bytes: Uint8Array): void {
    let reg;
    try {
      reg = parseObjr(bytes, copy.path);
    } catch (e) {
      this.failures.push({ path: copy.path, reason: isArch06Error(e) ? e.message : String(e) });
      return;
    }
    this.registries++;
    const scriptPath = ownScriptPath(copy.path);
    const script = this.script(scriptPath);
    const resolved = resolveRegistry(reg, { scriptPath, ...(script ? { functions: new Set([...script.definitions.values()].map((f) => f.name)) } : {}) });
    const names = spelledNames(reg, resolved);
    for (const n of names.objects) this.objectNameSet.add(n);
    for (const n of names.bindings) this.bindingNameSet.add(n);
    if (!reg.bindings) return;
    const own = defaultHasher.tryHash(scriptPath);
    let sites = this.boundByScript.get(key(scriptPath));
    if (!sites) this.boundByScript.set(key(scriptPath), (sites = new Map()));
    for (const row of resolved.bindings) {
      if (own.ok && row.scriptHash !== own.hash)
        this.problems.push({
          kind: 'foreign-script',
          script: scriptPath,
          ...(row.function ? { function: row.function } : {}),
          registry: copy,
          message: `binding ${row.binding} names script hash ${formatHash(row.scriptHash)}, not the part's own script ${scriptPath} (${formatHash(own.hash)})`,
        });
      if (!row.function) continue;
      const site: BindingSite = {
        object: row.object,
        objectHash: row.objectHash,
        class: row.class,
        event: row.event,
        function: row.function,
        registry: copy,
        binding: row.binding,
      };
      const k = row.function.toLowerCase();
      const list = sites.get(k);
      if (list) list.push(site);
      else sites.set(k, [site]);
    }
    if (!script) {
      if (resolved.bindings.length)
        this.problems.push({
          kind: 'no-script',
          script: scriptPath,
          registry: copy,
          message: `the registry binds ${resolved.bindings.length} object(s) to ${scriptPath}, which no mounted source serves`,
        });
      return;
    }
    for (const [name, list] of sites) {
      if (script.definitions.has(name)) continue;
      this.problems.push({
        kind: 'missing-function',
        script: scriptPath,
        function: list[0].function,
        registry: copy,
        message: `${list[0].function} is bound (${list.map((s) => s.object ?? formatHash(s.objectHash)).join(', ')}) but the served script does not define it`,
      });
    }
  }
}

const kindOf = (p: string): 'script' | 'registry' | undefined => (/\.scripts$/i.test(p) ? 'script' : /\.objres$/i.test(p) ? 'registry' : undefined);

/** The served copy of every `.scripts` and `.objres` path, scripts first: a registry's bindings are checked against its script. */
function servedCopies(mount: Mount): (ServedFile & { kind: 'script' | 'registry' })[] {
  const files = servedFiles(mount, (p) => kindOf(p) !== undefined).map((f) => ({ ...f, kind: kindOf(f.path)! }));
  return files.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'script' ? -1 : 1));
}
