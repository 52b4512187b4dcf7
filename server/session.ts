/**
 * What opening an install means for the language server, without LSP: the workspace made from the
 * settings under the memory ceiling (the index keeps to half of it, the hash names' reads to a
 * quarter, and the live heap is checked between files, so a process fuller than counted stops the
 * index early), and the lines the edge shows: what was indexed, what was left out and why, what
 * could not be mounted. The edge (server.ts) sends them.
 */
import { ScriptWorkspace } from './analysis/workspace';
import { type ServerSettings, memoryCeilingBytes, readDictionaryFiles } from './settings';

export interface OpenedInstall {
  ws: ScriptWorkspace;
  /** For the log. */
  info?: string;
  /** For a warning notification: files left out to stay under the ceiling. */
  warning?: string;
  /** For an error notification: the install could not be mounted (`ws` then has none). */
  error?: string;
}

/** Mount and index the install `s` names (none without `installRoot`). */
export function openInstall(s: ServerSettings, onProgress: (done: number, total: number) => void, log: (line: string) => void): OpenedInstall {
  const started = Date.now();
  const ceiling = memoryCeilingBytes(s);
  let ws: ScriptWorkspace;
  try {
    ws = ScriptWorkspace.create(s.installRoot ? { installRoot: s.installRoot, cfg: s.cfg, extraArchives: s.extraArchives, mods: s.mods } : undefined, {
      onProgress,
      cacheFolder: s.cacheFolder,
      log,
      maxRetainedBytes: ceiling / 2,
      namesBudgetBytes: ceiling / 4,
      overMemory: () => overMemory(ceiling),
    });
  } catch (e) {
    return {
      ws: ScriptWorkspace.create(undefined),
      error: `arch06 language server: could not mount ${s.installRoot}: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const i = ws.index;
  if (!i) return { ws };
  const left = i.skipped.filter((x) => x.reason.startsWith('not indexed')).length;
  return {
    ws,
    info:
      `${ws.indexedFrom === 'cache' ? 'read the index from the cache' : 'indexed'}: ${i.scripts().length} scripts and ${i.registries} registries of ${s.installRoot} in ${Date.now() - started} ms` +
      (i.failures.length ? `; ${i.failures.length} could not be read (first: ${i.failures[0].path}: ${i.failures[0].reason})` : ''),
    ...(i.degraded
      ? { warning: `arch06 language server: ${left} files left out of the index: ${i.degraded} (setting arch06.languageServer.maxMemoryMB)` }
      : {}),
  };
}

/** Why the process is over its memory ceiling (heap and buffers past 80% of it), or undefined. */
export function overMemory(ceiling: number): string | undefined {
  const m = process.memoryUsage();
  const used = m.heapUsed + m.arrayBuffers;
  return used > ceiling * 0.8 ? `the server uses ${Math.round(used / 2 ** 20)} MiB of its ${Math.round(ceiling / 2 ** 20)} MiB ceiling` : undefined;
}

/** Give `ws` the names of the settings' dictionary files; the warnings about files not read. */
export function setUserNames(ws: ScriptWorkspace, s: ServerSettings): string[] {
  const { names, warnings } = readDictionaryFiles(s.dictionaryFiles ?? []);
  ws.setUserNames(names);
  return warnings.map((w) => `arch06: dictionary file ${w}`);
}

/** Build (or read back) the cross-script facts of `ws` (globals across scripts, the API's usage): the log line. */
export function crossScriptFacts(ws: ScriptWorkspace): string {
  const x = ws.cross();
  return `cross-script index (globals, API usage) ${ws.crossFrom === 'cache' ? 'read from the cache' : 'built'} in ${x.buildMs.toFixed(0)} ms`;
}
