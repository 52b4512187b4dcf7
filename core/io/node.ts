/**
 * The only engine file that touches `node:fs`. Everything else in `core/` receives bytes via
 * `ByteSource` or calls the helpers below, so the engine's view of the disk stays in one place
 * (and a browser build could swap this file out).
 *
 * Reading: files are opened read-only and non-blocking (a FIFO or a device never hangs the
 * tool), whole-file reads are refused for anything but a regular file and above a size cap.
 * Writing: one primitive, `OutputFolder`. Every write names its destination as segments under
 * a folder the caller chose; every segment is checked as a name (`unsafeNameReason`), every
 * folder on the way is created one at a time and its real path (symbolic links followed) must
 * stay inside the real output folder and outside every forbidden place (the install, mounted
 * archives); the bytes go to a temp file created exclusively without following links, with a
 * random name, are flushed, and the temp file is renamed over the destination after the
 * folder's real path is checked once more.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../errors';
import { escapeName, unsafeNameReason } from './safeName';
import { ByteSource, checkRange } from './byteSource';

/** Flags that do not exist on every platform count as 0 there (Windows has no O_NOFOLLOW). */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** A read-only file opened once; reads are positional (pread), so one handle serves every caller. */
export class FileByteSource implements ByteSource {
  private fd: number | undefined;
  readonly size: number;

  private constructor(readonly name: string, readonly diskPath: string, fd: number, size: number) {
    this.fd = fd;
    this.size = size;
  }

