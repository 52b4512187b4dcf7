/**
 * The one write primitive, `OutputFolder`. Every write names its destination as segments under
 * a folder the caller chose; every segment is checked as a name (`unsafeNameReason`); every
 * folder on the way is created one at a time, never through a link, and must stay inside the real
 * output folder and outside every forbidden place (the install, mounted archives). The bytes go
 * to a temp file created exclusively without following links, with a random name, and the temp
 * file is renamed over the destination. How folders are reached so that no other process can
 * redirect a write by swapping a folder for a link (held by descriptors on Linux, checked before
 * and after every step elsewhere, with the residual window that leaves) is ./folderAccess.ts.
 * `writeFileAtomic` is its single-file form.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { escapeName, unsafeNameReason } from '../safeName';
import { isInside, realPathOf } from './disk';
import { isErrnoException } from './errno';
import { fileKind } from './fileSource';
import { CheckedFolders, Folder, FolderAccess, HeldFolders, changedError, closeQuietly, lstatOrUndefined, onDisk } from './folderAccess';

/** A flag that does not exist on every platform counts as 0 there (Windows has no O_NOFOLLOW). */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** The moments between the steps of one write, where a racing process could act. */
export type WriteStep = 'entered' | 'opened' | 'written' | 'renamed';

export interface OutputFolderOptions {
  /**
   * Places no write may land in, compared as real paths: folders (the install) and files (the
   * archives a mount reads). The output folder itself may not be inside one either.
   */
  forbid?: readonly string[];
  /** What the forbidden places are, for the refusal (default "the install folder"). */
  forbidWhat?: string;
  /**
   * Hold folders by descriptors where the platform allows (default true); false reaches them by
   * path with the checks only, as where /proc is missing (tests use it to exercise that way).
   */
  hold?: boolean;
  /** Called at each step of a write with the folder's real path (tests act there as a racing process would). */
  onStep?: (step: WriteStep, folder: string) => void;
}

/** Which names a write accepts: archive names get every check, names a user typed only the basic ones. */
export type NameOrigin = 'archive' | 'user';

/** A temp file being written: its name in the folder, its descriptor and the identity fstat gave it. */
interface Temp {
  name: string;
  fd: number | undefined;
  dev: number;
  ino: number;
}

/**
 * A folder arch06 writes into, opened once (created when missing; refused when it is a file or,
 * by real path, inside a forbidden place). `writeSync` / `writeBlocks` write one file under it;
 * `close` lets go of the folders it holds.
 */
export class OutputFolder {
  private constructor(
    /** The folder as given, made absolute. */
    readonly path: string,
    private readonly access: FolderAccess,
    private readonly onStep: OutputFolderOptions['onStep'],
  ) {}

  /** Its real path: every write stays inside it. */
  get real(): string {
    return this.access.place.realRoot;
  }

