// The string-table editor's edits (stringTableEdits.ts) in plain node: change a text, add a key by
// name, delete a key, each undone and redone exactly, the rows following the table; checked by an
// SKDB reader written here from formats-public.md (header of seven u32, keys of hash + unit
// offset ascending, UTF-16LE NUL-terminated text after the keys), not by the editor's own reader.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseSkdb } from '../../../core/formats/strings';
import { stringHash } from '../../../core/hash';
import { SAMPLE_STRINGS, sampleStringTable } from '../../../core/sample';
import { checkViewMessage } from '../../../media/strings/protocol';
import { EditableStringTable, editLabel, lineForInput, textFromInput } from '../stringTableEdits';

/** The oracle: key → text, keys in file order, and the file's rules (magic, version, sizes, ascending keys). */
function oracle(bytes: Uint8Array): { keys: Map<number, string>; order: number[] } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(String.fromCharCode(...bytes.subarray(0, 4)), 'SKDB');
  assert.equal(dv.getUint32(4, true), 9);
  const headerSize = dv.getUint32(8, true);
  assert.equal(headerSize, 0x1c);
  const count = dv.getUint32(12, true);
  const units = dv.getUint32(20, true);
  const text = headerSize + 8 * count;
  assert.equal(bytes.length, text + 2 * units, 'the file ends where the text ends');
  const keys = new Map<number, string>();
  const order: number[] = [];
  for (let i = 0; i < count; i++) {
    const hash = dv.getUint32(headerSize + 8 * i, true);
    const offset = dv.getUint32(headerSize + 8 * i + 4, true);
    assert.ok(offset < units, 'offset inside the text area');
    if (order.length) assert.ok(hash > order[order.length - 1], 'keys strictly ascending');
    let s = '';
    for (let u = text + 2 * offset; ; u += 2) {
      const c = dv.getUint16(u, true);
      if (c === 0) break;
      s += String.fromCharCode(c);
    }
    keys.set(hash, s);
    order.push(hash);
  }
  return { keys, order };
}

const bytesOf = (t: EditableStringTable): Buffer => Buffer.concat(t.serialize());
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function sample(): { table: EditableStringTable; original: Uint8Array } {
  const original = sampleStringTable('enus');
  const fr = { language: 'frfr', table: parseSkdb(sampleStringTable('frfr'), 'frfr') };
  return { table: EditableStringTable.read(original, 'enus.strdb', 'enus', [fr], ['enus', 'frfr']), original };
}

test('a changed text: the oracle reads the new text, every other key as before; undo gives the file back byte for byte, redo the edit again', () => {
  const { table, original } = sample();
  const gate = stringHash('UI_Sample_GateOpen');
  const undo = table.apply({ kind: 'setText', hash: gate, text: 'The gate swings open, slowly.' });
  const edited = bytesOf(table);
  const read = oracle(edited);
  assert.equal(read.keys.get(gate), 'The gate swings open, slowly.');
  for (const [name, text] of Object.entries(SAMPLE_STRINGS.enus)) if (name !== 'UI_Sample_GateOpen') assert.equal(read.keys.get(stringHash(name)), text, name);
  undo();
  assert.equal(sha(bytesOf(table)), sha(original));
  const again = table.apply({ kind: 'setText', hash: gate, text: 'The gate swings open, slowly.' });
  assert.equal(sha(bytesOf(table)), sha(edited));
  again();
  assert.equal(sha(bytesOf(table)), sha(original));
});

test('an added key (by name, hashed) and a deleted key, read back by the oracle; each undone exactly', () => {
  const { table, original } = sample();
  const undoAdd = table.apply({ kind: 'addKey', name: 'UI_Sample_GateClosed', text: 'The gate is shut.' });
  const added = oracle(bytesOf(table));
  assert.equal(added.keys.size, 5);
  assert.equal(added.keys.get(stringHash('UI_Sample_GateClosed')), 'The gate is shut.');
  const undoDelete = table.apply({ kind: 'deleteKey', hash: stringHash('UI_Sample_GateAlarm') });
  const deleted = oracle(bytesOf(table));
  assert.equal(deleted.keys.size, 4);
  assert.equal(deleted.keys.has(stringHash('UI_Sample_GateAlarm')), false);
  assert.equal(deleted.keys.get(stringHash('UI_Sample_GateHint')), SAMPLE_STRINGS.enus.UI_Sample_GateHint);
  undoDelete();
  assert.deepEqual(oracle(bytesOf(table)), added);
  undoAdd();
  assert.equal(sha(bytesOf(table)), sha(original));
});

test('a key whose name hashes to an existing key is refused naming both, and nothing changes (no undo entry to make)', () => {
  const { table, original } = sample();
  const [a, b] = ['UI_knkyabaqe', 'UI_ttcingebo']; // one StringHash (core's document test found them)
  table.apply({ kind: 'addKey', name: a, text: 'first' });
  const before = sha(bytesOf(table));
  assert.throws(() => table.apply({ kind: 'addKey', name: b, text: 'second' }), /UI_ttcingebo/);
  assert.throws(() => table.apply({ kind: 'setText', hash: stringHash('No_Such_Key'), text: 'x' }), /no key/);
  assert.equal(sha(bytesOf(table)), before);
  assert.notEqual(before, sha(original));
});