  static open(diskPath: string, name = diskPath): FileByteSource {
    // Read-only: the tool never opens game files for writing. Non-blocking, so a FIFO planted
    // where a file should be fails here instead of waiting for a writer.
    const fd = fs.openSync(diskPath, fs.constants.O_RDONLY | O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw new Arch06Error('INVALID', 'not a regular file', { file: name, expected: 'a regular file', actual: fileKind(st) });
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

/** What a non-regular file is, for messages. */
function fileKind(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** What one command may read into memory for one file or entry unless told otherwise: 1 GiB. */
export const DEFAULT_MAX_ENTRY_BYTES = 1 << 30;
/** The most any cap may allow: one Buffer (and a 32-bit signed length everywhere below). */
export const MAX_ENTRY_BYTES_LIMIT = 0x7fffffff;

/**
 * Refuse to hold `size` bytes of `file` in memory when they exceed `cap`: an OUT_OF_RANGE error
 * naming the size and the cap (and, when given, how to raise it).
 */
export function checkEntrySize(size: number, file: string, cap = DEFAULT_MAX_ENTRY_BYTES, howToRaise?: string): void {
  if (!(size <= cap && size <= MAX_ENTRY_BYTES_LIMIT)) {
    const limit = Math.min(cap, MAX_ENTRY_BYTES_LIMIT);
    throw new Arch06Error('OUT_OF_RANGE', `too large to read into memory (the cap for one file is ${limit} bytes${howToRaise && limit === cap ? `; ${howToRaise}` : ''})`, {
      file, field: 'size', expected: `at most ${limit} bytes`, actual: `${size} bytes`,
    });
  }
}

/**
 * A whole regular file, at most `maxBytes` long. Devices, FIFOs, folders and sockets are refused
 * (/dev/zero would never end), as are files over the cap (before anything is allocated). With
 * `checkPrefix`, the first `prefixBytes` are read and checked before the rest is.
 */
export function readFileBytes(p: string, maxBytes = DEFAULT_MAX_ENTRY_BYTES, howToRaise?: string, checkPrefix?: (prefix: Uint8Array) => void, prefixBytes = 64 << 10): Uint8Array {
  const fd = fs.openSync(p, fs.constants.O_RDONLY | O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Arch06Error('BAD_ARGUMENT', 'not a regular file', { file: p, expected: 'a regular file', actual: fileKind(st) });
    const readInto = (out: Uint8Array, from: number, to: number): void => {
      for (let done = from; done < to; ) {
        const n = fs.readSync(fd, out, done, to - done, done);
        if (n === 0) throw new Arch06Error('TRUNCATED', 'file shrank while reading', { file: p, offset: done });
        done += n;
      }
    };
    let head: Uint8Array | undefined;
    if (checkPrefix) {
      head = Buffer.allocUnsafe(Math.min(st.size, prefixBytes));
      readInto(head, 0, head.length);
      checkPrefix(head);
    }
    checkEntrySize(st.size, p, maxBytes, howToRaise);
    if (head && head.length === st.size) return head;
    const out = Buffer.allocUnsafe(st.size);
    if (head) out.set(head);
    readInto(out, head?.length ?? 0, st.size);
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

/** A text file (latin1: every byte one character), with the same refusals as `readFileBytes`. */
export function readTextFile(p: string, maxBytes = 256 << 20): string {
  const b = readFileBytes(p, maxBytes);
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
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
 * directories are followed once (a link loop is visited only once); depth is bounded. A
 * subfolder that cannot be listed (permissions, I/O error) is left out and reported through
 * `onSkipped` (its relative path and a one-line reason); only `dir` itself failing throws.
 */
export function walkFiles(dir: string, maxDepth = 64, onSkipped?: (relPath: string, reason: string) => void): { path: string; size: number }[] {
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
      else out.push({ path: r, size: e.size });
    }
  };
  visit(dir, '', 0);
  return out;
}

export function fileSize(p: string): number {
  return fs.statSync(p).size;
}

// ---- file-system errors ---------------------------------------------------------------------

/** A Node file-system error (`ENOENT`, `EACCES`, …), as opposed to a programming error. */
export function isErrnoException(e: unknown): e is NodeJS.ErrnoException {
  if (!(e instanceof Error)) return false;
  const x = e as NodeJS.ErrnoException;
  return typeof x.code === 'string' && /^E[A-Z0-9]+$/.test(x.code) && (typeof x.errno === 'number' || typeof x.syscall === 'string');
}

const ERRNO_REASON: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENAMETOOLONG: 'name too long',
  EEXIST: 'already exists',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'is a folder',
  ELOOP: 'too many levels of symbolic links',
  EPERM: 'operation not permitted',
  EACCES: 'permission denied',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EPIPE: 'the reader went away',
  EXDEV: 'crosses devices',
  EBUSY: 'busy',
  ENOTEMPTY: 'folder not empty',
  EINVAL: 'invalid argument',
  ENXIO: 'no such device',
  ENODEV: 'no such device',
  ETXTBSY: 'file busy',
  EAGAIN: 'temporarily unavailable',
};

const SYSCALL_WHAT: Record<string, string> = {
  open: 'cannot open',
  read: 'cannot read',
  write: 'cannot write',
  mkdir: 'cannot create folder',
  rename: 'cannot move into place',
  scandir: 'cannot list folder',
  opendir: 'cannot list folder',
  stat: 'cannot inspect',
  lstat: 'cannot inspect',
  fstat: 'cannot inspect',
  realpath: 'cannot resolve',
  readlink: 'cannot read link',
  unlink: 'cannot remove',
  rmdir: 'cannot remove',
  rm: 'cannot remove',
  copyfile: 'cannot copy',
  fsync: 'cannot flush',
  close: 'cannot close',
  access: 'cannot access',
};

/**
 * One line for a file-system error: `<what failed>: <path>: <short reason>` (the path as is;
 * front ends escape it), e.g. `cannot create folder: /out/a: a part of the path is not a folder`.
 */
export function errnoSummary(e: NodeJS.ErrnoException): string {
  const code = e.code ?? 'E?';
  const what = (e.syscall && SYSCALL_WHAT[e.syscall]) ?? (e.syscall ? `${e.syscall} failed` : 'file-system error');
  const where = (e as { dest?: string }).dest ?? e.path;
  const reason = ERRNO_REASON[code] ? `${ERRNO_REASON[code]} (${code})` : code;
  return where !== undefined ? `${what}: ${where}: ${reason}` : `${what}: ${reason}`;
}

/** An errno-style error the primitives below raise themselves (same shape as Node's). */
function errnoError(code: string, syscall: string, p: string): NodeJS.ErrnoException {
  const e = new Error(`${code}: ${ERRNO_REASON[code] ?? code}, ${syscall} '${p}'`) as NodeJS.ErrnoException;
  e.code = code;
  e.syscall = syscall;
  e.path = p;
  e.errno = -1;
  return e;
}

// ---- real paths ----------------------------------------------------------------------------

const realpath = (p: string): string => fs.realpathSync.native(p);

/**
 * The real path of `p` (absolute, every symbolic link resolved). For a path that does not exist
 * yet: the real path of its nearest existing ancestor joined with the rest; a dangling symbolic
 * link on the way is followed to where it points (as a write through it would be).
 */
export function realPathOf(p: string): string {
  let cur = path.resolve(p);
  const rest: string[] = [];
  for (let links = 0; ; ) {
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

// ---- the write primitive -------------------------------------------------------------------

export interface OutputFolderOptions {
  /**
   * Places no write may land in, compared as real paths: folders (the install) and files (the
   * archives a mount reads). The output folder itself may not be inside one either.
   */
  forbid?: readonly string[];
  /** What the forbidden places are, for the refusal (default "the install folder"). */
  forbidWhat?: string;
}

/** Which names a write accepts: archive names get every check, names a user typed only the basic ones. */
export type NameOrigin = 'archive' | 'user';

/**
 * A folder arch06 writes into, opened once (created when missing; refused when it is a file or,
 * by real path, inside a forbidden place). `writeSync` / `writeBlocks` write one file under it.
 */
export class OutputFolder {
  /** Plain folders already created and checked (their real path is their path), with their identity. */
  private readonly checkedFolders = new Map<string, { dev: number; ino: number }>();

  private constructor(
    /** The folder as given, made absolute. */
    readonly path: string,
    /** Its real path: every write must stay inside it. */
    readonly real: string,
    private readonly forbidden: readonly string[],
    private readonly forbidWhat: string,
  ) {}

  static open(dir: string, options: OutputFolderOptions = {}): OutputFolder {
    const abs = path.resolve(dir);
    const forbidden = (options.forbid ?? []).map(realPathOf);
    const forbidWhat = options.forbidWhat ?? 'the install folder';
    const refuse = (real: string): void => {
      if (forbidden.some((f) => isInside(real, f))) {
        const really = real !== abs ? ` (it is really ${real})` : '';
        throw new Arch06Error('BAD_ARGUMENT', `refusing to write into ${forbidWhat}${really}: the install is read-only to arch06; choose another folder`, { file: abs });
      }
    };
    // Before creating anything: where the folder would really be.
    refuse(realPathOf(abs));
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(abs);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (st && !st.isDirectory()) throw new Arch06Error('BAD_ARGUMENT', 'the output folder is not a folder', { file: abs, expected: 'a folder (or nothing)', actual: st.isFile() ? 'a file' : fileKind(st) });
    if (!st) fs.mkdirSync(abs, { recursive: true });
    const real = realpath(abs);
    refuse(real);
    if (!fs.statSync(real).isDirectory()) throw errnoError('ENOTDIR', 'mkdir', abs);
    return new OutputFolder(abs, real, forbidden, forbidWhat);
  }

  /** The output folder for a single output file (`--png OUT`): its parent folder. */
  static forFile(file: string, options: OutputFolderOptions = {}): { folder: OutputFolder; leaf: string } {
    const abs = path.resolve(file);
    const leaf = path.basename(abs);
    if (leaf === '' || abs === path.parse(abs).root) throw new Arch06Error('BAD_ARGUMENT', 'an output file needs a file name', { file });
    return { folder: OutputFolder.open(path.dirname(abs), options), leaf };
  }

  /** Where `segments` would be written (lexically; for messages). */
  pathOf(segments: readonly string[]): string {
    return path.join(this.path, ...segments);
  }

  /** Write one file from bytes (or parts written back to back). */
  writeSync(segments: readonly string[], bytes: Uint8Array | readonly Uint8Array[], options: { names?: NameOrigin; backup?: boolean } = {}): void {
    const { dir, dest } = this.prepare(segments, options.names ?? 'archive');
    if (options.backup) this.backup(dir, dest);
    const tmp = tempName(dir);
    const fd = fs.openSync(tmp, TEMP_FLAGS, 0o666);
    let closed = false;
    try {
      for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
        for (let done = 0; done < part.length; ) done += fs.writeSync(fd, part, done, part.length - done);
      }
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      closed = true;
      this.checkBeforeRename(dir, dest);
      fs.renameSync(tmp, dest);
    } catch (e) {
      if (!closed) closeQuietly(fd);
      fs.rmSync(tmp, { force: true });
      throw withPath(e, dest);
    }
  }

  /** Write one file from blocks produced by `next()` (undefined ends the file). */
  async writeBlocks(segments: readonly string[], next: () => Promise<Uint8Array | undefined>, options: { names?: NameOrigin } = {}): Promise<void> {
    const { dir, dest } = this.prepare(segments, options.names ?? 'archive');
    const tmp = tempName(dir);
    const handle = await fs.promises.open(tmp, TEMP_FLAGS, 0o666);
    let closed = false;
    try {
      for (let b = await next(); b !== undefined; b = await next()) {
        for (let done = 0; done < b.length; ) done += (await handle.write(b, done, b.length - done)).bytesWritten;
      }
      // No fsync here: this serves extraction of up to the whole game (half a million files), whose
      // output can be made again; the rename alone keeps a partial file from ever being visible.
      await handle.close();
      closed = true;
      this.checkBeforeRename(dir, dest);
      await fs.promises.rename(tmp, dest);
    } catch (e) {
      if (!closed) await handle.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true });
      throw withPath(e, dest);
    }
  }

  /**
   * Check the names, create the folders one at a time, and after each one check that its real
   * path is still inside the real output folder and outside every forbidden place. Returns the
   * real folder and the destination in it.
   */
  private prepare(segments: readonly string[], names: NameOrigin): { dir: string; dest: string } {
    const shown = (): string => escapeName(segments.join('\\'));
    if (segments.length === 0) throw new Arch06Error('BAD_ARGUMENT', 'no file name to write', { file: this.path });
    for (const s of segments) {
      const why = names === 'archive' ? unsafeNameReason(s) : s === '' || s === '.' || s === '..' || /[\\/]/.test(s) || s.includes('\0') ? 'not a file name' : undefined;
      if (why) throw new Arch06Error('INVALID', `unsafe name "${escapeName(s)}" (${why}): not written`, { file: shown() });
    }
    let dir = this.real;
    for (const seg of segments.slice(0, -1)) {
      const next = path.join(dir, seg);
      // A folder checked for an earlier file costs one lstat: still the same folder, not a link.
      const known = this.checkedFolders.get(next);
      if (known !== undefined) {
        const st = lstatOrUndefined(next);
        if (st && st.isDirectory() && st.ino === known.ino && st.dev === known.dev) {
          dir = next;
          continue;
        }
        this.checkedFolders.delete(next);
      }
      try {
        fs.mkdirSync(next);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const real = realpath(next);
      this.checkPlace(real, shown());
      if (!fs.statSync(real).isDirectory()) throw errnoError('ENOTDIR', 'mkdir', next);
      if (real === next) {
        // Only plain folders are remembered (a link inside the output folder is checked every time).
        if (this.checkedFolders.size >= 65536) this.checkedFolders.clear();
        const st = fs.lstatSync(next);
        this.checkedFolders.set(next, { dev: st.dev, ino: st.ino });
      }
      dir = real;
    }
    const dest = path.join(dir, segments[segments.length - 1]!);
    this.checkPlace(dest, shown());
    return { dir, dest };
  }

  private checkPlace(real: string, shown: string): void {
    if (this.forbidden.some((f) => isInside(real, f))) {
      throw new Arch06Error('INVALID', `refusing to write into ${this.forbidWhat} (read-only to arch06): the path leads to ${real}`, { file: shown });
    }
    if (!isInside(real, this.real)) {
      throw new Arch06Error('INVALID', `refusing to write outside the output folder: a symbolic link leads to ${real}`, { file: shown });
    }
  }

  /** Right before the rename: the destination's folder must still really be where it was. */
  private checkBeforeRename(dir: string, dest: string): void {
    const now = realpath(dir);
    if (now !== dir) {
      throw new Arch06Error('INVALID', `the folder changed while writing (now ${now}); not written`, { file: dest });
    }
    this.checkPlace(path.join(now, path.basename(dest)), dest);
  }

  /** `<dest>.bak`, kept from the first write only: copied exclusively, never through a link. */
  private backup(dir: string, dest: string): void {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dest);
    } catch {
      return;
    }
    if (!st.isFile()) return;
    const bak = path.join(dir, path.basename(dest) + '.bak');
    try {
      fs.copyFileSync(dest, bak, fs.constants.COPYFILE_EXCL);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** Exclusive create, write only, never through a symbolic link. */
const TEMP_FLAGS = fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | O_NOFOLLOW;

/** A temp name nobody can predict, in the destination's folder (so the rename stays on one device). */
function tempName(dir: string): string {
  return path.join(dir, `.arch06-${crypto.randomBytes(12).toString('hex')}.tmp`);
}

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already failing; the first error is the one to report
  }
}

/** Name the destination in a file-system error that names no path (a failed write or flush). */
function withPath(e: unknown, dest: string): unknown {
  if (isErrnoException(e)) {
    if (e.path === undefined || /\.arch06-[0-9a-f]{24}\.tmp$/.test(e.path)) e.path = dest;
    if ((e as { dest?: string }).dest !== undefined) (e as { dest?: string }).dest = dest;
  }
  return e;
}

/**
 * Write a whole file: its parent folder is the output folder (created when missing; refused, by
 * real path, inside `forbid`), the name is the user's. A temp file beside the target, flushed,
 * then renamed. When `backup` is set and the target exists, it is first copied to `<target>.bak`
 * (kept from the first write only).
 */
export function writeFileAtomic(target: string, bytes: Uint8Array, options: { backup?: boolean; forbid?: readonly string[] } = {}): void {
  const { folder, leaf } = OutputFolder.forFile(target, { forbid: options.forbid });
  folder.writeSync([leaf], bytes, { names: 'user', backup: options.backup });
}
