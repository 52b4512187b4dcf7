/**
 * Check before shipping (issue 23 item 6): what the engine would do with a mod that its author
 * did not mean, found in the mount the mod is part of (the overlay for a mod folder, the install's
 * list for installed mods). Every problem has a code (./problems.ts); the CLI's `check` prints
 * them, the extension shows them as diagnostics in Mod Changes.
 *
 * Per file of the mod: whether it wins (another source ranking above it shadows it), what it
 * replaces, or that it replaces nothing (a typo?, with the nearest game path); a new file of the
 * kinds the path index lists that no index names; a path a directory source cannot reach (over
 * MAX_PATH); for a bundle member, the declared size of the winning manifest against the mod's
 * copy (seed 004, "Standalone against embedded") and whether the mod ranks below the container
 * (the case seed 004 did not measure). Then the contents (./checkContent.ts): string-table keys
 * across languages and script functions that registry bindings need.
 */
import * as path from 'node:path';
import { isArch06Error } from '../errors';
import { readFileBytes } from '../io/node/fileSource';
import { resolveCaseInsensitive } from '../io/node/disk';
import { PATH_INDEX_NAME } from '../formats/archive';
import { MemberCatalog, type MemberRow, Mount, type MountOptions, type Source, type WorkerPool, resolveBundle } from '../archive';
import { type ModFolder, openModFolder } from './modFolder';
import { ARCHIVE_MANIFEST_PATH, WINDOWS_MAX_PATH, needsIndexRow } from './rules';
import type { ModProblem } from './problems';
import { MOD_MANIFEST } from './manifest';
import { openOverlay } from './overlay';
import { archiveManifest, findResets, listFiles } from './install';
import { contentProblems } from './checkContent';
import { findModLines } from './cfgList';
import { nearestPaths } from './nearest';

export interface CheckedMod {
  name: string;
  /** The source's name in the mount. */
  source: string;
  kind: 'folder' | 'archive';
  diskPath: string;
  files: number;
  problems: ModProblem[];
}

export interface CheckReport {
  mods: CheckedMod[];
  /** Problems of the install's lists (reset, stale). */
  install: ModProblem[];
  notes: string[];
}

export interface CheckOptions {
  /** Check this mod folder, overlaid at its position, instead of the installed mods. */
  mod?: string;
  /** Between steps (bundles, scripts), so a caller's thread can breathe. */
  pause?: () => Promise<void>;
  /** The worker pool the script index is read on (core/scriptIndex `buildIndexParallel`: the same index); none: this thread. */
  pool?: WorkerPool;
}

/** Check the mods of an install (those its list names with an arch06 marker), or one mod folder overlaid on it. */
export async function checkMods(base: MountOptions, options: CheckOptions = {}): Promise<CheckReport> {
  const notes: string[] = [];
  let mount: Mount;
  const targets: CheckTarget[] = [];
  if (options.mod) {
    const folder = openModFolder(options.mod);
    const overlay = openOverlay(base, [{ folder: folder.root, name: folder.manifest.name, position: folder.manifest.position }]);
    mount = overlay.mount;
    notes.push(...overlay.notes);
    const source = mount.sources.find((s) => path.resolve(s.diskPath) === folder.root);
    if (source) targets.push({ name: folder.manifest.name, source, folder });
  } else {
    mount = Mount.open(base);
    // The mount drops comments; the markers are comments, so the list is read once more for them.
    const cfgText = Buffer.from(readFileBytes(mount.cfgPath, 16 << 20)).toString('latin1');
    for (const line of findModLines(cfgText)) {
      const source = mount.sources.find((s) => lineNames(mount, s, line.target));
      if (!source) {
        notes.push(`${line.mod}: its line (${line.line}) names nothing mounted`);
        continue;
      }
      let folder: ModFolder | undefined;
      if (source.kind === 'directory') {
        try {
          folder = openModFolder(source.diskPath);
        } catch (e) {
          if (!isArch06Error(e)) throw e;
          notes.push(`${line.mod}: ${e.message}`);
        }
      }
      targets.push({ name: line.mod, source, ...(folder ? { folder } : {}) });
    }
  }
  try {
    return { mods: await checkMounted(mount, targets, options), install: installProblems(mount.root), notes };
  } finally {
    mount.close();
  }
}

export interface CheckTarget {
  name: string;
  /** The mod's source in `mount`. */
  source: Source;
  /** The mod folder, when the source is one (its own problems, its manifest). */
  folder?: ModFolder;
}