test('every language of a key side by side: the rows follow the edits, a language lacking a key shows it missing, and filling it in adds it', () => {
  const { table } = sample();
  const hint = stringHash('UI_Sample_GateHint');
  table.apply({ kind: 'setText', hash: hint, text: 'Three relays.' });
  table.apply({ kind: 'addKey', name: 'UI_Sample_New', text: 'New line' });
  const rows = table.rows.rows(0, 10);
  const byHash = new Map(rows.map((r) => [parseInt(r.hash.slice(2), 16), r.texts]));
  assert.deepEqual(byHash.get(hint), ['Three relays.', SAMPLE_STRINGS.frfr.UI_Sample_GateHint]);
  assert.deepEqual(byHash.get(stringHash('UI_Sample_New')), ['New line', null]);
  table.apply({ kind: 'deleteKey', hash: stringHash('UI_Sample_GateOpen') });
  const gate = table.rows.rows(0, 10).find((r) => parseInt(r.hash.slice(2), 16) === stringHash('UI_Sample_GateOpen'));
  assert.deepEqual(gate?.texts, [null, SAMPLE_STRINGS.frfr.UI_Sample_GateOpen]);
  const undo = table.apply({ kind: 'addHash', hash: stringHash('UI_Sample_GateOpen'), text: 'Open again.' });
  assert.equal(oracle(bytesOf(table)).keys.get(stringHash('UI_Sample_GateOpen')), 'Open again.');
  undo();
  assert.equal(oracle(bytesOf(table)).keys.has(stringHash('UI_Sample_GateOpen')), false);
});

test('a changed text patches its row in place and the search sees it at once; an added key builds the rows again', () => {
  const { table } = sample();
  const rows = table.rows;
  assert.equal(rows.search('gate'), 2); // the English texts of GateOpen and GateAlarm
  const undo = table.apply({ kind: 'setText', hash: stringHash('UI_Sample_GateOpen'), text: 'The door swings open.' });
  assert.equal(table.rows, rows, 'the same rows, patched');
  assert.equal(rows.shown, 1, 'the search runs again: the edited key no longer says gate');
  assert.equal(rows.search('swings'), 1);
  undo();
  assert.equal(rows.shown, 0, 'undo patches the row back');
  table.apply({ kind: 'addKey', name: 'UI_Sample_Swings', text: 'swings' });
  assert.notEqual(table.rows, rows, 'a new key: rows built again');
  assert.equal(table.rows.total, 5);
});

test('a run of edits undone in reverse order gives the original bytes (a shared string and a key pointing into a tail too)', () => {
  // Hand-made layout: B shares A's string, C points into A's tail; writeSkdb would not lay it out so.
  const text = 'Hello world\0';
  const units = text.length;
  const keys = [
    [0x10, 0],
    [0x20, 0],
    [0x30, 6],
  ];
  const bytes = new Uint8Array(0x1c + 8 * keys.length + 2 * units);
  const dv = new DataView(bytes.buffer);
  [0x42444b53, 9, 0x1c, keys.length, 0, units, 0].forEach((w, i) => dv.setUint32(4 * i, w, true));
  keys.forEach(([h, o], i) => (dv.setUint32(0x1c + 8 * i, h, true), dv.setUint32(0x20 + 8 * i, o, true)));
  for (let i = 0; i < units; i++) dv.setUint16(0x1c + 8 * keys.length + 2 * i, text.charCodeAt(i), true);
  const table = EditableStringTable.read(bytes, 't', 'enus', [], ['enus']);
  const undos = [
    table.apply({ kind: 'setText', hash: 0x20, text: 'Bye' }),
    table.apply({ kind: 'deleteKey', hash: 0x10 }),
    table.apply({ kind: 'setText', hash: 0x30, text: 'there' }),
    table.apply({ kind: 'addKey', name: 'Extra', text: 'more' }),
  ];
  assert.deepEqual(
    [...oracle(bytesOf(table)).keys.entries()].sort(),
    [
      [0x20, 'Bye'],
      [0x30, 'there'],
      [stringHash('Extra'), 'more'],
    ].sort(),
  );
  for (const undo of undos.reverse()) undo();
  assert.equal(sha(bytesOf(table)), sha(bytes));
  assert.equal(table.changes, 8);
});

test('a text on one line for the input box and back: line breaks and backslashes survive', () => {
  for (const t of ['plain', 'Two lines.\nSecond.', 'a\\nb (a backslash and n)', 'cr\r\nlf', '\\\\', '']) {
    assert.equal(textFromInput(lineForInput(t)), t);
    assert.ok(!lineForInput(t).includes('\n'));
  }
  assert.equal(textFromInput('C:\\path'), 'C:\\path'); // a backslash before anything else stays
  assert.equal(editLabel({ kind: 'addKey', name: 'K', text: '' }), 'Add Key K');
});

test('the protocol checks the edit messages: a hash is a u32, anything else is dropped', () => {
  assert.deepEqual(checkViewMessage({ type: 'editText', hash: 0xdeadbeef }), { type: 'editText', hash: 0xdeadbeef });
  assert.deepEqual(checkViewMessage({ type: 'deleteKey', hash: 1 }), { type: 'deleteKey', hash: 1 });
  assert.deepEqual(checkViewMessage({ type: 'addKey', extra: 1 }), { type: 'addKey' });
  assert.equal(checkViewMessage({ type: 'editText', hash: '0x1' }), undefined);
  assert.equal(checkViewMessage({ type: 'deleteKey', hash: -1 }), undefined);
  assert.equal(checkViewMessage({ type: 'deleteKey', hash: 2 ** 32 }), undefined);
});
