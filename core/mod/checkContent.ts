/**
 * The checks that read a mod's files (./check.ts does the ones that need only paths):
 * - string tables (`<dir>\<language>\<name>.strdb`, seed 004): a key the mod's copy adds that
 *   another language's copy lacks, or a key it drops that another language still has (only the
 *   mod's own change is reported, not differences the game already ships);
 * - scripts and registries: a function a SCRB binding of the registry in effect needs that the
 *   served script does not define, where the mod serves the script or the registry (the language
 *   server's index, core/scriptIndex, over the same mount).
 */
import { isArch06Error } from '../errors';
import { formatHash } from '../hash';
import { parseSkdb } from '../formats/strings';
import { type Mount, type Source, type SourceEntry, type WorkerPool, readEntryChecked } from '../archive';
import { ScriptIndex, buildIndexParallel } from '../scriptIndex';
import type { ModProblem } from './problems';

/** Keys a message names before it counts the rest. */
const SHOWN_KEYS = 5;

export async function contentProblems(
  mount: Mount,
  source: Source,
  files: readonly string[],
  pause?: () => Promise<void>,
  pool?: WorkerPool,
): Promise<ModProblem[]> {
  const out: ModProblem[] = [];
  for (const p of files) if (/\.strdb$/i.test(p)) out.push(...stringTableProblems(mount, source, p));
  await pause?.();
  if (files.some((p) => /\.(scripts|objres)$/i.test(p)))
    out.push(...bindingProblems(pool ? await buildIndexParallel(mount, { pool }) : ScriptIndex.build(mount), source, files));
  return out;
}

function keysOf(mount: Mount, e: SourceEntry): Set<number> | undefined {
  try {
    const bytes = readEntryChecked(e, { name: `${e.source.name}:${e.path}`, maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint });
    return new Set(parseSkdb(bytes, e.path).entries.map((x) => x.hash));
  } catch (err) {
    if (isArch06Error(err)) return undefined;
    throw err;
  }
}

const shown = (keys: number[]): string =>
  keys.slice(0, SHOWN_KEYS).map(formatHash).join(', ') + (keys.length > SHOWN_KEYS ? ` and ${keys.length - SHOWN_KEYS} more` : '');

function stringTableProblems(mount: Mount, source: Source, p: string): ModProblem[] {
  const parts = p.split('\\');
  if (parts.length < 2) return [];
  const leaf = parts[parts.length - 1];
  const language = parts[parts.length - 2];
  const dir = parts.slice(0, -2).join('\\');
  const w = mount.which(p);
  const mine = w?.copies.find((c) => c.source === source);
  if (!mine) return [];
  const modKeys = keysOf(mount, mine);
  if (!modKeys) return [{ code: 'STRING_KEYS_DIFFER', severity: 'error', path: p, message: "the mod's string table does not read as SKDB v9" }];
  const original = w!.copies.find((c) => c.source !== source && mount.sources.indexOf(c.source) > mount.sources.indexOf(source));
  const origKeys = original ? keysOf(mount, original) : undefined;
  const added = origKeys ? [...modKeys].filter((k) => !origKeys.has(k)) : [...modKeys];
  const dropped = origKeys ? [...origKeys].filter((k) => !modKeys.has(k)) : [];
  const out: ModProblem[] = [];
  for (const other of mount.list(dir)?.folders ?? []) {
    if (other.name.toLowerCase() === language.toLowerCase()) continue;
    const e = mount.winner(`${dir ? `${dir}\\` : ''}${other.name}\\${leaf}`);
    if (!e) continue;
    const keys = keysOf(mount, e);
    if (!keys) continue;
    const missing = added.filter((k) => !keys.has(k)).sort((a, b) => a - b);
    const kept = dropped.filter((k) => keys.has(k)).sort((a, b) => a - b);
    if (missing.length)
      out.push({
        code: 'STRING_KEYS_DIFFER',
        severity: 'warning',
        path: p,
        message: `${missing.length} key${missing.length === 1 ? '' : 's'} the mod adds in ${language} ${missing.length === 1 ? 'is' : 'are'} not in ${other.name} (${e.source.name}): ${shown(missing)}`,
      });
    if (kept.length)
      out.push({
        code: 'STRING_KEYS_DIFFER',
        severity: 'warning',
        path: p,
        message: `${kept.length} key${kept.length === 1 ? '' : 's'} the mod drops from ${language} ${kept.length === 1 ? 'is' : 'are'} still in ${other.name} (${e.source.name}): ${shown(kept)}`,
      });
  }
  return out;
}

function bindingProblems(index: ScriptIndex, source: Source, files: readonly string[]): ModProblem[] {
  const mine = new Set(files.map((f) => f.toLowerCase()));
  const out: ModProblem[] = [];
  for (const p of index.problems) {
    if (p.kind !== 'missing-function') continue;
    const script = index.script(p.script);
    const modScript = script?.source === source.name && mine.has(p.script.toLowerCase());
    const modRegistry = p.registry.source === source.name;
    if (!modScript && !modRegistry) continue;
    out.push({
      code: 'BOUND_FUNCTION_LOST',
      severity: 'error',
      path: modScript ? p.script : p.registry.path,
      message: modScript
        ? `${p.registry.path} (${p.registry.source}) binds ${p.function ?? 'a function'}, which the mod's copy of the script does not define`
        : `the mod's registry binds ${p.function ?? 'a function'}, which ${p.script} (as served) does not define`,
    });
  }
  return out;
}
