/**
 * Havok Script tokens: Lua 5.1's (names, keywords, numbers, strings with escapes and long
 * brackets, comments, operators) plus the reserved words `hstructure` and `hmake` and the hash
 * literals `0x…hi` / `0x…hl`. One pass over the text, linear in its length; what cannot be a token
 * becomes a diagnostic and is skipped, so the lexer never throws and always ends.
 */
import type { Comment, Diagnostic } from './syntax';

export type TokenType = 'name' | 'keyword' | 'number' | 'string' | 'symbol' | 'eof';

export interface Token {
  type: TokenType;
  /** Names, keywords and symbols: the text; numbers: the literal as written; strings: the decoded value. */
  value: string;
  start: number;
  end: number;
  /** Numbers: the value (0 for other tokens: every token has the same shape, which keeps the parser's property reads monomorphic). */
  number: number;
  /** Numbers: a Havok hash suffix. */
  suffix: 'hi' | 'hl' | undefined;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'break',
  'do',
  'else',
  'elseif',
  'end',
  'false',
  'for',
  'function',
  'if',
  'in',
  'local',
  'nil',
  'not',
  'or',
  'repeat',
  'return',
  'then',
  'true',
  'until',
  'while',
  // Havok Script's additions.
  'hstructure',
  'hmake',
]);

/** One-character symbols; `.`, `=`, `<`, `>` and `~` may start longer ones (symbolAt). */
const SINGLE = new Set('+-*/%^#<>=(){}[];:,.');

/** The symbol at `i`, longest first (`...` over `..` over `.`), or undefined. */
function symbolAt(source: string, i: number): string | undefined {
  const c = source[i];
  const next = source[i + 1];
  if (c === '.' && next === '.') return source[i + 2] === '.' ? '...' : '..';
  if (next === '=' && (c === '=' || c === '~' || c === '<' || c === '>')) return c + '=';
  return SINGLE.has(c) ? c : undefined;
}

/** Character classes of ASCII, one table lookup per character (the lexer's loops run long before the JIT has warmed up). */
const NAME_START = 1;
const DIGIT = 2;
const HEX = 4;
const SPACE = 8;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f) CLASS[c] |= NAME_START;
  if (c >= 0x30 && c <= 0x39) CLASS[c] |= DIGIT | HEX;
  if ((c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)) CLASS[c] |= HEX;
}
// Whitespace, and the NUL a SCRI payload ends with.
for (const c of [0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c, 0]) CLASS[c] |= SPACE;
/** The class bits of `c` (0 past ASCII, and for the NaN `charCodeAt` gives past the end). */
const classOf = (c: number): number => (c < 128 ? CLASS[c] : 0);

const isDigit = (c: number): boolean => (classOf(c) & DIGIT) !== 0;
const isHex = (c: number): boolean => (classOf(c) & HEX) !== 0;
const isNameChar = (c: number): boolean => (classOf(c) & (NAME_START | DIGIT)) !== 0;

export interface LexResult {
  tokens: Token[];
  comments: Comment[];
  diagnostics: Diagnostic[];
}

/**
 * Problems kept per parse: a file of a million stray tokens costs a count beyond these, not a
 * million messages (`Chunk.diagnosticCount` is the true count).
 */
export const MAX_DIAGNOSTICS = 1000;

/**
 * The tokens of a source, one at a time (`next`), so a parser holds only the few it is looking at:
 * tokens it has passed are garbage at once, which keeps a large script's parse from copying every
 * token through each young-generation collection. Comments and diagnostics collect as it goes.
 */
export class Lexer {
  readonly comments: Comment[] = [];
  /** The first `MAX_DIAGNOSTICS` problems found (lexer's and parser's); `diagnosticCount` counts them all. */
  readonly diagnostics: Diagnostic[] = [];
  diagnosticCount = 0;
  private i = 0;
  private readonly n: number;
  /** Where readNumber and readQuoted put the token they read. */
  private readonly scratch: Token[] = [];
  /** Record a problem: kept while fewer than `MAX_DIAGNOSTICS` are, counted always. */
  readonly report = (start: number, end: number, message: string): void => {
    if (this.diagnosticCount++ < MAX_DIAGNOSTICS) this.diagnostics.push({ start, end, message, severity: 'error' });
  };
  private readonly error = this.report;

  constructor(private readonly source: string) {
    this.n = source.length;
  }

