/**
 * The decoded-text syntax (see ./index.ts for what each kind of file turns into): a writer the
 * renderers share, and a reader of the same syntax, so tests (and anyone) can read a decoded text
 * back into sections, fields and records.
 *
 * Every line is one of:
 *
 *   # text                      a comment: what the file is, notes, column legends
 *   [section] key=value …       a section header, with summary attributes
 *   key = value                 a field of the current section (note the spaces around `=`)
 *   id key=value key=value …    a record, one object per line: its identity first, then attributes
 *   @0x0000F0  3F 00 …  |?.|    a hex-dump line of a raw payload (file offsets)
 *
 * and blank lines between sections. Values are written bare when they are non-empty printable
 * ASCII without space, `=`, `"`, `#`, `(`, `)`, `,`, `[` or `]` (not the lone `-`, not starting with `@`); other
 * strings are JSON string literals (`"…"` with `\n`, `\"`, `\\`, `\uXXXX` escapes). `-` is "none".
 * Numbers are JavaScript's shortest round-trip form (an f32 read as a double prints all its
 * digits); vectors are `(x, y, z)`, lists `[a, b, "c d"]`; hashes are `0x%08X`, with the name beside them where it is
 * known (`hash=0x9B011056 name=ObjRes.Keyframer`). Booleans are `yes` / `no`. Record order is the
 * file's order unless a section says otherwise, so two copies of a file diff line by line.
 *
 * Bounded by the file (issue 21): a string value longer than 256 characters is written in full
 * once; where the text holds it already, it is cut to its first 64 characters, `…` and
 * `[same N-character text as line L]` (a crafted file may name one 500 KB string from 20,000
 * records). A text stops at 8 characters per byte of its file plus 8 Mi; what is left out then is
 * counted in a last comment. Sections that expand shared records (bindings, groups) cap their rows
 * and say so, with the true count in their summary.
 */

export type Scalar = string | number | boolean | null | undefined;

/** A list of values, written `[a, b, "c d"]`. */
export class List {
  constructor(readonly items: readonly Scalar[]) {}
}

export type Value = Scalar | readonly number[] | List;
export type Attr = readonly [key: string, value: Value];

const BARE = /^[\x21-\x7e]+$/;
const NOT_BARE = /[="#(),[\]]/;

/** A number in the shortest form that reads back as the same double (-0 as 0). */
function num(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return Object.is(x, -0) ? '0' : String(x);
}

/** One value in the syntax above. */
export function value(v: Value): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return num(v);
  if (v instanceof List) return `[${v.items.map((x) => value(x)).join(', ')}]`;
  if (typeof v !== 'string') return `(${v.map(num).join(', ')})`;
  return v !== '-' && v[0] !== '@' && BARE.test(v) && !NOT_BARE.test(v) ? v : JSON.stringify(v);
}

/** Control characters of a comment shown as escapes, so a comment stays on one line. */
const oneLine = (s: string): string =>
  s.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));

/** Strings longer than this are written in full once, then cut (see the file comment). */
export const LONG_VALUE_CHARS = 256;
/** What a cut repeat keeps of a long string. */
const CUT_VALUE_CHARS = 64;
/** A text's budget: this many characters per byte of the file it shows, plus `TEXT_BASE_CHARS`. */
export const TEXT_CHARS_PER_BYTE = 8;
export const TEXT_BASE_CHARS = 8 << 20;

export interface TextDocOptions {
  /** The size of the file the text shows, in bytes: the text stops at `TEXT_CHARS_PER_BYTE` x this + `TEXT_BASE_CHARS` characters. */
  inputSize?: number;
}

/** Builds a decoded text line by line, within the budget its file's size sets. */
export class TextDoc {
  private readonly lines: string[] = [];
  private chars = 0;
  /** Lines left out since the budget was spent. */
  private omitted = 0;
  readonly budget: number;
  /** Long strings written in full, and the line that holds them. */
  private readonly written = new Map<string, number>();

  constructor(options: TextDocOptions = {}) {
    this.budget = options.inputSize === undefined ? Infinity : TEXT_CHARS_PER_BYTE * options.inputSize + TEXT_BASE_CHARS;
  }

