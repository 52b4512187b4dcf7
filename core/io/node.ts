/**
 * The only engine file that touches `node:fs`. Everything else in `core/` receives bytes via
 * `ByteSource` or calls the helpers below, so the engine's view of the disk stays in one place
 * (and a browser build could swap this file out).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../errors';
import { ByteSource, checkRange } from './byteSource';

/** A read-only file opened once; reads are positional (pread), so one handle serves every caller. */
export class FileByteSource implements ByteSource {
  private fd: number | undefined;
  readonly size: number;

  private constructor(readonly name: string, readonly diskPath: string, fd: number, size: number) {
    this.fd = fd;
    this.size = size;
  }

  static open(diskPath: string, name = diskPath): FileByteSource {
    // 'r' only: the tool never opens game files for writing.
    const fd = fs.openSync(diskPath, 'r');
    try {
      const st = fs.fstatSync(fd);
      return new FileByteSource(name, diskPath, fd, st.size);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  private handle(): number {
    if (this.fd === undefined) throw new Arch06Error('INVALID', 'file is closed', { file: this.name });
    return this.fd;
  }

  readSync(position: number, length: number): Uint8Array {
    const out = Buffer.allocUnsafe(length);
    this.readIntoSync(position, length, out, 0);
    return out;
  }

  readIntoSync(position: number, length: number, target: Uint8Array, targetOffset: number): void {
    checkRange(this.name, this.size, position, length);
    if (targetOffset < 0 || targetOffset + length > target.length) {
      throw new Arch06Error('OUT_OF_RANGE', 'read target too small', { file: this.name, expected: `${length} bytes at ${targetOffset}`, actual: `${target.length}-byte buffer` });
    }
    let done = 0;
    while (done < length) {
      const n = fs.readSync(this.handle(), target, targetOffset + done, length - done, position + done);
      if (n === 0) throw new Arch06Error('TRUNCATED', 'file shrank while reading', { file: this.name, offset: position + done });
      done += n;
    }
  }

  read(position: number, length: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      try {
        checkRange(this.name, this.size, position, length);
      } catch (e) {
        reject(e);
        return;
      }
      const out = Buffer.allocUnsafe(length);
      const step = (done: number): void => {
        if (done === length) return resolve(out);
        fs.read(this.handle(), out, done, length - done, position + done, (err, n) => {
          if (err) return reject(err);
          if (n === 0) return reject(new Arch06Error('TRUNCATED', 'file shrank while reading', { file: this.name, offset: position + done }));
          step(done + n);
        });
      };
      step(0);
    });
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

export type DiskKind = 'file' | 'directory' | 'missing';

export function diskKind(p: string): DiskKind {
  try {
    const st = fs.statSync(p);
    return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'missing';
  } catch {
    return 'missing';
  }
}

export function readTextFile(p: string): string {
  return fs.readFileSync(p, 'latin1');
}

export function readFileBytes(p: string): Uint8Array {
  return fs.readFileSync(p);
}

export interface DiskDirEntry {
  name: string;
  isDirectory: boolean;
  size: number;
}

/** List one directory; entries that vanish or cannot be stat'ed are left out. */
export function listDirectory(p: string): DiskDirEntry[] {
  const out: DiskDirEntry[] = [];
  for (const d of fs.readdirSync(p, { withFileTypes: true })) {
    let isDir = d.isDirectory();
    let size = 0;
    try {
      const st = fs.statSync(path.join(p, d.name));
      isDir = st.isDirectory();
      size = st.isFile() ? st.size : 0;
      if (!isDir && !st.isFile()) continue;
    } catch {
      continue;
    }
    out.push({ name: d.name, isDirectory: isDir, size });
  }
  return out;
}

/**
 * Write a file atomically: a temp file beside the target, then rename. When `backup` is set and
 * the target exists, it is first copied to `<target>.bak` (kept from the first write only).
 * The only write primitive the engine has; callers decide whether writing is allowed.
 */
export function writeFileAtomic(target: string, bytes: Uint8Array, options: { backup?: boolean } = {}): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (options.backup && fs.existsSync(target) && !fs.existsSync(target + '.bak')) fs.copyFileSync(target, target + '.bak');
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  try {
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Resolve `relative` (separators / or \) under `base` the way Windows would: an exact match
 * first, else a case-insensitive one per segment. Returns undefined when some segment is missing.
 * `..` segments step up, as in the engine's config lines (`..\HighMip.arch06`).
 */
export function resolveCaseInsensitive(base: string, relative: string, cache?: Map<string, Map<string, string>>): string | undefined {
  let cur = path.isAbsolute(relative.replace(/\\/g, '/')) ? path.parse(path.resolve(relative.replace(/\\/g, '/'))).root : base;
  for (const seg of relative.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      cur = path.dirname(cur);
      continue;
    }
    const exact = path.join(cur, seg);
    if (fs.existsSync(exact)) {
      cur = exact;
      continue;
    }
    let names = cache?.get(cur);
    if (!names) {
      names = new Map();
      try {
        for (const n of fs.readdirSync(cur)) if (!names.has(n.toLowerCase())) names.set(n.toLowerCase(), n);
      } catch {
        return undefined;
      }
      cache?.set(cur, names);
    }
    const hit = names.get(seg.toLowerCase());
    if (hit === undefined) return undefined;
    cur = path.join(cur, hit);
  }
  return cur;
}

/**
 * Every file under `dir`, as paths relative to it with backslash separators. Symbolic links to
 * directories are followed once (a link loop is visited only once); depth is bounded.
 */
export function walkFiles(dir: string, maxDepth = 64): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
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
    for (const e of listDirectory(abs)) {
      const r = rel ? `${rel}\\${e.name}` : e.name;
      if (e.isDirectory) visit(path.join(abs, e.name), r, depth + 1);
      else out.push({ path: r, size: e.size });
    }
  };
  visit(dir, '', 0);
  return out;
}

export function fileSize(p: string): number {
  return fs.statSync(p).size;
}

/**
 * Write `dest` from blocks produced by `next()` (undefined ends the file): into `dest.part`
 * first, renamed into place only when complete, so a failure never leaves a partial file.
 */
export async function writeFileFromBlocks(dest: string, next: () => Promise<Uint8Array | undefined>): Promise<void> {
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.part`;
  const handle = await fs.promises.open(tmp, 'w');
  let closed = false;
  try {
    for (let b = await next(); b !== undefined; b = await next()) await handle.write(b);
    await handle.close();
    closed = true;
    await fs.promises.rename(tmp, dest);
  } catch (e) {
    if (!closed) await handle.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
}

/** Whether `inner` is `outer` or lies inside it (after resolving both). */
export function isInside(inner: string, outer: string): boolean {
  const rel = path.relative(path.resolve(outer), path.resolve(inner));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
