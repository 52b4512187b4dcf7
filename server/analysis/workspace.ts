/**
 * What the language server knows, without any LSP type: the mounted install (the server mounts it
 * itself through the engine), the index of every script and registry it serves, and the scripts
 * open in the editor, whose text replaces the served copy's while they are open.
 *
 * Documents are named by URI. Those the extension opens are `arch06:` paths of the mount's views
 * (`/<game path>`, `/@sources/<name>/<game path>`, `/<manifest> [bundle]/<member path>`) under the
 * file system's scheme or the script view's (`arch06-text:`); both map to the game path the index
 * knows (case-insensitively, like the file system). Any other URI (a loose `.scripts` or `.lua` on
 * disk) is a script of its own, with no bindings.
 */
import * as fs from 'node:fs';
import {
  type Mount,
  type WorkerPool,
  SCHEME,
  TEXT_SCHEME,
  gamePathOf,
  memberUriPath,
  mergedUriPath,
  parseUriPath,
  textViewPath,
  viewedPath,
} from '../../core/archive';
import {
  type AnalysedScript,
  CrossScriptIndex,
  type GlobalSite,
  type IndexedScript,
  type ScriptIndex,
  type ScriptIndexOptions,
  type ServedCopy,
  type UsageIndex,
  analyseText,
  scriptDiagnostics,
} from '../../core/scriptIndex';
import type { Diagnostic, NameUse, Span } from '../../core/havokScript';
import { HashDictionary } from '../../core/hash';
import { type CollectReport, collectInstallNames } from '../../core/nameSources';
import { type CachedIndex, type SnapshotPlace, cachedCross, cachedIndex, cachedIndexAsync } from '../indexCache';
import { type ActiveMod, gamePathInMods, gamePathOfModTextUri, modFilePath, modSourceName, openOverlay } from '../../core/mod';
import { readFileBytes } from '../../core/io/node';
import { parseScript } from '../../core/formats/script';

export interface MountSettings {
  installRoot: string;
  cfg?: string;
  extraArchives?: string[];
  /** The window's active mods (issue 23): overlaid at their positions, as the extension mounts them. */
  mods?: ActiveMod[];
}

/** A place in some script: the script (served copy or open document) and a span in its text. */
export interface ScriptLocation {
  script: IndexedScript;
  /** The URI to use when the script is the open document that asked; otherwise derived from `script`. */
  uri?: string;
  span: Span;
}

/** A global's top-level definition (`function Name()`, `Name = …`) or use. */
export interface GlobalPlace {
  script: IndexedScript;
  span: Span;
  role: 'read' | 'write';
}

/** A document longer than this (in UTF-16 units) is kept but not parsed: the index's limit for a served script (16 MiB). */
export const MAX_ANALYSED_CHARS = 16 * 1024 * 1024;

/** What a workspace is made with beyond the index's options. */
export interface WorkspaceOptions extends ScriptIndexOptions {
  cacheFolder?: string;
  log?: (line: string) => void;
  /** Bytes the hash names' gathering may read (core/nameSources' budget). */
  namesBudgetBytes?: number;
}

/** The install the settings name, mounted with the active mods overlaid. */
const mountOf = (settings: MountSettings): Mount =>
  openOverlay({ root: settings.installRoot, cfg: settings.cfg, extraArchives: settings.extraArchives }, settings.mods ?? []).mount;

/** An analysis's global name uses by name, made once per analysis: a lookup per name, not a pass over every name of every open document. */
const globalUsesOf = new WeakMap<AnalysedScript, Map<string, NameUse[]>>();
function globalUses(script: AnalysedScript): Map<string, NameUse[]> {
  let byName = globalUsesOf.get(script);
  if (!byName) {
    byName = new Map();
    for (const n of script.names.names) {
      if (n.scope !== 'global') continue;
      const list = byName.get(n.name);
      if (list) list.push(n);
      else byName.set(n.name, [n]);
    }
    globalUsesOf.set(script, byName);
  }
  return byName;
}

export class ScriptWorkspace {
  private readonly open = new Map<string, { version: number; script: AnalysedScript; notice?: string }>();
  /** How many times a document's text was parsed (edits analysed, not queued: the storm tests count them). */
  analyses = 0;
  private crossCache: CrossScriptIndex | undefined;
  private userNames: string[] = [];
  /** The hash dictionary, filled in the background by `gatherNames` (see there); started on first use. */
  private names: { dict: HashDictionary; done: Promise<void>; complete: boolean } | undefined;
  private namesGeneration = 0;
  private disposed = false;

