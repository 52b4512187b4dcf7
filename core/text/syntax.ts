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

const attrs = (list: readonly Attr[]): string =>
  list
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(' ');

/** Control characters of a comment shown as escapes, so a comment stays on one line. */
const oneLine = (s: string): string =>
  s.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));

/** Builds a decoded text line by line. */
export class TextDoc {
  private readonly lines: string[] = [];

  comment(text: string): this {
    this.lines.push(`# ${oneLine(text)}`.trimEnd());
    return this;
  }

  /** A section header, after a blank line (except at the top). */
  section(name: string, summary: readonly Attr[] = []): this {
    if (this.lines.length) this.lines.push('');
    const a = attrs(summary);
    this.lines.push(`[${name}]${a ? ' ' + a : ''}`);
    return this;
  }

  field(key: string, v: Value): this {
    this.lines.push(`${key} = ${value(v)}`);
    return this;
  }

  record(id: Value, list: readonly Attr[] = []): this {
    const a = attrs(list);
    this.lines.push(a ? `${value(id)} ${a}` : value(id));
    return this;
  }

  /** A hex dump of `bytes` (which start at file offset `base`), at most `max` bytes, and a comment for the rest. */
  hex(bytes: Uint8Array, base: number, max = 0x10000): this {
    const n = Math.min(bytes.length, max);
    for (let o = 0; o < n; o += 16) {
      const row = bytes.subarray(o, Math.min(o + 16, n));
      const hex = [...row].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
      const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
      this.lines.push(`@${hex6(base + o)}  ${hex.padEnd(47)}  |${ascii}|`);
    }
    if (bytes.length > n) this.comment(`… ${bytes.length - n} more bytes not shown`);
    return this;
  }

  toString(): string {
    return this.lines.join('\n') + '\n';
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