  /** True when its folders are held by descriptors, so no swapped link can redirect a write. */
  get holdsFolders(): boolean {
    return this.access.holds;
  }

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
    const access = (options.hold !== false && HeldFolders.open(abs, forbidden, forbidWhat)) || CheckedFolders.open(abs, forbidden, forbidWhat);
    try {
      refuse(access.place.realRoot);
    } catch (e) {
      access.close();
      throw e;
    }
    return new OutputFolder(abs, access, options.onStep);
  }

  /** The output folder for a single output file (`--png OUT`): its parent folder. */
  static forFile(file: string, options: OutputFolderOptions = {}): { folder: OutputFolder; leaf: string } {
    const abs = path.resolve(file);
    const leaf = path.basename(abs);
    if (leaf === '' || abs === path.parse(abs).root) throw new Arch06Error('BAD_ARGUMENT', 'an output file needs a file name', { file });
    return { folder: OutputFolder.open(path.dirname(abs), options), leaf };
  }

  /** Let go of the folders held open; the folder takes no more writes. */
  close(): void {
    this.access.close();
  }

  /** Where `segments` would be written (lexically; for messages). */
  pathOf(segments: readonly string[]): string {
    return path.join(this.path, ...segments);
  }

  /** Write one file from bytes (or parts written back to back), flushed before it is renamed into place. */
  writeSync(segments: readonly string[], bytes: Uint8Array | readonly Uint8Array[], options: { names?: NameOrigin; backup?: boolean } = {}): void {
    const { folder, leaf, shown } = this.prepare(segments, options.names ?? 'archive');
    try {
      if (options.backup) backup(folder, leaf);
      const t = this.begin(folder, shown);
      try {
        const fd = t.fd!;
        for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) {
          for (let done = 0; done < part.length;) done += fs.writeSync(fd, part, done, part.length - done);
        }
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        t.fd = undefined;
      } catch (e) {
        this.abandon(folder, t);
        throw e;
      }
      this.finish(folder, t, leaf, shown);
    } catch (e) {
      throw withPath(e, folder, leaf);
    } finally {
      this.access.release(folder);
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
    const { folder, leaf, shown } = this.prepare(segments, options.names ?? 'archive');
    try {
      const t = this.begin(folder, shown);
      try {
        for (let b = await next(); b !== undefined; b = await next()) {
          for (let done = 0; done < b.length;) done += await writeAsync(t.fd!, b, done, b.length - done);
        }
        // No fsync by default: this serves extraction of up to the whole game (half a million files),
        // whose output can be made again; the rename alone keeps a partial file from ever being visible.
        if (options.fsync) fs.fsyncSync(t.fd!);
        fs.closeSync(t.fd!);
        t.fd = undefined;
        await options.beforeRename?.(path.join(folder.via, t.name));
      } catch (e) {
        this.abandon(folder, t);
        throw e;
      }
      this.finish(folder, t, leaf, shown);
    } catch (e) {
      throw withPath(e, folder, leaf);
    } finally {
      this.access.release(folder);
    }
  }

  /**
   * Remove one regular file under the folder (an uninstall taking back what an install wrote):
   * the names checked as for a write, the folder entered and verified as for a write, and the
   * file must be a regular file, not a link. Returns false when there was nothing to remove.
   */
  removeSync(segments: readonly string[], options: { names?: NameOrigin } = {}): boolean {
    const { folder, leaf, shown } = this.prepare(segments, options.names ?? 'archive');
    try {
      this.access.verify(folder, shown);
      const target = path.join(folder.via, leaf);
      const st = lstatOrUndefined(target);
      if (!st) return false;
      if (!st.isFile())
        throw new Arch06Error('INVALID', 'not a regular file: not removed', {
          file: path.join(folder.real, leaf),
          actual: st.isSymbolicLink() ? 'a symbolic link' : fileKind(st),
        });
      fs.unlinkSync(target);
      return true;
    } finally {
      this.access.release(folder);
    }
  }

  /** Check the names and enter the destination's folder (created one segment at a time). */
  private prepare(segments: readonly string[], names: NameOrigin): { folder: Folder; leaf: string; shown: string } {
    const shown = escapeName(segments.join('\\'));
    if (segments.length === 0) throw new Arch06Error('BAD_ARGUMENT', 'no file name to write', { file: this.path });
    for (const s of segments) {
      const why =
        names === 'archive' ? unsafeNameReason(s) : s === '' || s === '.' || s === '..' || /[\\/]/.test(s) || s.includes('\0') ? 'not a file name' : undefined;
      if (why) throw new Arch06Error('INVALID', `unsafe name "${escapeName(s)}" (${why}): not written`, { file: shown });
    }
    const leaf = segments[segments.length - 1]!;
    const folder = this.access.enter(segments.slice(0, -1), shown);
    try {
      this.access.place.check(path.join(folder.real, leaf), shown);
      this.onStep?.('entered', folder.real);
    } catch (e) {
      this.access.release(folder);
      throw e;
    }
    return { folder, leaf, shown };
  }

  /** The exclusive temp file, created only in a folder verified just before, checked just after. */
  private begin(folder: Folder, shown: string): Temp {
    this.access.verify(folder, shown);
    const name = `.arch06-${crypto.randomBytes(12).toString('hex')}.tmp`;
    const fd = fs.openSync(path.join(folder.via, name), TEMP_FLAGS, 0o666);
    const st = fs.fstatSync(fd);
    const t: Temp = { name, fd, dev: st.dev, ino: st.ino };
    try {
      this.onStep?.('opened', folder.real);
      this.checkCreated(folder, t, name, shown);
    } catch (e) {
      this.abandon(folder, t);
      throw e;
    }
    return t;
  }

  /** Rename the finished temp file into place in a folder verified just before, checked just after. */
  private finish(folder: Folder, t: Temp, leaf: string, shown: string): void {
    let at = t.name;
    try {
      this.onStep?.('written', folder.real);
      this.access.verify(folder, shown);
      fs.renameSync(path.join(folder.via, t.name), path.join(folder.via, leaf));
      at = leaf;
      this.onStep?.('renamed', folder.real);
      this.checkCreated(folder, t, leaf, shown);
    } catch (e) {
      removeOwn(folder, at, t);
      throw e;
    }
  }

  /**
   * The folder is still where it was and `name` in it is the file this write created (same
   * identity, one link: not a hard link someone made to a file created elsewhere).
   */
  private checkCreated(folder: Folder, t: Temp, name: string, shown: string): void {
    this.access.verify(folder, shown);
    const st = lstatOrUndefined(path.join(folder.via, name));
    if (!st || !st.isFile() || st.dev !== t.dev || st.ino !== t.ino || st.nlink !== 1) {
      throw changedError(
        shown,
        `${name} is not the file arch06 created in ${folder.real}; a link swapped in may have sent that empty file elsewhere: remove ${t.name} wherever it is found`,
      );
    }
  }

  /** A failed write: close the temp file and remove it (only if it is still this write's). */
  private abandon(folder: Folder, t: Temp): void {
    if (t.fd !== undefined) closeQuietly(t.fd);
    t.fd = undefined;
    removeOwn(folder, t.name, t);
  }
}