  private constructor(
    readonly mount: Mount | undefined,
    readonly index: ScriptIndex | undefined,
    /** The active mods the mount overlays: their `arch06-modtext:` documents stand for game paths. */
    readonly mods: readonly ActiveMod[] = [],
  ) {}

  /**
   * A workspace over an install (mounted and indexed now, from the cache folder's snapshot when it
   * is current), or none (loose files only).
   */
  static create(settings: MountSettings | undefined, options: WorkspaceOptions = {}): ScriptWorkspace {
    if (!settings?.installRoot) return new ScriptWorkspace(undefined, undefined);
    const mount = mountOf(settings);
    try {
      return ScriptWorkspace.over(mount, cachedIndex(mount, options.cacheFolder, options, options.log), settings, options);
    } catch (e) {
      mount.close();
      throw e;
    }
  }

  /**
   * The same, the index built on the worker pool when `options.pool` is given (else on this thread,
   * as `create`); `options.signal` cancels the build (every worker terminated), and the workspace
   * then has a `cancelled` index: the caller drops it.
   */
  static async createAsync(
    settings: MountSettings | undefined,
    options: WorkspaceOptions & { pool?: WorkerPool; signal?: AbortSignal } = {},
  ): Promise<ScriptWorkspace> {
    if (!settings?.installRoot) return new ScriptWorkspace(undefined, undefined);
    const mount = mountOf(settings);
    try {
      return ScriptWorkspace.over(mount, await cachedIndexAsync(mount, options.cacheFolder, options, options.log), settings, options);
    } catch (e) {
      mount.close();
      throw e;
    }
  }

  private static over(mount: Mount, cached: CachedIndex, settings: MountSettings, options: WorkspaceOptions): ScriptWorkspace {
    const ws = new ScriptWorkspace(mount, cached.index, settings.mods ?? []);
    ws.namesBudget = options.namesBudgetBytes;
    ws.indexedFrom = cached.from;
    ws.indexMs = cached.ms;
    ws.snapshots = cached.place;
    ws.log = options.log ?? (() => undefined);
    return ws;
  }

  /** Where the index came from and how long it took (for the log). */
  indexedFrom: 'cache' | 'built' | 'none' = 'none';
  indexMs = 0;
  /** Where the cross-script facts came from (for the log), once made. */
  crossFrom: 'cache' | 'built' | undefined;
  private snapshots: SnapshotPlace | undefined;
  private namesBudget: number | undefined;
  private log: (line: string) => void = () => undefined;

  dispose(): void {
    this.disposed = true;
    this.mount?.close();
  }