/** Check mods already mounted (the extension's overlay): the per-mod part of `checkMods`. */
export async function checkMounted(mount: Mount, targets: readonly CheckTarget[], options: Pick<CheckOptions, 'pause' | 'pool'> = {}): Promise<CheckedMod[]> {
  const members = await memberRows(mount, options.pause);
  const mods: CheckedMod[] = [];
  for (const t of targets) {
    const problems = [...(t.folder?.problems ?? [])];
    const files = modPaths(t.source, t.folder);
    problems.push(...fileProblems(mount, t.source, files, members));
    problems.push(...(await contentProblems(mount, t.source, files, options.pause, options.pool)));
    if (t.folder) problems.push(...archiveNameProblems(mount.root, t.folder));
    mods.push({
      name: t.name,
      source: t.source.name,
      kind: t.source.kind === 'directory' ? 'folder' : 'archive',
      diskPath: t.source.diskPath,
      files: files.length,
      problems,
    });
  }
  return mods;
}

function lineNames(mount: Mount, s: Source, target: string): boolean {
  const abs = path.isAbsolute(target.replace(/\\/g, '/'))
    ? path.resolve(target.replace(/\\/g, '/'))
    : path.resolve(path.dirname(mount.cfgPath), target.replace(/\\/g, '/'));
  return path.resolve(s.diskPath).toLowerCase() === abs.toLowerCase();
}

/** The mod's game paths: a folder's files, or an archive's (without the path index and the manifest copy the packer adds). */
function modPaths(source: Source, folder: ModFolder | undefined): string[] {
  if (folder) return folder.files.map((f) => f.path);
  return source
    .allPaths()
    .filter(
      (p, i) => !source.hidden(i) && p.toLowerCase() !== PATH_INDEX_NAME && p.toLowerCase() !== ARCHIVE_MANIFEST_PATH && p.toLowerCase() !== MOD_MANIFEST,
    );
}

async function memberRows(mount: Mount, pause?: () => Promise<void>): Promise<Map<string, MemberRow[]>> {
  const catalog = await MemberCatalog.build(mount, { pause });
  const byPath = new Map<string, MemberRow[]>();
  for (const r of catalog.rows) {
    const k = r.path.toLowerCase();
    const list = byPath.get(k);
    if (list) list.push(r);
    else byPath.set(k, [r]);
  }
  return byPath;
}

function fileProblems(mount: Mount, source: Source, files: string[], members: Map<string, MemberRow[]>): ModProblem[] {
  const out: ModProblem[] = [];
  const rank = mount.sources.indexOf(source);
  const indexRows = new Set(mount.pathTable().rows.map((r) => r.path.toLowerCase()));
  const keys = new Set(files.map((f) => f.toLowerCase()));
  let nearest: ((p: string) => string[]) | undefined;
  for (const p of files) {
    const w = mount.which(p);
    const others = w ? w.copies.filter((c) => c.source !== source) : [];
    const above = w ? w.copies.findIndex((c) => c.source === source) : -1;
    if (above > 0) {
      out.push({
        code: 'MOD_COPY_SHADOWED',
        severity: 'warning',
        path: p,
        message: `shadowed by ${w!.copies[0].source.name}, which ranks above the mod: the game loads that copy`,
      });
    }
    const rows = members.get(p.toLowerCase()) ?? [];
    out.push(...memberProblems(mount, source, rank, p, rows));
    if (others.length === 0 && rows.length === 0) {
      nearest ??= nearestPaths(mount, source);
      const near = nearest(p);
      out.push({
        code: 'SHADOWS_NOTHING',
        severity: 'info',
        path: p,
        message: `adds a file: no source holds this path and no bundle lists it${near.length ? ` (meant ${near.join(' or ')}?)` : ''}`,
      });
      if (needsIndexRow(p, (q) => keys.has(q.toLowerCase())) && !indexRows.has(p.toLowerCase())) {
        out.push({
          code: 'UNINDEXED_NEW_FILE',
          severity: 'warning',
          path: p,
          message:
            source.kind === 'directory'
              ? "a new file of a kind the path index lists, and no path index names it: installed as a folder, the engine's hash → path table will not have it (the packed archive's index will)"
              : 'a new file of a kind the path index lists, and no path index names it (the archive carries none for it)',
        });
      }
    }
    if (source.kind === 'directory') {
      const disk = `${source.diskPath.replace(/[\\/]+$/, '')}\\${p}`;
      if (disk.length > WINDOWS_MAX_PATH) {
        out.push({
          code: 'UNREACHABLE_PATH',
          severity: 'error',
          path: p,
          message: `${disk.length} characters with the mod folder's path: a directory source cannot reach it (Windows' limit is ${WINDOWS_MAX_PATH})`,
        });
      }
    }
  }
  return out;
}

