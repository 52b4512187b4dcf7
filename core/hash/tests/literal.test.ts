// Which function a hash literal is, in source and typed by a user (core/hash/literal.ts): the one
// rule the server's hovers, `arch06 unhash` and Reverse Hash Lookup share.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { HashDictionary } from '../dictionary';
import { hiHash } from '../hiHash';
import { HASH_LITERAL_PATTERN, namesOfHash, parseHashQuery, sourceHashLiteral } from '../literal';
import { stringHash } from '../stringHash';

const inSource = (text: string) => [...text.matchAll(new RegExp(HASH_LITERAL_PATTERN, 'g'))].map((m) => ({ text: m[0], value: sourceHashLiteral(m[1], m[2]) }));

test('hash literals in source: hi and hl suffixes, raw values of exactly 8 digits; shorter raw numbers are not hashes', () => {
  const found = inSource('x[0xad5130eahi] = 0x7D6FB0AA + 0x10 + 0x1234567890abcdefhl + 0x123456789hi');
  assert.deepEqual(found, [
    { text: '0xad5130eahi', value: { hash: 0xad5130ea, kind: 'hi' } },
    { text: '0x7D6FB0AA', value: { hash: 0x7d6fb0aa, kind: 'string' } },
    { text: '0x10', value: undefined },
    { text: '0x1234567890abcdefhl', value: { hash: 0, kind: 'hl' } },
    { text: '0x123456789hi', value: undefined },
  ]);
});

test('a typed hash: a literal as written keeps its kind; a plain value is a StringHash; junk is refused', () => {
  assert.deepEqual(parseHashQuery(' 0xAD5130EAhi '), { hash: 0xad5130ea, kind: 'hi' });
  assert.deepEqual(parseHashQuery('0xad5130eaHI'), { hash: 0xad5130ea, kind: 'hi' });
  assert.deepEqual(parseHashQuery('0x7D6FB0AA'), { hash: 0x7d6fb0aa, kind: 'string' });
  assert.deepEqual(parseHashQuery('7D6FB0AA'), { hash: 0x7d6fb0aa, kind: 'string' });
  assert.deepEqual(parseHashQuery('16'), { hash: 16, kind: 'string' });
  assert.equal(parseHashQuery('0x1234567890hl').kind, 'hl');
  for (const bad of ['', 'hi', '0x123456789hi', 'BeSentry', '0xZZhi'])
    assert.throws(() => parseHashQuery(bad), { name: 'Arch06Error', code: 'BAD_ARGUMENT' } as object, bad);
});

test('names of a hash come from the table of its kind: a hi value never answers from StringHash names, nor the reverse', () => {
  const d = new HashDictionary();
  d.add('BeSentry', 'script literal');
  assert.equal(namesOfHash(d, { hash: hiHash('BeSentry')!, kind: 'hi' })?.name, 'BeSentry');
  assert.equal(namesOfHash(d, { hash: stringHash('BeSentry'), kind: 'string' })?.name, 'BeSentry');
  assert.equal(namesOfHash(d, { hash: stringHash('BeSentry'), kind: 'hi' }), undefined);
  assert.equal(namesOfHash(d, { hash: hiHash('BeSentry')!, kind: 'string' }), undefined);
  assert.equal(namesOfHash(d, { hash: 0, kind: 'hl' }), undefined);
});
