/**
 * How the write primitive (./outputFolder.ts) reaches the folders it writes into, so that another
 * process cannot redirect a write by swapping a folder for a link while arch06 writes (issue 21).
 * Node has no openat(2), so there are two ways, chosen once per output folder:
 *
 * - Held (Linux): each folder is opened once with O_DIRECTORY | O_NOFOLLOW from its held parent,
 *   and every operation inside it (mkdir, the exclusive temp file, rename, unlink, the backup)
 *   names `/proc/self/fd/<fd>/<leaf>`. The kernel resolves that prefix to the very folder the
 *   descriptor holds, whatever has happened to its path since, so a link swapped in anywhere on
 *   the way is never followed. Where the held folder now is (one readlink) is compared with
 *   where it was before the temp file is created and after the rename, so a folder moved away
 *   turns into a refusal instead of files landing somewhere the user did not look.
 * - Checked (macOS, Windows, Linux without /proc): operations go by path, and every folder from
 *   the output root down is checked (a real folder, not a link, the same device and inode as
 *   when it was entered, its real path unchanged) before the temp file is created, after it is
 *   (the temp file found where it should be, with the descriptor's identity and a single link),
 *   before the rename and after it; a mismatch deletes what was written and refuses. The residual
 *   window, which only the held way closes: a process that swaps a link in and back out between
 *   two checks can make the exclusive create land where the link led (an empty file with a
 *   random name: nothing is written into it before the check, and the refusal names it, since it
 *   cannot be found to delete), and a swap between the two path lookups of one rename could move
 *   the finished file there. Windows junctions, which any user may create, are such links.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { isInside, realPathOf, realpath } from './disk';
import { errnoError, isErrnoException } from './errno';

/** Flags that do not exist on every platform count as 0 there (Windows has neither). */
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0;

/** Where a held folder's descriptor can be named as a path. */
const PROC_FD = '/proc/self/fd';
/** Folders held open at once (least recently used let go first); the root is always held. */
const MAX_HELD = 64;

/** Where output may go: inside the real output folder, outside every forbidden place. */
export class Place {
  constructor(
    readonly realRoot: string,
    private readonly forbidden: readonly string[],
    private readonly forbidWhat: string,
  ) {}

  check(real: string, shown: string): void {
    if (this.forbidden.some((f) => isInside(real, f))) {
      throw new Arch06Error('INVALID', `refusing to write into ${this.forbidWhat} (read-only to arch06): the path leads to ${real}`, { file: shown });
    }
    if (!isInside(real, this.realRoot)) {
      throw new Arch06Error('INVALID', `refusing to write outside the output folder: a symbolic link leads to ${real}`, { file: shown });
    }
  }
}

/** A folder of the output, entered (created when missing) and, until released, kept. */
export interface Folder {
  /** Its segments under the output root joined with `/` (`''`: the root). */
  readonly key: string;
  /** The prefix for names inside it: `/proc/self/fd/<n>` while held, else its real path. */
  readonly via: string;
  /** Its real path when it was entered. */
  readonly real: string;
}

export interface FolderAccess {
  /** True when folders are held by descriptors (no swap can redirect a write). */
  readonly holds: boolean;
  readonly place: Place;
  /** The folder at `segments` under the root, each created when missing, one at a time, never through a link. */
  enter(segments: readonly string[], shown: string): Folder;
  /** A CHANGED_ON_DISK error unless `folder` is still the folder entered, where it was. */
  verify(folder: Folder, shown: string): void;
  release(folder: Folder): void;
  close(): void;
}

interface Identity {
  dev: number;
  ino: number;
}

const sameIdentity = (a: Identity, b: Identity): boolean => a.dev === b.dev && a.ino === b.ino;

/** The error for a folder that is no longer the one entered. */
export function changedError(shown: string, what: string): Arch06Error {
  return new Arch06Error('CHANGED_ON_DISK', `the output folder changed while writing (${what}); not written`, { file: shown });
}

/**
 * Why `at` (a name inside an output folder, reached without following it) cannot be entered:
 * a link is refused wherever it leads (the message says where), anything else is not a folder.
 */