  /** At `[` starting a long bracket (`[[`, `[==[`): its level, else -1. */
  private longBracketLevel(at: number): number {
    const source = this.source;
    if (source.charCodeAt(at) !== 0x5b) return -1;
    let j = at + 1;
    while (source.charCodeAt(j) === 0x3d) j++;
    return source.charCodeAt(j) === 0x5b ? j - at - 1 : -1;
  }

  /** Read a long bracket at `at` of `level`; returns its content and the offset after it (the end of input when unclosed). */
  private readLong(at: number, level: number): { text: string; end: number; closed: boolean } {
    const source = this.source;
    const open = at + level + 2;
    const close = ']' + '='.repeat(level) + ']';
    const k = source.indexOf(close, open);
    if (k < 0) return { text: source.slice(open), end: this.n, closed: false };
    // A newline right after the opening bracket is not part of the string (Lua 5.1).
    let from = open;
    if (source.charCodeAt(from) === 0x0d) from++;
    if (source.charCodeAt(from) === 0x0a) from++;
    return { text: source.slice(from, k), end: k + close.length, closed: true };
  }

  /** The next token; at the end an `eof` token, again on every later call. */
  next(): Token {
    const source = this.source;
    const n = this.n;
    let i = this.i;
    while (i < n) {
      const c = source.charCodeAt(i);
      const cls = c < 128 ? CLASS[c] : 0;
      if (cls & SPACE) {
        i++;
        continue;
      }
      const start = i;
      if (c === 0x2d && source.charCodeAt(i + 1) === 0x2d) {
        const level = this.longBracketLevel(i + 2);
        if (level >= 0) {
          const r = this.readLong(i + 2, level);
          if (!r.closed) this.error(start, n, 'unfinished long comment (no closing bracket before the end of the file)');
          this.comments.push({ start, end: r.end, text: r.text, long: true });
          i = r.end;
        } else {
          let e = source.indexOf('\n', i);
          if (e < 0) e = n;
          const text = source.slice(i + 2, source.charCodeAt(e - 1) === 0x0d ? e - 1 : e);
          this.comments.push({ start, end: e, text, long: false });
          i = e;
        }
        continue;
      }
      if (cls & NAME_START) {
        let j = i + 1;
        for (let d = source.charCodeAt(j); d < 128 && CLASS[d] & (NAME_START | DIGIT); d = source.charCodeAt(++j));
        const word = source.slice(i, j);
        this.i = j;
        return { type: KEYWORDS.has(word) ? 'keyword' : 'name', value: word, start, end: j, number: 0, suffix: undefined };
      }
      if (cls & DIGIT || (c === 0x2e && isDigit(source.charCodeAt(i + 1)))) {
        this.i = readNumber(source, i, this.scratch, this.error);
        return this.scratch.pop()!;
      }
      if (c === 0x22 || c === 0x27) {
        this.i = readQuoted(source, i, this.scratch, this.error);
        return this.scratch.pop()!;
      }
      if (c === 0x5b) {
        const level = this.longBracketLevel(i);
        if (level >= 0) {
          const r = this.readLong(i, level);
          if (!r.closed) this.error(start, n, 'unfinished long string (no closing bracket before the end of the file)');
          this.i = r.end;
          return { type: 'string', value: r.text, start, end: r.end, number: 0, suffix: undefined };
        }
      }
      const sym = symbolAt(source, i);
      if (sym) {
        this.i = i + sym.length;
        return { type: 'symbol', value: sym, start, end: i + sym.length, number: 0, suffix: undefined };
      }
      // Anything else: one diagnostic for a run of such characters.
      let j = i + 1;
      while (j < n && !isTokenStart(source.charCodeAt(j))) j++;
      this.error(start, j, `unexpected character${j - start > 1 ? 's' : ''} ${JSON.stringify(source.slice(start, Math.min(j, start + 20)))}`);
      i = j;
    }
    this.i = n;
    return { type: 'eof', value: '', start: n, end: n, number: 0, suffix: undefined };
  }
}

/** Every token of `source`, ending with one `eof` token (the parser reads them one at a time instead). */
export function tokenize(source: string): LexResult {
  const lexer = new Lexer(source);
  const tokens: Token[] = [];
  for (let t = lexer.next(); ; t = lexer.next()) {
    tokens.push(t);
    if (t.type === 'eof') break;
  }
  return { tokens, comments: lexer.comments, diagnostics: lexer.diagnostics };
}

