/**
 * A hand-written, error-recovering parser for Havok Script (Lua 5.1 + `hstructure`, `hmake`,
 * `: type` annotations, hash literals; see syntax.ts). It never throws: a problem becomes a
 * diagnostic and parsing goes on, so a file with a missing `end` or a stray token still yields
 * the functions after it. Every loop consumes a token or stops, and nesting is capped, so hostile
 * input costs time linear in its length and a bounded stack.
 *
 * Recovery: a token that cannot start a statement is reported and skipped; a missing closer
 * (`end`, `)`, `}`, `]`, `then`, `do`) is reported at the place it was expected, naming the line of
 * what it should close, and parsing continues as if it were there.
 */
import { Lexer, type Token } from './lexer';
import type {
  Chunk,
  Diagnostic,
  Expression,
  FunctionExpression,
  IfClause,
  Name,
  Statement,
  TableConstructor,
  TableField,
  TypeAnnotation,
  TypedName,
} from './syntax';

/**
 * Deeper nesting than this is reported and cut off (no real script comes near it). Each link of a
 * chain (`a.b.c`, `x + y + z`) counts as a level: the tree's depth, which every walk over it
 * recurses through, stays bounded whatever the input.
 */
export const MAX_NESTING = 1000;

/** Binary operators: [left priority, right priority] (Lua 5.1's table; `..` and `^` bind right). */
const BINARY: Record<string, [number, number]> = {
  or: [1, 1],
  and: [2, 2],
  '<': [3, 3],
  '>': [3, 3],
  '<=': [3, 3],
  '>=': [3, 3],
  '~=': [3, 3],
  '==': [3, 3],
  '..': [5, 4],
  '+': [6, 6],
  '-': [6, 6],
  '*': [7, 7],
  '/': [7, 7],
  '%': [7, 7],
  '^': [10, 9],
};
const UNARY_PRIORITY = 8;

/** Tokens that end a block. */
const BLOCK_END = new Set(['end', 'else', 'elseif', 'until']);

/** Parse a whole script. */
export function parseHavokScript(source: string): Chunk {
  return new Parser(source).chunk();
}

class Parser {
  private readonly lexer: Lexer;
  private readonly diagnostics: Diagnostic[];
  /** The token at hand, the one after it once looked at (`peek`), and the end of the last one passed. */
  private cur: Token;
  private ahead: Token | undefined;
  private prevEnd = 0;
  /** Tokens passed so far: a statement that consumed none is reported and skipped. */
  private pos = 0;
  private depth = 0;
  /** Offsets of line starts, for "to close 'function' at line N". */
  private readonly lineStarts: number[];

