/**
 * Expressions of the Havok Script parser (./parser.ts): operators by Lua 5.1's priorities,
 * suffix chains, calls, table constructors, function bodies, and the `hmake Type { … }`
 * extension. Each operator and suffix link counts as a nesting level (./cursor.ts). Function
 * bodies hold blocks: the statement parser (./parser.ts) supplies `block`.
 */
import { BLOCK_END, MAX_NESTING, TokenCursor } from './cursor';
import type { Expression, FunctionExpression, Statement, TableConstructor, TableField, TypedName } from './syntax';

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

export abstract class ExpressionParser extends TokenCursor {
  /** A block of statements, up to its closing keyword (the statement parser's). */
  protected abstract block(): Statement[];

  protected expressionList(): Expression[] {
    const out = [this.expression()];
    while (this.accept(',')) out.push(this.expression());
    return out;
  }

  protected expression(limit = 0): Expression {
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

  protected simpleExpression(): Expression {
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

  protected primaryExpression(): Expression {
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

  protected suffixedExpression(): Expression {
    const e = this.primaryExpression();
    if (e.kind === 'ErrorExpression') return e;
    const depthBefore = this.depth;
    const out = this.suffixes(e);
    this.depth = depthBefore;
    return out;
  }

  /** The `.name`, `[k]`, `:m(args)` and call suffixes after `e`; each link counts as a nesting level. */
  protected suffixes(e: Expression): Expression {
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
  protected callArguments(): Expression[] | undefined {
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

  protected table(): TableConstructor {
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

  protected tableField(): TableField | undefined {
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
  protected functionBody(start: number): FunctionExpression {
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
