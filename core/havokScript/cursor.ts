/**
 * The token cursor of the Havok Script parser (./parser.ts): the token at hand and one of
 * lookahead, the nesting depth, and the diagnostics for what was expected but missing, naming
 * the line of what it should close. The parts every grammar rule uses: names and `: type`
 * annotations too.
 */
import { Lexer, type Token } from './lexer';
import type { Diagnostic, Name, TypeAnnotation, TypedName } from './syntax';

/**
 * Deeper nesting than this is reported and cut off (no real script comes near it). Each link of a
 * chain (`a.b.c`, `x + y + z`) counts as a level: the tree's depth, which every walk over it
 * recurses through, stays bounded whatever the input.
 */
export const MAX_NESTING = 1000;

/** Tokens that end a block. */
export const BLOCK_END = new Set(['end', 'else', 'elseif', 'until']);

export abstract class TokenCursor {
  protected readonly lexer: Lexer;
  protected readonly diagnostics: Diagnostic[];
  /** The token at hand, the one after it once looked at (`peek`), and the end of the last one passed. */
  private cur: Token;
  private ahead: Token | undefined;
  private prevEnd = 0;
  /** Tokens passed so far: a statement that consumed none is reported and skipped. */
  protected pos = 0;
  protected depth = 0;
  /** Offsets of line starts, for "to close 'function' at line N". */
  private readonly lineStarts: number[];

  constructor(protected readonly source: string) {
    this.lexer = new Lexer(source);
    this.diagnostics = this.lexer.diagnostics;
    this.cur = this.lexer.next();
    this.lineStarts = [0];
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  protected get tok(): Token {
    return this.cur;
  }
  /** Pass the token at hand (at the end, the `eof` token stays). */
  protected advance(): void {
    if (this.cur.type === 'eof') return;
    this.prevEnd = this.cur.end;
    this.cur = this.ahead ?? this.lexer.next();
    this.ahead = undefined;
    this.pos++;
  }
  /** The token after the one at hand. */
  protected peek(): Token {
    return (this.ahead ??= this.cur.type === 'eof' ? this.cur : this.lexer.next());
  }
  /** End of the last consumed token. */
  protected get lastEnd(): number {
    return this.prevEnd;
  }
  protected is(value: string): boolean {
    const t = this.tok;
    return (t.type === 'symbol' || t.type === 'keyword') && t.value === value;
  }
  protected accept(value: string): boolean {
    if (!this.is(value)) return false;
    this.advance();
    return true;
  }
  protected lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  protected near(t: Token): string {
    return t.type === 'eof' ? 'the end of the file' : t.type === 'string' ? 'a string' : `'${this.source.slice(t.start, Math.min(t.end, t.start + 30))}'`;
  }
  protected error(at: { start: number; end: number }, message: string): void {
    this.lexer.report(at.start, Math.max(at.end, at.start), message);
  }
  /** Consume `value` or report it missing (the place is the next token). */
  protected expect(value: string, closing?: { what: string; at: number }): void {
    if (this.accept(value)) return;
    const t = this.tok;
    const why = closing ? ` (to close '${closing.what}' at line ${this.lineOf(closing.at)})` : '';
    this.error(t.type === 'eof' ? { start: this.lastEnd, end: this.lastEnd } : t, `expected '${value}'${why} near ${this.near(t)}`);
  }
  protected name(): Name {
    const t = this.tok;
    if (t.type === 'name') {
      this.advance();
      return { kind: 'Name', name: t.value, start: t.start, end: t.end };
    }
    this.error(t, `expected a name near ${this.near(t)}`);
    return { kind: 'Name', name: '', start: t.start, end: t.start };
  }
  /** `: Type` (dotted names kept whole), when a `:` follows. */
  protected typeAnnotation(): TypeAnnotation | undefined {
    if (!this.is(':')) return undefined;
    this.advance();
    const first = this.name();
    let name = first.name;
    let end = first.end;
    while (this.is('.') && this.peek().type === 'name') {
      this.advance();
      const n = this.name();
      name += '.' + n.name;
      end = n.end;
    }
    return { name, start: first.start, end };
  }
  protected typedName(): TypedName {
    const n: TypedName = this.name();
    const type = this.typeAnnotation();
    if (type) n.type = type;
    return n;
  }

  /** Nesting past MAX_NESTING: report once here and skip the rest of the file. */
  protected tooDeep(): void {
    this.error(this.tok, `nesting deeper than ${MAX_NESTING} levels: the rest of the file is not parsed`);
    while (this.cur.type !== 'eof') this.advance();
  }
}
