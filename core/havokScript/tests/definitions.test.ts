// What a script defines, the parser's answer every front end uses: top-level functions and hmake
// objects with 1-based lines (bindable where a registry can name them), each object's methods with
// their object, Lua's other function forms, CRLF lines, an empty script.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bindableMap, bindableNames, scriptDefinitions } from '../definitions';

/** A layer script in the retail shape: prototypes, then one section table of bindings. */
const LAYER_SOURCE = [
  '-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)',
  '',
  'hstructure _gate_SO_Script_1_meta',
  '\t__constructor : ifunction',
  '\tInit : ifunction',
  'end',
  '',
  '-- IMPLEMENTATION',
  'local section_0001 = {',
  '-- Relay.Script1 (prefabs\\gameplay\\gate.prefab)',
  '_gate_SR_Script1_2 = function (self, threadId, scriptId)',
  '\tlocal Instance = scriptId.Instance',
  'end,',
  '-- SO.Script (prefabs\\gameplay\\gate.prefab)',
  '_gate_SO_Script_3 = hmake _gate_SO_Script_1_meta {',
  '\t__constructor = function ( parent, scriptId )',
  '\t\tlocal self = hmake _gate_SO_Script_1_inst {}',
  '\tend',
  ',\tInit = function ( self )',
  '\tend',
  '},',
  '_gate_SC_Script_4 = function (self, threadId, scriptId)',
  'end,',
  '}',
  '_G.loadedresource = section_0001',
  '',
].join('\n');

test('definitions: the bindable functions and hmake objects at their lines, the objects` methods with their object', () => {
  assert.deepEqual(scriptDefinitions(LAYER_SOURCE), [
    { name: '_gate_SR_Script1_2', line: 11, kind: 'function', bindable: true },
    { name: '_gate_SO_Script_3', line: 15, kind: 'hmake', type: '_gate_SO_Script_1_meta', bindable: true },
    { name: '__constructor', line: 16, kind: 'method', object: '_gate_SO_Script_3', bindable: false },
    { name: 'Init', line: 19, kind: 'method', object: '_gate_SO_Script_3', bindable: false },
    { name: '_gate_SC_Script_4', line: 22, kind: 'function', bindable: true },
  ]);
  assert.deepEqual([...bindableNames(scriptDefinitions(LAYER_SOURCE))], ['_gate_SR_Script1_2', '_gate_SO_Script_3', '_gate_SC_Script_4']);
});

test('definitions: Lua`s function forms (a local function is not bindable), CRLF lines, a commented-out one, an empty script', () => {
  assert.deepEqual(scriptDefinitions('local function helper(a)\nend\nfunction M.run()\nend\nfunction Top() end\n-- x = function()\n'), [
    { name: 'helper', line: 1, kind: 'function', bindable: false },
    { name: 'run', line: 3, kind: 'method', bindable: false },
    { name: 'Top', line: 5, kind: 'function', bindable: true },
  ]);
  assert.deepEqual(scriptDefinitions(''), []);
  assert.deepEqual(
    scriptDefinitions('a = function()\r\nend\r\nb = hmake T_meta {\r\n}\r\n').map((f) => [f.name, f.line]),
    [
      ['a', 1],
      ['b', 3],
    ],
  );
  // Bindings are looked up case-insensitively: the first of a name is kept.
  assert.deepEqual(
    [...bindableMap(scriptDefinitions('Open = function() end\nOPEN = function() end\n')).values()].map((d) => d.line),
    [1],
  );
});