  constructor(private readonly source: string) {
    this.lexer = new Lexer(source);
    this.diagnostics = this.lexer.diagnostics;
    this.cur = this.lexer.next();
    this.lineStarts = [0];
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  chunk(): Chunk {
    const body = this.block();
    // A block stops at `end`, `else`, … : at the top level each is a stray token; report it and go on.
    while (this.tok.type !== 'eof') {
      this.error(this.tok, `'${this.tok.value}' without a block to close`);
      this.advance();
      body.push(...this.block());
    }
    this.diagnostics.sort((a, b) => a.start - b.start);
    return {
      kind: 'Chunk',
      start: 0,
      end: this.source.length,
      body,
      comments: this.lexer.comments,
      diagnostics: this.diagnostics,
      diagnosticCount: this.lexer.diagnosticCount,
    };
  }

  // Token helpers

  private get tok(): Token {
    return this.cur;
  }
  /** Pass the token at hand (at the end, the `eof` token stays). */
  private advance(): void {
    if (this.cur.type === 'eof') return;
    this.prevEnd = this.cur.end;
    this.cur = this.ahead ?? this.lexer.next();
    this.ahead = undefined;
    this.pos++;
  }
  /** The token after the one at hand. */
  private peek(): Token {
    return (this.ahead ??= this.cur.type === 'eof' ? this.cur : this.lexer.next());
  }
  /** End of the last consumed token. */
  private get lastEnd(): number {
    return this.prevEnd;
  }
  private is(value: string): boolean {
    const t = this.tok;
    return (t.type === 'symbol' || t.type === 'keyword') && t.value === value;
  }
  private accept(value: string): boolean {
    if (!this.is(value)) return false;
    this.advance();
    return true;
  }
  private lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  private near(t: Token): string {
    return t.type === 'eof' ? 'the end of the file' : t.type === 'string' ? 'a string' : `'${this.source.slice(t.start, Math.min(t.end, t.start + 30))}'`;
  }
  private error(at: { start: number; end: number }, message: string): void {
    this.lexer.report(at.start, Math.max(at.end, at.start), message);
  }
  /** Consume `value` or report it missing (the place is the next token). */
  private expect(value: string, closing?: { what: string; at: number }): void {
    if (this.accept(value)) return;
    const t = this.tok;
    const why = closing ? ` (to close '${closing.what}' at line ${this.lineOf(closing.at)})` : '';
    this.error(t.type === 'eof' ? { start: this.lastEnd, end: this.lastEnd } : t, `expected '${value}'${why} near ${this.near(t)}`);
  }
  private name(): Name {
    const t = this.tok;
    if (t.type === 'name') {
      this.advance();
      return { kind: 'Name', name: t.value, start: t.start, end: t.end };
    }
    this.error(t, `expected a name near ${this.near(t)}`);
    return { kind: 'Name', name: '', start: t.start, end: t.start };
  }
  /** `: Type` (dotted names kept whole), when a `:` follows. */
  private typeAnnotation(): TypeAnnotation | undefined {
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
  private typedName(): TypedName {
    const n: TypedName = this.name();
    const type = this.typeAnnotation();
    if (type) n.type = type;
    return n;
  }

  // Blocks and statements

  private block(): Statement[] {
    const out: Statement[] = [];
    if (++this.depth > MAX_NESTING) {
      this.tooDeep();
      this.depth--;
      return out;
    }
    while (this.tok.type !== 'eof' && !(this.tok.type === 'keyword' && BLOCK_END.has(this.tok.value))) {
      const before = this.pos;
      const s = this.statement();
      if (s) out.push(s);
      if (this.pos === before) {
        this.error(this.tok, `unexpected ${this.near(this.tok)}: not the start of a statement`);
        this.advance();
      }
    }
    this.depth--;
    return out;
  }

  /** Nesting past MAX_NESTING: report once here and skip the rest of the file. */
  private tooDeep(): void {
    this.error(this.tok, `nesting deeper than ${MAX_NESTING} levels: the rest of the file is not parsed`);
    while (this.cur.type !== 'eof') this.advance();
  }

  private statement(): Statement | undefined {
    const t = this.tok;
    const start = t.start;
    if (t.type === 'symbol' && t.value === ';') {
      this.advance();
      return undefined;
    }
    if (t.type === 'keyword') {
      switch (t.value) {
        case 'if':
          return this.ifStatement();
        case 'while': {
          this.advance();
          const condition = this.expression();
          this.expect('do', { what: 'while', at: start });
          const body = this.block();
          this.expect('end', { what: 'while', at: start });
          return { kind: 'While', condition, body, start, end: this.lastEnd };
        }
        case 'do': {
          this.advance();
          const body = this.block();
          this.expect('end', { what: 'do', at: start });
          return { kind: 'Do', body, start, end: this.lastEnd };
        }
        case 'for':
          return this.forStatement();
        case 'repeat': {
          this.advance();
          const body = this.block();
          this.expect('until', { what: 'repeat', at: start });
          const condition = this.expression();
          return { kind: 'Repeat', body, condition, start, end: this.lastEnd };
        }
        case 'function': {
          this.advance();
          const path = [this.name()];
          let method = false;
          while (this.is('.') || this.is(':')) {
            method = this.tok.value === ':';
            this.advance();
            path.push(this.name());
            if (method) break;
          }
          const func = this.functionBody(start);
          return { kind: 'FunctionDeclaration', path, method, func, start, end: this.lastEnd };
        }
        case 'local':
          this.advance();
          if (this.accept('function')) {
            const name = this.name();
            return { kind: 'LocalFunction', name, func: this.functionBody(start), start, end: this.lastEnd };
          } else {
            const names = [this.typedName()];
            while (this.accept(',')) names.push(this.typedName());
            const values = this.accept('=') ? this.expressionList() : [];
            return { kind: 'Local', names, values, start, end: this.lastEnd };
          }
        case 'return': {
          this.advance();
          const endsHere = this.tok.type === 'eof' || this.is(';') || (this.tok.type === 'keyword' && BLOCK_END.has(this.tok.value));
          const values = endsHere ? [] : this.expressionList();
          this.accept(';');
          return { kind: 'Return', values, start, end: this.lastEnd };
        }
        case 'break':
          this.advance();
          return { kind: 'Break', start, end: this.lastEnd };
        case 'hstructure':
          return this.hstructure();
      }
    }
    return this.expressionStatement();
  }

  private ifStatement(): Statement {
    const start = this.tok.start;
    const clauses: IfClause[] = [];
    let clauseStart = start;
    let keyword = 'if';
    this.advance();
    for (;;) {
      const condition = this.expression();
      this.expect('then', { what: keyword, at: clauseStart });
      const body = this.block();
      clauses.push({ condition, body, start: clauseStart, end: this.lastEnd });
      if (this.is('elseif')) {
        clauseStart = this.tok.start;
        keyword = 'elseif';
        this.advance();
        continue;
      }
      if (this.is('else')) {
        const elseStart = this.tok.start;
        this.advance();
        const elseBody = this.block();
        clauses.push({ body: elseBody, start: elseStart, end: this.lastEnd });
      }
      break;
    }
    this.expect('end', { what: 'if', at: start });
    return { kind: 'If', clauses, start, end: this.lastEnd };
  }

  private forStatement(): Statement {
    const start = this.tok.start;
    this.advance();
    const first = this.typedName();
    if (this.accept('=')) {
      const from = this.expression();
      this.expect(',');
      const limit = this.expression();
      const step = this.accept(',') ? this.expression() : undefined;
      this.expect('do', { what: 'for', at: start });
      const body = this.block();
      this.expect('end', { what: 'for', at: start });
      return { kind: 'NumericFor', variable: first, from, limit, ...(step ? { step } : {}), body, start, end: this.lastEnd };
    }
    const variables = [first];
    while (this.accept(',')) variables.push(this.typedName());
    this.expect('in');
    const iterators = this.expressionList();
    this.expect('do', { what: 'for', at: start });
    const body = this.block();
    this.expect('end', { what: 'for', at: start });
    return { kind: 'GenericFor', variables, iterators, body, start, end: this.lastEnd };
  }

  private hstructure(): Statement {
    const start = this.tok.start;
    this.advance();
    const name = this.name();
    const fields: { name: Name; type: TypeAnnotation }[] = [];
    while (this.tok.type === 'name') {
      const field = this.name();
      const type = this.typeAnnotation();
      if (!type) {
        this.error(this.tok, `expected ': type' after the field '${field.name}' near ${this.near(this.tok)}`);
        continue;
      }
      fields.push({ name: field, type });
    }
    this.expect('end', { what: 'hstructure', at: start });
    return { kind: 'HStructure', name, fields, start, end: this.lastEnd };
  }

  private expressionStatement(): Statement | undefined {
    const start = this.tok.start;
    const first = this.suffixedExpression();
    if (first.kind === 'ErrorExpression') return undefined;
    if (this.is('=') || this.is(',')) {
      const targets: Expression[] = [first];
      while (this.accept(',')) targets.push(this.suffixedExpression());
      for (const target of targets) {
        if (target.kind !== 'Name' && target.kind !== 'Index' && !(target.kind === 'Member' && target.indexer === '.'))
          this.error(target, 'cannot assign to this expression');
      }
      this.expect('=');
      const values = this.expressionList();
      return { kind: 'Assignment', targets, values, start, end: this.lastEnd };
    }
    if (first.kind === 'Call') return { kind: 'CallStatement', call: first, start, end: this.lastEnd };
    this.error(first, 'syntax error: this expression is not a statement (a call or an assignment is)');
    return undefined;
  }

  // Expressions

  private expressionList(): Expression[] {
    const out = [this.expression()];
    while (this.accept(',')) out.push(this.expression());
    return out;
  }

  expression(limit = 0): Expression {
    if (++this.depth > MAX_NESTING) {
      this.tooDeep();
      this.depth--;
      return { kind: 'ErrorExpression', start: this.tok.start, end: this.tok.start };
    }
    const t = this.tok;
    let left: Expression;
    if ((t.type === 'keyword' && t.value === 'not') || (t.type === 'symbol' && (t.value === '-' || t.value === '#'))) {
      this.advance();
      const argument = this.expression(UNARY_PRIORITY);
      left = { kind: 'Unary', operator: t.value as 'not' | '-' | '#', argument, start: t.start, end: argument.end };
    } else left = this.simpleExpression();
    const depthBefore = this.depth;
    for (;;) {
      const op = this.tok;
      const prio = (op.type === 'symbol' || op.type === 'keyword') && Object.prototype.hasOwnProperty.call(BINARY, op.value) ? BINARY[op.value] : undefined;
      if (!prio || prio[0] <= limit) break;
      if (++this.depth > MAX_NESTING) {
        this.tooDeep();
        break;
      }
      this.advance();
      const right = this.expression(prio[1]);
      left = { kind: 'Binary', operator: op.value, left, right, start: left.start, end: right.end };
    }
    this.depth = depthBefore - 1;
    return left;
  }

  private simpleExpression(): Expression {
    const t = this.tok;
    const { start, end } = t;
    switch (t.type) {
      case 'number':
        this.advance();
        return { kind: 'Number', raw: t.value, value: t.number, ...(t.suffix ? { suffix: t.suffix } : {}), start, end };
      case 'string':
        this.advance();
        return { kind: 'String', value: t.value, start, end };
      case 'keyword':
        switch (t.value) {
          case 'nil':
            this.advance();
            return { kind: 'Nil', start, end };
          case 'true':
          case 'false':
            this.advance();
            return { kind: 'Boolean', value: t.value === 'true', start, end };
          case 'function':
            this.advance();
            return this.functionBody(start);
          case 'hmake': {
            this.advance();
            const type = this.name();
            while (this.is('.') && this.peek().type === 'name') {
              this.advance();
              const n = this.name();
              type.name += '.' + n.name;
              type.end = n.end;
            }
            if (!this.is('{')) {
              this.error(this.tok, `expected '{' after 'hmake ${type.name}' near ${this.near(this.tok)}`);
              return { kind: 'HMake', type, table: { kind: 'Table', fields: [], start: this.lastEnd, end: this.lastEnd }, start, end: this.lastEnd };
            }
            const table = this.table();
            return { kind: 'HMake', type, table, start, end: table.end };
          }
        }
        break;
      case 'symbol':
        if (t.value === '...') {
          this.advance();
          return { kind: 'Vararg', start, end };
        }
        if (t.value === '{') return this.table();
        break;
    }
    return this.suffixedExpression();
  }

  private primaryExpression(): Expression {
    const t = this.tok;
    if (t.type === 'name') return this.name();
    if (this.is('(')) {
      this.advance();
      const expression = this.expression();
      this.expect(')', { what: '(', at: t.start });
      return { kind: 'Paren', expression, start: t.start, end: this.lastEnd };
    }
    this.error(t, `unexpected ${this.near(t)}: expected an expression`);
    return { kind: 'ErrorExpression', start: t.start, end: t.start };
  }

  private suffixedExpression(): Expression {
    const e = this.primaryExpression();
    if (e.kind === 'ErrorExpression') return e;
    const depthBefore = this.depth;
    const out = this.suffixes(e);
    this.depth = depthBefore;
    return out;
  }

  /** The `.name`, `[k]`, `:m(args)` and call suffixes after `e`; each link counts as a nesting level. */
  private suffixes(e: Expression): Expression {
    for (;;) {
      const t = this.tok;
      if ((t.type === 'symbol' && '.[:({'.includes(t.value)) || t.type === 'string') {
        if (++this.depth > MAX_NESTING) {
          this.tooDeep();
          return e;
        }
      }
      if (t.type === 'symbol') {
        if (t.value === '.') {
          this.advance();
          const member = this.name();
          e = { kind: 'Member', object: e, indexer: '.', member, start: e.start, end: member.end };
          continue;
        }
        if (t.value === '[') {
          this.advance();
          const index = this.expression();
          this.expect(']', { what: '[', at: t.start });
          e = { kind: 'Index', object: e, index, start: e.start, end: this.lastEnd };
          continue;
        }
        if (t.value === ':') {
          this.advance();
          const member = this.name();
          const callee: Expression = { kind: 'Member', object: e, indexer: ':', member, start: e.start, end: member.end };
          const args = this.callArguments();
          e = { kind: 'Call', callee, args: args ?? [], start: e.start, end: this.lastEnd };
          if (!args) this.error(this.tok, `expected arguments after ':${member.name}' near ${this.near(this.tok)}`);
          continue;
        }
        if (t.value === '(' || t.value === '{') {
          const args = this.callArguments() ?? [];
          e = { kind: 'Call', callee: e, args, start: e.start, end: this.lastEnd };
          continue;
        }
      } else if (t.type === 'string') {
        const args = this.callArguments() ?? [];
        e = { kind: 'Call', callee: e, args, start: e.start, end: this.lastEnd };
        continue;
      }
      return e;
    }
  }

  /** `( explist )`, a table or a string; undefined when none follows. */
  private callArguments(): Expression[] | undefined {
    const t = this.tok;
    if (t.type === 'string') {
      this.advance();
      return [{ kind: 'String', value: t.value, start: t.start, end: t.end }];
    }
    if (this.is('{')) return [this.table()];
    if (!this.is('(')) return undefined;
    this.advance();
    const args = this.is(')') ? [] : this.expressionList();
    this.expect(')', { what: '(', at: t.start });
    return args;
  }

  private table(): TableConstructor {
    const start = this.tok.start;
    this.advance(); // {
    const fields: TableField[] = [];
    while (!this.is('}') && this.tok.type !== 'eof') {
      const before = this.pos;
      const f = this.tableField();
      if (f) fields.push(f);
      if (!this.accept(',') && !this.accept(';')) {
        if (this.is('}')) break;
        // A missing separator: report it; go on with the next field when one follows.
        this.error(this.tok, `expected ',' or '}' (to close '{' at line ${this.lineOf(start)}) near ${this.near(this.tok)}`);
        if (this.pos === before || (this.tok.type === 'keyword' && BLOCK_END.has(this.tok.value))) break;
      }
    }
    this.expect('}', { what: '{', at: start });
    return { kind: 'Table', fields, start, end: this.lastEnd };
  }

  private tableField(): TableField | undefined {
    const t = this.tok;
    if (t.type === 'name' && this.peek().type === 'symbol' && this.peek().value === '=') {
      const name = this.name();
      this.advance(); // =
      const value = this.expression();
      return { kind: 'named', name, value, start: t.start, end: value.end };
    }
    if (this.is('[')) {
      this.advance();
      const key = this.expression();
      this.expect(']', { what: '[', at: t.start });
      this.expect('=');
      const value = this.expression();
      return { kind: 'keyed', key, value, start: t.start, end: value.end };
    }
    const value = this.expression();
    if (value.kind === 'ErrorExpression') return undefined;
    return { kind: 'positional', value, start: t.start, end: value.end };
  }

  /** `( params ) [: type] block end`, the `function` keyword (at `start`) already read. */
  private functionBody(start: number): FunctionExpression {
    const params: TypedName[] = [];
    let vararg = false;
    const open = this.tok;
    this.expect('(');
    if (!this.is(')')) {
      do {
        if (this.accept('...')) {
          vararg = true;
          break;
        }
        params.push(this.typedName());
      } while (this.accept(','));
    }
    this.expect(')', { what: '(', at: open.start });
    const returnType = this.typeAnnotation();
    const body = this.block();
    this.expect('end', { what: 'function', at: start });
    return { kind: 'Function', params, vararg, ...(returnType ? { returnType } : {}), body, start, end: this.lastEnd };
  }
}
