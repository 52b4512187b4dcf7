/**
 * A strict reader of one line of the decoded-text syntax (./syntax.ts) for the texts that compile
 * back to bytes: `id key=value …` or `[section] key=value …`. Every token is checked; anything the
 * syntax does not hold (an unterminated string, vector or list, a repeated key, a key without a
 * value) fails with a `TextLineError` naming the line. Linear in the line's length, whatever it
 * holds (a 10 MB line is read once).
 */
export class TextLineError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

export type Token =
  | { kind: 'bare'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'vector'; items: string[] }
  | { kind: 'list'; items: { quoted: boolean; text: string }[] };

export interface LineTokens {
  id?: Token;
  attrs: Map<string, Token>;
}

const KEY = /[A-Za-z_][\w.]*=/y;

/** The end (exclusive) of the JSON string starting at `i`, and its value. */
function jsonString(s: string, i: number, line: number): [number, string] {
  let end = i + 1;
  while (end < s.length && s[end] !== '"') end += s[end] === '\\' ? 2 : 1;
  if (end >= s.length) throw new TextLineError(line, `unterminated string starting at column ${i + 1}`);
  try {
    return [end + 1, JSON.parse(s.slice(i, end + 1)) as string];
  } catch {
    throw new TextLineError(line, `a bad escape in the string at column ${i + 1}`);
  }
}

function listItems(s: string, i: number, line: number): [number, { quoted: boolean; text: string }[]] {
  const items: { quoted: boolean; text: string }[] = [];
  let j = i + 1;
  for (;;) {
    while (s[j] === ' ') j++;
    if (j >= s.length) throw new TextLineError(line, `unterminated list starting at column ${i + 1}`);
    if (s[j] === ']' && items.length === 0) return [j + 1, items];
    if (s[j] === '"') {
      const [end, text] = jsonString(s, j, line);
      items.push({ quoted: true, text });
      j = end;
    } else {
      let end = j;
      while (end < s.length && s[end] !== ',' && s[end] !== ']') end++;
      items.push({ quoted: false, text: s.slice(j, end).trim() });
      j = end;
    }
    while (s[j] === ' ') j++;
    if (s[j] === ']') return [j + 1, items];
    if (s[j] !== ',') throw new TextLineError(line, `expected "," or "]" in the list at column ${j + 1}`);
    j++;
  }
}

function token(s: string, i: number, line: number): [number, Token] {
  if (s[i] === '"') {
    const [end, text] = jsonString(s, i, line);
    return [end, { kind: 'string', text }];
  }
  if (s[i] === '(') {
    const end = s.indexOf(')', i);
    if (end < 0) throw new TextLineError(line, `unterminated vector starting at column ${i + 1}`);
    return [
      end + 1,
      {
        kind: 'vector',
        items: s
          .slice(i + 1, end)
          .split(',')
          .map((x) => x.trim()),
      },
    ];
  }
  if (s[i] === '[') {
    const [end, items] = listItems(s, i, line);
    return [end, { kind: 'list', items }];
  }
  let end = s.indexOf(' ', i);
  if (end < 0) end = s.length;
  return [end, { kind: 'bare', text: s.slice(i, end) }];
}

/** The tokens of a record line (or of the text after a section's `]`). */
export function lineTokens(s: string, line: number, withId: boolean): LineTokens {
  const out: LineTokens = { attrs: new Map() };
  let i = 0;
  let first = withId;
  while (i < s.length) {
    if (s[i] === ' ' || s[i] === '\t') {
      i++;
      continue;
    }
    KEY.lastIndex = i;
    const key = KEY.exec(s);
    if (first && key) throw new TextLineError(line, `the line starts with ${key[0]}…, not with its id (a name with "=" is written as a quoted string)`);
    if (first) {
      const [end, t] = token(s, i, line);
      out.id = t;
      i = end;
      first = false;
    } else if (!key) {
      throw new TextLineError(line, `expected key=value at column ${i + 1}, found ${JSON.stringify(s.slice(i, i + 20))}`);
    } else {
      const name = key[0].slice(0, -1);
      if (out.attrs.has(name)) throw new TextLineError(line, `${name}= is given twice`);
      const at = i + key[0].length;
      if (at >= s.length || s[at] === ' ') throw new TextLineError(line, `${name}= has no value`);
      const [end, t] = token(s, at, line);
      out.attrs.set(name, t);
      i = end;
    }
    if (i < s.length && s[i] !== ' ' && s[i] !== '\t') throw new TextLineError(line, `expected a space at column ${i + 1}`);
  }
  return out;
}
