/**
 * A changing disk under a mount (issue 21): what changed since the mount was made (the cfg, each
 * archive, each broken source, each cfg line that named nothing, archives added beside the
 * install's, loose files the caller saw change), a new mount that keeps every source whose file
 * did not change (opened and indexed once) and opens the rest again, one sentence naming what
 * changed, and whether a copy someone is showing is still the one served. The extension and the
 * CLI's long commands stand on it; it never watches anything itself (the caller tells it when).
 */
import * as path from 'node:path';
import { FileChangeKind, fileChange, listDirectory, resolveCaseInsensitive } from '../io/node/disk';
import { escapeName } from '../io/safeName';
import { DirectorySource } from './directorySource';
import { Mount } from './mount';
import { Source } from './source';

/** What a changed file was to the mount. */
export type DiskChangeRole =
  /** A mounted archive. */
  | 'source'
  /** The archive config list. */
  | 'cfg'
  /** A file a cfg line named that was not a readable archive. */
  | 'broken'
  /** A cfg line (or -arch archive) that named nothing, and now names something. */
  | 'missing'
  /** An archive in the install's folder that no cfg line names (the game does not mount it either). */
  | 'unlisted'
  /** A loose file of a mounted folder (the caller saw it change). */
  | 'loose';

export interface DiskChange {
  role: DiskChangeRole;
  /** The source's name (`Patch_02.arch06`, `Game`), the cfg's file name, or the line as written. */
  name: string;
  /** The disk path that changed. */
  path: string;
  kind: FileChangeKind | 'added';
  /** One phrase: how it changed (`replaced by another file (1234 bytes)`). */
  detail: string;
}

/**
 * Everything that changed on disk under `mount` since it was made, by comparing stamps (one stat
 * per file, one listing of the install's folder): no file is read.
 */
export function mountChanges(mount: Mount): DiskChange[] {
  const out: DiskChange[] = [];
  const cfgName = path.basename(mount.cfgPath);
  const cfgWas = mount.basis.cfg;
  const cfg = cfgWas ? fileChange(mount.cfgPath, cfgWas) : { kind: 'modified' as const, detail: 'readable again' };
  if (cfg) out.push({ role: 'cfg', name: cfgName, path: mount.cfgPath, kind: cfg.kind, detail: cfg.detail });
  for (const s of mount.sources) {
    const c = s.changedOnDisk();
    if (c !== undefined) out.push({ role: 'source', name: s.name, path: s.diskPath, kind: c.kind, detail: c.detail });
  }
  for (const b of mount.broken) {
    const was = mount.basis.broken.get(b.path);
    const c = was ? fileChange(b.path, was) : undefined;
    if (c) out.push({ role: 'broken', name: path.basename(b.path), path: b.path, kind: c.kind, detail: c.detail });
  }
  for (const m of mount.basis.missing) {
    const now = resolveCaseInsensitive(m.base, m.text);
    if (now !== undefined)
      out.push({ role: 'missing', name: m.text, path: now, kind: 'added', detail: m.line ? `added (cfg line ${m.line})` : 'added (-arch)' });
  }
  const known = new Set([...mount.unlisted.map((n) => n.toLowerCase()), ...mount.sources.map((s) => path.basename(s.diskPath).toLowerCase())]);
  for (const b of mount.broken) known.add(path.basename(b.path).toLowerCase());
  for (const c of out) if (c.role === 'missing') known.add(path.basename(c.path).toLowerCase());
  let entries: ReturnType<typeof listDirectory> = [];
  try {
    entries = listDirectory(mount.root);
  } catch {
    entries = []; // the root itself gone: every source says so
  }
  for (const e of entries) {
    if (e.isDirectory || !/\.arch06$/i.test(e.name) || known.has(e.name.toLowerCase())) continue;
    out.push({
      role: 'unlisted',
      name: e.name,
      path: path.join(mount.root, e.name),
      kind: 'added',
      detail: 'added, but no cfg line names it (not mounted, as in the game)',
    });
  }
  return out;
}

/**
 * The change a loose file at `diskPath` makes to `mount` (the caller's watcher saw it created,
 * changed or deleted), or undefined when no mounted folder holds it.
 */
