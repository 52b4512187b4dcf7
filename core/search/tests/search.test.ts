import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FuzzyIndex } from '../fuzzy';
import { globToRegExp } from '../glob';
import { prng } from '../../../test/support/fixtures';

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

test('fuzzy: typing a query key by key gives what a fresh index gives, and exactly the paths holding it in order', () => {
  const rnd = prng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const words = ['orc', 'layer', 'base', 'quest', 'tex', 'lith', 'a', 'b', '01', '0012', 'x', 'set'];
  const many: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const depth = 1 + Math.floor(rnd() * 4);
    many.push([...Array(depth)].map(() => `${pick(words)}_${pick(words)}`).join(rnd() < 0.5 ? '\\' : '/') + pick(['.tex', '.scripts', '.mat', '']));
  }
  const inOrder = (path: string, q: string): boolean => {
    let at = 0;
    for (const c of q) {
      at = path.toLowerCase().replace(/\//g, '\\').indexOf(c, at) + 1;
      if (at === 0) return false;
    }
    return true;
  };
  const typed = new FuzzyIndex(many);
  for (let round = 0; round < 40; round++) {
    const query = [...Array(1 + Math.floor(rnd() * 3))].map(() => pick(words)).join(rnd() < 0.3 ? '_' : '');
    typed.match('');
    for (let i = 1; i <= query.length; i++) {
      const prefix = query.slice(0, i);
      const got = typed.match(prefix, 50);
      const fresh = new FuzzyIndex(many).match(prefix, 50);
      assert.deepEqual(
        got.map((m) => [m.index, m.score]),
        fresh.map((m) => [m.index, m.score]),
        prefix,
      );
      const holding = many.filter((p) => inOrder(p, prefix)).length;
      assert.equal(got.length, Math.min(50, holding), prefix);
      for (const m of got) assert.ok(inOrder(many[m.index], prefix), `${many[m.index]} does not hold ${prefix}`);
    }
  }
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

test('fuzzy: folder words count; the last word is the file name', () => {
  const paths = [
    // Shorter, and holds v-o-l-c-a-n-o in order, but no folder named volcano.
    'worlds\\retail\\volcanicsands\\fortwallgameplay.scripts',
    'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.scripts',
    'worlds\\retail\\volcano\\sectionsandlayers\\fortwallgameplay.scripts',
    'worlds\\retail\\volcano\\sectionsandlayers\\fortwallgameplay.objres',
  ];
  const ix = new FuzzyIndex(paths);
  const names = (q: string): string[] => ix.match(q).map((m) => paths[m.index]);
  assert.deepEqual(names('volcano fagameplay.scripts'), [paths[2], paths[0]], 'the volcano folder first; island lacks the letters');
  // Typed key by key, the same as a fresh index at every step (spaces, words added and extended).
  const query = 'volcano fagameplay.scripts';
  ix.match('');
  for (let i = 1; i <= query.length; i++) {
    const q = query.slice(0, i);
    assert.deepEqual(
      ix.match(q).map((m) => [m.index, m.score]),
      new FuzzyIndex(paths).match(q).map((m) => [m.index, m.score]),
      q,
    );
  }
  // Words in either separator, and folders named in full beat folders that merely hold the letters.
  assert.equal(names('retail/volcano objres')[0], paths[3]);
  assert.equal(names('island fortwall')[0], paths[1]);
  // Every word must be in the path; one that is not leaves nothing.
  assert.deepEqual(names('mordor fortwall'), []);
  // Highlights fall in the file name, for the last word.
  const m = ix.match('volcano fagameplay.scripts')[0];
  const p = paths[m.index];
  assert.ok(m.positions.every((x) => x > p.lastIndexOf('\\')));
});

test('fuzzy: several words typed key by key give what a fresh index gives, and exactly the paths holding every word', () => {
  const rnd = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const words = ['orc', 'layer', 'base', 'quest', 'tex', 'lith', 'a', 'b', '01', 'x', 'set'];
  const many: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const depth = 1 + Math.floor(rnd() * 4);
    many.push([...Array(depth)].map(() => `${pick(words)}_${pick(words)}`).join('\\') + pick(['.tex', '.scripts', '']));
  }
  const inOrder = (path: string, w: string): boolean => {
    let at = 0;
    for (const c of w) {
      at = path.toLowerCase().indexOf(c, at) + 1;
      if (at === 0) return false;
    }
    return true;
  };
  const typed = new FuzzyIndex(many);
  for (let round = 0; round < 30; round++) {
    const query = [...Array(2 + Math.floor(rnd() * 2))].map(() => pick(words)).join(' ');
    typed.match('');
    for (let i = 1; i <= query.length; i++) {
      const prefix = query.slice(0, i);
      const got = typed.match(prefix, 40);
      assert.deepEqual(
        got.map((m) => [m.index, m.score]),
        new FuzzyIndex(many).match(prefix, 40).map((m) => [m.index, m.score]),
        prefix,
      );
      const ws = prefix.split(' ').filter(Boolean);
      assert.equal(got.length, Math.min(40, many.filter((p) => ws.every((w) => inOrder(p, w))).length), prefix);
    }
  }
});
