/**
 * One error family for the whole engine. Every failure a reader, the mount or a codec can
 * produce is an `Arch06Error` with a stable `code`, the file it concerns, the byte offset and
 * what was expected, so the CLI, the extension and the server can each present it their way
 * without parsing messages.
 */

export type ErrorCode =
  /** Fewer bytes than a field or a declared length needs. */
  | 'TRUNCATED'
  /** A magic tag is not the expected one. */
  | 'BAD_MAGIC'
  /** A version field names a version this reader does not know. */
  | 'UNSUPPORTED_VERSION'
  /** A value (offset, count, index, length) falls outside what the file allows. */
  | 'OUT_OF_RANGE'
  /** A structural rule of the format does not hold (ordering, counts that do not add up). */
  | 'INVALID'
  /** Compressed data names a codec this build cannot decode. */
  | 'UNSUPPORTED_CODEC'
  /** Compressed data is malformed. */
  | 'CORRUPT_STREAM'
  /**
   * Compressed data uses a form of a known codec that no real sample exercises (e.g. an LZB16
   * match code the evidence does not cover): refused, named in the message, never guessed.
   */
  | 'UNSUPPORTED_FORM'
  /** A path or source does not exist in the mount. */
  | 'NOT_FOUND'
  /** A caller-provided argument is malformed (a bad path, a bad hash string). */
  | 'BAD_ARGUMENT'
  /** A name holds a byte whose StringHash table value is unknown. */
  | 'UNKNOWN_HASH_BYTE'
  /** The operation was cancelled by its caller. */
  | 'CANCELLED'
  /**
   * A file or folder is no longer what it was when it was opened: an archive replaced, truncated
   * or deleted under a mount (its size or mtime moved), or an output folder swapped or moved while
   * a file was written into it. Nothing stale is served and nothing is written through it.
   */
  | 'CHANGED_ON_DISK';

export interface ErrorDetails {
  /** The file (archive path, entry path or disk path) the error is about. */
  file?: string;
  /** Byte offset in `file` (or in the entry's decoded bytes, when `file` is an entry). */
  offset?: number;
  /** The field, in a dotted path such as `header.version` or `chunk[3].rawLen`. */
  field?: string;
  /** What the reader expected there, in words or as a value. */
  expected?: string;
  /** What it found. */
  actual?: string;
}

export class Arch06Error extends Error implements ErrorDetails {
  readonly code: ErrorCode;
  readonly file?: string;
  readonly offset?: number;
  readonly field?: string;
  readonly expected?: string;
  readonly actual?: string;
  /** The bare description, without the location suffix that `message` carries. */
  readonly description: string;

  constructor(code: ErrorCode, description: string, details: ErrorDetails = {}) {
    super(formatMessage(description, details));
    // Keep `instanceof` working whatever the compile target does to built-in subclasses.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'Arch06Error';
    this.code = code;
    this.description = description;
    this.file = details.file;
    this.offset = details.offset;
    this.field = details.field;
    this.expected = details.expected;
    this.actual = details.actual;
  }

  /** A copy of this error that names `file`, for layers that know the file when the reader did not. */
  withFile(file: string): Arch06Error {
    if (this.file !== undefined) return this;
    return new Arch06Error(this.code, this.description, { ...this.details(), file });
  }

  details(): ErrorDetails {
    return { file: this.file, offset: this.offset, field: this.field, expected: this.expected, actual: this.actual };
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.description, ...this.details() };
  }
}

function formatMessage(description: string, d: ErrorDetails): string {
  const parts = [description];
  if (d.field !== undefined) parts.push(`field ${d.field}`);
  if (d.expected !== undefined) parts.push(`expected ${d.expected}`);
  if (d.actual !== undefined) parts.push(`found ${d.actual}`);
  let where = '';
  if (d.file !== undefined) where = d.file;
  if (d.offset !== undefined) where += `${where ? ' ' : ''}at 0x${d.offset.toString(16)}`;
  return where ? `${where}: ${parts.join(', ')}` : parts.join(', ');
}

export function isArch06Error(e: unknown): e is Arch06Error {
  return e instanceof Arch06Error;
}

/** Hex dump of up to `max` bytes, for error messages that quote header bytes. */
export function hexBytes(bytes: Uint8Array, max = 16): string {
  const n = Math.min(bytes.length, max);
  let s = '';
  for (let i = 0; i < n; i++) s += (i ? ' ' : '') + bytes[i].toString(16).padStart(2, '0');
  return bytes.length > max ? s + ' …' : s;
}
