/**
 * Every name a mounted install spells out, gathered into one hash dictionary (seed 000: paths,
 * GameDB records, fields, clips, bones and world objects are all StringHash): every mounted path
 * and every bundle member's path, every archive's path index, every script's literals and
 * definitions, every registry's OBJL and SCRB names, every skeleton's names. The extension (string
 * tables, registries, Reverse Hash Lookup) and the language server (hash hovers and inlay hints)
 * build their dictionaries with this one function; the server passes what its script index has
 * already read (`known`) instead of reading scripts and registries twice.
 *
 * Bounded: the bytes read share one budget, and once it is spent the rest is skipped and said so
 * (`truncated`); a file that does not parse is counted and skipped. The walk yields to the caller
 * between files (`pause`), so an extension host or a server stays responsive on a large install.
 */
import { type Mount, type ServedFile, ServedFileWalk } from '../archive';
import type { HashDictionary } from '../hash';
import { parseSkel } from '../formats/mesh';
import { parseObjr, spelledNames } from '../formats/registry';
import { parseScript } from '../formats/script';
import { scriptDefinitions } from '../havokScript';
import { addRegistryNames, addScriptNames, addSkeletonNames } from './fileNames';

/** What a caller has read already (the language server's script index). */
export interface KnownNames {
  /** Every served script's text and top-level definition names. */
  scripts: () => Iterable<{ text: string; definitions: Iterable<string> }>;
  /** Every served registry's names. */
  registries: () => { objects: Iterable<string>; bindings: Iterable<string> };
}

export interface CollectOptions {
  /** Bytes read in all (scripts, registries, skeletons). Default 512 MiB. */
  maxBytes?: number;
  /** Called between steps; awaiting it lets other work run. */
  pause?: () => Promise<void>;
  /** Told what is being read, for a progress line. */
  progress?: (message: string) => void;
  /** True stops the walk (names found so far stay). */
  isCancelled?: () => boolean;
  /** Scripts and registries already read: they are not read again. */
  known?: KnownNames;
}

export interface CollectReport {
  paths: number;
  /** Bundle members' paths seen (one per manifest that declares one). */
  members: number;
  pathIndexRows: number;
  scripts: number;
  registries: number;
  skeletons: number;
  bytesRead: number;
  /** Files that did not parse (skipped). */
  failures: number;
  /** What the byte budget cut short, or that the walk was cancelled. */
  truncated?: string;
}

const SCRIPT = /\.scripts$/i;
const REGISTRY = /\.objres$/i;
const SKELETON = /\.skel$/i;
/** Names hashed between pauses. */
const NAMES_PER_STEP = 20_000;

/** Gather the names of a mounted install into `dict`. */
export async function collectInstallNames(mount: Mount, dict: HashDictionary, options: CollectOptions = {}): Promise<CollectReport> {
  const budget = options.maxBytes ?? 512 * 1024 * 1024;
  const pause = options.pause ?? (async () => undefined);
  const report: CollectReport = { paths: 0, members: 0, pathIndexRows: 0, scripts: 0, registries: 0, skeletons: 0, bytesRead: 0, failures: 0 };
  const addEach = async (names: readonly string[], origin: 'path' | 'path index'): Promise<void> => {
    for (let i = 0; i < names.length; i++) {
      dict.add(names[i], origin);
      if (i % NAMES_PER_STEP === NAMES_PER_STEP - 1) await pause();
    }
  };

  const paths = mount.distinctPaths();
  options.progress?.(`hashing ${paths.length} paths`);
  await addEach(paths, 'path');
  report.paths = paths.length;
  const indexRows = mount.pathTable().rows.map((r) => r.path);
  await addEach(indexRows, 'path index');
  report.pathIndexRows = indexRows.length;

  if (options.known) {
    options.progress?.('adding the script index');
    let n = 0;
    for (const s of options.known.scripts()) {
      if (options.isCancelled?.()) break;
      addScriptNames(dict, s.text, s.definitions);
      if (++n % 50 === 0) await pause();
    }
    addRegistryNames(dict, options.known.registries());
    await pause();
  }

  const readScripts = !options.known;
  const walk = new ServedFileWalk(mount, (p) => SKELETON.test(p) || (readScripts && (SCRIPT.test(p) || REGISTRY.test(p))), paths);
  const stopped = (): boolean => {
    if (options.isCancelled?.()) report.truncated ??= 'cancelled';
    return report.truncated !== undefined;
  };
  /** Read one file (under the budget) and add its names. */
  const take = (f: ServedFile): void => {
    if (report.bytesRead + f.size > budget) {
      report.truncated ??= `stopped at ${f.path}: the ${budget} bytes read budget is spent`;
      return;
    }
    report.bytesRead += f.size;
    try {
      const bytes = f.read();
      if (SKELETON.test(f.path)) {
        addSkeletonNames(dict, parseSkel(bytes, f.path));
        report.skeletons++;
      } else if (SCRIPT.test(f.path)) {
        const s = parseScript(bytes, f.path);
        if (s.source !== undefined)
          addScriptNames(
            dict,
            s.source,
            scriptDefinitions(s.source).map((d) => d.name),
          );
        report.scripts++;
      } else {
        addRegistryNames(dict, spelledNames(parseObjr(bytes, f.path)));
        report.registries++;
      }
    } catch {
      report.failures++;
    }
  };

  const loose = walk.loose();
  options.progress?.(`reading ${loose.length} ${readScripts ? 'scripts, registries and skeletons' : 'skeletons'}`);
  for (const f of loose) {
    if (stopped()) break;
    take(f);
    await pause();
  }
  options.progress?.(`reading the members of ${walk.manifests.length} bundles`);
  for (const m of walk.manifests) {
    if (stopped()) break;
    for (const f of walk.members(m, (p) => {
      report.members++;
      dict.add(p, 'path');
    }))
      if (!stopped()) take(f);
    await pause();
  }
  return report;
}
