import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FuzzyIndex } from '../fuzzy';
import { globToRegExp } from '../glob';

const paths = [
  'worlds\\retail\\lithlad\\lithlad.objres',
  'worlds\\retail\\lithlad\\layers\\lith_quest_01.scripts',
  'characters\\orcs\\orc_base.skel',
  'characters\\orcs\\orc_base\\orc_base_d.tex',
  'ui\\flash\\hud.gfx',
  'config\\game.cfg',
];

test('fuzzy: in-order characters, file-name matches first, highlights', () => {
  const ix = new FuzzyIndex(paths);
  const names = (q: string): string[] => ix.match(q).map((m) => paths[m.index]);
  assert.deepEqual(names('orcbase'), ['characters\\orcs\\orc_base.skel', 'characters\\orcs\\orc_base\\orc_base_d.tex']);
  assert.equal(names('game.cfg')[0], 'config\\game.cfg');
  assert.equal(names('lithscripts')[0], 'worlds\\retail\\lithlad\\layers\\lith_quest_01.scripts');
  assert.deepEqual(names('zzz'), []);
  assert.deepEqual(names(''), []);
  // Refining a query re-filters the previous hits and gives the same result as a fresh index.
  const fresh = new FuzzyIndex(paths);
  ix.match('o');
  assert.deepEqual(
    ix.match('orc_b').map((m) => m.index),
    fresh.match('orc_b').map((m) => m.index),
  );
  const m = ix.match('hud')[0];
  assert.deepEqual(m.positions.map((p) => paths[m.index][p]).join(''), 'hud');
  // Separators typed either way.
  assert.equal(names('orcs/orc_base.skel')[0], 'characters\\orcs\\orc_base.skel');
});

test('glob: *, **, ?, {a,b}, either separator, name-only patterns', () => {
  const t = (g: string, p: string): boolean => globToRegExp(g).test(p);
  assert.ok(t('*.scripts', 'worlds\\retail\\lithlad\\layers\\lith_quest_01.scripts'));
  assert.ok(!t('*.scripts', 'worlds\\x.scriptsx'));
  assert.ok(t('worlds/**/*.objres', 'worlds\\retail\\lithlad\\lithlad.objres'));
  assert.ok(t('worlds/**/*.objres', 'worlds\\a.objres'));
  assert.ok(!t('worlds/*.objres', 'worlds\\retail\\a.objres'));
  assert.ok(t('*.{tex,skel}', 'characters\\orcs\\orc_base.skel'));
  assert.ok(t('CONFIG\\game.?fg', 'config\\game.cfg'));
  assert.ok(t('', 'anything'));
});
