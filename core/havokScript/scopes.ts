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

/** Resolve the names of a parsed script. Linear in the tree's size; no recursion however deep the tree nests. */
export function resolveNames(chunk: Chunk): ScriptNames {
  const r = new Resolver(globalObjects(chunk));
  r.block(chunk.body);
  r.run();
  r.names.sort((a, b) => a.start - b.start);
  r.members.sort((a, b) => a.start - b.start);
  return { names: r.names, members: r.members };
}

const withOwner = (owner: number | undefined): { owner?: number } => (owner === undefined ? {} : { owner });

type Step = () => void;

/**
 * One walk over a chunk: the scopes in force, the objects whose methods enclose the walk, what it
 * found. The walk keeps its own stack of steps (a thousand nested functions, the parser's cap,
 * would overflow the call stack as recursion): a handler never visits a child itself, it schedules
 * the child's visit with `then`, in source order.
 */
class Resolver {
  readonly names: NameUse[] = [];
  readonly members: MemberUse[] = [];
  private readonly scopes: Scope[] = [new Map()];
  /** The objects whose methods enclose the walk (innermost last). */
  private readonly objects: HMakeExpression[] = [];
  /** Steps still to run, the next one last. */
  private readonly todo: Step[] = [];

  constructor(private readonly globals: Map<string, number>) {}

  /**
   * Run `steps` in order, after the current step and before anything scheduled earlier (a
   * depth-first walk's order). An array, not arguments: a body of a million statements is no
   * argument list.
   */
  private then(steps: readonly Step[]): void {
    for (let i = steps.length - 1; i >= 0; i--) this.todo.push(steps[i]);
  }

  /** Run every scheduled step. */
  run(): void {
    for (let step = this.todo.pop(); step; step = this.todo.pop()) step();
  }

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
    while (v?.kind === 'Paren') v = v.expression;
    if (!v) return undefined;
    if (v.kind === 'Name') return this.ownerOfName(v.name);
    if (v.kind !== 'HMake') return undefined;
    const enclosing = this.objects[this.objects.length - 1];
    return enclosing && v.type.name === instanceType(enclosing.type.name) ? enclosing.start : v.start;
  }

  /** The steps that visit `e`. */
  private visit(e: Expression, call = false): Step {
    return () => this.expr(e, call);
  }

  /** `body` run in a scope of its own. */
  private inScope(...body: Step[]): void {
    this.then([() => this.scopes.push(new Map()), ...body, () => this.scopes.pop()]);
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
    const steps: Step[] = [];
    for (const f of e.table.fields) {
      if (f.key) steps.push(this.visit(f.key));
      const value = f.value;
      if (f.kind === 'named' && value.kind === 'Function')
        steps.push(
          () => this.objects.push(e),
          () => this.fn(value, false, e.start),
          () => this.objects.pop(),
        );
      else steps.push(this.visit(value));
    }
    this.then(steps);
  }

  private expr(e: Expression, call = false): void {
    switch (e.kind) {
      case 'Name':
        return this.use(e, 'read');
      case 'Member': {
        const object = e.object.kind === 'Name' ? e.object.name : undefined;
        return this.then([
          this.visit(e.object),
          () => this.member(e.member, e.indexer, object, call, object === undefined ? undefined : this.ownerOfName(object)),
        ]);
      }
      case 'Index':
        return this.then([this.visit(e.object), this.visit(e.index)]);
      case 'Call':
        return this.then([this.visit(e.callee, true), ...e.args.map((a) => this.visit(a))]);
      case 'Binary':
        return this.then([this.visit(e.left), this.visit(e.right)]);
      case 'Unary':
        return this.then([this.visit(e.argument)]);
      case 'Paren':
        return this.then([this.visit(e.expression)]);
      case 'Function':
        return this.fn(e, false);
      case 'Table':
        return this.then(e.fields.flatMap((f) => (f.key ? [this.visit(f.key), this.visit(f.value)] : [this.visit(f.value)])));
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
      case 'Local':
        return this.then([
          ...s.values.map((v) => this.visit(v)),
          () => {
            const owners = s.names.map((_, i) => this.ownerOfValue(s.values[i]));
            s.names.forEach((n, i) => this.declare(n, owners[i]));
          },
        ]);
      case 'LocalFunction':
        this.declare(s.name);
        return this.fn(s.func, false);
      case 'FunctionDeclaration':
        return this.functionDeclaration(s);
      case 'Assignment':
        return this.then([
          ...s.values.map((v) => this.visit(v)),
          ...s.targets.map((t): Step => (t.kind === 'Name' ? () => this.use(t, 'write') : this.visit(t))),
        ]);
      case 'CallStatement':
        return this.then([this.visit(s.call)]);
      case 'Do':
        return this.inScope(() => this.block(s.body));
      case 'While':
        return this.then([this.visit(s.condition), () => this.inScope(() => this.block(s.body))]);
      case 'Repeat':
        return this.inScope(() => this.block(s.body), this.visit(s.condition));
      case 'If':
        return this.then(s.clauses.flatMap((c) => [...(c.condition ? [this.visit(c.condition)] : []), () => this.inScope(() => this.block(c.body))]));
      case 'NumericFor':
        return this.then([
          this.visit(s.from),
          this.visit(s.limit),
          ...(s.step ? [this.visit(s.step)] : []),
          () =>
            this.inScope(() => {
              this.declare(s.variable);
              this.block(s.body);
            }),
        ]);
      case 'GenericFor':
        return this.then([
          ...s.iterators.map((i) => this.visit(i)),
          () =>
            this.inScope(() => {
              for (const v of s.variables) this.declare(v);
              this.block(s.body);
            }),
        ]);
      case 'Return':
        return this.then(s.values.map((v) => this.visit(v)));
      default:
        return;
    }
  }

  /** Schedule the statements of `body`, in order. */
  block(body: Statement[]): void {
    this.then(
      body.map(
        (s): Step =>
          () =>
            this.statement(s),
      ),
    );
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
