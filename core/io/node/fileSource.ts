/**
 * Reading files from disk, the Node way, behind `ByteSource`: files are opened read-only and
 * non-blocking (a FIFO or a device never hangs the tool), whole-file reads are refused for anything
 * but a regular file and above a size cap. With ./disk.ts, ./errno.ts and ./outputFolder.ts, the
 * only engine files that touch `node:fs` (a browser build swaps this folder out).
 */
import * as fs from 'node:fs';
import { Arch06Error } from '../../errors';
import { ByteSource, checkRange } from '../byteSource';
import { FileChangeKind, FileStamp, fileChange, stampOf } from './disk';

/** A flag that does not exist on every platform counts as 0 there. */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * A read-only file opened once; reads are positional (pread), so one handle serves every caller.
 * What the file was when opened (its stamp: device, inode, size, mtime) is compared with what its
 * path names after every read: a file replaced, truncated, grown, rewritten or deleted since fails
 * the read with CHANGED_ON_DISK instead of serving bytes that no longer match the disk (or the
 * tables read from it). Checking after the read also catches a change during it.
 */
export class FileByteSource implements ByteSource {
  private fd: number | undefined;
  readonly size: number;

  private constructor(
    readonly name: string,
    readonly diskPath: string,
    fd: number,
    /** The file as opened. */
    readonly stamp: FileStamp,
  ) {
    this.fd = fd;
    this.size = stamp.size;
  }

  /**
   * Open `diskPath` read-only. With `expect` (the stamp a listing saw), a file that is no longer
   * that one fails at once with CHANGED_ON_DISK.
   */
  static open(diskPath: string, name = diskPath, expect?: FileStamp): FileByteSource {
    // Read-only: the tool never opens game files for writing. Non-blocking, so a FIFO planted
    // where a file should be fails here instead of waiting for a writer.
    const fd = fs.openSync(diskPath, fs.constants.O_RDONLY | O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw new Arch06Error('INVALID', 'not a regular file', { file: name, expected: 'a regular file', actual: fileKind(st) });
      const stamp = stampOf(st);
      if (expect && (stamp.dev !== expect.dev || stamp.ino !== expect.ino || stamp.size !== expect.size || stamp.mtimeMs !== expect.mtimeMs)) {
        throw changedOnDisk(name, stamp.size !== expect.size ? `now ${stamp.size} bytes, listed as ${expect.size}` : 'not the file that was listed');
      }
      return new FileByteSource(name, diskPath, fd, stamp);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  /** How the file on disk differs from the one opened (one stat of its path), or undefined. */
  change(): { kind: FileChangeKind; detail: string } | undefined {
    return fileChange(this.diskPath, this.stamp);
  }

  /** After a read (or a failed one): the bytes stand only if the file is still the one opened. */
  private checkUnchanged(): void {
    const c = this.change();
    if (c !== undefined) throw changedOnDisk(this.name, c.detail);
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
      throw new Arch06Error('OUT_OF_RANGE', 'read target too small', {
        file: this.name,
        expected: `${length} bytes at ${targetOffset}`,
        actual: `${target.length}-byte buffer`,
      });
    }
    let done = 0;
    try {
      while (done < length) {
        const n = fs.readSync(this.handle(), target, targetOffset + done, length - done, position + done);
        if (n === 0) throw new Arch06Error('TRUNCATED', 'file shrank while reading', { file: this.name, offset: position + done });
        done += n;
      }
    } catch (e) {
      if (this.fd !== undefined) this.checkUnchanged();
      throw e;
    }
    this.checkUnchanged();
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
      // Settle only with bytes from the file as opened (or the change that spoiled them).
      const settle = (err: unknown): void => {
        try {
          if (this.fd !== undefined) this.checkUnchanged();
        } catch (changed) {
          return reject(changed);
        }
        if (err) reject(err);
        else resolve(out);
      };
      const step = (done: number): void => {
        if (done === length) return settle(undefined);
        let fd: number;
        try {
          fd = this.handle();
        } catch (e) {
          return reject(e);
        }
        fs.read(fd, out, done, length - done, position + done, (err, n) => {
          if (err) return settle(err);
          if (n === 0) return settle(new Arch06Error('TRUNCATED', 'file shrank while reading', { file: this.name, offset: position + done }));
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

/** The typed error for a file that is no longer what was opened or listed. */
export function changedOnDisk(name: string, how: string): Arch06Error {
  return new Arch06Error('CHANGED_ON_DISK', `changed on disk since it was opened (${how}); mount it again to read the new file`, { file: name });
}

/** What a non-regular file is, for messages. */
export function fileKind(st: fs.Stats): string {
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
    throw new Arch06Error(
      'OUT_OF_RANGE',
      `too large to read into memory (the cap for one file is ${limit} bytes${howToRaise && limit === cap ? `; ${howToRaise}` : ''})`,
      {
        file,
        field: 'size',
        expected: `at most ${limit} bytes`,
        actual: `${size} bytes`,
      },
    );
  }
}

/**
 * A whole regular file, at most `maxBytes` long. Devices, FIFOs, folders and sockets are refused
 * (/dev/zero would never end), as are files over the cap (before anything is allocated). With
 * `checkPrefix`, the first `prefixBytes` are read and checked before the rest is.
 */
export function readFileBytes(
  p: string,
  maxBytes = DEFAULT_MAX_ENTRY_BYTES,
  howToRaise?: string,
  checkPrefix?: (prefix: Uint8Array) => void,
  prefixBytes = 64 << 10,
): Uint8Array {
  const fd = fs.openSync(p, fs.constants.O_RDONLY | O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Arch06Error('BAD_ARGUMENT', 'not a regular file', { file: p, expected: 'a regular file', actual: fileKind(st) });
    const readInto = (out: Uint8Array, from: number, to: number): void => {
      for (let done = from; done < to;) {
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
