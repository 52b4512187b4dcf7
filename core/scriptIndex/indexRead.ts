/**
 * One served file of the script index read into what the index keeps of it, the same function on
 * the calling thread (`ScriptIndex.build`) and on a pool worker (./indexWorker.ts): a script's text
 * and definitions, a registry's bindings resolved and the names it spells. The result is plain
 * data (it crosses threads); the linking against the other files is the index's, in file order.
 *
 * `IndexPlan` is the order and the budget both builds share: the served copies (scripts first),
 * and for each, in turn, whether it is indexed, skipped (over a size limit or the memory budget)
 * or read; so the parallel build, which reads ahead on the workers, decides exactly as one thread.
 */
import type { Mount, ServedFile } from '../archive';
import { isArch06Error } from '../errors';
import { type ResolvedBinding, type ResolvedObject, ownScriptPath, parseObjr, resolveRegistry, spelledNames } from '../formats/registry';
import { parseScript } from '../formats/script';
import { type ScriptDefinition, scriptDefinitions } from '../havokScript';
import { servedCopies } from './servedCopies';
import type { ScriptIndexOptions, ServedCopy } from './types';

/** A script as the index keeps it, before its definitions are mapped by name. */
export interface ScriptRead {
  kind: 'source' | 'bytecode';
  text: string;
  definitions: ScriptDefinition[];
}

/** A registry parsed and its bindings resolved (without the script's names: the index checks those when it links). */
export interface RegistryRead {
  /** Whether it has an SCRB block (none: nothing to link). */
  bound: boolean;
  objects: ResolvedObject[];
  records: ResolvedBinding[];
  coverage: Uint32Array;
  rowCount: number;
  /** The names it spells (hash dictionary candidates). */
  objectNames: NameList;
  bindingNames: NameList;
}

/**
 * The names themselves (read on the calling thread: kept as the registry's own strings, which may
 * share its tables' memory), or, read on a worker, joined by newlines when none is empty or holds
 * one (a million names cross threads as one string, far cheaper than a million strings).
 */
export type NameList = string | string[];

const packNames = (names: string[]): NameList => (names.every((n) => n !== '' && !n.includes('\n')) ? names.join('\n') : names);

/** The names of a `NameList`, in order. */
export const namesOf = (list: NameList): string[] => (typeof list !== 'string' ? list : list === '' ? [] : list.split('\n'));

/** What one file gave: its reading, or why it could not be read or parsed. */
export type FileRead = { script: ScriptRead } | { registry: RegistryRead } | { failure: string };

export type IndexedKind = 'script' | 'registry';

const failureOf = (e: unknown): { failure: string } => ({ failure: isArch06Error(e) ? e.message : String(e) });

/**
 * Read one file's bytes as the index does (`bytes` throws: a read failure). Never throws. `forPost`:
 * the reading goes to another thread (names packed; on the calling thread joining them would copy
 * names that share a registry's tables, many times over in a crafted one).
 */
export function readIndexedFile(kind: IndexedKind, path: string, bytes: () => Uint8Array, forPost = false): FileRead {
  try {
    const b = bytes();
    if (kind === 'script') {
      const file = parseScript(b, path);
      const text = file.source ?? '';
      return { script: { kind: file.kind, text, definitions: file.kind === 'source' ? scriptDefinitions(text) : [] } };
    }
    const reg = parseObjr(b, path);
    const resolved = resolveRegistry(reg, { scriptPath: ownScriptPath(path) });
    const names = spelledNames(reg, resolved);
    return {
      registry: {
        bound: !!reg.bindings,
        objects: resolved.objects,
        records: resolved.records,
        coverage: resolved.coverage,
        rowCount: resolved.rowCount,
        objectNames: forPost ? packNames(names.objects) : names.objects,
        bindingNames: forPost ? packNames(names.bindings) : names.bindings,
      },
    };
  } catch (e) {
    return failureOf(e);
  }
}

/** Where the index's reading of the files goes (the index itself). */
export interface IndexSink {
  readonly skipped: { path: string; reason: string }[];
  readonly failures: { path: string; reason: string }[];
  degraded: string | undefined;
  cancelled: boolean;
  /** Take one file's reading (in file order: scripts before the registries checked against them). */
  take(copy: ServedCopy, read: FileRead): void;
}

/** A served copy of the index: its file and its kind. */
export type IndexedFile = ServedFile & { kind: IndexedKind };

/**
 * The files of one build in order, and the one rule for each: skipped over its size limit or
 * past the memory budget (decided in file order, as the retained bytes grow), else read and taken.
 */
export class IndexPlan {
  readonly files: IndexedFile[];
  private readonly maxScript: number;
  private readonly maxRegistry: number;
  private readonly retainedCap: number;
  private retained = 0;
  private done = 0;

  constructor(
    mount: Mount,
    private readonly sink: IndexSink,
    private readonly options: ScriptIndexOptions,
  ) {
    this.maxScript = options.maxScriptBytes ?? 16 * 1024 * 1024;
    this.maxRegistry = Math.min(options.maxRegistryBytes ?? 256 * 1024 * 1024, mount.maxEntryBytes);
    this.retainedCap = options.maxRetainedBytes ?? Infinity;
    this.files = servedCopies(mount, sink.skipped);
  }

  /** Whether file `i` is read at all (within its size limit): the others are skipped whatever the budget. */
  wanted(i: number): boolean {
    const f = this.files[i];
    return f.size <= (f.kind === 'script' ? this.maxScript : this.maxRegistry);
  }

  /** True when the build should stop before the next file (the caller's cancel). */
  cancelled(): boolean {
    if (this.options.isCancelled?.()) this.sink.cancelled = true;
    return this.sink.cancelled;
  }

  /** Decide file `i` (the next in order) and hand its reading to the index; `read` is called only when it is indexed. */
  take(i: number, read: () => FileRead): void {
    const c = this.files[i];
    const copy: ServedCopy = { path: c.path, from: c.from, source: c.source, ...(c.bundle ? { bundle: c.bundle } : {}) };
    const limit = c.kind === 'script' ? this.maxScript : this.maxRegistry;
    // A script's text is two bytes a character; a registry's model a few times its file.
    const cost = c.size * (c.kind === 'script' ? 2 : 4);
    const sink = this.sink;
    try {
      sink.degraded ??=
        this.retained + cost > this.retainedCap ? `the index reached its memory budget (${this.retainedCap} bytes)` : this.options.overMemory?.();
      if (sink.degraded) sink.skipped.push({ path: c.path, reason: `not indexed: ${sink.degraded}` });
      else if (c.size > limit) sink.skipped.push({ path: c.path, reason: `${c.size} bytes, above the ${limit}-byte limit` });
      else {
        this.retained += cost;
        sink.take(copy, read());
      }
    } catch (e) {
      sink.failures.push({ path: c.path, reason: failureOf(e).failure });
    }
    this.options.onProgress?.(++this.done, this.files.length);
  }
}
