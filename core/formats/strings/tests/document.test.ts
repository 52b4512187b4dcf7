// String-table edits (issue 24): a changed text, an added key and a deleted key, each read back by a
// minimal SKDB reader written here from seed 004 / formats-public §7 alone (not the project's
// reader): header words, keys strictly ascending, offsets in UTF-16 units, the text ending the file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { stringHash } from '../../../hash/stringHash';
import { StringTableDocument } from '../document';
import { writeSkdb } from '../writer';
import { expectArch06Error } from '../../../../test/support/errors';

/**
 * Seed 004: "SKDB" | u32 9 | u32 0x1C | u32 key count | u32 0 | u32 text units | u32 0, then
 * count x {u32 hash, u32 text offset} ascending, then UTF-16LE NUL-terminated strings to the end.
 */
function oracleRead(bytes: Uint8Array): { words: number[]; keys: Map<number, string>; order: number[] } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (i: number): number => dv.getUint32(4 * i, true);
  assert.equal(String.fromCharCode(...bytes.subarray(0, 4)), 'SKDB');
  assert.equal(word(1), 9);
  assert.equal(word(2), 0x1c);
  const count = word(3);
  const units = word(5);
  const textAt = 0x1c + 8 * count;
  assert.equal(bytes.length, textAt + 2 * units, 'the text ends exactly at the end of the file');
  const keys = new Map<number, string>();
  const order: number[] = [];
  for (let i = 0; i < count; i++) {
    const hash = dv.getUint32(0x1c + 8 * i, true);
    const offset = dv.getUint32(0x20 + 8 * i, true);
    if (i > 0) assert.ok(hash > order[i - 1], 'keys strictly ascending');
    assert.ok(offset < units, 'offset inside the text');
    let s = '';
    for (let u = offset; ; u++) {
      assert.ok(u < units, 'string terminated inside the text');
      const c = dv.getUint16(textAt + 2 * u, true);
      if (c === 0) break;
      s += String.fromCharCode(c);
    }
    keys.set(hash, s);
    order.push(hash);
  }
  return { words: [word(4), word(6)], keys, order };
}

const base: Record<string, string> = {
  UI_1Sword_Starting_N: 'Urfael',
  UI_Menu_Start: 'Start',
  UI_Menu_Quit: 'Quit',
  Shared_A: 'same',
  Shared_B: 'same',
  Dialogue_Line: 'You cannot pass.',
};
const table = (): Uint8Array => writeSkdb(Object.entries(base).map(([k, text]) => ({ hash: stringHash(k), text })));

test('document: unchanged, it writes the same bytes', () => {
  const bytes = table();
  assert.deepEqual(StringTableDocument.read(bytes, 't').toBytes(), bytes);
});

test('document: a changed text and an added key read back by the oracle, every other key unchanged', () => {
  const doc = StringTableDocument.read(table(), 't');
  doc.setText(stringHash('Dialogue_Line'), 'You shall not pass! 😀');
  const added = doc.addKey('UI_New_Key', 'Brand new');
  assert.equal(added, stringHash('UI_New_Key'));
  const out = oracleRead(doc.toBytes());
  assert.deepEqual(out.words, [0, 0]);
  const expected = new Map(Object.entries(base).map(([k, t]) => [stringHash(k), t]));
  expected.set(stringHash('Dialogue_Line'), 'You shall not pass! 😀');
  expected.set(stringHash('UI_New_Key'), 'Brand new');
  assert.deepEqual(new Map([...out.keys].sort((a, b) => a[0] - b[0])), new Map([...expected].sort((a, b) => a[0] - b[0])));
  assert.equal(out.order.length, 7);
});

test('document: changing one of two keys sharing a string changes that key only', () => {
  const doc = StringTableDocument.read(table(), 't');
  doc.setText(stringHash('Shared_A'), 'different');
  const out = oracleRead(doc.toBytes());
  assert.equal(out.keys.get(stringHash('Shared_A')), 'different');
  assert.equal(out.keys.get(stringHash('Shared_B')), 'same');
});

