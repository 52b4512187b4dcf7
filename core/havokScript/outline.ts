/**
 * A script's outline: what it defines, as the game's scripts define things (seed 001, the four
 * retail layer scripts):
 *
 * - `hstructure Name … end`: a structure type and its `field : type` lines;
 * - the fields of a top-level `local section_<hash> = { … }` table: `name = function (self,
 *   threadId, scriptId) … end` is a bindable function, `name = hmake <Type> { … }` a script object
 *   whose own `Member = function` fields are its methods;
 * - Lua's `function a.b:c()`, `local function f()` and `name = function` statements (`function O:M()`
 *   on an object `O = hmake …` of the script is one of O's methods).
 *
 * `bindable` marks what a registry's SCRB block can name: the section tables' fields and the
 * top-level functions.
 */
import type { Chunk, Expression, FunctionExpression, Name, Span, Statement, TableConstructor } from './syntax';

export type ScriptSymbolKind = 'function' | 'hmake' | 'method' | 'structure' | 'field' | 'table';

export interface ScriptSymbol extends Span {
  name: string;
  kind: ScriptSymbolKind;
  /** The name's own range (what a go-to-definition lands on). */
  selection: Span;
  /** For functions: `(self, threadId, scriptId)`; for hmake: its type; for fields: their type. */
  detail?: string;
  /** A name a registry's SCRB block can bind. */
  bindable: boolean;
  /** Functions: the parameter names. */
  params?: string[];
  /** The comment lines right above the definition. */
  doc?: string;
  children: ScriptSymbol[];
}

const paramText = (f: FunctionExpression): string =>
  `(${[...f.params.map((p) => (p.type ? `${p.name} : ${p.type.name}` : p.name)), ...(f.vararg ? ['...'] : [])].join(', ')})${f.returnType ? ' : ' + f.returnType.name : ''}`;

/** The outline of a parsed script, in source order. */
export function outline(chunk: Chunk, source: string): ScriptSymbol[] {
  const docAbove = docComments(chunk, source);
  const fn = (name: Name, f: FunctionExpression, span: Span, kind: 'function' | 'method', bindable: boolean): ScriptSymbol => ({
    name: name.name,
    kind,
    start: span.start,
    end: span.end,
    selection: { start: name.start, end: name.end },
    detail: paramText(f),
    params: f.params.map((p) => p.name),
    bindable,
    ...docOf(docAbove, span.start),
    children: [],
  });
  const members = (table: TableConstructor): ScriptSymbol[] =>
    table.fields.flatMap((f): ScriptSymbol[] => {
      if (f.kind !== 'named' || !f.name) return [];
      if (f.value.kind === 'Function') return [fn(f.name, f.value, f, 'method', false)];
      return [{ name: f.name.name, kind: 'field', start: f.start, end: f.end, selection: span(f.name), bindable: false, children: [] }];
    });
  /** A value defined under `name` (a function, an hmake object), else undefined. */
  const defined = (name: Name, value: Expression, at: Span, bindable: boolean): ScriptSymbol | undefined => {
    if (value.kind === 'Function') return fn(name, value, at, 'function', bindable);
    if (value.kind === 'HMake')
      return {
        name: name.name,
        kind: 'hmake',
        start: at.start,
        end: at.end,
        selection: span(name),
        detail: value.type.name,
        bindable,
        ...docOf(docAbove, at.start),
        children: members(value.table),
      };
    return undefined;
  };

  const out: ScriptSymbol[] = [];
  for (const s of chunk.body) {
    const symbols = topLevel(s, defined, fn);
    // `function O:M()` / `function O.M()` on an object this script makes: one of O's methods.
    const object = s.kind === 'FunctionDeclaration' && s.path.length === 2 ? out.find((o) => o.kind === 'hmake' && o.name === s.path[0].name) : undefined;
    if (object) object.children.push(...symbols.map((m) => ({ ...m, bindable: false })));
    else out.push(...symbols);
  }
  return out;
}

const span = (s: Span): Span => ({ start: s.start, end: s.end });

/** Every symbol of an outline, parents before their children. */
export function flattenOutline(symbols: readonly ScriptSymbol[]): ScriptSymbol[] {
  const out: ScriptSymbol[] = [];
  const visit = (list: readonly ScriptSymbol[]): void => {
    for (const s of list) {
      out.push(s);
      visit(s.children);
    }
  };
  visit(symbols);
  return out;
}

