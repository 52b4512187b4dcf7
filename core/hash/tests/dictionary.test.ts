// The hash dictionary: first name per hash kept, case-insensitive equal names are one name,
// collisions counted, unhashable names skipped; Lua / Havok Script literals; user word lists.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { HashDictionary, parseDictionaryFile, scriptStringLiterals } from '../dictionary';
import { StringHasher, knownHashTable, stringHash } from '../stringHash';
import { countingString } from '../../../test/support/workCounters';

test('add: the first name per hash wins, names equal but for case are the same name', () => {
  const d = new HashDictionary();
  assert.equal(d.add('UI_1Sword_Starting_N', 'script literal'), 'new');
  assert.equal(d.add('ui_1sword_starting_n', 'path'), 'same');
  assert.equal(d.name(0xdcdb4713), 'UI_1Sword_Starting_N');
  assert.deepEqual(d.entry(0xdcdb4713), { name: 'UI_1Sword_Starting_N', origin: 'script literal' });
  assert.equal(d.size, 1);
  assert.equal(d.stats.collisions, 0);
  assert.equal(d.stats.byOrigin['script literal'], 1);
  assert.equal(d.stats.byOrigin.path, 0);
  assert.equal(d.name(stringHash('nothing')), undefined);
});

test('add: a different name with the same hash is a collision, counted once per name and kept aside', () => {
  // A table where a and b hash alike makes a collision easy to build.
  const t = knownHashTable();
  t[0x62] = t[0x61];
  t[0x42] = t[0x41];
  const d = new HashDictionary(new StringHasher(t));
  assert.equal(d.add('xa', 'path'), 'new');
  assert.equal(d.add('xb', 'user file'), 'collision');
  assert.equal(d.add('XB', 'user file'), 'same');
  assert.equal(d.stats.collisions, 1);
  const e = d.entry(new StringHasher(t).hash('xa'))!;
  assert.equal(e.name, 'xa');
  assert.deepEqual(e.others, [{ name: 'xb', origin: 'user file' }]);
});

test('add: a name with a byte the table does not know is skipped and counted', () => {
  const d = new HashDictionary();
  assert.equal(d.add('menu:open', 'script literal'), 'unhashable');
  assert.equal(d.add('é', 'user file'), 'unhashable');
  assert.equal(d.stats.unhashable, 2);
  assert.equal(d.size, 0);
  assert.equal(d.addAll(['a', 'b', 'A', 'c#'], 'user file'), 2);
  assert.equal(d.stats.added, 6);
});

test('scriptStringLiterals: quoted literals with escapes, long brackets, comments skipped', () => {
  const src = [
    'local a = "UI_Sample_GateOpen" -- "not this one"',
    "local b = 'single \\'quoted\\''",
    'local p = "textures\\\\sample\\\\x.tex"',
    'local e = "tab\\tnl\\n\\65\\x42\\z"',
    '--[[ a "block" comment',
    '  "still comment" ]] local c = [[long',
    'string]]',
    'local d = [==[level ]] two]==]',
    '--[=[ "x" ]] "y" ]=] local f = "after"',
    'local g = t[1] .. "unterminated',
    'local h = "ok"',
  ].join('\n');
  assert.deepEqual(scriptStringLiterals(src), [
    'UI_Sample_GateOpen',
    "single 'quoted'",
    'textures\\sample\\x.tex',
    'tab\tnl\nABz',
    'long\nstring',
    'level ]] two',
    'after',
    'ok',
  ]);
});

test('scriptStringLiterals: a long bracket drops its first newline; an unclosed one runs to the end', () => {
  assert.deepEqual(scriptStringLiterals('x = [[\nfirst]]'), ['first']);
  assert.deepEqual(scriptStringLiterals('x = [=[\r\nrest'), ['rest']);
  assert.deepEqual(scriptStringLiterals('--[[ never closed "a"'), []);
  assert.deepEqual(scriptStringLiterals('"a\\\nb"'), ['a\nb']);
});

test('scriptStringLiterals: bounded: literals over the length cap are skipped, the count is capped', () => {
  const long = 'x'.repeat(600);
  assert.deepEqual(scriptStringLiterals(`a = "${long}" b = "short" c = [[${long}]] d = 'x\\'${long}'`), ['short']);
  assert.deepEqual(scriptStringLiterals('"a" "b" "c" "d"', { maxCount: 2 }), ['a', 'b']);
  assert.deepEqual(scriptStringLiterals('"abcdef" "ab"', { maxLength: 3 }), ['ab']);
});

test('scriptStringLiterals: one pass, counted: each character of the source read at most twice', () => {
  // Shapes that would cost more than a pass if a scan restarted: many literals, many comments, an
  // unclosed long bracket, long escaped literals over the length cap, brackets that open nothing.
  const shapes: [string, string, number][] = [
    ['200,000 literals', '"k" '.repeat(200_000), 200_000],
    ['comments', '-- a "b" c\n'.repeat(20_000), 0],
    ['an unclosed long bracket', 'x = [==[' + ']]'.repeat(50_000), 0],
    ['over-long escaped literals', ('"' + '\\n'.repeat(600) + '" ').repeat(200), 0],
    ['brackets that open nothing', '[a '.repeat(50_000), 0],
  ];
  for (const [what, source, literals] of shapes) {
    const counted = countingString(source);
    assert.equal(scriptStringLiterals(counted.text, { maxCount: 1_000_000 }).length, literals, what);
    assert.ok(counted.visits() <= 2 * source.length + 16, `${what}: ${counted.visits()} character reads for ${source.length} characters`);
  }
});

test('parseDictionaryFile: one name a line, trimmed, blanks and # comments skipped', () => {
  assert.deepEqual(parseDictionaryFile('# names\r\n  UI_A  \n\n\t#x\nUI_B\r\n   \nUI C'), ['UI_A', 'UI_B', 'UI C']);
  assert.deepEqual(parseDictionaryFile(''), []);
});