export function looseChange(mount: Mount, diskPath: string, kind: 'added' | 'modified' | 'deleted'): DiskChange | undefined {
  for (const s of mount.sources) {
    if (!(s instanceof DirectorySource)) continue;
    const rel = path.relative(s.diskPath, diskPath);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    return { role: 'loose', name: s.name, path: diskPath, kind, detail: `${rel.split(path.sep).join('\\')} ${kind === 'added' ? 'added' : kind}` };
  }
  return undefined;
}

/** Whether the changes alter what the mount serves (an archive nobody mounts does not). */
export function needsRemount(changes: readonly DiskChange[]): boolean {
  return changes.some((c) => c.role !== 'unlisted');
}

export interface RemountResult {
  mount: Mount;
  changes: DiskChange[];
  /** Sources carried over unopened, and sources opened anew. */
  kept: number;
  opened: number;
}

/**
 * Mount the same install again after `changes`: every source whose file did not change (and every
 * folder none of whose loose files did) is carried over as it is, open and indexed; the rest, and
 * whatever the cfg now names, are opened anew. The old mount's other sources are closed; the old
 * mount must not be used afterwards. Throws what `Mount.open` throws (the cfg gone, the root gone),
 * leaving the old mount as it was.
 */
export function remount(old: Mount, changes: DiskChange[]): RemountResult {
  const changed = new Set(changes.filter((c) => c.role === 'source').map((c) => c.path));
  const looseChanged = new Set(changes.filter((c) => c.role === 'loose').map((c) => c.name));
  const reusable = new Map<string, Source>();
  for (const s of old.sources) {
    if (changed.has(s.diskPath)) continue;
    if (s instanceof DirectorySource && looseChanged.has(s.name)) continue;
    reusable.set(s.diskPath, s);
  }
  const mount = Mount.open({
    ...old.basis.options,
    // Each kept source serves one line (a file the cfg names twice is opened again for the second).
    reuse: (abs) => {
      const s = reusable.get(abs);
      reusable.delete(abs);
      return s;
    },
  });
  const inNew = new Set(mount.sources);
  const kept = old.sources.filter((s) => inNew.has(s)).length;
  old.close(inNew);
  return { mount, changes, kept, opened: mount.sources.length - kept };
}

/** How a change reads in one sentence: `Patch_02.arch06 replaced by another file (1,234 bytes)`. */
function phrase(c: DiskChange): string {
  const name = escapeName(c.name);
  switch (c.role) {
    case 'cfg':
      return `the archive config list (${name}) ${c.detail}`;
    case 'broken':
      return `${name} (a broken source) ${c.detail}`;
    case 'missing':
      return `${name} ${c.detail}`;
    case 'unlisted':
      return `${name} ${c.detail}`;
    case 'loose':
      return `${name}: ${escapeName(c.detail)}`;
    default:
      return `${name} ${c.detail}`;
  }
}

/**
 * The changes in one line for a notification or a terminal: loose files counted per folder, the
 * first `max` phrases, then how many more.
 */
export function describeChanges(changes: readonly DiskChange[], max = 4): string {
  const phrases: string[] = [];
  const loose = new Map<string, DiskChange[]>();
  for (const c of changes) {
    if (c.role !== 'loose') phrases.push(phrase(c));
    else loose.set(c.name, [...(loose.get(c.name) ?? []), c]);
  }
  for (const [name, list] of loose) phrases.push(list.length === 1 ? phrase(list[0]!) : `${escapeName(name)}: ${list.length} loose files changed`);
  if (phrases.length <= max) return phrases.join('; ');
  return `${phrases.slice(0, max).join('; ')}; and ${phrases.length - max} more`;
}

/** What became of a copy someone shows: still served, another copy served now, or none at all. */
export type CopyStatus = 'same' | 'changed' | 'vanished';

/** Compare the identity of the copy that was read with the one the new mount serves for the same path. */
export function copyStatus(before: string, after: string | undefined): CopyStatus {
  return after === undefined ? 'vanished' : after === before ? 'same' : 'changed';
}
