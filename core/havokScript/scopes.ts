/**
 * Names resolved by Lua's scoping rules: every name in a script is a local's declaration, a use of
 * a local (with the place it was declared) or a global; every `a.b` / `a:b` is a member use. What
 * the language server's definition, references, hover and the engine-API usage index stand on.
 *
 * Lua 5.1's rules: a `local` is visible from the statement after it (its own initialisers still see
 * the outer name), `local function f` sees itself, parameters and loop variables belong to their
 * body, `repeat … until c` lets `c` see the body's locals.
 */
import type { Chunk, Expression, FunctionExpression, Name, Span, Statement } from './syntax';

export interface NameUse extends Span {
  name: string;
  role: 'declaration' | 'read' | 'write';
  scope: 'local' | 'global';
  /** A local's use: where the local was declared (its name's range). */
  declaration?: Span;
}

export interface MemberUse extends Span {
  /** The member's name; `start`/`end` are its own range. */
  member: string;
  indexer: '.' | ':';
  /** The object when it is a plain name (`System` in `System:LoadWorld`). */
  object?: string;
  /** Whether that name is a global (an engine class or table), not a local. */
  objectIsGlobal: boolean;
  /** Whether the member is called (`a:b()`, `a.b()`). */
  call: boolean;
}

export interface ScriptNames {
  /** Every name use, in source order. */
  names: NameUse[];
  /** Every member use, in source order. */
  members: MemberUse[];
}

type Scope = Map<string, Span>;

/** Resolve the names of a parsed script. Linear in the tree's size. */
export function resolveNames(chunk: Chunk): ScriptNames {
  const names: NameUse[] = [];
  const members: MemberUse[] = [];
  const scopes: Scope[] = [new Map()];

  const lookup = (name: string): Span | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const d = scopes[i].get(name);
      if (d) return d;
    }
    return undefined;
  };
  const declare = (n: Name): void => {
    if (!n.name) return;
    scopes[scopes.length - 1].set(n.name, { start: n.start, end: n.end });
    names.push({ name: n.name, start: n.start, end: n.end, role: 'declaration', scope: 'local', declaration: { start: n.start, end: n.end } });
  };
  const use = (n: Name, role: 'read' | 'write'): void => {
    if (!n.name) return;
    const d = lookup(n.name);
    names.push(
      d
        ? { name: n.name, start: n.start, end: n.end, role, scope: 'local', declaration: d }
        : { name: n.name, start: n.start, end: n.end, role, scope: 'global' },
    );
  };
  const inScope = (f: () => void): void => {
    scopes.push(new Map());
    f();
    scopes.pop();
  };

  const fn = (f: FunctionExpression, self: boolean): void =>
    inScope(() => {
      if (self) scopes[scopes.length - 1].set('self', { start: f.start, end: f.start });
      for (const p of f.params) declare(p);
      block(f.body);
    });

  const expr = (e: Expression, call = false): void => {
    switch (e.kind) {
      case 'Name':
        use(e, 'read');
        return;
      case 'Member': {
        expr(e.object);
        const object = e.object.kind === 'Name' ? e.object.name : undefined;
        members.push({
          member: e.member.name,
          start: e.member.start,
          end: e.member.end,
          indexer: e.indexer,
          ...(object !== undefined ? { object } : {}),
          objectIsGlobal: object !== undefined && lookup(object) === undefined,
          call,
        });
        return;
      }
      case 'Index':
        expr(e.object);
        expr(e.index);
        return;
      case 'Call':
        expr(e.callee, true);
        for (const a of e.args) expr(a);
        return;
      case 'Binary':
        expr(e.left);
        expr(e.right);
        return;
      case 'Unary':
        expr(e.argument);
        return;
      case 'Paren':
        expr(e.expression);
        return;
      case 'Function':
        fn(e, false);
        return;
      case 'Table':
        for (const f of e.fields) {
          if (f.key) expr(f.key);
          expr(f.value);
        }
        return;
      case 'HMake':
        expr(e.table);
        return;
      default:
        return;
    }
  };

  const target = (t: Expression): void => {
    if (t.kind === 'Name') use(t, 'write');
    else expr(t);
  };

  const statement = (s: Statement): void => {
    switch (s.kind) {
      case 'Local':
        for (const v of s.values) expr(v);
        for (const n of s.names) declare(n);
        return;
      case 'LocalFunction':
        declare(s.name);
        fn(s.func, false);
        return;
      case 'FunctionDeclaration': {
        const [first, ...rest] = s.path;
        if (rest.length === 0) use(first, 'write');
        else use(first, 'read');
        let object = first.name;
        for (const m of rest) {
          members.push({ member: m.name, start: m.start, end: m.end, indexer: '.', object, objectIsGlobal: lookup(object) === undefined, call: false });
          object = m.name;
        }
        fn(s.func, s.method);
        return;
      }
      case 'Assignment':
        for (const v of s.values) expr(v);
        for (const t of s.targets) target(t);
        return;
      case 'CallStatement':
        expr(s.call);
        return;
      case 'Do':
        inScope(() => block(s.body));
        return;
      case 'While':
        expr(s.condition);
        inScope(() => block(s.body));
        return;
      case 'Repeat':
        inScope(() => {
          block(s.body);
          expr(s.condition);
        });
        return;
      case 'If':
        for (const c of s.clauses) {
          if (c.condition) expr(c.condition);
          inScope(() => block(c.body));
        }
        return;
      case 'NumericFor':
        expr(s.from);
        expr(s.limit);
        if (s.step) expr(s.step);
        inScope(() => {
          declare(s.variable);
          block(s.body);
        });
        return;
      case 'GenericFor':
        for (const i of s.iterators) expr(i);
        inScope(() => {
          for (const v of s.variables) declare(v);
          block(s.body);
        });
        return;
      case 'Return':
        for (const v of s.values) expr(v);
        return;
      default:
        return;
    }
  };
  const block = (body: Statement[]): void => {
    for (const s of body) statement(s);
  };

  block(chunk.body);
  names.sort((a, b) => a.start - b.start);
  members.sort((a, b) => a.start - b.start);
  return { names, members };
}

/** The use whose range holds `offset` (its end included, where an editor's cursor stands after a word). */
export function useAt<T extends Span>(uses: readonly T[], offset: number): T | undefined {
  let lo = 0;
  let hi = uses.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = uses[mid];
    if (offset < u.start) hi = mid - 1;
    else if (offset > u.end) lo = mid + 1;
    else return u;
  }
  return undefined;
}
