/**
 * The engine reads bytes through `ByteSource`, never through paths: a disk file, a buffer in
 * memory or an archive entry all look the same to a format reader. Reads are positional and
 * bounds-checked here, once, so no reader can step outside its source.
 */
import { Arch06Error } from '../errors';

export interface ByteSource {
  /** Display name used in errors (an archive path, an entry path). */
  readonly name: string;
  /** Total length in bytes. */
  readonly size: number;
  /** Read exactly `length` bytes at `position`; throws `TRUNCATED` when the source is shorter. */
  readSync(position: number, length: number): Uint8Array;
  /** The same, without blocking the thread (large payload reads in the extension host). */
  read(position: number, length: number): Promise<Uint8Array>;
  /** Read exactly `length` bytes at `position` into `target` at `targetOffset` (no intermediate copy). */
  readIntoSync(position: number, length: number, target: Uint8Array, targetOffset: number): void;
}

/** Throws `TRUNCATED`/`OUT_OF_RANGE` unless [position, position + length) lies inside a source of `size` bytes. */
export function checkRange(name: string, size: number, position: number, length: number, field?: string): void {
  if (!Number.isSafeInteger(position) || !Number.isSafeInteger(length) || position < 0 || length < 0) {
    throw new Arch06Error('OUT_OF_RANGE', 'invalid read range', { file: name, offset: position, field, actual: `[${position}, +${length})` });
  }
  if (position + length > size) {
    throw new Arch06Error('TRUNCATED', `needs ${length} bytes but the file ends after ${Math.max(0, size - position)}`, {
      file: name,
      offset: position,
      field,
      expected: `${length} bytes`,
      actual: `${Math.max(0, size - position)} bytes`,
    });
  }
}

/** A source over bytes already in memory (tests, decoded entries, embedded containers). */
export class MemoryByteSource implements ByteSource {
  readonly size: number;
  constructor(
    readonly name: string,
    private readonly bytes: Uint8Array,
  ) {
    this.size = bytes.length;
  }
  readSync(position: number, length: number): Uint8Array {
    checkRange(this.name, this.size, position, length);
    return this.bytes.subarray(position, position + length);
  }
  readIntoSync(position: number, length: number, target: Uint8Array, targetOffset: number): void {
    target.set(this.readSync(position, length), targetOffset);
  }
  read(position: number, length: number): Promise<Uint8Array> {
    try {
      return Promise.resolve(this.readSync(position, length));
    } catch (e) {
      return Promise.reject(e);
    }
  }
}

/**
 * Bytes [start, end) of `bytes` in a fresh ArrayBuffer of exactly that size. `Uint8Array.slice`
 * is not enough: on a Node Buffer it returns a view of the same memory, and `.buffer` of a view
 * is the whole underlying buffer (a file, or Node's shared pool), which must never be posted to
 * a worker or a webview.
 */
export function exactCopy(bytes: Uint8Array, start = 0, end = bytes.length): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  out.set(bytes.subarray(start, end));
  return out;
}