  /** Whether the budget is spent: from now on lines are counted, not written. */
  get full(): boolean {
    return this.chars >= this.budget;
  }

  private push(line: string): this {
    if (this.full) this.omitted++;
    else {
      this.lines.push(line);
      this.chars += line.length + 1;
    }
    return this;
  }

  /** Count `n` lines a caller did not write because the budget was spent. */
  omit(n: number): this {
    this.omitted += n;
    return this;
  }

  /** `write` each item while the budget lasts; the items left (of `total`) are counted as omitted lines. */
  each<T>(items: Iterable<T>, total: number, write: (item: T) => void): this {
    let n = 0;
    for (const item of items) {
      if (this.full) break;
      write(item);
      n++;
    }
    return this.omit(Math.max(0, total - n));
  }

  /** A value, a long string cut where the text already holds it in full. */
  private val(v: Value): string {
    if (typeof v === 'string' && v.length > LONG_VALUE_CHARS) {
      const line = this.written.get(v);
      if (line !== undefined) return JSON.stringify(`${v.slice(0, CUT_VALUE_CHARS)}…[same ${v.length}-character text as line ${line}]`);
      this.written.set(v, this.lines.length + 1);
    }
    return v instanceof List ? `[${v.items.map((x) => this.val(x)).join(', ')}]` : value(v);
  }

  private attrs(list: readonly Attr[]): string {
    return list
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${this.val(v)}`)
      .join(' ');
  }

  comment(text: string): this {
    return this.full ? this.omit(1) : this.push(`# ${oneLine(text)}`.trimEnd());
  }

  /** A section header, after a blank line (except at the top). */
  section(name: string, summary: readonly Attr[] = []): this {
    if (this.full) return this.omit(1);
    if (this.lines.length) this.push('');
    const a = this.attrs(summary);
    return this.push(`[${name}]${a ? ' ' + a : ''}`);
  }

  field(key: string, v: Value): this {
    return this.full ? this.omit(1) : this.push(`${key} = ${this.val(v)}`);
  }

  record(id: Value, list: readonly Attr[] = []): this {
    if (this.full) return this.omit(1);
    const head = this.val(id);
    const a = this.attrs(list);
    return this.push(a ? `${head} ${a}` : head);
  }

  /** A hex dump of `bytes` (which start at file offset `base`), at most `max` bytes, and a comment for the rest. */
  hex(bytes: Uint8Array, base: number, max = 0x10000): this {
    const n = Math.min(bytes.length, max);
    for (let o = 0; o < n; o += 16) {
      if (this.full) {
        this.omit(Math.ceil((n - o) / 16));
        break;
      }
      const row = bytes.subarray(o, Math.min(o + 16, n));
      const hex = [...row].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
      const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
      this.push(`@${hex6(base + o)}  ${hex.padEnd(47)}  |${ascii}|`);
    }
    if (bytes.length > n) this.comment(`… ${bytes.length - n} more bytes not shown`);
    return this;
  }

  toString(): string {
    const tail = this.omitted
      ? `\n# … ${this.omitted} more lines not shown: a decoded text stops at ${this.budget} characters (${TEXT_CHARS_PER_BYTE} per byte of its file + ${TEXT_BASE_CHARS})\n`
      : '\n';
    return this.lines.join('\n') + tail;
  }
}

