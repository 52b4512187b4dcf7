/**
 * The script index's data shapes (what `ScriptIndex` keeps and its snapshot holds), apart from the
 * index itself so that the per-script analysis can name them without importing the index.
 */
import type { ServedFile } from '../archive';
import type { ScriptDefinition } from '../havokScript';

/** `ScriptIndex.toSnapshot()`: plain JSON data. */
export interface IndexSnapshot {
  version: number;
  scripts: (ServedCopy & { kind: 'source' | 'bytecode'; definitions: ScriptDefinition[] })[];
  /** The registries' copies, which `bindings` name by index. */
  registryCopies: ServedCopy[];
  /** The names `bindings` refer to by index (each once, however many records share it). */
  names: string[];
  /**
   * Each registry's bindings as its file holds them (runs shared, not expanded into rows): the
   * script its bindings name, its objects `[name, hash, class, firstBinding, count]` and its
   * records `[event, function, scriptHash]` (names as indexes into `names`, -1 for none).
   */
  bindings: { registry: number; script: string; objects: [number, number, number, number, number][]; records: [number, number, number][] }[];
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

/** Where the served copy of a script or registry comes from (core/archive's `ServedFile` without its bytes). */
export type ServedCopy = Pick<ServedFile, 'path' | 'from' | 'source' | 'bundle'>;

/**
 * A served script as the index keeps it: its text and what it defines (the parser's answer; the tree
 * is dropped: `analyseScript` makes the full analysis on demand, for the scripts looked at).
 */
export interface IndexedScript extends ServedCopy {
  /** The source text (a compiled script has none: `kind` says so). */
  text: string;
  kind: 'source' | 'bytecode';
  /** Bindable definitions by lower-case name (the first of a name): what bindings are checked against. */
  definitions: Map<string, ScriptDefinition>;
  /** Every definition, objects' methods included, in source order (workspace symbols). */
  allDefinitions: readonly ScriptDefinition[];
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
  /** Registries larger than this are not read (listed in `skipped`). Default 256 MiB (and never above the mount's per-entry cap). */
  maxRegistryBytes?: number;
  /** Called after each file, with how many of the total are done. */
  onProgress?: (done: number, total: number) => void;
  /** Checked between files; true stops the build (the index holds what was read). */
  isCancelled?: () => boolean;
  /**
   * What the index may keep, in bytes (counted: script texts, and registries by their size): the
   * files past it are skipped, each said so, and `degraded` says why. No limit unless given.
   */
  maxRetainedBytes?: number;
  /** Checked between files: a reason when the process is over its memory ceiling (the rest is skipped like above). */
  overMemory?: () => string | undefined;
}
