/**
 * Names resolved by Lua's scoping rules: every name in a script is a local's declaration, a use of
 * a local (with the place it was declared) or a global; every `a.b` / `a:b` is a member use. What
 * the language server's definition, references, hover and the engine-API usage index stand on.
 *
 * Lua 5.1's rules: a `local` is visible from the statement after it (its own initialisers still see
 * the outer name), `local function f` sees itself, parameters and loop variables belong to their
 * body, `repeat … until c` lets `c` see the body's locals.
 *
 * Which `hmake` object a name stands for (`owner`), as the retail scripts' objects use it: in a
 * function that is a field of an `hmake T_meta { … }` table (a method), the first parameter
 * (`self`, or `parent` in `__constructor`) is that object; in `__constructor`, `local self = hmake
 * T_inst {}` is its instance (the metatable makes the object's methods its own); a local
 * initialised with a name that stands for an object stands for it too; `function O:M()` binds
 * `self` to `O`, and a global assigned `hmake …` at the top level stands for that object. Nothing
 * else is guessed: a name bound some other way has no owner.
 */
import type { Chunk, Expression, FunctionExpression, HMakeExpression, Name, Span, Statement } from './syntax';

export interface NameUse extends Span {
  name: string;
  role: 'declaration' | 'read' | 'write';
  scope: 'local' | 'global';
  /** A local's use: where the local was declared (its name's range). */
  declaration?: Span;
  /** The `hmake` object the name stands for: the start of its `hmake` expression (see the top comment). */
  owner?: number;
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
  /** The `hmake` object the object name stands for (its `hmake` expression's start), when it is known. */
  owner?: number;
}

export interface ScriptNames {
  /** Every name use, in source order. */
  names: NameUse[];
  /** Every member use, in source order. */
  members: MemberUse[];
}

interface Declared extends Span {
  owner?: number;
}
type Scope = Map<string, Declared>;

/** The instance structure of an object's `T_meta` type (`T_inst`, as the retail scripts name them). */
const instanceType = (metaType: string): string | undefined => (metaType.endsWith('_meta') ? metaType.slice(0, -5) + '_inst' : undefined);

/** Globals assigned an `hmake` object at the top level (`O = hmake T { … }`), by name. */
function globalObjects(chunk: Chunk): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of chunk.body) {
    if (s.kind !== 'Assignment') continue;
    s.targets.forEach((t, i) => {
      const v = s.values[i];
      if (t.kind === 'Name' && v?.kind === 'HMake' && !out.has(t.name)) out.set(t.name, v.start);
    });
  }
  return out;
}

/** Resolve the names of a parsed script. Linear in the tree's size. */
export function resolveNames(chunk: Chunk): ScriptNames {
  const names: NameUse[] = [];
  const members: MemberUse[] = [];
  const scopes: Scope[] = [new Map()];
  const globals = globalObjects(chunk);
  /** The objects whose methods enclose the walk (innermost last). */
  const objects: HMakeExpression[] = [];

  const lookup = (name: string): Declared | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const d = scopes[i].get(name);
      if (d) return d;
    }
    return undefined;
  };
  const ownerOfName = (name: string): number | undefined => {
    const d = lookup(name);
    return d ? d.owner : globals.get(name);
  };
  const withOwner = (owner: number | undefined): { owner?: number } => (owner === undefined ? {} : { owner });
  const declare = (n: Name, owner?: number): void => {
    if (!n.name) return;
    scopes[scopes.length - 1].set(n.name, { start: n.start, end: n.end, ...withOwner(owner) });
    names.push({
      name: n.name,
      start: n.start,
      end: n.end,
      role: 'declaration',
      scope: 'local',
      declaration: { start: n.start, end: n.end },
      ...withOwner(owner),
    });
  };
  const use = (n: Name, role: 'read' | 'write'): void => {
    if (!n.name) return;
    const d = lookup(n.name);
    names.push(
      d
        ? { name: n.name, start: n.start, end: n.end, role, scope: 'local', declaration: { start: d.start, end: d.end }, ...withOwner(d.owner) }
        : { name: n.name, start: n.start, end: n.end, role, scope: 'global', ...withOwner(globals.get(n.name)) },
    );
  };
  /** The object a local's initial value stands for (see the top comment). */
  const ownerOfValue = (v: Expression | undefined): number | undefined => {
    if (!v) return undefined;
    if (v.kind === 'Paren') return ownerOfValue(v.expression);
    if (v.kind === 'Name') return ownerOfName(v.name);
    if (v.kind !== 'HMake') return undefined;
    const enclosing = objects[objects.length - 1];
    return enclosing && v.type.name === instanceType(enclosing.type.name) ? enclosing.start : v.start;
  };
  const inScope = (f: () => void): void => {
    scopes.push(new Map());
    f();
    scopes.pop();
  };

  /** A function's scope; `self` is its implicit `self` (a `:` method) and `owner` what its first parameter (or that `self`) stands for. */
  const fn = (f: FunctionExpression, self: boolean, owner?: number): void =>
    inScope(() => {
      if (self) scopes[scopes.length - 1].set('self', { start: f.start, end: f.start, ...withOwner(owner) });
      f.params.forEach((p, i) => declare(p, i === 0 && !self ? owner : undefined));
      block(f.body);
    });
  /** An `hmake` table: its function fields are the object's methods. */
  const hmake = (e: HMakeExpression): void => {
    for (const f of e.table.fields) {
      if (f.key) expr(f.key);
      if (f.kind === 'named' && f.value.kind === 'Function') {
        objects.push(e);
        fn(f.value, false, e.start);
        objects.pop();
      } else expr(f.value);
    }
  };

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
          ...withOwner(object === undefined ? undefined : ownerOfName(object)),
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
        hmake(e);
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
      case 'Local': {
        for (const v of s.values) expr(v);
        const owners = s.names.map((_, i) => ownerOfValue(s.values[i]));
        s.names.forEach((n, i) => declare(n, owners[i]));
        return;
      }
      case 'LocalFunction':
        declare(s.name);
        fn(s.func, false);
        return;
      case 'FunctionDeclaration': {
        const [first, ...rest] = s.path;
        if (rest.length === 0) use(first, 'write');
        else use(first, 'read');
        let object = first.name;
        for (const [i, m] of rest.entries()) {
          const owner = i === 0 ? ownerOfName(object) : undefined;
          members.push({
            member: m.name,
            start: m.start,
            end: m.end,
            indexer: '.',
            object,
            objectIsGlobal: lookup(object) === undefined,
            call: false,
            ...withOwner(owner),
          });
          object = m.name;
        }
        // `function O:M()` on an object: its `self` is that object.
        fn(s.func, s.method, s.method && rest.length === 1 ? ownerOfName(first.name) : undefined);
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
