/**
 * What one command may hold in memory for one entry or file, and reads that check a format's
 * header on a bounded prefix before reading (and decoding) the whole entry.
 */
import { Arch06Error } from '../core/errors';
import { HEADER_PREFIX_BYTES, SourceEntry, readEntryChecked as readChecked } from '../core/archive';
import { DEFAULT_MAX_ENTRY_BYTES, MAX_ENTRY_BYTES_LIMIT, readFileBytes } from '../core/io/node';

/** How a user raises the per-entry memory cap (named in the error when it is hit). */
const MAX_ENTRY_BYTES_ENV = 'ARCH06_MAX_ENTRY_BYTES';
export const RAISE_CAP_HINT = `set ${MAX_ENTRY_BYTES_ENV} to raise it`;

/**
 * What one command may read into memory for one entry or file: ARCH06_MAX_ENTRY_BYTES when set
 * (a byte count, at most 2^31-1), else 1 GiB.
 */
export function maxEntryBytes(): number {
  const t = process.env[MAX_ENTRY_BYTES_ENV];
  if (t === undefined || t === '') return DEFAULT_MAX_ENTRY_BYTES;
  const n = Number(t);
  if (!/^\d+$/.test(t.trim()) || !Number.isSafeInteger(n) || n > MAX_ENTRY_BYTES_LIMIT) {
    throw new Arch06Error('BAD_ARGUMENT', `${MAX_ENTRY_BYTES_ENV} must be a byte count from 0 to ${MAX_ENTRY_BYTES_LIMIT}`, {
      field: MAX_ENTRY_BYTES_ENV,
      actual: JSON.stringify(t),
    });
  }
  return n;
}

/**
 * An entry's bytes, read only after `checkHeader` accepted its first bytes (at most
 * HEADER_PREFIX_BYTES, decoded alone) and its size passed the cap: a non-texture of 2 GB costs
 * 64 KiB, not 2 GB, before "not a TEXR texture". The one core read (core/archive `readEntryChecked`).
 */
export function readEntryChecked(entry: SourceEntry, name: string, checkHeader: (prefix: Uint8Array) => void): Uint8Array {
  return readChecked(entry, { name, maxBytes: maxEntryBytes(), raiseHint: RAISE_CAP_HINT, checkHeader: (prefix) => checkHeader(prefix) });
}

/** A disk file's bytes: a regular file, its header checked on the first bytes, then all of it within the cap. */
export function readFileChecked(file: string, checkHeader: (prefix: Uint8Array) => void): Uint8Array {
  return readFileBytes(file, maxEntryBytes(), RAISE_CAP_HINT, checkHeader, HEADER_PREFIX_BYTES);
}
