/**
 * The disk as the mount sees it: what a path is, directory listings and walks that skip (and
 * report) what they cannot read, case-insensitive path resolution as on Windows, and real paths
 * (symbolic links followed), which every write is checked against.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWindowsDeviceName } from '../safeName';
import { errnoError, errnoSummary, isErrnoException } from './errno';

export type DiskKind = 'file' | 'directory' | 'missing';

export function diskKind(p: string): DiskKind {
  try {
    const st = fs.statSync(p);
    return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'missing';
  } catch {
    return 'missing';
  }
}

/**
 * What a file was when it was opened or listed: which file (device and inode), its size and its
 * modification time. A source compares it with the disk before serving bytes (`fileChange`).
 */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /**
   * The inode's change time. Not part of what `fileChange` compares (a chmod moves it); kept for
   * the mount cache's key (core/archive/mountCache.ts): user space cannot set it, so a file
   * rewritten with its size and mtime restored (`touch -d`, utimes) still shows a new one.
   */
  ctimeMs?: number;
}

export function stampOf(st: fs.Stats): FileStamp {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** The stamp of the file at `p` (links followed), or undefined when there is none. */
export function fileStamp(p: string): FileStamp | undefined {
  try {
    const st = fs.statSync(p);
    return st.isFile() ? stampOf(st) : undefined;
  } catch {
    return undefined;
  }
}

/** How a file changed: gone, another file in its place, shorter, longer, or rewritten in place. */
export type FileChangeKind = 'deleted' | 'replaced' | 'truncated' | 'grown' | 'modified';

/**
 * How the file at `p` differs from `was`, or undefined when it is the same file with the same
 * size and modification time (a change that keeps both, on a file system with a coarse clock,
 * goes unseen: the stamp is what there is to compare).
 */
export function fileChange(p: string, was: FileStamp): { kind: FileChangeKind; detail: string } | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { kind: 'deleted', detail: code === 'ENOENT' || code === 'ENOTDIR' ? 'deleted' : `no longer readable (${code})` };
  }
  if (!st.isFile()) return { kind: 'deleted', detail: 'no longer a regular file' };
  if (st.dev !== was.dev || st.ino !== was.ino) return { kind: 'replaced', detail: `replaced by another file (${st.size} bytes)` };
  if (st.size < was.size) return { kind: 'truncated', detail: `truncated from ${was.size} to ${st.size} bytes` };
  if (st.size > was.size) return { kind: 'grown', detail: `grown from ${was.size} to ${st.size} bytes` };
  if (st.mtimeMs !== was.mtimeMs) return { kind: 'modified', detail: 'rewritten in place (same size, new modification time)' };
  return undefined;
}

export interface DiskDirEntry {
  name: string;
  isDirectory: boolean;
  size: number;
  /** A file's stamp when listed (folders: undefined). */
  stamp?: FileStamp;
}

/**
 * List one directory; entries that vanish or cannot be stat'ed are left out. `accept`: only names
 * it accepts are stat'ed and listed (a caller that wants a few names pays no stat for the rest).
 */
export function listDirectory(p: string, accept?: (name: string) => boolean): DiskDirEntry[] {
  const out: DiskDirEntry[] = [];
  for (const d of fs.readdirSync(p, { withFileTypes: true })) {
    if (accept && !accept(d.name)) continue;
    let st: fs.Stats;
    try {
      st = fs.statSync(path.join(p, d.name));
    } catch {
      continue;
    }
    if (st.isDirectory()) out.push({ name: d.name, isDirectory: true, size: 0 });
    else if (st.isFile()) out.push({ name: d.name, isDirectory: false, size: st.size, stamp: stampOf(st) });
  }
  return out;
}

/**
 * What resolving a path needs of a file system: the platform's path rules (`path.win32` in the
 * tests that hold the resolution to Windows' semantics) and two questions about the disk.
 */
export interface PathWorld {
  path: path.PlatformPath;
  exists(p: string): boolean;
  /** The names in folder `dir`; throws when it cannot be listed. */
  list(dir: string): string[];
}

const NODE_WORLD: PathWorld = { path, exists: (p) => fs.existsSync(p), list: (d) => fs.readdirSync(d) };

/**
 * Resolve `relative` (separators / or \) under `base` the way Windows would: an exact match
 * first, else a case-insensitive one per segment, a segment's trailing dots and spaces ignored
 * (Windows drops them). Returns undefined when some segment is missing or is a Windows device
 * name (`CON`, `NUL.arch06`, …: a device, never a file). `..` segments step up, as in the
 * engine's config lines (`..\HighMip.arch06`). An absolute `relative` starts at its own root: a
 * drive (`C:\`), a UNC share (`\\server\share\`), or `\` (the root of `base`'s drive).
 */