test('document: a deleted key is gone, its string with it, the rest unchanged', () => {
  const bytes = table();
  const doc = StringTableDocument.read(bytes, 't');
  doc.deleteKey(stringHash('UI_Menu_Quit'));
  const written = doc.toBytes();
  const out = oracleRead(written);
  assert.equal(out.keys.has(stringHash('UI_Menu_Quit')), false);
  assert.equal(out.keys.size, 5);
  // "Quit" + NUL (5 units) and one key (8 bytes) fewer.
  assert.equal(written.length, bytes.length - 8 - 10);
  for (const [k, t] of Object.entries(base)) if (k !== 'UI_Menu_Quit') assert.equal(out.keys.get(stringHash(k)), t);
  // Deleting one of two sharers keeps the string for the other.
  doc.deleteKey(stringHash('Shared_A'));
  assert.equal(oracleRead(doc.toBytes()).keys.get(stringHash('Shared_B')), 'same');
});

test('document: a key name colliding with another key is refused naming both', () => {
  // Two names with one StringHash (found by a search over random names).
  const [a, b] = ['UI_knkyabaqe', 'UI_ttcingebo'];
  assert.equal(stringHash(a), stringHash(b));
  const doc = StringTableDocument.read(table(), 't');
  doc.addKey(a, 'first');
  const names = new Map([[stringHash(a), a]]);
  const e = expectArch06Error(() => doc.addKey(b, 'second', (h) => names.get(h)), 'INVALID');
  assert.match(e.message, /UI_ttcingebo/);
  assert.match(e.message, /UI_knkyabaqe/);
  expectArch06Error(() => doc.addKey('UI_MENU_START', 'x', () => 'UI_Menu_Start'), 'INVALID');
  assert.equal(doc.text(stringHash(a)), 'first');
});

test('document: bad edits are typed errors and change nothing', () => {
  const bytes = table();
  const doc = StringTableDocument.read(bytes, 't');
  expectArch06Error(() => doc.setText(stringHash('UI_Menu_Start'), 'a\0b'), 'BAD_ARGUMENT');
  expectArch06Error(() => doc.setText(stringHash('No_Such_Key'), 'x'), 'NOT_FOUND');
  expectArch06Error(() => doc.deleteKey(stringHash('No_Such_Key')), 'NOT_FOUND');
  expectArch06Error(() => doc.addKey('', 'x'), 'BAD_ARGUMENT');
  expectArch06Error(() => doc.addKey('a\0b', 'x'), 'BAD_ARGUMENT');
  assert.deepEqual(doc.toBytes(), bytes);
});

test('document: a table with another layout (suffix sharing, an unused string, no NUL at the end) writes back exactly, and edits keep the rest', () => {
  // Text area by hand: "Starting Sword\0" (a key at 0, another at 9: "Sword"), "unused\0", "tail" without NUL.
  const texts = 'Starting Sword\0unused\0tail';
  const keys = [
    [0x10, 0],
    [0x20, 9],
  ];
  const bytes = new Uint8Array(0x1c + 8 * keys.length + 2 * texts.length);
  const dv = new DataView(bytes.buffer);
  [0x42444b53, 9, 0x1c, keys.length, 7, texts.length, 0].forEach((w, i) => dv.setUint32(4 * i, w, true));
  keys.forEach(([h, o], i) => {
    dv.setUint32(0x1c + 8 * i, h, true);
    dv.setUint32(0x20 + 8 * i, o, true);
  });
  for (let i = 0; i < texts.length; i++) dv.setUint16(0x1c + 8 * keys.length + 2 * i, texts.charCodeAt(i), true);
  const doc = StringTableDocument.read(bytes, 'odd');
  assert.deepEqual(doc.toBytes(), bytes);
  assert.equal(doc.text(0x20), 'Sword');
  doc.setText(0x10, 'Blade');
  const out = oracleRead(doc.toBytes());
  assert.deepEqual(out.words, [7, 0]);
  assert.equal(out.keys.get(0x10), 'Blade');
  assert.equal(out.keys.get(0x20), 'Sword');
});
