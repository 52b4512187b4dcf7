/**
 * A string table (SKDB v9, ./skdb.ts) held for editing and written back exactly. The file is kept
 * as what it is: the header's two unknown words, the keys (ascending by hash) and the text area
 * cut into its NUL-terminated strings in file order ("segments"). A key points at a segment and a
 * unit offset inside it (a key may share another's string or point into its tail). Writing lays the
 * segments out again in their order and recomputes every offset from that, so an unedited table
 * comes back byte for byte, whatever its layout, and an edited one obeys seed 004's rules: keys
 * strictly ascending, offsets in range, the text ending at the file's end.
 *
 * Edits: a text changed (in place when only that key uses its string, else a new string at the
 * end), a key added by name (StringHash; a collision with another key refused, naming both), a
 * key deleted; setText and deleteKey return their exact undo (an added key's undo is deleteKey: the
 * dropped string takes no room), so undoing back to the file read writes its bytes again.
 * A string no key uses after an edit is dropped; one no key used when read is kept.
 * Unedited segments are copied as raw bytes, so saving a 68,547-key table after one edit is a few
 * block copies (bench/stringTableSave.bench.ts).
 */
import { Arch06Error } from '../../errors';
import { stringHash, formatHash } from '../../hash/stringHash';
import { quoteShort } from '../../io/bounded';
import { tagValue } from '../../io/magic';
import { SKDB_HEADER_SIZE, SKDB_KEY_SIZE, SKDB_VERSION, parseSkdb } from './skdb';
import { concatBytes } from '../../io/concat';

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** A string of the text area: a range of the bytes read (units, NUL included when `terminated`), or a text set by an edit. */
type Segment = { start: number; end: number; terminated: boolean; users: number; text?: undefined } | { text: string; users: number; terminated: true };

/** One key as the document holds it. */
export interface StringTableKey {
  hash: number;
  text: string;
}

/** Where each string of the text area sits, for a text form that must reproduce the layout. */
export interface TextAreaString {
  /** Offset in UTF-16 units from the start of the text area. */
  offset: number;
  text: string;
  /** False only for a tail the file does not end with a NUL (the reader accepts it when no key points there). */
  terminated: boolean;
}

