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
  const r = new Resolver(globalObjects(chunk));
  r.block(chunk.body);
  r.names.sort((a, b) => a.start - b.start);
  r.members.sort((a, b) => a.start - b.start);
  return { names: r.names, members: r.members };
}

const withOwner = (owner: number | undefined): { owner?: number } => (owner === undefined ? {} : { owner });

/** One walk over a chunk: the scopes in force, the objects whose methods enclose the walk, what it found. */
class Resolver {
  readonly names: NameUse[] = [];
  readonly members: MemberUse[] = [];
  private readonly scopes: Scope[] = [new Map()];
  /** The objects whose methods enclose the walk (innermost last). */
  private readonly objects: HMakeExpression[] = [];

  constructor(private readonly globals: Map<string, number>) {}

  private lookup(name: string): Declared | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const d = this.scopes[i].get(name);
      if (d) return d;
    }
    return undefined;
  }

  private ownerOfName(name: string): number | undefined {
    const d = this.lookup(name);
    return d ? d.owner : this.globals.get(name);
  }

  private declare(n: Name, owner?: number): void {
    if (!n.name) return;
    this.scopes[this.scopes.length - 1].set(n.name, { start: n.start, end: n.end, ...withOwner(owner) });
    this.names.push({
      name: n.name,
      start: n.start,
      end: n.end,
      role: 'declaration',
      scope: 'local',
      declaration: { start: n.start, end: n.end },
      ...withOwner(owner),
    });
  }

  private use(n: Name, role: 'read' | 'write'): void {
    if (!n.name) return;
    const d = this.lookup(n.name);
    this.names.push(
      d
        ? { name: n.name, start: n.start, end: n.end, role, scope: 'local', declaration: { start: d.start, end: d.end }, ...withOwner(d.owner) }
        : { name: n.name, start: n.start, end: n.end, role, scope: 'global', ...withOwner(this.globals.get(n.name)) },
    );
  }

  private member(m: Name, indexer: '.' | ':', object: string | undefined, call: boolean, owner: number | undefined): void {
    this.members.push({
      member: m.name,
      start: m.start,
      end: m.end,
      indexer,
      ...(object !== undefined ? { object } : {}),
      objectIsGlobal: object !== undefined && this.lookup(object) === undefined,
      call,
      ...withOwner(owner),
    });
  }

  /** The object a local's initial value stands for (see the top comment). */
  private ownerOfValue(v: Expression | undefined): number | undefined {
    if (!v) return undefined;
    if (v.kind === 'Paren') return this.ownerOfValue(v.expression);
    if (v.kind === 'Name') return this.ownerOfName(v.name);
    if (v.kind !== 'HMake') return undefined;
    const enclosing = this.objects[this.objects.length - 1];
    return enclosing && v.type.name === instanceType(enclosing.type.name) ? enclosing.start : v.start;
  }

  private inScope(f: () => void): void {
    this.scopes.push(new Map());
    f();
    this.scopes.pop();
  }

  /** A function's scope; `self` is its implicit `self` (a `:` method) and `owner` what its first parameter (or that `self`) stands for. */
  private fn(f: FunctionExpression, self: boolean, owner?: number): void {
    this.inScope(() => {
      if (self) this.scopes[this.scopes.length - 1].set('self', { start: f.start, end: f.start, ...withOwner(owner) });
      f.params.forEach((p, i) => this.declare(p, i === 0 && !self ? owner : undefined));
      this.block(f.body);
    });
  }

  /** An `hmake` table: its function fields are the object's methods. */
  private hmake(e: HMakeExpression): void {
    for (const f of e.table.fields) {
      if (f.key) this.expr(f.key);
      if (f.kind === 'named' && f.value.kind === 'Function') {
        this.objects.push(e);
        this.fn(f.value, false, e.start);
        this.objects.pop();
      } else this.expr(f.value);
    }
  }

  private expr(e: Expression, call = false): void {
    switch (e.kind) {
      case 'Name':
        return this.use(e, 'read');
      case 'Member': {
        this.expr(e.object);
        const object = e.object.kind === 'Name' ? e.object.name : undefined;
        return this.member(e.member, e.indexer, object, call, object === undefined ? undefined : this.ownerOfName(object));
      }
      case 'Index':
        this.expr(e.object);
        return this.expr(e.index);
      case 'Call':
        this.expr(e.callee, true);
        for (const a of e.args) this.expr(a);
        return;
      case 'Binary':
        this.expr(e.left);
        return this.expr(e.right);
      case 'Unary':
        return this.expr(e.argument);
      case 'Paren':
        return this.expr(e.expression);
      case 'Function':
        return this.fn(e, false);
      case 'Table':
        for (const f of e.fields) {
          if (f.key) this.expr(f.key);
          this.expr(f.value);
        }
        return;
      case 'HMake':
        return this.hmake(e);
      default:
        return;
    }
  }

  /** `function a.b:c()`: `a` used, each later name a member of the one before; `function O:M()` binds its `self` to O. */
  private functionDeclaration(s: Extract<Statement, { kind: 'FunctionDeclaration' }>): void {
    const [first, ...rest] = s.path;
    this.use(first, rest.length === 0 ? 'write' : 'read');
    let object = first.name;
    for (const [i, m] of rest.entries()) {
      this.member(m, '.', object, false, i === 0 ? this.ownerOfName(object) : undefined);
      object = m.name;
    }
    this.fn(s.func, s.method, s.method && rest.length === 1 ? this.ownerOfName(first.name) : undefined);
  }

  private statement(s: Statement): void {
    switch (s.kind) {
      case 'Local': {
        for (const v of s.values) this.expr(v);
        const owners = s.names.map((_, i) => this.ownerOfValue(s.values[i]));
        s.names.forEach((n, i) => this.declare(n, owners[i]));
        return;
      }
      case 'LocalFunction':
        this.declare(s.name);
        return this.fn(s.func, false);
      case 'FunctionDeclaration':
        return this.functionDeclaration(s);
      case 'Assignment':
        for (const v of s.values) this.expr(v);
        for (const t of s.targets) {
          if (t.kind === 'Name') this.use(t, 'write');
          else this.expr(t);
        }
        return;
      case 'CallStatement':
        return this.expr(s.call);
      case 'Do':
        return this.inScope(() => this.block(s.body));
      case 'While':
        this.expr(s.condition);
        return this.inScope(() => this.block(s.body));
      case 'Repeat':
        return this.inScope(() => {
          this.block(s.body);
          this.expr(s.condition);
        });
      case 'If':
        for (const c of s.clauses) {
          if (c.condition) this.expr(c.condition);
          this.inScope(() => this.block(c.body));
        }
        return;
      case 'NumericFor':
        this.expr(s.from);
        this.expr(s.limit);
        if (s.step) this.expr(s.step);
        return this.inScope(() => {
          this.declare(s.variable);
          this.block(s.body);
        });
      case 'GenericFor':
        for (const i of s.iterators) this.expr(i);
        return this.inScope(() => {
          for (const v of s.variables) this.declare(v);
          this.block(s.body);
        });
      case 'Return':
        for (const v of s.values) this.expr(v);
        return;
      default:
        return;
    }
  }

  block(body: Statement[]): void {
    for (const s of body) this.statement(s);
  }
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