export function resolveCaseInsensitive(
  base: string,
  relative: string,
  cache?: Map<string, Map<string, string>>,
  world: PathWorld = NODE_WORLD,
): string | undefined {
  const p = world.path;
  const rel = relative.replace(/\\/g, '/');
  const root = p.isAbsolute(rel) ? p.parse(rel).root : '';
  // A root without a drive or share (`\x` on Windows) is the root of the base's drive.
  // A drive letter in either case is the same drive (`c:` is `C:`).
  let cur = root === '' ? base : /^[\\/]$/.test(root) ? p.parse(base).root || root : p.normalize(root).replace(/^[a-z]:/, (d) => d.toUpperCase());
  for (const seg of rel.slice(root.length).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      cur = p.dirname(cur);
      continue;
    }
    if (isWindowsDeviceName(seg)) return undefined;
    const exact = p.join(cur, seg);
    if (world.exists(exact)) {
      cur = exact;
      continue;
    }
    let names = cache?.get(cur);
    if (!names) {
      names = new Map();
      try {
        for (const n of world.list(cur)) if (!names.has(n.toLowerCase())) names.set(n.toLowerCase(), n);
      } catch {
        return undefined;
      }
      cache?.set(cur, names);
    }
    const hit = names.get(seg.toLowerCase()) ?? names.get(seg.replace(/[. ]+$/, '').toLowerCase());
    if (hit === undefined) return undefined;
    cur = p.join(cur, hit);
  }
  return cur;
}

/**
 * Every file under `dir`, as paths relative to it with backslash separators. Symbolic links to
 * directories are followed once (a link loop is visited only once); depth is bounded. A
 * subfolder that cannot be listed (permissions, I/O error) is left out and reported through
 * `onSkipped` (its relative path and a one-line reason); only `dir` itself failing throws.
 */
export function walkFiles(
  dir: string,
  maxDepth = 64,
  onSkipped?: (relPath: string, reason: string) => void,
): { path: string; size: number; stamp?: FileStamp }[] {
  const out: { path: string; size: number; stamp?: FileStamp }[] = [];
  const seen = new Set<string>();
  const visit = (abs: string, rel: string, depth: number): void => {
    if (depth > maxDepth) return;
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let entries: DiskDirEntry[];
    try {
      entries = listDirectory(abs);
    } catch (e) {
      if (depth === 0 || !isErrnoException(e)) throw e;
      onSkipped?.(rel, errnoSummary(e));
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}\\${e.name}` : e.name;
      if (e.isDirectory) visit(path.join(abs, e.name), r, depth + 1);
      else out.push({ path: r, size: e.size, stamp: e.stamp });
    }
  };
  visit(dir, '', 0);
  return out;
}

export function fileSize(p: string): number {
  return fs.statSync(p).size;
}

// ---- real paths ----------------------------------------------------------------------------

export const realpath = (p: string): string => fs.realpathSync.native(p);

/**
 * The real path of `p` (absolute, every symbolic link resolved). For a path that does not exist
 * yet: the real path of its nearest existing ancestor joined with the rest; a dangling symbolic
 * link on the way is followed to where it points (as a write through it would be).
 */
export function realPathOf(p: string): string {
  let cur = path.resolve(p);
  const rest: string[] = [];
  for (let links = 0; ;) {
    try {
      return path.join(realpath(cur), ...rest);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    }
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(cur);
    } catch {
      st = undefined;
    }
    if (st?.isSymbolicLink()) {
      if (++links > 40) throw errnoError('ELOOP', 'realpath', p);
      cur = path.resolve(path.dirname(cur), fs.readlinkSync(cur));
      continue;
    }
    const parent = path.dirname(cur);
    if (parent === cur) return path.join(cur, ...rest);
    rest.unshift(path.basename(cur));
    cur = parent;
  }
}

/** Whether `inner` is `outer` or lies inside it (after resolving both lexically). */
export function isInside(inner: string, outer: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Whether `inner` is `outer` or lies inside it, comparing real paths (symbolic links followed;
 * for paths that do not exist yet, their nearest existing ancestor). Use this before writing:
 * an output folder that is a link to the install is inside the install.
 */
export function isInsideReal(inner: string, outer: string): boolean {
  return isInside(realPathOf(inner), realPathOf(outer));
}