/** The text of UTF-16LE units, lone surrogates kept (TextDecoder would replace them). */
function decodeUnits(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  const CHUNK = 8192;
  const units: number[] = [];
  for (let at = from; at < to; at += 2) {
    units.push(bytes[at] | (bytes[at + 1] << 8));
    if (units.length === CHUNK) {
      s += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return s + String.fromCharCode(...units);
}

export class StringTableDocument {
  private constructor(
    readonly file: string,
    /** The raw words @0x10 and @0x18 (0 in every shipped table), written back as read. */
    readonly zeroWords: [number, number],
    private readonly source: Uint8Array,
    private readonly textStart: number,
    private readonly segments: Segment[],
    /** Ascending. */
    private hashes: number[],
    private segmentOf: number[],
    private innerOffset: number[],
  ) {}

  /** Read and validate (every rule of ./skdb.ts), then cut the text area into its strings. */
  static read(bytes: Uint8Array, file: string): StringTableDocument {
    const table = parseSkdb(bytes, file);
    const textStart = table.textOffset;
    const segments: Segment[] = [];
    const starts: number[] = [];
    let start = 0;
    for (let unit = 0; unit < table.textUnits; unit++) {
      const at = textStart + 2 * unit;
      if (bytes[at] === 0 && bytes[at + 1] === 0) {
        starts.push(start);
        segments.push({ start, end: unit + 1, terminated: true, users: 0 });
        start = unit + 1;
      }
    }
    if (start < table.textUnits) {
      starts.push(start);
      segments.push({ start, end: table.textUnits, terminated: false, users: 0 });
    }
    const n = table.entries.length;
    const hashes = new Array<number>(n);
    const segmentOf = new Array<number>(n);
    const inner = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const e = table.entries[i];
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (starts[mid] <= e.textOffset) lo = mid;
        else hi = mid - 1;
      }
      hashes[i] = e.hash;
      segmentOf[i] = lo;
      inner[i] = e.textOffset - starts[lo];
      segments[lo].users++;
    }
    return new StringTableDocument(file, [...table.zeroWords], bytes, textStart, segments, hashes, segmentOf, inner);
  }

  get keyCount(): number {
    return this.hashes.length;
  }

  /** The index of a key, or -1. */
  private indexOf(hash: number): number {
    const h = hash >>> 0;
    let lo = 0;
    let hi = this.hashes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = this.hashes[mid];
      if (x === h) return mid;
      if (x < h) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private segmentText(s: Segment): string {
    if (s.text !== undefined) return s.text;
    return decodeUnits(this.source, this.textStart + 2 * s.start, this.textStart + 2 * (s.terminated ? s.end - 1 : s.end));
  }

  has(hash: number): boolean {
    return this.indexOf(hash) >= 0;
  }

  /** The text of a key, or undefined when the table has no such key. */
  text(hash: number): string | undefined {
    const i = this.indexOf(hash);
    return i < 0 ? undefined : this.segmentText(this.segments[this.segmentOf[i]]).slice(this.innerOffset[i]);
  }

  /** Every key in file order (ascending by hash). */
  keys(): StringTableKey[] {
    const cache = new Map<number, string>();
    return this.hashes.map((hash, i) => {
      const s = this.segmentOf[i];
      let t = cache.get(s);
      if (t === undefined) cache.set(s, (t = this.segmentText(this.segments[s])));
      return { hash, text: t.slice(this.innerOffset[i]) };
    });
  }

  /** The strings of the text area in file order, with their offsets as the next write lays them out. */
  textArea(): TextAreaString[] {
    const out: TextAreaString[] = [];
    let units = 0;
    for (const s of this.segments) {
      if (s.users === 0 && s.text !== undefined) continue;
      const text = this.segmentText(s);
      out.push({ offset: units, text, terminated: s.terminated });
      units += text.length + (s.terminated ? 1 : 0);
    }
    return out;
  }

  /** The unit offset of each key's text as the next write places it (same order as `keys()`). */
  textOffsets(): number[] {
    const { starts } = this.segmentStarts();
    return this.hashes.map((_, i) => starts[this.segmentOf[i]] + this.innerOffset[i]);
  }

  /**
   * Change the text of a key; the table keeps every other byte. Returns what undoes it exactly
   * (the layout as before), to be called only on the state right after this edit.
   */
  setText(hash: number, text: string): () => void {
    checkText(text, this.file);
    const i = this.indexOf(hash);
    if (i < 0) throw new Arch06Error('NOT_FOUND', `the table has no key ${formatHash(hash)}`, { file: this.file, field: 'key' });
    const k = this.segmentOf[i];
    const seg = this.segments[k];
    if (seg.users === 1 && this.innerOffset[i] === 0 && seg.terminated) {
      this.segments[k] = { text, users: 1, terminated: true };
      return () => {
        this.segments[k] = seg;
      };
    }
    const inner = this.innerOffset[i];
    const users = seg.users;
    const pushedAt = this.segments.length;
    this.release(k);
    this.segmentOf[i] = this.segments.push({ text, users: 1, terminated: true }) - 1;
    this.innerOffset[i] = 0;
    return () => {
      // Strings pushed from here on belong to this edit or to later ones, all undone (unused) by now.
      this.segments.length = pushedAt;
      seg.users = users;
      this.segments[k] = seg;
      this.segmentOf[i] = k;
      this.innerOffset[i] = inner;
    };
  }

  /**
   * Add a key named `name` (hashed with StringHash) holding `text`. A name whose hash is already a
   * key is refused with both names (`nameOf` gives the existing key's name where it is known).
   * Returns the new key's hash.
   */
  addKey(name: string, text: string, nameOf: (hash: number) => string | undefined = () => undefined): number {
    if (name.length === 0 || name.includes('\0'))
      throw new Arch06Error('BAD_ARGUMENT', 'a key name is a non-empty string without NUL', { file: this.file, field: 'key name', actual: quoteShort(name) });
    const hash = stringHash(name);
    return this.addHash(hash, text, name, nameOf);
  }

  /** Add a key by its hash (a text form's `0xHASH = "…"` line); refused when the key exists. */
  addHash(hash: number, text: string, name?: string, nameOf: (hash: number) => string | undefined = () => undefined): number {
    checkText(text, this.file);
    const h = hash >>> 0;
    const i = this.indexOf(h);
    if (i >= 0) {
      const other = nameOf(h);
      const mine = name === undefined ? formatHash(h) : `"${quoteShort(name)}" (${formatHash(h)})`;
      const theirs = other === undefined ? `an existing key of the same hash, name unknown` : `the existing key "${quoteShort(other)}"`;
      const same = name !== undefined && other !== undefined && name.toLowerCase() === other.toLowerCase();
      throw new Arch06Error('INVALID', same ? `the key "${quoteShort(name)}" is already in the table` : `the key ${mine} collides with ${theirs}`, {
        file: this.file,
        field: 'key',
        actual: formatHash(h),
      });
    }
    let at = 0;
    let hi = this.hashes.length;
    while (at < hi) {
      const mid = (at + hi) >>> 1;
      if (this.hashes[mid] < h) at = mid + 1;
      else hi = mid;
    }
    this.hashes.splice(at, 0, h);
    this.segmentOf.splice(at, 0, this.segments.push({ text, users: 1, terminated: true }) - 1);
    this.innerOffset.splice(at, 0, 0);
    return h;
  }

  /**
   * Delete a key; its string goes too when no other key uses it. Returns what undoes it exactly
   * (the key back in its place, its string where it was), for the state right after this edit.
   */
  deleteKey(hash: number): () => void {
    const i = this.indexOf(hash);
    if (i < 0) throw new Arch06Error('NOT_FOUND', `the table has no key ${formatHash(hash)}`, { file: this.file, field: 'key' });
    const k = this.segmentOf[i];
    const seg = this.segments[k];
    const users = seg.users;
    const [h, inner] = [this.hashes[i], this.innerOffset[i]];
    this.release(k);
    this.hashes.splice(i, 1);
    this.segmentOf.splice(i, 1);
    this.innerOffset.splice(i, 1);
    return () => {
      seg.users = users;
      this.segments[k] = seg;
      this.hashes.splice(i, 0, h);
      this.segmentOf.splice(i, 0, k);
      this.innerOffset.splice(i, 0, inner);
    };
  }

  /** One user fewer; a string an edit leaves unused is dropped (marked, so ids stay stable). */
  private release(segment: number): void {
    const s = this.segments[segment];
    if (--s.users === 0) this.segments[segment] = { text: '', users: 0, terminated: true };
  }

  /** Each segment's unit offset in the next write (a dropped one takes no room). */
  private segmentStarts(): { starts: Int32Array; units: number } {
    const starts = new Int32Array(this.segments.length);
    let units = 0;
    this.segments.forEach((s, k) => {
      starts[k] = units;
      if (s.users === 0 && s.text !== undefined) return;
      units += s.text !== undefined ? s.text.length + 1 : s.end - s.start;
    });
    return { starts, units };
  }

  /** The table as bytes: header words as read, keys ascending, offsets recomputed, the text ending the file. */
  toBytes(): Uint8Array {
    return concatBytes(this.toParts());
  }

  /**
   * The same bytes as consecutive parts, for a write that takes parts (`OutputFolder.writeSync`):
   * the header and keys, then the text area as views of the bytes read (runs of unedited strings
   * still adjacent there, one view each) and the edited strings, so saving copies no unedited text.
   */
  toParts(): Uint8Array[] {
    const { starts, units } = this.segmentStarts();
    const n = this.hashes.length;
    const head = new Uint8Array(SKDB_HEADER_SIZE + SKDB_KEY_SIZE * n);
    const dv = new DataView(head.buffer);
    [tagValue('SKDB'), SKDB_VERSION, SKDB_HEADER_SIZE, n, this.zeroWords[0], units, this.zeroWords[1]].forEach((w, k) => dv.setUint32(4 * k, w >>> 0, true));
    if (LITTLE_ENDIAN) {
      // The key table is 4-aligned in a fresh buffer: one typed-array store a word.
      const keys = new Uint32Array(head.buffer, SKDB_HEADER_SIZE, 2 * n);
      for (let i = 0; i < n; i++) {
        keys[2 * i] = this.hashes[i];
        keys[2 * i + 1] = starts[this.segmentOf[i]] + this.innerOffset[i];
      }
    } else {
      for (let i = 0; i < n; i++) {
        dv.setUint32(SKDB_HEADER_SIZE + SKDB_KEY_SIZE * i, this.hashes[i], true);
        dv.setUint32(SKDB_HEADER_SIZE + SKDB_KEY_SIZE * i + 4, starts[this.segmentOf[i]] + this.innerOffset[i], true);
      }
    }
    const parts: Uint8Array[] = [head];
    let runFrom = -1;
    let runTo = -1;
    const flush = (): void => {
      if (runFrom >= 0) parts.push(this.source.subarray(this.textStart + 2 * runFrom, this.textStart + 2 * runTo));
      runFrom = -1;
    };
    for (const s of this.segments) {
      if (s.text === undefined) {
        if (runFrom >= 0 && runTo === s.start) runTo = s.end;
        else {
          flush();
          runFrom = s.start;
          runTo = s.end;
        }
        continue;
      }
      flush();
      if (s.users === 0) continue;
      const piece = new Uint8Array(2 * s.text.length + 2); // zeroed: the NUL is there
      for (let c = 0; c < s.text.length; c++) {
        const u = s.text.charCodeAt(c);
        piece[2 * c] = u & 0xff;
        piece[2 * c + 1] = u >>> 8;
      }
      parts.push(piece);
    }
    flush();
    return parts;
  }
}

function checkText(text: string, file: string): void {
  const nul = text.indexOf('\0');
  if (nul >= 0)
    throw new Arch06Error('BAD_ARGUMENT', 'a text cannot hold NUL (each string ends at its first NUL)', { file, field: 'text', actual: `NUL at ${nul}` });
}
