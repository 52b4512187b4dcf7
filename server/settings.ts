/**
 * The language server's settings (`initializationOptions`, then `arch06/settings`), taken from
 * whatever the client sent: each field kept only when it has its type, so a malformed message
 * costs its bad fields, never the server. And the user's dictionary files, which a workspace can
 * name: read only when they are regular files (a FIFO would block, /dev/zero never end), under a
 * size cap, and cut at a number of names.
 */
import type { ActiveMod } from '../core/mod';
import { parseDictionaryFile } from '../core/hash';
import { readFileBytes } from '../core/io/node';
import type { MountSettings } from './analysis/workspace';

export interface ServerSettings extends Partial<MountSettings> {
  /** A folder for the index cache (the extension's storage); no cache without it. */
  cacheFolder?: string;
  /** Text files of names, one a line, added to the hash dictionary. */
  dictionaryFiles?: string[];
  /** Inlay hints after raw hex hashes (off by default: they are noise where names are known). */
  inlayHints?: boolean;
  /** The memory the server's process stays under, in MiB (`DEFAULT_MAX_MEMORY_MB` unless given). */
  maxMemoryMB?: number;
  /**
   * Threads for the cold index (the extension's `arch06.workers`): 0 the machine's cores, 1 (and
   * unset) this thread alone, more a worker pool of that size (at most `MAX_WORKERS`).
   */
  workers?: number;
}

/** The most worker threads a client may ask for. */
export const MAX_WORKERS = 64;

/** The memory ceiling when the client names none: the index and the names degrade below it. */
export const DEFAULT_MAX_MEMORY_MB = 2048;
/** The smallest ceiling taken (below it nothing useful fits; a smaller value is raised to it). */
const MIN_MAX_MEMORY_MB = 64;
/** A dictionary file larger than this is no word list. */
export const MAX_DICTIONARY_FILE_BYTES = 64 << 20;
/** Names taken from the dictionary files together; the rest is dropped with a warning. */
export const MAX_DICTIONARY_NAMES = 2_000_000;
/** Paths in one list setting (`extraArchives`, `dictionaryFiles`). */
const MAX_LIST = 1000;
/** A path setting longer than this is no path. */
const MAX_PATH_CHARS = 32 * 1024;

const isPath = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= MAX_PATH_CHARS && !x.includes('\0');
const paths = (x: unknown): string[] | undefined => (Array.isArray(x) ? x.filter(isPath).slice(0, MAX_LIST) : undefined);

/** The settings a client's message carries, each field only when well-formed. */
export function readSettings(x: unknown): ServerSettings {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return {};
  const o = x as Record<string, unknown>;
  const out: ServerSettings = {};
  if (isPath(o.installRoot)) out.installRoot = o.installRoot;
  if (isPath(o.cfg)) out.cfg = o.cfg;
  const extra = paths(o.extraArchives);
  if (extra) out.extraArchives = extra;
  if (isPath(o.cacheFolder)) out.cacheFolder = o.cacheFolder;
  const dicts = paths(o.dictionaryFiles);
  if (dicts) out.dictionaryFiles = dicts;
  if (typeof o.inlayHints === 'boolean') out.inlayHints = o.inlayHints;
  const mods = activeMods(o.mods);
  if (mods) out.mods = mods;
  if (typeof o.maxMemoryMB === 'number' && Number.isFinite(o.maxMemoryMB) && o.maxMemoryMB > 0)
    out.maxMemoryMB = Math.max(MIN_MAX_MEMORY_MB, Math.floor(o.maxMemoryMB));
  if (typeof o.workers === 'number' && Number.isInteger(o.workers) && o.workers >= 0) out.workers = Math.min(o.workers, MAX_WORKERS);
  return out;
}

/** The window's active mods as the client sent them, each checked (a folder path, a name, a position); the rest dropped. */
function activeMods(x: unknown): ActiveMod[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const out: ActiveMod[] = [];
  for (const m of x.slice(0, MAX_LIST)) {
    if (typeof m !== 'object' || m === null) continue;
    const { folder, name, position } = m as Record<string, unknown>;
    if (!isPath(folder) || typeof name !== 'string' || name.length === 0 || name.length > MAX_PATH_CHARS) continue;
    const p = position as Record<string, unknown> | null | undefined;
    if (p?.kind === 'bottom') out.push({ folder, name, position: { kind: 'bottom' } });
    else if (p?.kind === 'above' && typeof p.name === 'string' && p.name.length <= MAX_PATH_CHARS)
      out.push({ folder, name, position: { kind: 'above', name: p.name } });
  }
  return out;
}

/** What the mount depends on: settings with another key need a remount and a new index, the rest (hash names, hints) do not. */
export const mountKey = (x: ServerSettings): string =>
  JSON.stringify([x.installRoot ?? '', x.cfg ?? '', x.extraArchives ?? [], x.mods ?? [], x.maxMemoryMB ?? 0]);

/** The ceiling in bytes. */
export const memoryCeilingBytes = (s: ServerSettings): number => (s.maxMemoryMB ?? DEFAULT_MAX_MEMORY_MB) * 1024 * 1024;

/** The names of the user's dictionary files and what went wrong with each file that could not be read. */
export function readDictionaryFiles(files: readonly string[], maxNames = MAX_DICTIONARY_NAMES): { names: string[]; warnings: string[] } {
  const names: string[] = [];
  const warnings: string[] = [];
  for (const f of files) {
    try {
      const bytes = readFileBytes(f, MAX_DICTIONARY_FILE_BYTES);
      const found = parseDictionaryFile(new TextDecoder().decode(bytes));
      const room = maxNames - names.length;
      for (let i = 0; i < Math.min(room, found.length); i++) names.push(found[i]);
      if (found.length > room)
        warnings.push(`${f}: ${found.length - room} of its ${found.length} names not taken (at most ${maxNames} names from all dictionary files)`);
    } catch (e) {
      warnings.push(`${f} not read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { names, warnings };
}
