// Outline and name resolution: what a script defines (hstructures, section-table bindings, hmake
// objects and their methods, Lua functions) with their doc comments, and every name resolved by
// Lua's scoping rules, on a script shaped like the retail layer scripts and on scoping corner cases.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseHavokScript } from '../parser';
import { outline, type ScriptSymbol } from '../outline';
import { resolveNames, useAt } from '../scopes';

const LAYER = [
  'hstructure _gate_SO_meta',
  '\t__index : _gate_SO_meta',
  '\tOpen : ifunction',
  'end',
  '',
  '-- IMPLEMENTATION',
  'local section_1 = {',
  '-- Relay.OnFire (prefabs\\gate.prefab06c)',
  '_gate_Relay_OnFire_1 = function (self, threadId, scriptId)',
  '\tlocal Instance = scriptId.Instance',
  '\tLithThreadSleep( threadId, 2 )',
  '\tSystem:LoadWorld( "x" )',
  'end,',
  '-- SO.Script',
  '_gate_SO_Script_2 = hmake _gate_SO_meta {',
  '\t__constructor = function ( parent, scriptId )',
  '\t\treturn parent',
  '\tend',
  ',\tOpen = function ( self )',
  '\t\tself:Open()',
  '\tend',
  '}',
  '}',
  'function Helper(a) return a end',
].join('\n');

const brief = (s: ScriptSymbol): unknown => ({
  name: s.name,
  kind: s.kind,
  bindable: s.bindable,
  ...(s.children.length ? { children: s.children.map(brief) } : {}),
});

test('outline: structures, the section table bindings (functions and hmake objects with methods), Lua functions', () => {
  const c = parseHavokScript(LAYER);
  assert.deepEqual(c.diagnostics, []);
  const o = outline(c, LAYER);
  assert.deepEqual(o.map(brief), [
    {
      name: '_gate_SO_meta',
      kind: 'structure',
      bindable: false,
      children: [
        { name: '__index', kind: 'field', bindable: false },
        { name: 'Open', kind: 'field', bindable: false },
      ],
    },
    {
      name: 'section_1',
      kind: 'table',
      bindable: false,
      children: [
        { name: '_gate_Relay_OnFire_1', kind: 'function', bindable: true },
        {
          name: '_gate_SO_Script_2',
          kind: 'hmake',
          bindable: true,
          children: [
            { name: '__constructor', kind: 'method', bindable: false },
            { name: 'Open', kind: 'method', bindable: false },
          ],
        },
      ],
    },
    { name: 'Helper', kind: 'function', bindable: true },
  ]);
  const [fire, script] = o[1].children;
  assert.equal(fire.detail, '(self, threadId, scriptId)');
  assert.deepEqual(fire.params, ['self', 'threadId', 'scriptId']);
  assert.equal(fire.doc, 'Relay.OnFire (prefabs\\gate.prefab06c)');
  assert.equal(LAYER.slice(fire.selection.start, fire.selection.end), '_gate_Relay_OnFire_1');
  assert.equal(script.detail, '_gate_SO_meta');
  assert.equal(script.doc, 'SO.Script');
  // The leading-comma member's range starts at its name, after the comma.
  assert.ok(LAYER.slice(script.children[1].start).startsWith('Open = function'));
});

test('names: locals resolve to their declarations, the rest are globals; members of globals are recorded', () => {
  const c = parseHavokScript(LAYER);
  const { names, members } = resolveNames(c);
  const at = (needle: string, nth = 0): number => {
    let i = -1;
    for (let k = 0; k <= nth; k++) i = LAYER.indexOf(needle, i + 1);
    return i;
  };
  // `scriptId` in `scriptId.Instance` is the parameter.
  const use = useAt(names, at('scriptId.Instance'));
  assert.equal(use?.scope, 'local');
  assert.equal(use?.declaration?.start, at('scriptId)'));
  // LithThreadSleep and System are globals.
  assert.equal(useAt(names, at('LithThreadSleep'))?.scope, 'global');
  assert.equal(useAt(names, at('System'))?.scope, 'global');
  const load = members.find((m) => m.member === 'LoadWorld');
  assert.deepEqual(load && { object: load.object, indexer: load.indexer, global: load.objectIsGlobal, call: load.call }, {
    object: 'System',
    indexer: ':',
    global: true,
    call: true,
  });
  // `self:Open()` is a member of a local.
  const open = members.find((m) => m.member === 'Open' && m.call);
  assert.equal(open?.objectIsGlobal, false);
  // `function Helper` writes a global.
  const helper = useAt(names, at('Helper'));
  assert.deepEqual(helper && { scope: helper.scope, role: helper.role }, { scope: 'global', role: 'write' });
});

test('names: Lua 5.1 scoping corner cases', () => {
  const src = [
    'local x = 1', // 0: x#1
    'local x = x + 1', // the right side reads x#1; declares x#2
    'local function f() return f end', // f sees itself
    'local g = function() return g end', // g inside is the global g
    'for i = i, 2 do end', // the start expression's i is global
    'repeat local r = 1 until r', // until sees the body's r
    'do local inner = 1 end',
    'print(inner)', // out of scope: global
  ].join('\n');
  const c = parseHavokScript(src);
  assert.deepEqual(c.diagnostics, []);
  const { names } = resolveNames(c);
  const find = (line: number, name: string, nth = 0): (typeof names)[number] | undefined => {
    const lineStart = src.split('\n').slice(0, line).join('\n').length + (line ? 1 : 0);
    return names.filter((n) => n.name === name && n.start >= lineStart && n.start < lineStart + src.split('\n')[line].length)[nth];
  };
  const x1 = find(0, 'x')!;
  assert.equal(find(1, 'x', 1)?.declaration?.start, x1.start, 'the initialiser reads the outer x');
  assert.equal(find(1, 'x', 0)?.role, 'declaration');
  assert.equal(find(2, 'f', 1)?.scope, 'local', 'local function sees itself');
  assert.equal(find(3, 'g', 1)?.scope, 'global', 'local g = function … g … reads the global g');
  assert.equal(find(4, 'i', 1)?.scope, 'global', "a for loop's start expression does not see its variable");
  assert.equal(find(5, 'r', 1)?.scope, 'local', "until sees the repeat body's locals");
  assert.equal(find(7, 'inner')?.scope, 'global', 'a do block ends its locals');
});