/** Bytes as one uppercase hex string. */
export function hexString(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

/** A file offset as `0x` and at least six hex digits. */
export const hex6 = (n: number): string => '0x' + n.toString(16).toUpperCase().padStart(6, '0');

// ---- reading it back -------------------------------------------------------------------

interface TextRecord {
  id: string | null;
  attrs: Record<string, string | null>;
  line: number;
}

export interface TextSection {
  name: string;
  summary: Record<string, string | null>;
  fields: Record<string, string | null>;
  records: TextRecord[];
  /** Hex-dump lines, as written. */
  hex: string[];
}

/** The items of a list value as `readDecodedText` returns it (`[a, "b c", -]` → ['a', 'b c', null]). */
export function readList(s: string): (string | null)[] {
  const out: (string | null)[] = [];
  const inner = s.replace(/^\[|\]$/g, '');
  let i = 0;
  while (i < inner.length) {
    if (inner[i] === ' ' || inner[i] === ',') {
      i++;
      continue;
    }
    let end: number;
    if (inner[i] === '"') {
      end = i + 1;
      while (end < inner.length && inner[end] !== '"') end += inner[end] === '\\' ? 2 : 1;
      end++;
      out.push(JSON.parse(inner.slice(i, end)) as string);
    } else {
      end = inner.indexOf(',', i);
      if (end < 0) end = inner.length;
      const t = inner.slice(i, end);
      out.push(t === '-' ? null : t);
    }
    i = end;
  }
  return out;
}

/** Values as strings (`-` as null, quoted strings unquoted, vectors and lists as written: `(1, 2, 3)`, `[a, b]`). */
function tokens(s: string, line: number): (string | null)[] {
  const out: (string | null)[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === ' ') {
      i++;
      continue;
    }
    let end: number;
    let tok: string | null;
    const eq = s[i] === '"' ? -1 : s.slice(i).search(/[= "(]/);
    const keyEnd = eq >= 0 && s[i + eq] === '=' ? i + eq + 1 : i;
    const key = s.slice(i, keyEnd);
    const j = keyEnd;
    if (s[j] === '"') {
      end = j + 1;
      while (end < s.length && s[end] !== '"') end += s[end] === '\\' ? 2 : 1;
      if (end >= s.length) throw new Error(`line ${line}: unterminated string`);
      end++;
      tok = JSON.parse(s.slice(j, end)) as string;
    } else if (s[j] === '(') {
      end = s.indexOf(')', j);
      if (end < 0) throw new Error(`line ${line}: unterminated vector`);
      end++;
      tok = s.slice(j, end);
    } else if (s[j] === '[') {
      end = j + 1;
      while (end < s.length && s[end] !== ']') {
        if (s[end] === '"') {
          end++;
          while (end < s.length && s[end] !== '"') end += s[end] === '\\' ? 2 : 1;
        }
        end++;
      }
      if (end >= s.length) throw new Error(`line ${line}: unterminated list`);
      end++;
      tok = s.slice(j, end);
    } else {
      end = s.indexOf(' ', j);
      if (end < 0) end = s.length;
      tok = s.slice(j, end);
      if (tok === '-') tok = null;
    }
    out.push(key ? `${key}${tok === null ? '\0' : tok}` : tok);
    i = end;
  }
  return out;
}

function split(list: (string | null)[]): { id: string | null | undefined; attrs: Record<string, string | null> } {
  const a: Record<string, string | null> = {};
  let id: string | null | undefined;
  list.forEach((t, k) => {
    const eq = t === null ? -1 : t.indexOf('=');
    if (t !== null && eq > 0 && /^[A-Za-z_][\w.]*$/.test(t.slice(0, eq))) {
      const v = t.slice(eq + 1);
      a[t.slice(0, eq)] = v === '\0' ? null : v;
    } else if (k === 0) id = t;
  });
  return { id, attrs: a };
}

/** Read a decoded text back (throws a plain Error naming the line on text this syntax cannot hold). */
export function readDecodedText(text: string): TextSection[] {
  const sections: TextSection[] = [];
  let cur: TextSection = { name: '', summary: {}, fields: {}, records: [], hex: [] };
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw || raw.startsWith('#')) return;
    if (raw.startsWith('@0x')) {
      cur.hex.push(raw);
      return;
    }
    const sec = /^\[([^\]]*)\](?: (.*))?$/.exec(raw);
    if (sec) {
      cur = { name: sec[1], summary: split(tokens(sec[2] ?? '', line)).attrs, fields: {}, records: [], hex: [] };
      sections.push(cur);
      return;
    }
    const field = /^([A-Za-z_][\w.]*) = (.*)$/.exec(raw);
    if (field) {
      cur.fields[field[1]] = tokens(field[2], line)[0] ?? null;
      return;
    }
    const r = split(tokens(raw, line));
    cur.records.push({ id: r.id ?? null, attrs: r.attrs, line });
  });
  return sections;
}