/** Whether a character can start a token or is whitespace (ends a run of unexpected characters). */
function isTokenStart(c: number): boolean {
  return isNameChar(c) || c <= 0x20 || c === 0x22 || c === 0x27 || '+-*/%^#<>=(){}[];:,.~'.includes(String.fromCharCode(c));
}

function readNumber(source: string, i: number, tokens: Token[], error: (s: number, e: number, m: string) => void): number {
  const start = i;
  const n = source.length;
  let value: number;
  let suffix: 'hi' | 'hl' | undefined;
  if (source.charCodeAt(i) === 0x30 && (source.charCodeAt(i + 1) | 0x20) === 0x78) {
    let j = i + 2;
    while (j < n && isHex(source.charCodeAt(j))) j++;
    const digits = source.slice(i + 2, j);
    if (source.startsWith('hi', j) || source.startsWith('hl', j)) {
      suffix = source.slice(j, j + 2) as 'hi' | 'hl';
      j += 2;
    }
    value = digits.length ? parseInt(digits, 16) : NaN;
    if (!digits.length) error(start, j, 'a hexadecimal number needs digits after 0x');
    // `hi` is a 32-bit hash, `hl` a 64-bit one (the value is then exact only below 2^53; `raw` keeps it).
    else if (suffix && digits.length > (suffix === 'hi' ? 8 : 16))
      error(start, j, `a ${suffix} hash literal holds ${suffix === 'hi' ? 32 : 64} bits: ${digits.length} hex digits`);
    i = j;
  } else {
    let j = i;
    while (j < n && isDigit(source.charCodeAt(j))) j++;
    if (source.charCodeAt(j) === 0x2e) {
      j++;
      while (j < n && isDigit(source.charCodeAt(j))) j++;
    }
    if ((source.charCodeAt(j) | 0x20) === 0x65) {
      let k = j + 1;
      if (source.charCodeAt(k) === 0x2b || source.charCodeAt(k) === 0x2d) k++;
      if (isDigit(source.charCodeAt(k))) {
        while (k < n && isDigit(source.charCodeAt(k))) k++;
        j = k;
      } else error(start, k, 'malformed number: an exponent needs digits');
    }
    value = Number(source.slice(i, j));
    i = j;
  }
  // A number running straight into a name (`3x`) is malformed, as in Lua.
  if (i < n && isNameChar(source.charCodeAt(i))) {
    let j = i;
    while (j < n && isNameChar(source.charCodeAt(j))) j++;
    error(start, j, `malformed number ${JSON.stringify(source.slice(start, j))}`);
    i = j;
  }
  tokens.push({ type: 'number', value: source.slice(start, i), start, end: i, number: value, suffix });
  return i;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'", '\n': '\n' };

function readQuoted(source: string, i: number, tokens: Token[], error: (s: number, e: number, m: string) => void): number {
  const start = i;
  const quote = source.charCodeAt(i);
  const n = source.length;
  let j = i + 1;
  let value = '';
  let runStart = j;
  for (;;) {
    if (j >= n || source.charCodeAt(j) === 0x0a) {
      error(start, j, 'unfinished string (no closing quote on its line)');
      value += source.slice(runStart, j);
      break;
    }
    const c = source.charCodeAt(j);
    if (c === quote) {
      value += source.slice(runStart, j);
      j++;
      break;
    }
    if (c === 0x5c) {
      value += source.slice(runStart, j);
      const e = source[j + 1] ?? '';
      if (e === '\r') {
        // A backslash before a Windows line end continues the string on the next line.
        value += '\n';
        j += source[j + 2] === '\n' ? 3 : 2;
      } else if (e in ESCAPES) {
        value += ESCAPES[e];
        j += 2;
      } else if (/[0-9]/.test(e)) {
        // \ddd: up to three decimal digits.
        let k = j + 1;
        while (k < j + 4 && isDigit(source.charCodeAt(k))) k++;
        const code = Number(source.slice(j + 1, k));
        if (code > 255) error(j, k, `escape \\${source.slice(j + 1, k)} is above 255`);
        value += String.fromCharCode(code & 0xff);
        j = k;
      } else {
        // Lua 5.1 keeps the character of an unknown escape.
        value += e;
        j += e ? 2 : 1;
      }
      runStart = j;
      continue;
    }
    j++;
  }
  tokens.push({ type: 'string', value, start, end: j, number: 0, suffix: undefined });
  return j;
}