function memberProblems(mount: Mount, source: Source, rank: number, p: string, rows: MemberRow[]): ModProblem[] {
  const out: ModProblem[] = [];
  for (const row of rows) {
    if (row.servedFrom !== 'loose' || row.source !== source.name) continue;
    let bundle;
    try {
      bundle = resolveBundle(mount, row.bundle);
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      continue;
    }
    const m = bundle.members.find((x) => x.path.toLowerCase() === p.toLowerCase());
    if (!m) continue;
    if (m.size !== undefined && m.size !== m.declaredSize) {
      out.push({
        code: 'MEMBER_SIZE_MISMATCH',
        severity: 'error',
        path: p,
        message: `a member of ${bundle.manifest.path}, which declares ${m.declaredSize} bytes; the mod's copy has ${m.size} (the patches ship a manifest declaring the loose copy's size: add a patched manifest to the mod)`,
        fix: { kind: 'patch-manifest', manifest: bundle.manifest.path, member: m.path, size: m.size },
      });
    }
    const containerRank = bundle.container ? mount.sources.findIndex((s) => s.name === bundle.container!.source) : -1;
    if (containerRank >= 0 && rank > containerRank) {
      out.push({
        code: 'MEMBER_BELOW_CONTAINER',
        severity: 'warning',
        path: p,
        message: `overrides a member of ${bundle.manifest.path} from a source below its container (${bundle.container!.source}): unverified, seed 004 measured only loose copies above the container`,
      });
    }
  }
  return out;
}

/** The archive the mod packs into is already in the install, and is not this mod's. */
function archiveNameProblems(root: string, folder: ModFolder): ModProblem[] {
  const file = path.join(root, folder.manifest.archive);
  const present = Mount.findCfg(root) ? resolveCaseInsensitive(root, folder.manifest.archive) : undefined;
  if (!present) return [];
  let theirs;
  try {
    theirs = archiveManifest(present);
  } catch (e) {
    if (!isArch06Error(e) && !(e as NodeJS.ErrnoException).code) throw e;
  }
  if (theirs?.name.toLowerCase() === folder.manifest.name.toLowerCase()) return [];
  return [
    {
      code: 'ARCHIVE_NAME_TAKEN',
      severity: 'error',
      path: folder.manifest.archive,
      message: `the install already holds ${path.basename(present ?? file)}${theirs ? `, the archive of mod ${theirs.name}` : ', which is not an arch06 mod'}: choose another "archive" in ${MOD_MANIFEST}`,
    },
  ];
}
/** The lists: a mod archive whose line the store client's file check took out; a separate list older than the default one. */
function installProblems(root: string): ModProblem[] {
  const out: ModProblem[] = [];
  let lists;
  try {
    lists = listFiles(root);
  } catch (e) {
    if (isArch06Error(e)) return out;
    throw e;
  }
  for (const r of findResets(root)) {
    const leaf = path.basename(r.archive);
    out.push({
      code: 'LIST_RESET',
      severity: 'warning',
      path: leaf,
      message: `${leaf} (mod ${r.manifest.name}) is in the install but no list names it: the list was reset (the store client's file check?); install it again to put its line back`,
      fix: { kind: 'reinstall', archive: r.archive, mod: r.manifest.name, list: 'default' },
    });
  }
  const stale = staleModsList(lists.default, lists.mods);
  if (stale) out.push(stale);
  return out;
}

function staleModsList(defaultFile: string, modsFile: string): ModProblem | undefined {
  let def: string;
  let mods: string;
  try {
    def = Buffer.from(readFileBytes(defaultFile)).toString('latin1');
    mods = Buffer.from(readFileBytes(modsFile)).toString('latin1');
  } catch {
    return undefined;
  }
  const marked = new Set(findModLines(mods).map((m) => m.line));
  const strip = (t: string, skip: Set<number>): string[] =>
    t
      .split(/\r\n|\n|\r/)
      .filter((_, i) => !skip.has(i + 1))
      .map((l) => l.replace(/;.*$/, '').trim())
      .filter(Boolean);
  const a = strip(def, new Set(findModLines(def).map((m) => m.line)));
  const b = strip(mods, marked);
  if (a.length === b.length && a.every((l, i) => l.toLowerCase() === b[i].toLowerCase())) return undefined;
  return {
    code: 'MODS_LIST_STALE',
    severity: 'warning',
    path: path.basename(modsFile),
    message: `its game lines differ from ${path.basename(defaultFile)} (a game update?): uninstall and install the mods again to rebuild it`,
  };
}