/** Exclusive create, write only, never through a symbolic link. */
const TEMP_FLAGS = fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | O_NOFOLLOW;

/** Remove `name` in the folder if it is the file this write created (never someone else's). */
function removeOwn(folder: Folder, name: string, t: Temp): void {
  const at = path.join(folder.via, name);
  const st = lstatOrUndefined(at);
  if (!st || !st.isFile() || st.dev !== t.dev || st.ino !== t.ino) return;
  try {
    fs.unlinkSync(at);
  } catch {
    // the write already failed; that error is the one to report
  }
}

function writeAsync(fd: number, b: Uint8Array, offset: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => fs.write(fd, b, offset, length, null, (err, n) => (err ? reject(err) : resolve(n))));
}

/**
 * `<leaf>.bak`, kept from the first write only: copied from a regular file opened without
 * following a link, into a file created exclusively (never through a link), in the held folder.
 */
function backup(folder: Folder, leaf: string): void {
  let src: number;
  try {
    src = fs.openSync(path.join(folder.via, leaf), fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return; // nothing to keep (or a link, which is not followed)
  }
  try {
    if (!fs.fstatSync(src).isFile()) return;
    let dst: number;
    try {
      dst = fs.openSync(path.join(folder.via, leaf + '.bak'), TEMP_FLAGS, 0o666);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
      throw e;
    }
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      for (let n; (n = fs.readSync(src, buf, 0, buf.length, null)) > 0;) {
        for (let done = 0; done < n;) done += fs.writeSync(dst, buf, done, n - done);
      }
      fs.fsyncSync(dst);
    } finally {
      fs.closeSync(dst);
    }
  } finally {
    fs.closeSync(src);
  }
}

/** Name the destination in a file-system error that names no path, a temp file or a held folder. */
function withPath(e: unknown, folder: Folder, leaf: string): unknown {
  const dest = path.join(folder.real, leaf);
  if (isErrnoException(e)) {
    onDisk(e, folder);
    if (e.path === undefined || /\.arch06-[0-9a-f]{24}\.tmp$/.test(e.path)) e.path = dest;
    if ((e as { dest?: string }).dest !== undefined) (e as { dest?: string }).dest = dest;
  }
  return e;
}

/**
 * Write a whole file: its parent folder is the output folder (created when missing; refused, by
 * real path, inside `forbid`), the name is the user's. A temp file beside the target, flushed,
 * then renamed. When `backup` is set and the target exists, it is first copied to `<target>.bak`
 * (kept from the first write only). `bytes` may be parts, written back to back.
 */
export function writeFileAtomic(
  target: string,
  bytes: Uint8Array | readonly Uint8Array[],
  options: { backup?: boolean; forbid?: readonly string[] } = {},
): void {
  const { folder, leaf } = OutputFolder.forFile(target, { forbid: options.forbid });
  try {
    folder.writeSync([leaf], bytes, { names: 'user', backup: options.backup });
  } finally {
    folder.close();
  }
}