function notAFolder(at: string, shownDisk: string, place: Place, shown: string): Error {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(at);
  } catch {
    st = undefined;
  }
  if (!st?.isSymbolicLink()) return errnoError(st ? 'ENOTDIR' : 'ENOENT', 'mkdir', shownDisk);
  let target: string;
  try {
    target = realPathOf(at);
  } catch {
    target = fs.readlinkSync(at);
  }
  place.check(target, shown);
  return new Arch06Error(
    'INVALID',
    `refusing to write through a symbolic link inside the output folder (${shownDisk} leads to ${target}): a link can be swapped while arch06 writes`,
    { file: shown },
  );
}

/** mkdir, an existing entry being fine (whether it is a folder is checked when it is opened). */
function mkdirExisting(at: string): void {
  try {
    fs.mkdirSync(at);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

interface Held extends Folder {
  fd: number;
  pins: number;
}

/** Folders held by descriptors and reached through /proc/self/fd (see the top of the file). */
export class HeldFolders implements FolderAccess {
  readonly holds = true;
  /** Held folders by key, least recently used first. */
  private readonly held = new Map<string, Held>();
  /** Folders replaced in `held` while still pinned by a write: closed once released. */
  private readonly orphans = new Set<Held>();

  private constructor(
    readonly place: Place,
    root: Held,
  ) {
    this.held.set('', root);
  }

  /**
   * Hold the existing folder `dir` (links in its own path are followed: that is the user's
   * choice), or undefined when this platform cannot name a descriptor as a path.
   */
  static open(dir: string, forbidden: readonly string[], forbidWhat: string): HeldFolders | undefined {
    if (process.platform !== 'linux' || O_DIRECTORY === 0 || O_NOFOLLOW === 0) return undefined;
    const fd = fs.openSync(dir, fs.constants.O_RDONLY | O_DIRECTORY);
    try {
      const via = `${PROC_FD}/${fd}`;
      const st = fs.fstatSync(fd);
      let real: string;
      try {
        if (!sameIdentity(fs.statSync(via), st)) throw new Error('not this folder');
        real = fs.readlinkSync(via);
      } catch {
        fs.closeSync(fd);
        return undefined; // no /proc here: the checked way
      }
      if (!path.isAbsolute(real)) throw errnoError('ENOENT', 'open', dir);
      return new HeldFolders(new Place(real, forbidden, forbidWhat), { key: '', via, real, fd, pins: 0 });
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  enter(segments: readonly string[], shown: string): Folder {
    // The deepest folder still held where it was; the root must be.
    let depth = segments.length;
    let cur: Held | undefined;
    for (; depth >= 0; depth--) {
      const key = segments.slice(0, depth).join('/');
      const h = this.held.get(key);
      if (h === undefined) continue;
      if (this.whereNow(h) === h.real) {
        cur = h;
        break;
      }
      if (key === '') throw changedError(shown, `${h.real} is now ${this.whereNow(h) ?? 'gone'}`);
      this.drop(h);
    }
    if (cur === undefined) throw changedError(shown, 'the output folder is no longer held');
    for (let i = depth; i < segments.length; i++) cur = this.openChild(cur, segments[i]!, segments.slice(0, i + 1).join('/'), shown);
    this.held.delete(cur.key);
    this.held.set(cur.key, cur);
    cur.pins++;
    return cur;
  }

  verify(folder: Folder, shown: string): void {
    const now = this.whereNow(folder as Held);
    if (now !== folder.real) throw changedError(shown, `${folder.real} is now ${now ?? 'gone'}`);
  }

  release(folder: Folder): void {
    (folder as Held).pins--;
    this.trim();
  }

  close(): void {
    for (const h of this.held.values()) closeQuietly(h.fd);
    this.held.clear();
  }

  /** Where the held folder is now (a deleted one reads as `… (deleted)`), or undefined. */
  private whereNow(h: Held): string | undefined {
    try {
      return fs.readlinkSync(h.via);
    } catch {
      return undefined;
    }
  }

  private openChild(parent: Held, seg: string, key: string, shown: string): Held {
    const at = `${parent.via}/${seg}`;
    const shownDisk = path.join(parent.real, seg);
    let fd: number;
    try {
      mkdirExisting(at);
      fd = fs.openSync(at, fs.constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR') throw notAFolder(at, shownDisk, this.place, shown);
      throw onDisk(e, parent);
    }
    const via = `${PROC_FD}/${fd}`;
    let real: string;
    try {
      real = fs.readlinkSync(via);
      this.place.check(real, shown);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    const h: Held = { key, via, real, fd, pins: 0 };
    const old = this.held.get(key);
    if (old) this.drop(old);
    this.held.set(key, h);
    this.trim();
    return h;
  }

  private drop(h: Held): void {
    this.held.delete(h.key);
    // A pinned folder is still being written into: its descriptor closes when released.
    if (h.pins > 0) this.orphans.add(h);
    else closeQuietly(h.fd);
  }

  /** Let go of the least recently used folders beyond MAX_HELD (never the root or a pinned one). */
  private trim(): void {
    for (const h of [...this.orphans]) {
      if (h.pins > 0) continue;
      this.orphans.delete(h);
      closeQuietly(h.fd);
    }
    if (this.held.size <= MAX_HELD) return;
    for (const h of this.held.values()) {
      if (this.held.size <= MAX_HELD) break;
      if (h.key === '' || h.pins > 0) continue;
      this.held.delete(h.key);
      closeQuietly(h.fd);
    }
  }
}

interface Checked extends Folder, Identity {
  /** Every folder from the root down to this one, with the identity each had when entered. */
  chain: readonly (Identity & { real: string })[];
}

/** Folders reached by path, checked before and after every step (see the top of the file). */
export class CheckedFolders implements FolderAccess {
  readonly holds = false;
  /** Identities of folders entered before (a folder replaced since is entered again). */
  private readonly known = new Map<string, Identity>();
  private readonly root: Identity & { real: string };

  constructor(readonly place: Place) {
    const st = fs.lstatSync(place.realRoot);
    this.root = { real: place.realRoot, dev: st.dev, ino: st.ino };
  }

  static open(dir: string, forbidden: readonly string[], forbidWhat: string): CheckedFolders {
    return new CheckedFolders(new Place(realpath(dir), forbidden, forbidWhat));
  }

  enter(segments: readonly string[], shown: string): Folder {
    const chain: (Identity & { real: string })[] = [this.root];
    this.checkLink(this.root, shown);
    for (let i = 0; i < segments.length; i++) {
      const key = segments.slice(0, i + 1).join('/');
      const real = path.join(chain[i]!.real, segments[i]!);
      let st = lstatOrUndefined(real);
      const known = this.known.get(key);
      if (!(st && known && st.isDirectory() && sameIdentity(st, known))) {
        mkdirExisting(real);
        st = fs.lstatSync(real);
        if (!st.isDirectory()) throw notAFolder(real, real, this.place, shown);
        if (this.known.size >= 65536) this.known.clear();
        this.known.set(key, { dev: st.dev, ino: st.ino });
      }
      chain.push({ real, dev: st.dev, ino: st.ino });
    }
    const last = chain[chain.length - 1]!;
    const folder: Checked = { key: segments.join('/'), via: last.real, real: last.real, dev: last.dev, ino: last.ino, chain };
    this.verify(folder, shown);
    this.place.check(folder.real, shown);
    return folder;
  }

  verify(folder: Folder, shown: string): void {
    for (const c of (folder as Checked).chain) this.checkLink(c, shown);
    let now: string | undefined;
    try {
      now = realpath(folder.real);
    } catch {
      now = undefined;
    }
    if (now !== folder.real) throw changedError(shown, `${folder.real} now leads to ${now ?? 'nothing'}`);
  }

  /** One folder of the chain: still a real folder (not a link) with the identity it had. */
  private checkLink(c: Identity & { real: string }, shown: string): void {
    const st = lstatOrUndefined(c.real);
    if (!st) throw changedError(shown, `${c.real} is gone`);
    if (st.isSymbolicLink()) throw changedError(shown, `${c.real} is now a symbolic link`);
    if (!st.isDirectory() || !sameIdentity(st, c)) throw changedError(shown, `${c.real} was replaced`);
  }

  release(): void {}

  close(): void {
    this.known.clear();
  }
}

/** Give a file-system error the folder's real path instead of its /proc/self/fd name. */
export function onDisk(e: unknown, folder: Folder): unknown {
  if (!isErrnoException(e) || folder.via === folder.real) return e;
  const fix = (p: string | undefined): string | undefined => (p !== undefined && p.startsWith(folder.via) ? folder.real + p.slice(folder.via.length) : p);
  e.path = fix(e.path);
  const withDest = e as { dest?: string };
  if (withDest.dest !== undefined) withDest.dest = fix(withDest.dest);
  return e;
}

export function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already failing or already closed; the first error is the one to report
  }
}
