import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { StringHasher, formatHash, knownHashTable, parseHash, stringHash } from '../stringHash';

test('the three published vectors (seed 004)', () => {
  assert.equal(formatHash(stringHash('UI_1Sword_Starting_N')), '0xDCDB4713');
  assert.equal(formatHash(stringHash('TribeDef_Goblin')), '0xE2D0F0F6');
  assert.equal(formatHash(stringHash('TribeDef_Machine')), '0xEBB642C8');
});

test('case folds, separators do not', () => {
  assert.equal(stringHash('TribeDef_Goblin'), stringHash('tribedef_goblin'));
  assert.notEqual(stringHash('a\\b'), stringHash('a/b'));
});

test('known table values: h = h * 919 + LUT[c]', () => {
  // A single byte hashes to its table value; two bytes to v1 * 919 + v2.
  const cases: [string, number][] = [
    ['a', 1],
    ['Z', 26],
    ['0', 27],
    ['9', 36],
    [' ', 37],
    ['_', 38],
    ['-', 39],
    ['\\', 42],
    ['/', 52],
    ['.', 55],
  ];
  for (const [c, v] of cases) assert.equal(stringHash(c), v, c);
  assert.equal(stringHash('ab'), 1 * 919 + 2);
  assert.equal(stringHash(''), 0);
});

test('a byte the table does not know is reported, not hashed', () => {
  assert.throws(
    () => stringHash('a(b'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'UNKNOWN_HASH_BYTE' && e.offset === 1,
  );
  const r = new StringHasher().tryHash('x&');
  assert.deepEqual(r, { ok: false, byte: 0x26, index: 1 });
});

test('the table is replaceable as a whole', () => {
  const t = knownHashTable();
  t[0x28] = 40; // pretend a later reader found '(' in the executable
  const h = new StringHasher(t);
  assert.equal(h.hash('a('), 1 * 919 + 40);
  assert.throws(() => new StringHasher([1, 2, 3]), Arch06Error);
});

test('continueHash composes folder + leaf', () => {
  const h = new StringHasher();
  const folder = h.tryHash('database\\string');
  assert.ok(folder.ok);
  const full = h.continueHash(folder.hash, '\\string.strdb');
  assert.deepEqual(full, { ok: true, hash: stringHash('database\\string\\string.strdb') });
});

test('parseHash accepts 0x, bare hex and decimal; rejects the rest', () => {
  assert.equal(parseHash('0xDCDB4713'), 0xdcdb4713);
  assert.equal(parseHash('dcdb4713'), 0xdcdb4713);
  assert.equal(parseHash('42'), 42);
  for (const bad of ['0x', '0x123456789', 'hello', '-1']) assert.throws(() => parseHash(bad), Arch06Error, bad);
});

test('characters above U+00FF are refused, never wrapped to their low byte, even with every byte known', () => {
  // A full table, as read from the executable: every byte 0..255 has a value (here byte + 1).
  const full = new StringHasher(Array.from({ length: 256 }, (_, b) => b + 1));
  const known = new StringHasher();
  for (const h of [known, full]) {
    // U+0161 (š) has low byte 0x61 ('a'), U+0100 low byte 0x00, U+4E2D low byte 0x2D ('-'), U+FF41 (fullwidth a) 0x41.
    for (const [name, index, code] of [
      ['ša', 0, 0x161],
      ['aĀ', 1, 0x100],
      ['x中', 1, 0x4e2d],
      ['ａ', 0, 0xff41],
    ] as const) {
      assert.deepEqual(h.tryHash(name), { ok: false, byte: code, index }, name);
      assert.throws(
        () => h.hash(name),
        (e: unknown) => e instanceof Arch06Error && e.code === 'UNKNOWN_HASH_BYTE' && e.offset === index && e.message.includes('above U+00FF'),
      );
      assert.equal(h.knows(code), false, `0x${code.toString(16)}`);
    }
  }
  // The same names with their low bytes hash: the refusal is the character, not its low byte.
  assert.equal(known.hash('aa'), 1 * 919 + 1);
  assert.equal(full.hash('\u00ff'), 256);
  assert.equal(full.knows(0xff), true);
  assert.equal(full.knows(-1), false);
});
