/**
 * The NUL-terminated string areas OBJL and SCRB carry: strings back to back, each ending in a
 * NUL, addressed by their byte offset from the area's start. A string start is offset 0 or the
 * byte after a NUL; an offset elsewhere (inside a string) is not a name.
 */
import { FieldReader } from '../../io/fieldReader';

export interface NulStrings {
  /** File offset of the area. */
  offset: number;
  size: number;
  /** Area-relative offset of every string start -> the string (latin1: one byte, one character). */
  byOffset: Map<number, string>;
  /** Bytes after the last NUL (an unterminated tail: no string). */
  unterminated: number;
}

const latin1 = new TextDecoder('latin1');

/** Read `size` bytes at file offset `at` (checked against the reader's bound) as a string area. */
export function readNulStrings(r: FieldReader, at: number, size: number, field: string): NulStrings {
  const bytes = r.bytesAt(at, size, field);
  const byOffset = new Map<number, string>();
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0) continue;
    byOffset.set(start, latin1.decode(bytes.subarray(start, i)));
    start = i + 1;
  }
  return { offset: at, size, byOffset, unterminated: bytes.length - start };
}
