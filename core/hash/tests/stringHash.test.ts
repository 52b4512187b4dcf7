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
