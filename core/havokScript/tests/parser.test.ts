// The Havok Script parser: the four real layer scripts of Patch_00.arch06 parse without a single
// diagnostic and yield every hstructure, hmake object and bound function; plain Lua 5.1 parses
// with the right precedence and exact ranges; Havok's additions (hstructure, hmake, `: type`,
// hash literals) have their own nodes; broken input ends in diagnostics, never an exception, and
// the rest of the file is still read.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readBundleMember, resolveBundle } from '../../archive/bundles';
import { parseScript } from '../../formats/script/scri';
import { prng } from '../../../test/support/fixtures';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { MAX_NESTING, parseHavokScript } from '../parser';
import { tokenize } from '../lexer';
import { resolveNames } from '../scopes';
import { outline } from '../outline';
import type { Chunk, Expression, FunctionExpression, Statement, TableConstructor } from '../syntax';

/** Every node below `node`, depth first (statements, expressions, table fields, clauses). */
function* walk(node: unknown): Generator<{ kind?: string; start: number; end: number } & Record<string, unknown>> {
  if (Array.isArray(node)) {
    for (const n of node) yield* walk(n);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const n = node as { kind?: string; start: number; end: number } & Record<string, unknown>;
  if (typeof n.start === 'number') yield n;
  for (const [k, v] of Object.entries(n)) if (k !== 'comments' && k !== 'diagnostics' && typeof v === 'object') yield* walk(v);
}

const only = <T extends Statement['kind']>(c: Chunk, kind: T): Extract<Statement, { kind: T }> => {
  assert.deepEqual(c.diagnostics, []);
  assert.equal(c.body.length, 1);
  assert.equal(c.body[0].kind, kind);
  return c.body[0] as Extract<Statement, { kind: T }>;
};
const valueOf = (src: string): Expression => only(parseHavokScript(`x = ${src}`), 'Assignment').values[0];
/** A compact Lisp-like print of an expression, to check precedence. */
function shape(e: Expression): string {
  switch (e.kind) {
    case 'Binary':
      return `(${e.operator} ${shape(e.left)} ${shape(e.right)})`;
    case 'Unary':
      return `(${e.operator} ${shape(e.argument)})`;
    case 'Name':
      return e.name;
    case 'Number':
      return e.raw;
    case 'Paren':
      return shape(e.expression);
    default:
      return e.kind;
  }
}

test('real layer scripts: no diagnostic; every hstructure, hmake object and top-level binding found', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  try {
    for (const layer of REAL_LAYER_NAMES) {
      const p = `${realLayerStem(layer)}.scripts`;
      const script = parseScript(readBundleMember(m, resolveBundle(m, `${realLayerStem(layer)}.bndl`), p), p);
      assert.equal(script.kind, 'source', layer);
      const source = script.source!;
      const chunk = parseHavokScript(source);
      assert.deepEqual(chunk.diagnostics, [], `${layer}: ${JSON.stringify(chunk.diagnostics.slice(0, 3))}`);

      const nodes = [...walk(chunk.body)];
      const structures = nodes.filter((n) => n.kind === 'HStructure');
      assert.equal(structures.length, (source.match(/^hstructure /gm) ?? []).length, `${layer}: hstructures`);
      const hmakes = nodes.filter((n) => n.kind === 'HMake');
      assert.equal(hmakes.length, (source.match(/\bhmake\b/g) ?? []).length, `${layer}: every hmake`);
      // The bindings: the fields of the top-level `local section_… = { … }` tables, each a
      // function or an hmake object, as the layout's column-0 `name = function` / `name = hmake` lines show them.
      const sections = chunk.body.filter((s) => s.kind === 'Local' && s.values[0]?.kind === 'Table');
      assert.ok(sections.length > 0, `${layer}: a section table`);
      const fields = sections.flatMap((s) => ((s as Extract<Statement, { kind: 'Local' }>).values[0] as TableConstructor).fields);
      const listed = [...source.matchAll(/^([A-Za-z_]\w*) = (function|hmake)\b/gm)].map((x) => `${x[1]}:${x[2]}`);
      assert.deepEqual(
        fields.map((f) => `${f.name?.name}:${f.value.kind === 'Function' ? 'function' : f.value.kind === 'HMake' ? 'hmake' : f.value.kind}`),
        listed,
        layer,
      );
      // Ranges: each field's name is exactly its text in the source.
      for (const f of fields) assert.equal(source.slice(f.name!.start, f.name!.end), f.name!.name);
    }
  } finally {
    m.close();
  }
});

