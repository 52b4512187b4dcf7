/**
 * The one bounded field reader every format reader reads through (Kaitai's habit: one guard
 * under every read). A `FieldReader` reads little-endian fields from bytes held in memory between
 * a position and a bound (a section's declared end, or the file's end). Every read checks the
 * bound first and names the field, so a short file or an overlong section always surfaces as the
 * same typed `Arch06Error` naming file, offset, field and expectation.
 *
 * Offsets are file offsets: `base` says where `bytes[0]` lies in the file, so a reader over a
 * window of a large source (an EMBB container inside an archive) reports and records the same
 * offsets as one over the whole file.
 *
 * Spans. When `spans` is set, every field read is recorded as {name, offset, length}, so an
 * editor can show "this value came from bytes 0x1C-0x20". Recording is off unless asked for: a
 * read then costs one bounds check and one DataView access, and allocates nothing.
 */
import { Arch06Error } from '../errors';

/** Where one field came from. */
export interface FieldSpan {
  /** The field, in the dotted path the errors use (`header.version`, `info.bones[3].parent`). */
  name: string;
  /** File offset of its first byte. */
  offset: number;
  length: number;
}

/** What every format parser accepts besides the bytes and the file name. */
export interface ParseOptions {
  /** Collect the span of every field read, in reading order (off by default: it costs an object per field). */
  spans?: FieldSpan[];
}

export interface FieldReaderOptions {
  /** File offset of `bytes[0]` (default 0). */
  base?: number;
  /** The file's length when `bytes` holds only part of it (default `base + bytes.length`). */
  fileSize?: number;
  /** First position read (a file offset; default `base`). */
  pos?: number;
  /** The bound reads may not pass (a file offset; default the end of `bytes`). */
  end?: number;
  /** What the bound encloses, in messages ("desc section"; default "file"). */
  section?: string;
  /** Collect one span per field read. */
  spans?: FieldSpan[];
}

/** `0x1A2B3C4D`: a u32 as errors and notes print it. */
export const hex32 = (v: number): string => '0x' + (v >>> 0).toString(16).toUpperCase().padStart(8, '0');

const latin1 = new TextDecoder('latin1');

export class FieldReader {
  readonly bytes: Uint8Array;
  readonly file: string;
  /** A view over `bytes` (index = file offset - base), for loops over ranges already checked. */
  readonly view: DataView;
  readonly base: number;
  readonly fileSize: number;
  readonly section: string;
  /** The next sequential read's file offset. */
  pos: number;
  /** Reads may not pass this file offset. */
  end: number;
  /** When set, every field read is appended here. */
  spans: FieldSpan[] | undefined;

  constructor(bytes: Uint8Array, file: string, options: FieldReaderOptions = {}) {
    this.bytes = bytes;
    this.file = file;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.base = options.base ?? 0;
    this.fileSize = options.fileSize ?? this.base + bytes.length;
    this.pos = options.pos ?? this.base;
    this.end = options.end ?? this.base + bytes.length;
    this.section = options.section ?? 'file';
    this.spans = options.spans;
  }

  /** A reader over [start, end) of the same bytes, for one section (sharing the span list). */
  sub(section: string, start: number, end: number): FieldReader {
    return new FieldReader(this.bytes, this.file, { base: this.base, fileSize: this.fileSize, pos: start, end, section, spans: this.spans });
  }

  /** Bytes left before the bound. */
  get left(): number {
    return Math.max(0, this.end - this.pos);
  }

  /**
   * Throws unless `n` bytes lie between `pos` and the bound: TRUNCATED when the bound is the end
   * of the file, INVALID (the field runs past the section's declared size) otherwise.
   */
  need(n: number, field: string): void {
    if (this.pos + n > this.end) this.overrun(this.pos, n, field);
  }

  private overrun(at: number, n: number, field: string): never {
    const left = Math.max(0, this.end - at);
    if (this.end >= this.fileSize) {
      throw new Arch06Error('TRUNCATED', `file ends inside ${field}`, { file: this.file, offset: at, field, expected: `${n} bytes`, actual: `${left} bytes` });
    }
    throw new Arch06Error('INVALID', `${field} runs past the end of the ${this.section} (its declared size)`, {
      file: this.file,
      offset: at,
      field,
      expected: `${n} bytes before 0x${this.end.toString(16)}`,
      actual: `${left} bytes`,
    });
  }

  /** Check, record and step over `n` bytes; returns their index in `bytes`. */
  private take(n: number, field: string): number {
    const at = this.pos;
    if (at + n > this.end) this.overrun(at, n, field);
    if (this.spans !== undefined) this.spans.push({ name: field, offset: at, length: n });
    this.pos = at + n;
    return at - this.base;
  }

  /** Check and record `n` bytes at file offset `at` (positional reads); returns their index in `bytes`. */
  private at(at: number, n: number, field: string): number {
    if (!(at >= this.base && at + n <= this.end)) {
      if (at < this.base || !Number.isSafeInteger(at)) {
        throw new Arch06Error('OUT_OF_RANGE', `${field} lies outside the ${this.section}`, {
          file: this.file,
          offset: at,
          field,
          expected: `0x${this.base.toString(16)}..0x${this.end.toString(16)}`,
        });
      }
      this.overrun(at, n, field);
    }
    if (this.spans !== undefined) this.spans.push({ name: field, offset: at, length: n });
    return at - this.base;
  }

