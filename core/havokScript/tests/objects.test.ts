// Which `hmake` object a name stands for, and what a member use names, on a script shaped like the
// retail layer scripts (two objects with methods named alike, `self:` calls inside each, `parent`
// in the constructors, `local self = hmake T_inst {}`) and on Lua's scoping corner cases (aliases,
// closures, shadowing, `function O:M()`, a global object, a bound function's `self`).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseHavokScript } from '../parser';
import { outline } from '../outline';
import { resolveNames } from '../scopes';
import { memberTarget, objectAt, objectMembers } from '../objects';

const SCRIPT = [
  'hstructure _a_meta',
  '\tInit : ifunction',
  '\tEscape : ifunction',
  '\t__eventmap : table',
  'end',
  'hstructure _a_inst',
  '\tmeta : _a_meta',
  '\tGuard : object',
  'end',
  'local section_1 = {',
  '_bound_1 = function (self, threadId, scriptId)',
  '\tlocal SO = ScriptObject.Create( scriptId, "SO" )',
  '\tSO:Init()',
  '\tself:Escape()',
  'end,',
  '_objA = hmake _a_meta {',
  '\t__constructor = function ( parent, scriptId )',
  '\t\tlocal self = hmake _a_inst {}',
  '\t\tsetmetatable(self, parent)',
  '\t\tself.Guard = NPC.None',
  '\t\tparent.__eventmap = {}',
  '\t\tparent.__eventmap[0x1hi] = {func = parent.Escape, name = "Escape"}',
  '\t\treturn self',
  '\tend,',
  '\tInit = function ( self )',
  '\t\tself:Escape()',
  '\t\tlocal me = self',
  '\t\tme:Escape()',
  '\t\tlocal later = function () self:Escape() end',
  '\t\tdo local self = GetSomething() self:Escape() end',
  '\t\tGameConsole:Print(self.Guard)',
  '\tend',
  ',\tEscape = function ( self )',
  '\tend',
  '},',
  '_objB = hmake _b_meta {',
  '\tInit = function ( self )',
  '\t\tself:Escape()',
  '\t\tself:Missing()',
  '\tend',
  ',\tEscape = function ( self )',
  '\tend',
  '}',
  '}',
  'Glob = hmake _g_meta {',
  '\tRun = function ( self ) end',
  '}',
  'function Glob:Walk() self:Run() end',
  'Glob:Walk()',
].join('\n');

const chunk = parseHavokScript(SCRIPT);
const symbols = outline(chunk, SCRIPT);
const { names, members } = resolveNames(chunk);
const lineOf = (offset: number): number => SCRIPT.slice(0, offset).split('\n').length;
/** The line of the first line holding `needle` after line `from`. */
const line = (needle: string, from = 0): number => SCRIPT.split('\n').findIndex((l, i) => i >= from && l.includes(needle)) + 1;

/** Every member use named `member` on line `at`: where its target is (object name and the target's line) or what it is. */
function targetsOn(at: number, member: string): string[] {
  return members
    .filter((m) => m.member === member && lineOf(m.start) === at)
    .map((m) => {
      const t = memberTarget(symbols, m);
      if (t.kind === 'object') return `${t.object.name}:${t.found.map((s) => lineOf(s.selection.start)).join(',')}`;
      if (t.kind === 'engine') return 'engine';
      return `unresolved:${t.objects.map((o) => o.name).join(',')}`;
    });
}

test('objects: the script parses cleanly and its outline holds both objects and the method declared with `function Glob:Walk()`', () => {
  assert.deepEqual(chunk.diagnostics, []);
  const glob = symbols.find((s) => s.name === 'Glob')!;
  assert.deepEqual(
    glob.children.map((c) => [c.name, c.kind, c.bindable]),
    [
      ['Run', 'method', false],
      ['Walk', 'method', false],
    ],
  );
  assert.ok(!symbols.some((s) => s.name === 'Walk'), 'not a top-level function as well');
});

test('objects: `self:` in a method goes to its own object, never to the other object with a method of that name', () => {
  const escapeA = line(',\tEscape = function');
  const escapeB = line(',\tEscape = function', escapeA);
  assert.deepEqual(targetsOn(line('\t\tself:Escape()', line('Init = function')), 'Escape'), [`_objA:${escapeA},${line('\tEscape : ifunction')}`]);
  assert.deepEqual(targetsOn(line('\t\tself:Escape()', line('_objB')), 'Escape'), [`_objB:${escapeB}`]);
  // A name the object has nowhere: known object, nothing found (not another object's method).
  assert.deepEqual(targetsOn(line('self:Missing()'), 'Missing'), ['_objB:']);
});

test('objects: `parent` in the constructor, its `local self = hmake T_inst {}`, aliases and closures stand for the object', () => {
  const ctor = line('__constructor');
  assert.deepEqual(targetsOn(line('func = parent.Escape'), 'Escape'), [`_objA:${line(',\tEscape = function')},${line('\tEscape : ifunction')}`]);
  assert.deepEqual(targetsOn(line('self.Guard = NPC.None', ctor), 'Guard'), [`_objA:${line('\tGuard : object')}`], 'the instance structure declares it');
  assert.deepEqual(targetsOn(line('me:Escape()'), 'Escape'), [`_objA:${line(',\tEscape = function')},${line('\tEscape : ifunction')}`]);
  assert.deepEqual(targetsOn(line('local later = function'), 'Escape'), [`_objA:${line(',\tEscape = function')},${line('\tEscape : ifunction')}`]);
  const selfInCtor = names.find((n) => n.name === 'self' && n.role === 'declaration' && lineOf(n.start) === line('local self = hmake _a_inst'))!;
  assert.equal(objectAt(symbols, selfInCtor.owner!)?.name, '_objA');
});

test('objects: what nothing binds to an object stays unresolved: a shadowing local, a bound function`s self, an engine object', () => {
  assert.deepEqual(targetsOn(line('do local self = GetSomething()'), 'Escape'), ['unresolved:_objA,_objB']);
  assert.deepEqual(targetsOn(line('\tself:Escape()'), 'Escape'), ['unresolved:_objA,_objB'], 'the bound function (a section field, not a method)');
  assert.deepEqual(targetsOn(line('SO:Init()'), 'Init'), ['unresolved:_objA,_objB']);
  assert.deepEqual(targetsOn(line('GameConsole:Print'), 'Print'), ['engine']);
});

test('objects: a global object, its `function Glob:Walk()` method and that method`s implicit self', () => {
  const run = line('\tRun = function');
  assert.deepEqual(targetsOn(line('function Glob:Walk()'), 'Run'), [`Glob:${run}`]);
  assert.deepEqual(targetsOn(line('function Glob:Walk()'), 'Walk'), [`Glob:${line('function Glob:Walk()')}`]);
  assert.deepEqual(targetsOn(line('Glob:Walk()', line('function Glob:Walk()')), 'Walk'), [`Glob:${line('function Glob:Walk()')}`]);
});

test('objects: an object`s members are its table`s methods and fields, then its structures` fields (meta and instance)', () => {
  const a = symbols.find((s) => s.kind === 'table')!.children.find((s) => s.name === '_objA')!;
  assert.deepEqual(
    objectMembers(symbols, a).map((s) => `${s.name}:${s.kind}`),
    ['__constructor:method', 'Init:method', 'Escape:method', '__eventmap:field', 'meta:field', 'Guard:field'],
  );
});
