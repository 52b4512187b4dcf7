/**
 * Where the hash dictionary's names come from in a mounted install (no vscode, unit-tested): every
 * mounted path (the full game path, backslashes, as the engine hashes it), every string literal of
 * every `.scripts` file and the OBJL object and class names of every `.objres` file, loose or
 * inside a bundle container (a world layer's script and registry ship in its container).
 *
 * Bounded: the bytes read for scripts, registries and container walks share one budget, and
 * once it is spent the rest is skipped and said so (`truncated`). A file that does not parse is
 * counted and skipped. The work yields to the caller between steps (`pause`), so the extension
 * host stays responsive while a large install is read.
 */
import { EntryByteSource, type Mount } from '../core/archive';
import { readEmbb } from '../core/formats/bundle';
import { parseObjr } from '../core/formats/registry';
import { parseScript } from '../core/formats/script';
import { type HashDictionary, parseDictionaryFile, scriptStringLiterals } from '../core/hash';

export interface CollectOptions {
  /** Bytes read in all (scripts, registries, container headers). Default 512 MiB. */
  maxBytes?: number;
  /** Bundle containers walked at most (each walk decodes at least its first chunk). Default 20,000. */
  maxContainers?: number;
  /** Called between steps; awaiting it lets other work run. */
  pause?: () => Promise<void>;
  /** Told what is being read, for a progress line. */
  progress?: (message: string) => void;
}

export interface CollectReport {
  paths: number;
  scripts: number;
  registries: number;
  containers: number;
  bytesRead: number;
  /** Files that did not parse (skipped). */
  failures: number;
  /** What the byte budget cut short, if anything. */
  truncated?: string;
}

const SCRIPT = /\.scripts$/i;
const REGISTRY = /\.objres$/i;
const CONTAINER = /\.embb$/i;
const WORLDS = /^worlds\\/i;
/** Paths hashed between pauses. */
const PATHS_PER_STEP = 20_000;

/** A byte source that counts what is read through it (a container walk reads headers and size words). */
class CountingSource extends EntryByteSource {
  bytesRead = 0;
  override readSync(position: number, length: number): Uint8Array {
    this.bytesRead += length;
    return super.readSync(position, length);
  }
}

/** Gather the names of a mounted install into `dict`. */
export async function collectMountNames(mount: Mount, dict: HashDictionary, options: CollectOptions = {}): Promise<CollectReport> {
  const budget = options.maxBytes ?? 512 * 1024 * 1024;
  const pause = options.pause ?? (async () => undefined);
  const report: CollectReport = { paths: 0, scripts: 0, registries: 0, containers: 0, bytesRead: 0, failures: 0 };
  const paths = mount.distinctPaths();
  options.progress?.(`hashing ${paths.length} paths`);
  for (let i = 0; i < paths.length; i++) {
    dict.add(paths[i], 'path');
    if (i % PATHS_PER_STEP === PATHS_PER_STEP - 1) await pause();
  }
  report.paths = paths.length;

  const spend = (n: number, what: string): boolean => {
    if (report.bytesRead + n > budget) {
      report.truncated ??= `stopped at ${what}: the ${budget} bytes read budget is spent`;
      return false;
    }
    report.bytesRead += n;
    return true;
  };
  /** One script's or registry's bytes: their names go in the dictionary. */
  const take = (bytes: Uint8Array, file: string): void => {
    try {
      if (SCRIPT.test(file)) {
        const s = parseScript(bytes, file);
        if (s.source !== undefined) dict.addAll(scriptStringLiterals(s.source), 'script literal');
        report.scripts++;
      } else {
        const objl = parseObjr(bytes, file).objectList;
        if (objl) {
          dict.addAll(objl.names.byOffset.values(), 'object name');
          dict.addAll(objl.classes.byOffset.values(), 'object name');
        }
        report.registries++;
      }
    } catch {
      report.failures++;
    }
  };

  const loose = paths.filter((p) => SCRIPT.test(p) || REGISTRY.test(p));
  options.progress?.(`reading ${loose.length} scripts and registries`);
  for (const p of loose) {
    const entry = mount.winner(p);
    if (!entry) continue;
    if (!spend(entry.size, p)) break;
    take(await entry.read(0, entry.size), p);
    await pause();
  }

  // World parts first: their scripts and registries are `worlds\retail\…\<layer>.scripts` /
  // `.objres` (seed 001), so under the container cap they are the ones walked.
  const containers = paths.filter((p) => CONTAINER.test(p)).sort((a, b) => Number(!WORLDS.test(a)) - Number(!WORLDS.test(b)));
  options.progress?.(`reading the scripts and registries of ${containers.length} bundle containers`);
  const maxContainers = options.maxContainers ?? 20_000;
  for (const p of containers) {
    if (report.truncated) break;
    if (report.containers >= maxContainers) {
      report.truncated = `walked ${maxContainers} of ${containers.length} bundle containers (the cap)`;
      break;
    }
    const entry = mount.winner(p);
    if (!entry) continue;
    const source = new CountingSource(entry);
    try {
      const members = readEmbb(source).members.filter((m) => SCRIPT.test(m.path) || REGISTRY.test(m.path));
      report.containers++;
      for (const m of members) {
        if (!spend(m.size, `${p} [${m.path}]`)) break;
        take(await entry.read(m.offset, m.offset + m.size), m.path);
      }
    } catch {
      report.failures++;
    }
    if (!spend(source.bytesRead, p)) break;
    await pause();
  }
  return report;
}

/** A user dictionary file's names (one a line) into `dict`; returns how many gave a new hash. */
export function addUserNames(dict: HashDictionary, text: string): number {
  return dict.addAll(parseDictionaryFile(text), 'user file');
}

/** One line for the editor: how many names, from where. */
export function dictionarySummary(dict: HashDictionary): string {
  const o = dict.stats.byOrigin;
  const parts = [
    `${o.path} from paths`,
    `${o['script literal']} from script literals`,
    `${o['object name']} from object names`,
    `${o['user file']} from user files`,
  ];
  return `${dict.size} names (${parts.join(', ')})${dict.stats.collisions ? `, ${dict.stats.collisions} collisions` : ''}`;
}