  /** The game path a document URI names, or undefined for a document outside the mount. */
  gamePathOf(uri: string): string | undefined {
    if (this.isModText(uri)) return gamePathOfModTextUri(this.mods, uri);
    const m = /^([a-z0-9+.-]+):(?:\/\/[^/]*)?([^?#]*)/i.exec(uri);
    if (!m || (m[1] !== SCHEME && m[1] !== TEXT_SCHEME)) return undefined;
    try {
      const p = decodeURIComponent(m[2]);
      return gamePathOf(parseUriPath(m[1] === TEXT_SCHEME ? viewedPath(p) : p));
    } catch {
      return undefined; // a path no game path can be
    }
  }

  /**
   * The analysis of a document's `version` (its text analysed as the script at its game path):
   * made now unless this version's is kept. A text over `MAX_ANALYSED_CHARS` is kept unparsed,
   * with a notice.
   */
  analyse(uri: string, version: number, text: string): AnalysedScript {
    const prev = this.open.get(uri);
    if (prev && prev.version === version) return prev.script;
    const path = this.gamePathOf(uri);
    const served = path ? this.index?.script(path) : undefined;
    const copy: ServedCopy = served ?? { path: path ?? uri, from: 'loose', source: path ? 'editor' : uri };
    this.analyses++;
    const tooLarge = text.length > MAX_ANALYSED_CHARS;
    const script = tooLarge ? { ...analyseText(copy, ''), text } : analyseText(copy, text);
    const notice = tooLarge ? `${text.length} characters, above the ${MAX_ANALYSED_CHARS}-character limit: not analysed` : undefined;
    this.open.set(uri, { version, script, ...(notice ? { notice } : {}) });
    // A mod's copy being edited is the served script from now on (issue 24): its bindings checked against this text.
    if (path && !tooLarge && this.isModText(uri)) this.index?.replaceScript(path, text, this.modCopy(path));
    return script;
  }

  private isModText(uri: string): boolean {
    return /^arch06-modtext:/i.test(uri) && this.mods.length > 0;
  }

  /** Where a game path's mod copy comes from, as the index names copies (the mod's source in the overlay). */
  private modCopy(path: string): ServedCopy | undefined {
    for (const m of this.mods) if (fileExists(modFilePath(m.folder, path))) return { path, from: 'loose', source: modSourceName(m.name) };
    return undefined;
  }

  /**
   * Files of active mods changed on disk (saved, copied in, deleted): a changed script the index
   * serves is read again and replaces its entry, unless an open document edits it (its text
   * counts); anything else (a file created or deleted, a registry) changes what the overlay serves,
   * and the answer is `remount`. Paths outside every active mod are ignored.
   */
  modFilesChanged(changes: readonly { path: string; kind: 'created' | 'changed' | 'deleted' }[]): 'updated' | 'remount' | 'nothing' {
    let outcome: 'updated' | 'remount' | 'nothing' = 'nothing';
    for (const c of changes) {
      const at = gamePathInMods(this.mods, c.path);
      if (!at) continue;
      if (c.kind !== 'changed' || !/\.scripts$/i.test(at.gamePath) || !this.index?.script(at.gamePath)) return 'remount';
      if (this.openModText(at.gamePath)) continue;
      if (!this.reloadModScript(at.gamePath, c.path, this.mods[at.mod])) return 'remount';
      outcome = 'updated';
    }
    return outcome;
  }

  /** The open `arch06-modtext:` document of a game path, if any. */
  private openModText(path: string): string | undefined {
    for (const uri of this.open.keys()) if (this.isModText(uri) && this.gamePathOf(uri)?.toLowerCase() === path.toLowerCase()) return uri;
    return undefined;
  }

  /** The mod's script at `file` read again (bounded) into the index; false when it cannot be read as a source. */
  private reloadModScript(path: string, file: string, mod: ActiveMod): boolean {
    try {
      // Bounded as the index bounds a served script (16 MiB; a larger file is a remount's business).
      const script = parseScript(readFileBytes(file, MAX_ANALYSED_CHARS), file);
      if (script.kind !== 'source') return false;
      return this.index?.replaceScript(path, script.source ?? '', { path, from: 'loose', source: modSourceName(mod.name) }) ?? false;
    } catch (e) {
      this.log(`mod script ${file} not read again: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
  }

  /**
   * The problems of a document's `version` (core's `scriptDiagnostics`, capped): the index's
   * binding problems only for a file of the mount; for a text too large to analyse, that notice.
   */
  diagnostics(uri: string, version: number, text: string): Diagnostic[] {
    const script = this.analyse(uri, version, text);
    const notice = this.open.get(uri)?.notice;
    if (notice) return [{ start: 0, end: 0, message: notice, severity: 'warning' }];
    return scriptDiagnostics(this.inMount(uri) ? this.index : undefined, script);
  }

  /** Whether the document is a file of the mount (its bindings and problems apply), not a loose or foreign one. */
  inMount(uri: string): boolean {
    return this.index !== undefined && this.gamePathOf(uri) !== undefined;
  }

  didClose(uri: string): void {
    this.open.delete(uri);
    // Edits closed unsaved are gone: the mod's file on disk is the served copy again.
    const path = this.isModText(uri) ? this.gamePathOf(uri) : undefined;
    const at = path ? this.mods.findIndex((m) => fileExists(modFilePath(m.folder, path))) : -1;
    if (path && at >= 0 && !this.reloadModScript(path, modFilePath(this.mods[at].folder, path), this.mods[at])) this.index?.restoreScript(path);
  }

  /** The open document's last analysis. */
  document(uri: string): AnalysedScript | undefined {
    return this.open.get(uri)?.script;
  }

  /** The open document showing the script at `path`, if any. */
  private openAt(path: string): { uri: string; script: AnalysedScript } | undefined {
    for (const [uri, o] of this.open) if (o.script.path.toLowerCase() === path.toLowerCase()) return { uri, script: o.script };
    return undefined;
  }

  /** Every served script (the index's copies; an open document's edits are in `document`). */
  scripts(): readonly IndexedScript[] {
    return this.index?.scripts() ?? [];
  }

  /**
   * The cross-script facts (globals, usage) of the served scripts, from one pass over them, made on
   * first use (the server starts it in the background once the index is ready), or read back from
   * the snapshot the last pass over the same scripts left in the cache folder.
   */
  cross(): CrossScriptIndex {
    if (!this.crossCache) {
      const made = cachedCross(this.snapshots, () => CrossScriptIndex.build(this.scripts()), this.log);
      this.crossCache = made.cross;
      this.crossFrom = made.from;
    }
    return this.crossCache;
  }

  usage(): UsageIndex {
    return this.cross().usage;
  }

  /**
   * Every place a global is defined or used: in the served scripts, except those open in an editor,
   * whose own (possibly edited) text counts instead.
   */
  globalPlaces(name: string): GlobalPlace[] {
    return this.places(name, this.cross().globalSites(name), false);
  }

  /** Top-level definitions of a global, across every script (open documents' text for theirs). */
  globalDefinitions(name: string): GlobalPlace[] {
    return this.places(name, this.cross().globalDefinitions(name), true);
  }

  private places(name: string, sites: readonly GlobalSite[], writesOnly: boolean): GlobalPlace[] {
    const out: GlobalPlace[] = [];
    const openPaths = new Set([...this.open.values()].map((o) => o.script.path.toLowerCase()));
    for (const site of sites) {
      if (openPaths.has(site.path.toLowerCase())) continue;
      const script = this.index?.script(site.path);
      if (script) out.push({ script, span: { start: site.start, end: site.end }, role: site.role });
    }
    for (const { script } of this.open.values()) {
      for (const n of globalUses(script).get(name) ?? []) {
        if (n.role === 'declaration' || (writesOnly && n.role !== 'write')) continue;
        out.push({ script, span: { start: n.start, end: n.end }, role: n.role });
      }
    }
    return out;
  }

  /** The hash dictionary as gathered so far (`namesComplete` says whether the gathering has finished; the first call starts it). */
  dictionary(): HashDictionary {
    if (!this.names) void this.gatherNames();
    return this.names!.dict;
  }

  get namesComplete(): boolean {
    return this.names?.complete ?? false;
  }

  /** Resolves when the names being gathered are all in (starting the gathering if need be), or after `timeoutMs`, whichever is first. */
  namesGathered(timeoutMs: number): Promise<void> {
    if (!this.names) void this.gatherNames();
    return Promise.race([this.names!.done, new Promise<void>((r) => setTimeout(r, timeoutMs).unref?.())]);
  }

  /**
   * Gather the install's names into a new dictionary (core/nameSources, the walk the extension
   * makes too), passing the index's scripts and registries instead of reading them again, then
   * the user's names. Yields between files; a later call or `dispose` stops an earlier one.
   */
  gatherNames(pause: () => Promise<void> = () => new Promise((r) => setImmediate(r))): Promise<CollectReport | undefined> {
    const generation = ++this.namesGeneration;
    const dict = new HashDictionary();
    const record: { dict: HashDictionary; done: Promise<void>; complete: boolean } = { dict, done: Promise.resolve(), complete: false };
    this.names = record;
    const index = this.index;
    const run = async (): Promise<CollectReport | undefined> => {
      let report: CollectReport | undefined;
      try {
        report = this.mount
          ? await collectInstallNames(this.mount, dict, {
              pause,
              ...(this.namesBudget !== undefined ? { maxBytes: this.namesBudget } : {}),
              isCancelled: () => this.disposed || generation !== this.namesGeneration,
              ...(index
                ? {
                    known: {
                      // One script's text at a time: a snapshot-made index reads texts on first use.
                      scripts: function* () {
                        for (const sc of index.scripts()) yield { text: sc.text, definitions: [...sc.definitions.values()].map((f) => f.name) };
                      },
                      registries: () => index.registryNames(),
                    },
                  }
                : {}),
            })
          : undefined;
      } catch (e) {
        // A walk cut short (the mount closed under it, a read that threw past its file): keep what is in, and say so.
        this.log(`hash names: gathering stopped: ${e instanceof Error ? e.message : String(e)}`);
      }
      dict.addAll(this.userNames, 'user file');
      record.complete = generation === this.namesGeneration;
      return report;
    };
    const result = run();
    record.done = result.then(() => undefined);
    return result;
  }

  /** Names from the user's dictionary files (one name a line): the dictionary is gathered again when they changed. */
  setUserNames(names: string[]): void {
    // The settings notification comes for any hash setting (inlay hints too): the same names keep the dictionary.
    const same = names.length === this.userNames.length && names.every((n, i) => n === this.userNames[i]);
    this.userNames = names;
    if (!same || !this.names) void this.gatherNames();
  }

  /**
   * The URI a script is opened at: its open document's, else its script view under the arch06
   * file system (a loose copy at its merged path, a container's member in its bundle folder).
   */
  uriOf(script: IndexedScript): string {
    const open = this.openAt(script.path);
    if (open) return open.uri;
    if (!this.mount) return script.path;
    const path = script.from === 'container' && script.bundle ? memberUriPath(script.bundle, script.path) : mergedUriPath(script.path);
    return `${TEXT_SCHEME}:${encodeURI(textViewPath(path)).replace(/[?#]/g, encodeURIComponent)}`;
  }
}

function fileExists(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
