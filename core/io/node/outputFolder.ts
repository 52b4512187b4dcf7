/**
 * The one write primitive, `OutputFolder`. Every write names its destination as segments under
 * a folder the caller chose; every segment is checked as a name (`unsafeNameReason`), every
 * folder on the way is created one at a time and its real path (symbolic links followed) must
 * stay inside the real output folder and outside every forbidden place (the install, mounted
 * archives); the bytes go to a temp file created exclusively without following links, with a
 * random name, are flushed, and the temp file is renamed over the destination after the
 * folder's real path is checked once more. `writeFileAtomic` is its single-file form.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { escapeName, unsafeNameReason } from '../safeName';
import { isInside, realPathOf, realpath } from './disk';
import { errnoError, isErrnoException } from './errno';
import { fileKind } from './fileSource';

/** A flag that does not exist on every platform counts as 0 there (Windows has no O_NOFOLLOW). */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

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
        throw new Arch06Error('BAD_ARGUMENT', `refusing to write into ${forbidWhat}${really}: the install is read-only to arch06; choose another folder`, {
          file: abs,
        });
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
    if (st && !st.isDirectory())
      throw new Arch06Error('BAD_ARGUMENT', 'the output folder is not a folder', {
        file: abs,
        expected: 'a folder (or nothing)',
        actual: st.isFile() ? 'a file' : fileKind(st),
      });
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
        for (let done = 0; done < part.length;) done += fs.writeSync(fd, part, done, part.length - done);
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
  async writeBlocks(
    segments: readonly string[],
    next: () => Promise<Uint8Array | undefined>,
    options: {
      names?: NameOrigin;
      /** Flush the file before the rename (a file the user cannot simply make again). */
      fsync?: boolean;
      /** Called with the finished temp file before it is renamed into place; throwing keeps the destination as it was. */
      beforeRename?: (tempPath: string) => Promise<void> | void;
    } = {},
  ): Promise<void> {
    const { dir, dest } = this.prepare(segments, options.names ?? 'archive');
    const tmp = tempName(dir);
    const handle = await fs.promises.open(tmp, TEMP_FLAGS, 0o666);
    let closed = false;
    try {
      for (let b = await next(); b !== undefined; b = await next()) {
        for (let done = 0; done < b.length;) done += (await handle.write(b, done, b.length - done)).bytesWritten;
      }
      // No fsync by default: this serves extraction of up to the whole game (half a million files),
      // whose output can be made again; the rename alone keeps a partial file from ever being visible.
      if (options.fsync) await handle.sync();
      await handle.close();
      closed = true;
      await options.beforeRename?.(tmp);
      this.checkBeforeRename(dir, dest);
      await fs.promises.rename(tmp, dest);
    } catch (e) {
      if (!closed) await handle.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true });
      throw withPath(e, dest);
    }
  }

  /**
   * Remove one regular file under the folder (an uninstall taking back what an install wrote):
   * the names checked as for a write, the folders on the way must exist and stay inside the
   * output folder by real path, and the file must be a regular file, not a link. Returns false
   * when there was nothing to remove.
   */
  removeSync(segments: readonly string[], options: { names?: NameOrigin } = {}): boolean {
    const shown = escapeName(segments.join('\\'));
    for (const s of segments) {
      const why = options.names === 'user' ? (s === '' || s === '.' || s === '..' || /[\\/]/.test(s) ? 'not a file name' : undefined) : unsafeNameReason(s);
      if (why) throw new Arch06Error('INVALID', `unsafe name "${escapeName(s)}" (${why}): not removed`, { file: shown });
    }
    if (segments.length === 0) throw new Arch06Error('BAD_ARGUMENT', 'no file name to remove', { file: this.path });
    const target = path.join(this.real, ...segments);
    const st = lstatOrUndefined(target);
    if (!st) return false;
    if (!st.isFile())
      throw new Arch06Error('INVALID', 'not a regular file: not removed', { file: target, actual: st.isSymbolicLink() ? 'a symbolic link' : fileKind(st) });
    this.checkPlace(path.join(realpath(path.dirname(target)), path.basename(target)), shown);
    fs.unlinkSync(target);
    return true;
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
      const why =
        names === 'archive' ? unsafeNameReason(s) : s === '' || s === '.' || s === '..' || /[\\/]/.test(s) || s.includes('\0') ? 'not a file name' : undefined;
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