  // ---- sequential reads ----------------------------------------------------------------

  u8(field: string): number {
    return this.bytes[this.take(1, field)];
  }
  u16(field: string): number {
    return this.view.getUint16(this.take(2, field), true);
  }
  s16(field: string): number {
    return this.view.getInt16(this.take(2, field), true);
  }
  u32(field: string): number {
    return this.view.getUint32(this.take(4, field), true);
  }
  s32(field: string): number {
    return this.view.getInt32(this.take(4, field), true);
  }
  f32(field: string): number {
    return this.view.getFloat32(this.take(4, field), true);
  }
  vec3(field: string): [number, number, number] {
    const i = this.take(12, field);
    const v = this.view;
    return [v.getFloat32(i, true), v.getFloat32(i + 4, true), v.getFloat32(i + 8, true)];
  }
  vec4(field: string): [number, number, number, number] {
    const i = this.take(16, field);
    const v = this.view;
    return [v.getFloat32(i, true), v.getFloat32(i + 4, true), v.getFloat32(i + 8, true), v.getFloat32(i + 12, true)];
  }
  /** `n` bytes as a view into the input (no copy). */
  bytesOf(n: number, field: string): Uint8Array {
    const i = this.take(n, field);
    return this.bytes.subarray(i, i + n);
  }
  /** `n` bytes as latin1 text (every byte one character). */
  latin1(n: number, field: string): string {
    return latin1.decode(this.bytesOf(n, field));
  }
  /** Step over `n` bytes (checked, recorded as one field). */
  skip(n: number, field: string): void {
    this.take(n, field);
  }

  // ---- positional reads (file offsets; `pos` does not move) ----------------------------

  u8At(offset: number, field: string): number {
    return this.bytes[this.at(offset, 1, field)];
  }
  u16At(offset: number, field: string): number {
    return this.view.getUint16(this.at(offset, 2, field), true);
  }
  u32At(offset: number, field: string): number {
    return this.view.getUint32(this.at(offset, 4, field), true);
  }
  s32At(offset: number, field: string): number {
    return this.view.getInt32(this.at(offset, 4, field), true);
  }
  f32At(offset: number, field: string): number {
    return this.view.getFloat32(this.at(offset, 4, field), true);
  }
  /** `n` bytes at `offset` as a view into the input (no copy). */
  bytesAt(offset: number, n: number, field: string): Uint8Array {
    const i = this.at(offset, n, field);
    return this.bytes.subarray(i, i + n);
  }

  /**
   * Record a span for bytes a caller read through `view` (a search's accepted record), when
   * recording. The range must have been checked by the caller.
   */
  record(field: string, offset: number, length: number): void {
    if (this.spans !== undefined) this.spans.push({ name: field, offset, length });
  }

  /** The u32 at `offset`, or undefined outside the bound: a look ahead, not a read (nothing is recorded). */
  peekU32(offset: number): number | undefined {
    return offset >= this.base && offset + 4 <= this.end ? this.view.getUint32(offset - this.base, true) : undefined;
  }

  /** Whether a u32 at `offset` lies inside the bound (for optional trailing sections). */
  has(offset: number, n: number): boolean {
    return offset >= this.base && offset + n <= this.end;
  }

  /**
   * The first file offset in [from, to] (clamped to the bound) where the u32 is `value`, or -1.
   * A search, not a read: nothing is recorded and nothing is thrown.
   */
  findU32(value: number, from: number, to = this.end): number {
    const last = Math.min(to, this.end - 4) - this.base;
    const v = this.view;
    const want = value >>> 0;
    for (let i = Math.max(from, this.base) - this.base; i <= last; i++) if (v.getUint32(i, true) === want) return i + this.base;
    return -1;
  }

  // ---- checks --------------------------------------------------------------------------

  /**
   * Check that `count` records of `size` bytes fit before the bound, naming the count otherwise:
   * TRUNCATED when the bound is the end of the file (no declared size bounds it), OUT_OF_RANGE when
   * it is a section's declared end. Call before allocating for `count`.
   */
  fits(count: number, size: number, field: string, countOffset?: number): void {
    const left = Math.max(0, this.end - this.pos);
    if (count * size > left) {
      throw new Arch06Error(this.end >= this.fileSize ? 'TRUNCATED' : 'OUT_OF_RANGE', `${field} = ${count} does not fit in the ${this.section}`, {
        file: this.file,
        offset: countOffset ?? this.pos,
        field,
        expected: `at most ${Math.floor(left / Math.max(1, size))} (${left} bytes left, ${size} per record)`,
        actual: String(count),
      });
    }
  }

  /** Read a u32 section id and compare (BAD_MAGIC naming the section). */
  sectionId(expected: number, field: string): void {
    const at = this.pos;
    const v = this.u32(field);
    if (v !== expected >>> 0) {
      throw new Arch06Error('BAD_MAGIC', `not the ${this.section} id`, { file: this.file, offset: at, field, expected: hex32(expected), actual: hex32(v) });
    }
  }

  /** The reader must stand exactly at the bound. */
  atEnd(field: string): void {
    if (this.pos !== this.end) {
      throw new Arch06Error('INVALID', `the ${this.section} does not end at its declared size`, {
        file: this.file,
        offset: this.pos,
        field,
        expected: `end at 0x${this.end.toString(16)}`,
        actual: `${this.end - this.pos} bytes left over`,
      });
    }
  }
}
