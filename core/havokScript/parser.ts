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
import { ExpressionParser } from './expressions';
import { BLOCK_END, MAX_NESTING } from './cursor';
import type { Chunk, Expression, IfClause, Name, Statement, TypeAnnotation } from './syntax';

export { MAX_NESTING } from './cursor';

/** Parse a whole script. */
export function parseHavokScript(source: string): Chunk {
  return new Parser(source).chunk();
}

/** Blocks and statements, `hstructure` among them; expressions come from ./expressions.ts, tokens from ./cursor.ts. */
class Parser extends ExpressionParser {
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

  // Blocks and statements

  protected block(): Statement[] {
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
}
