/**
 * A mod folder as the tools see it: its manifest, its files at their game paths
 * (`<mod>/worlds/retail/x.scripts` is `worlds\retail\x.scripts`) and every reason the engine
 * could not load one of them (./rules.ts), or the folder could not be taken as it is (links out
 * of it, devices, too many files: core/io/node/treeScan.ts). Nothing is read but names and sizes.
 */
import * as path from 'node:path';
import { Arch06Error } from '../errors';
import { readTextFile } from '../io/node/fileSource';
import { diskKind } from '../io/node/disk';
import { scanTree } from '../io/node/treeScan';
import { MOD_MANIFEST, type ModManifest, parseManifest } from './manifest';
import { MOD_MAX_FILES, modPathProblem, needsIndexRow } from './rules';
import type { ModProblem } from './problems';

export interface ModFile {
  /** The game path, `\`-separated, as spelled on disk. */
  path: string;
  diskPath: string;
  size: number;
  /** Whether the path index of the mod's archive names it. */
  indexed: boolean;
}

export interface ModFolder {
  /** The folder, absolute. */
  root: string;
  manifest: ModManifest;
  /** Every file found, sorted by case-folded path (files with problems included: `problems` says which). */
  files: ModFile[];
  problems: ModProblem[];
  /** The scan stopped early: `files` is not the whole folder. */
  truncated: boolean;
}

export interface OpenModOptions {
  /** Files the folder may hold (default 100,000). */
  maxFiles?: number;
}

/** Read the manifest of the mod folder `dir` (NOT_FOUND when there is none). */
export function readModManifest(dir: string): ModManifest {
  const file = path.join(path.resolve(dir), MOD_MANIFEST);
  if (diskKind(file) !== 'file') throw new Arch06Error('NOT_FOUND', `not a mod folder: no ${MOD_MANIFEST} (arch06 new-mod creates one)`, { file });
  return parseManifest(readTextFile(file, 1 << 20), file);
}

export function openModFolder(dir: string, options: OpenModOptions = {}): ModFolder {
  const root = path.resolve(dir);
  if (diskKind(root) !== 'directory') throw new Arch06Error('NOT_FOUND', 'the mod folder is not a folder', { file: root });
  const manifest = readModManifest(root);
  const scan = scanTree(root, { maxFiles: options.maxFiles ?? MOD_MAX_FILES, skipTopLevel: new Set([MOD_MANIFEST]) });
  const problems: ModProblem[] = scan.refusals.map((r) => ({
    code: r.code,
    severity: 'error',
    ...(r.segments.length ? { path: r.segments.join('\\') } : {}),
    message: r.reason,
  }));
  const files = scan.files.map((f) => ({ path: f.segments.join('\\'), diskPath: f.diskPath, size: f.size, indexed: false }));
  files.sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : a.path < b.path ? -1 : 1));
  const keys = new Set(files.map((f) => f.path.toLowerCase()));
  for (const f of files) f.indexed = needsIndexRow(f.path, (p) => keys.has(p.toLowerCase()));
  for (const f of files) {
    const p = modPathProblem(f.path, f.indexed);
    if (p) problems.push(p);
  }
  problems.push(...caseCollisions(files.map((f) => f.path)));
  return { root, manifest, files, problems, truncated: scan.truncated };
}

/**
 * Paths that differ only in case: on a case-sensitive disk they are two files, in the game one
 * path (every lookup folds case), so one of them would never load. A file whose path is a folder
 * of another path, in another case, collides the same way.
 */
export function caseCollisions(paths: readonly string[]): ModProblem[] {
  const out: ModProblem[] = [];
  const seen = new Map<string, string>();
  const folders = new Map<string, string>();
  const reported = new Set<string>();
  for (const p of paths) {
    const k = p.toLowerCase();
    const first = seen.get(k);
    if (first !== undefined)
      out.push({ code: 'CASE_COLLISION', severity: 'error', path: p, message: `differs from ${first} only in case: the game sees one path` });
    else seen.set(k, p);
    const segs = p.split('\\');
    for (let i = 1; i < segs.length; i++) {
      const folder = segs.slice(0, i).join('\\');
      const fk = folder.toLowerCase();
      const had = folders.get(fk);
      if (had === undefined) folders.set(fk, folder);
      else if (had !== folder) {
        if (reported.has(folder)) break;
        reported.add(folder);
        out.push({
          code: 'CASE_COLLISION',
          severity: 'error',
          path: p,
          message: `its folder ${folder} differs from ${had} only in case: the game sees one folder`,
        });
        break;
      }
    }
  }
  for (const [k, p] of seen) {
    const f = folders.get(k);
    if (f !== undefined)
      out.push({ code: 'CASE_COLLISION', severity: 'error', path: p, message: `a file where the mod also has a folder ${f} (the same path to the game)` });
  }
  return out;
}