test('plain Lua 5.1: every statement form parses without diagnostics', () => {
  const src = [
    'local a, b = 1, 2',
    'local function f(x, y, ...) return x + y, ... end',
    'function t.a.b:c(p) self.v = p end',
    'function g() end',
    'a.b[c], d = 1, 2',
    'print("x"); print "y"; print { 1, 2 }; obj:method "s"',
    'do local z = 3 end',
    'while a < 10 do a = a + 1 if a == 5 then break end end',
    'repeat a = a - 1 until a <= 0',
    'if a then b = 1 elseif c then b = 2 else b = 3 end',
    'for i = 1, 10, 2 do end',
    'for k, v in pairs(t) do end',
    'local s = [[long\nstring]] .. [==[with ]] inside]==] .. "esc\\"aped\\n\\65" .. \'single\'',
    '--[[ a long\ncomment ]] local n = 0x1F + 3.5e-2 + .5 + 1e10',
    'local t2 = { [1] = "one", two = 2, "three"; 4, }',
    'local v = #t2 + -a ^ 2',
    'return',
  ].join('\n');
  const c = parseHavokScript(src);
  assert.deepEqual(c.diagnostics, []);
  assert.deepEqual(
    c.body.map((s) => s.kind),
    [
      'Local',
      'LocalFunction',
      'FunctionDeclaration',
      'FunctionDeclaration',
      'Assignment',
      'CallStatement',
      'CallStatement',
      'CallStatement',
      'CallStatement',
      'Do',
      'While',
      'Repeat',
      'If',
      'NumericFor',
      'GenericFor',
      'Local',
      'Local',
      'Local',
      'Local',
      'Return',
    ],
  );
  assert.equal(c.comments.length, 1);
  assert.equal(c.comments[0].text, ' a long\ncomment ');
  const method = c.body[2] as Extract<Statement, { kind: 'FunctionDeclaration' }>;
  assert.deepEqual(
    method.path.map((n) => n.name),
    ['t', 'a', 'b', 'c'],
  );
  assert.equal(method.method, true);
  const strings = [...walk(c.body[15])].filter((n) => n.kind === 'String').map((n) => n.value);
  assert.deepEqual(strings, ['long\nstring', 'with ]] inside', 'esc"aped\nA', 'single']);
  const numbers = [...walk(c.body[16])].filter((n) => n.kind === 'Number').map((n) => n.value);
  assert.deepEqual(numbers, [31, 0.035, 0.5, 1e10]);
});

test('operator precedence and associativity are Lua 5.1s', () => {
  assert.equal(shape(valueOf('1 + 2 * 3 ^ 2 ^ 3')), '(+ 1 (* 2 (^ 3 (^ 2 3))))');
  assert.equal(shape(valueOf('a .. b .. c')), '(.. a (.. b c))');
  assert.equal(shape(valueOf('not a == b')), '(== (not a) b)');
  assert.equal(shape(valueOf('-x ^ 2')), '(- (^ x 2))');
  assert.equal(shape(valueOf('a or b and c < d')), '(or a (and b (< c d)))');
  assert.equal(shape(valueOf('a - b - c')), '(- (- a b) c)');
  assert.equal(shape(valueOf('(a + b) * c')), '(* (+ a b) c)');
});