function topLevel(
  s: Statement,
  defined: (name: Name, value: Expression, at: Span, bindable: boolean) => ScriptSymbol | undefined,
  fn: (name: Name, f: FunctionExpression, span: Span, kind: 'function' | 'method', bindable: boolean) => ScriptSymbol,
): ScriptSymbol[] {
  switch (s.kind) {
    case 'HStructure':
      return [
        {
          name: s.name.name,
          kind: 'structure',
          start: s.start,
          end: s.end,
          selection: span(s.name),
          bindable: false,
          children: s.fields.map((f) => ({
            name: f.name.name,
            kind: 'field',
            start: f.name.start,
            end: f.type.end,
            selection: span(f.name),
            detail: f.type.name,
            bindable: false,
            children: [],
          })),
        },
      ];
    case 'Local': {
      const out: ScriptSymbol[] = [];
      s.names.forEach((name, i) => {
        const v = s.values[i];
        if (!v) return;
        if (v.kind === 'Table') {
          // A section table: its fields are the part's bindable definitions.
          const children = v.fields.flatMap((f) => (f.kind === 'named' && f.name ? (defined(f.name, f.value, f, true) ?? []) : []));
          out.push({ name: name.name, kind: 'table', start: s.start, end: s.end, selection: span(name), bindable: false, children });
        } else {
          const d = defined(name, v, s, false);
          if (d) out.push(d);
        }
      });
      return out;
    }
    case 'LocalFunction':
      return [fn(s.name, s.func, s, 'function', false)];
    case 'FunctionDeclaration': {
      const last = s.path[s.path.length - 1];
      const sym = fn(last, s.func, s, s.path.length > 1 ? 'method' : 'function', s.path.length === 1);
      if (s.path.length > 1) sym.detail = `${s.path.map((n) => n.name).join('.')}${sym.detail}`;
      return [sym];
    }
    case 'Assignment': {
      const out: ScriptSymbol[] = [];
      s.targets.forEach((t, i) => {
        const v = s.values[i];
        if (t.kind === 'Name' && v) {
          const d = defined(t, v, s, true);
          if (d) out.push(d);
        }
      });
      return out;
    }
    default:
      return [];
  }
}

/** Line starts found once; `of(offset)` is the start of the line holding it (a binary search). */
function lineStarts(source: string): (offset: number) => number {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return starts[lo];
  };
}

/**
 * The doc comment of each line that holds code: the run of comment lines right above it, by that
 * line's start offset. Runs are kept as ranges of one list of comment texts and joined when a
 * definition asks (once per run), so a run of 20,000 comment lines costs its text once, not once
 * per line; line starts come from one table, so comments or definitions crowded on one long line
 * cost no rescans of it.
 */
function docComments(chunk: Chunk, source: string): (start: number) => string | undefined {
  const lineOf = lineStarts(source);
  const texts: string[] = [];
  const runAbove = new Map<number, { first: number; end: number }>();
  const joined = new Map<number, string>();
  let runFirst = 0;
  let runEnd = -1;
  let prevEnd = -1;
  for (const c of chunk.comments) {
    const lineStart = lineOf(c.start);
    // Only comments alone on their lines count as documentation: one ending on this line before it,
    // or code, makes it not alone (so a line is scanned once, by its first comment).
    const alone = prevEnd <= lineStart && source.slice(lineStart, c.start).trim() === '';
    prevEnd = c.end;
    if (!alone) continue;
    const gap = runEnd >= 0 ? source.slice(runEnd, lineStart) : '';
    const contiguous = runEnd >= 0 && gap.trim() === '' && gap.split('\n').length <= 2;
    if (!contiguous) runFirst = texts.length;
    texts.push(c.text.trim());
    runEnd = c.end;
    const next = source.indexOf('\n', c.end);
    if (next >= 0) runAbove.set(next + 1, { first: runFirst, end: texts.length });
  }
  return (start) => {
    const lineStart = lineOf(start);
    const run = runAbove.get(lineStart);
    if (!run) return undefined;
    let text = joined.get(lineStart);
    if (text === undefined) joined.set(lineStart, (text = texts.slice(run.first, run.end).join('\n')));
    return text;
  };
}

/** The doc comment of the definition starting at `start` (on its line: `,\tName = …` counts too). */
function docOf(docAbove: (start: number) => string | undefined, start: number): { doc?: string } {
  const text = docAbove(start);
  return text === undefined ? {} : { doc: text };
}