test('Havok additions: hstructure, hmake, : type annotations, hash literals', () => {
  const h = only(parseHavokScript('hstructure T_meta\n\t__index : T_meta\n\tInit : ifunction\n\tpos : math.Vector\nend'), 'HStructure');
  assert.equal(h.name.name, 'T_meta');
  assert.deepEqual(
    h.fields.map((f) => `${f.name.name}:${f.type.name}`),
    ['__index:T_meta', 'Init:ifunction', 'pos:math.Vector'],
  );

  const made = valueOf('hmake T_meta { Init = function ( self ) end, x = 1 }');
  assert.equal(made.kind, 'HMake');
  if (made.kind !== 'HMake') return;
  assert.equal(made.type.name, 'T_meta');
  assert.deepEqual(
    made.table.fields.map((f) => f.name?.name),
    ['Init', 'x'],
  );
  // Leading commas, as the game's scripts write their hmake members.
  const lead = valueOf('hmake M {\n\tA = function () end\n,\tB = function () end\n}');
  assert.equal(lead.kind === 'HMake' && lead.table.fields.length, 2);

  const local = only(parseHavokScript('local n : number, s : string = 1, "a"'), 'Local');
  assert.deepEqual(
    local.names.map((n) => `${n.name}:${n.type?.name}`),
    ['n:number', 's:string'],
  );
  const fn = only(parseHavokScript('local function f(a : number, b) : boolean return a > 0 end'), 'LocalFunction');
  assert.deepEqual(
    fn.func.params.map((p) => p.type?.name ?? '-'),
    ['number', '-'],
  );
  assert.equal(fn.func.returnType?.name, 'boolean');
  const loop = only(parseHavokScript('for i : int = 1, 3 do end'), 'NumericFor');
  assert.equal(loop.variable.type?.name, 'int');

  const hash = valueOf('0xad5130eahi');
  assert.equal(hash.kind, 'Number');
  if (hash.kind === 'Number') {
    assert.equal(hash.value, 0xad5130ea);
    assert.equal(hash.suffix, 'hi');
    assert.equal(hash.raw, '0xad5130eahi');
  }
  const hl = valueOf('0x1hl');
  assert.equal(hl.kind === 'Number' && hl.suffix, 'hl');
  // hstructure and hmake are reserved words.
  assert.equal(tokenize('hmake hstructure').tokens[0].type, 'keyword');
});

test('ranges are exact UTF-16 offsets, comments and strings with non-ASCII text included', () => {
  const src = '-- é comment\nlocal s = "ünï"\nBind = function (self, threadId, scriptId)\n\treturn 1\nend';
  const c = parseHavokScript(src);
  assert.deepEqual(c.diagnostics, []);
  const assign = c.body[1] as Extract<Statement, { kind: 'Assignment' }>;
  const fn = assign.values[0] as FunctionExpression;
  assert.equal(src.slice(assign.start, assign.end), src.slice(src.indexOf('Bind')));
  assert.equal(src.slice(fn.start, fn.end), src.slice(src.indexOf('function')));
  assert.deepEqual(
    fn.params.map((p) => src.slice(p.start, p.end)),
    ['self', 'threadId', 'scriptId'],
  );
  const str = (c.body[0] as Extract<Statement, { kind: 'Local' }>).values[0];
  assert.equal(src.slice(str.start, str.end), '"ünï"');
});

test('recovery: a missing end is reported at the end with the line it should close; later definitions are still parsed', () => {
  const src = [
    'local section = {',
    'First = function (self)',
    '\tif x then',
    '\t\ty()',
    '\t-- the if lost its end',
    'end,',
    'Second = function (self) end,',
    '}',
  ].join('\n');
  const c = parseHavokScript(src);
  assert.ok(c.diagnostics.length > 0);
  assert.ok(
    c.diagnostics.some((d) => /expected 'end' \(to close 'function' at line 2\)/.test(d.message)),
    JSON.stringify(c.diagnostics),
  );
  const names = [...walk(c.body)].filter((n) => n.kind === 'Function').length;
  assert.equal(names, 2, 'both functions are in the tree');
  const second = [...walk(c.body)].find((n) => n.kind === 'Name' && n.name === 'Second');
  assert.ok(second, 'Second is still read');
});

test('recovery: stray tokens and broken expressions become diagnostics; statements after them parse', () => {
  const c = parseHavokScript('x = = 1\n) ] }\nlocal ok = 1\nend\nfunction after() end');
  assert.ok(c.diagnostics.length >= 3, JSON.stringify(c.diagnostics));
  assert.ok(c.body.some((s) => s.kind === 'Local' && s.names[0].name === 'ok'));
  assert.ok(c.body.some((s) => s.kind === 'FunctionDeclaration' && s.path[0].name === 'after'));
  assert.ok(c.diagnostics.some((d) => /'end' without a block to close/.test(d.message)));
  const lex = parseHavokScript('a = "unfinished\nb = 0x + 3x + 0x123456789hi\nc = @@ 1');
  assert.ok(lex.diagnostics.some((d) => /unfinished string/.test(d.message)));
  assert.ok(lex.diagnostics.some((d) => /needs digits after 0x/.test(d.message)));
  assert.ok(lex.diagnostics.some((d) => /malformed number "3x"/.test(d.message)));
  assert.ok(lex.diagnostics.some((d) => /32 bits/.test(d.message)));
  assert.ok(lex.diagnostics.some((d) => /unexpected characters "@@"/.test(d.message)));
});

test('hostile input: deep nesting is cut off with a diagnostic, never a stack overflow', () => {
  const sources = [
    'x = ' + '('.repeat(100_000) + '1',
    'x = ' + '{'.repeat(100_000),
    'do '.repeat(100_000),
    'x = ' + 'not '.repeat(100_000) + '1',
    // Chains the parser builds in a loop: the tree's depth is capped all the same.
    'x = a' + '.b'.repeat(100_000),
    'x = 1' + ' + 1'.repeat(100_000),
    'f' + '()'.repeat(100_000),
  ];
  for (const src of sources) {
    const c = parseHavokScript(src);
    // What walks the tree (names, outline) must not overflow the stack either.
    resolveNames(c);
    outline(c, src);
    assert.ok(
      c.diagnostics.some((d) => d.message.includes(`deeper than ${MAX_NESTING}`)),
      src.slice(0, 20),
    );
  }
});

test('fuzz: mutated real-shaped scripts never throw, always end, and every range lies inside the text', () => {
  const base = [
    'hstructure S_meta\n\tInit : ifunction\nend',
    'local section_1 = {',
    'A = function (self, threadId, scriptId)\n\tlocal i = scriptId.Instance\n\tif (x ~= nil) then y = "s" .. 0x12hi end\nend,',
    'B = hmake S_meta {\n\tInit = function ( self )\n\t\tfor k, v in pairs(self) do print(k, v[1]) end\n\tend\n,\tC = { [1] = 2 }\n},',
    '}',
  ].join('\n');
  const rnd = prng(14);
  const pieces = ['end', '(', ')', '{', '}', '"', '[[', '--[[', ',', '=', 'function', 'hmake', 'local', '0x', '.', ':', '\n', '\0'];
  for (let i = 0; i < 2000; i++) {
    const chars = [...base];
    const edits = 1 + Math.floor(rnd() * 6);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(rnd() * chars.length);
      const r = rnd();
      if (r < 0.4) chars.splice(at, 1 + Math.floor(rnd() * 8));
      else if (r < 0.8) chars.splice(at, 0, pieces[Math.floor(rnd() * pieces.length)]);
      else chars.splice(at, 0, String.fromCharCode(Math.floor(rnd() * 0x3000)));
    }
    const src = chars.join('');
    const c = parseHavokScript(src);
    for (const n of walk(c.body)) assert.ok(n.start >= 0 && n.start <= n.end && n.end <= src.length, `node ${n.kind} [${n.start}, ${n.end}) in ${src.length}`);
    for (const d of c.diagnostics) assert.ok(d.start >= 0 && d.start <= d.end && d.end <= src.length);
  }
});
