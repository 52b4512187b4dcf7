// The string-table editor's model (stringTableModel.ts) in plain node: languages aligned by key
// hash, key names from the dictionary, search by text / key name / hash prefix, incremental
// search, windows of rows, the CSV and JSON exports; and the protocol's message check.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseSkdb, writeSkdb } from '../../../core/formats/strings';
import { HashDictionary, formatHash, stringHash } from '../../../core/hash';
import { SAMPLE_STRINGS, sampleStringTable } from '../../../core/sample';
import { checkViewMessage } from '../../../media/strings/protocol';
import { MAX_WINDOW, StringTableModel, csvField } from '../stringTableModel';

const table = (language: string, entries: Record<string, string>) => ({
  language,
  table: parseSkdb(writeSkdb(Object.entries(entries).map(([k, text]) => ({ hash: stringHash(k), text }))), `${language}.strdb`),
});

function sampleModel(dictionary?: HashDictionary): StringTableModel {
  return new StringTableModel(
    [
      { language: 'enus', table: parseSkdb(sampleStringTable('enus'), 'enus') },
      { language: 'frfr', table: parseSkdb(sampleStringTable('frfr'), 'frfr') },
    ],
    dictionary,
  );
}

test('languages are aligned by key hash: the union of keys ascending, a missing key is null', () => {
  const m = new StringTableModel([table('enus', { A_Key: 'one', B_Key: 'two' }), table('dede', { B_Key: 'zwei', C_Key: 'drei' })]);
  assert.deepEqual(m.languages, ['enus', 'dede']);
  assert.equal(m.total, 3);
  assert.deepEqual(m.keyCounts(), [2, 2]);
  const rows = m.rows(0, 10);
  const expected = [
    ['A_Key', 'one', null],
    ['B_Key', 'two', 'zwei'],
    ['C_Key', null, 'drei'],
  ]
    .map(([k, en, de]) => ({ hash: stringHash(k!), texts: [en, de] }))
    .sort((a, b) => a.hash - b.hash);
  assert.deepEqual(
    rows.map((r) => [r.hash, r.texts]),
    expected.map((e) => [formatHash(e.hash), e.texts]),
  );
  assert.ok(rows.every((r) => r.key === null && r.origin === null));
});

test('key names come from the dictionary; a new dictionary renames the rows', () => {
  const m = sampleModel();
  assert.equal(m.namedKeys, 0);
  const d = new HashDictionary();
  d.add('UI_Sample_GateOpen', 'script literal');
  d.add('UI_Sample_GateAlarm', 'user file');
  m.setDictionary(d);
  assert.equal(m.namedKeys, 2);
  const rows = m.rows(0, 10);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  assert.equal(byKey.get('UI_Sample_GateOpen')!.texts[0], SAMPLE_STRINGS.enus.UI_Sample_GateOpen);
  assert.equal(byKey.get('UI_Sample_GateOpen')!.origin, 'script literal');
  assert.equal(byKey.get('UI_Sample_GateAlarm')!.texts[1], SAMPLE_STRINGS.frfr.UI_Sample_GateAlarm);
  assert.equal(rows.filter((r) => r.key === null).length, 2);
});

test('search: text in any shown language, any case; key names; 0x hash prefixes', () => {
  const d = new HashDictionary();
  d.add('UI_1Sword_Starting_N', 'path');
  const m = sampleModel(d);
  assert.equal(m.search('GATE'), 2); // "The gate opens." and "Alarm at the gate!"
  assert.equal(m.search('porte'), 2); // French only
  assert.deepEqual(
    m
      .rows(0, 5)
      .map((r) => r.texts[1])
      .sort(),
    [SAMPLE_STRINGS.frfr.UI_Sample_GateOpen, SAMPLE_STRINGS.frfr.UI_Sample_GateAlarm].sort(),
  );
  // Hiding French: its texts no longer match, and rows carry English only.
  m.setShownLanguages(['enus']);
  assert.equal(m.shown, 0);
  assert.equal(m.search('sword'), 1); // the key name
  assert.deepEqual(m.rows(0, 5), [{ hash: '0xDCDB4713', key: 'UI_1Sword_Starting_N', origin: 'path', texts: ['Urfael'] }]);
  m.setShownLanguages(['frfr', 'enus', 'xxxx']);
  assert.deepEqual(m.shownLanguageNames, ['frfr', 'enus']);
  assert.equal(m.search('0xdcdb'), 1);
  assert.equal(m.rows(0, 1)[0].hash, '0xDCDB4713');
  assert.equal(m.search('0x'), 4);
  assert.equal(m.search('0xDCDB47130'), 0); // nine digits: not a hash query, and no text holds it
  assert.equal(m.search('  '), 4);
  m.setShownLanguages([]);
  assert.deepEqual(m.shownLanguageNames, ['enus', 'frfr']);
});

test('the languages shown at first; a language shown later is searched too', () => {
  const m = new StringTableModel(
    [
      { language: 'enus', table: parseSkdb(sampleStringTable('enus'), 'enus') },
      { language: 'frfr', table: parseSkdb(sampleStringTable('frfr'), 'frfr') },
    ],
    undefined,
    ['enus'],
  );
  assert.deepEqual(m.shownLanguageNames, ['enus']);
  assert.equal(m.search('relais'), 0);
  assert.equal(m.rows(0, 1).length, 0);
  m.setShownLanguages(['enus', 'frfr']);
  assert.equal(m.shown, 1);
  assert.deepEqual(m.rows(0, 1)[0].texts, [SAMPLE_STRINGS.enus.UI_Sample_GateHint, SAMPLE_STRINGS.frfr.UI_Sample_GateHint]);
});

test('search as you type: each extension filters the previous result; every result is the naive filter of the entries', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const entries: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) entries[`K_${i}`] = `${words[i % 5]} ${words[(i * 7) % 5]} ${i}`;
  // The oracle: a plain scan of what the test wrote (text contains the query, any case; or the
  // 8-digit hash starts with the digits after 0x), in ascending hash order as the table holds keys.
  const naive = (query: string): number[] => {
    const q = query.trim();
    const hits = Object.entries(entries)
      .filter(([k, text]) =>
        /^0x/i.test(q) ? formatHash(stringHash(k)).slice(2).startsWith(q.slice(2).toUpperCase()) : text.toLowerCase().includes(q.toLowerCase()),
      )
      .map(([k]) => stringHash(k));
    return hits.sort((a, b) => a - b);
  };
  const m = new StringTableModel([table('enus', entries)]);
  const check = (query: string): void => {
    const want = naive(query);
    assert.equal(m.search(query), want.length, query);
    const got: string[] = [];
    for (let at = 0; at < m.shown; at += MAX_WINDOW) got.push(...m.rows(at, MAX_WINDOW).map((r) => r.hash));
    assert.deepEqual(got, want.map(formatHash), query);
  };
  const typed = 'epsilon d';
  for (let n = 1; n <= typed.length; n++) check(typed.slice(0, n));
  // 'epsilon' leads only when i % 5 == 4, and then (i * 7) % 5 == 3: 'epsilon delta', 600 of 3000.
  assert.equal(m.shown, 600);
  // Deleting a letter widens again; case does not matter.
  check('DELTA');
  assert.ok(m.shown > naive('epsilon d').length);
  // Hash mode after text mode: not an extension of it.
  check('0');
  check('0x');
  assert.equal(m.shown, 3000);
  check('0xA');
  check('0xAB');
});

test('rows: windows over the filtered list, clamped, at most MAX_WINDOW', () => {
  const entries: Record<string, string> = {};
  for (let i = 0; i < 2500; i++) entries[`Key_${i}`] = `text ${i}`;
  const m = new StringTableModel([table('enus', entries)]);
  assert.equal(m.rows(0, 5000).length, MAX_WINDOW);
  assert.equal(m.rows(2490, 50).length, 10);
  assert.equal(m.rows(9999, 5).length, 0);
  assert.equal(m.rows(-5, 2).length, 2);
  m.search('text 12');
  assert.equal(m.shown, 1 + 10 + 100); // 12, 120-129, 1200-1299
  assert.deepEqual(m.rows(m.shown - 1, 10).length, 1);
});

test('CSV: RFC 4180 quoting, header hash,key,<languages>, CRLF lines; JSON: keys, languages, entries', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  const d = new HashDictionary();
  d.add('UI_Sample_GateHint', 'script literal');
  const m = sampleModel(d);
  m.search('relay');
  const csv = m.toCsv();
  assert.equal(
    csv,
    `hash,key,enus,frfr\r\n${formatHash(stringHash('UI_Sample_GateHint'))},UI_Sample_GateHint,"Two relays raise the alarm.\nFind them both.","${SAMPLE_STRINGS.frfr.UI_Sample_GateHint}"\r\n`,
  );
  m.search('');
  const json = JSON.parse(m.toJson());
  assert.equal(json.keys, 4);
  assert.deepEqual(json.languages, ['enus', 'frfr']);
  assert.equal(json.entries.length, 4);
  const hint = json.entries.find((e: any) => e.key === 'UI_Sample_GateHint');
  assert.deepEqual(hint, {
    hash: formatHash(stringHash('UI_Sample_GateHint')),
    key: 'UI_Sample_GateHint',
    texts: { enus: SAMPLE_STRINGS.enus.UI_Sample_GateHint, frfr: SAMPLE_STRINGS.frfr.UI_Sample_GateHint },
  });
  assert.ok(json.entries.every((e: any) => /^0x[0-9A-F]{8}$/.test(e.hash)));
  // A missing text is left out of JSON and empty in CSV.
  const gap = new StringTableModel([table('enus', { Only_En: 'x' }), table('frfr', { Only_Fr: 'y' })]);
  const parsed = JSON.parse(gap.toJson());
  assert.deepEqual(
    parsed.entries.map((e: any) => Object.keys(e.texts)),
    parsed.entries.map((e: any) => (e.hash === formatHash(stringHash('Only_En')) ? ['enus'] : ['frfr'])),
  );
  assert.ok(
    gap
      .toCsv()
      .split('\r\n')
      .slice(1, 3)
      .every((l) => /^0x[0-9A-F]{8},,(x,|,y)$/.test(l)),
  );
});

test('checkViewMessage: the closed union, fields checked and bounded', () => {
  assert.deepEqual(checkViewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(checkViewMessage({ type: 'query', seq: 3, text: 'gate', languages: ['enus', 7, 'frfr'] }), {
    type: 'query',
    seq: 3,
    text: 'gate',
    languages: ['enus', 'frfr'],
  });
  assert.equal((checkViewMessage({ type: 'query', seq: 1, text: 'x'.repeat(10_000), languages: [] }) as any).text.length, 256);
  assert.equal(checkViewMessage({ type: 'query', seq: -1, text: '', languages: [] }), undefined);
  assert.equal(checkViewMessage({ type: 'query', seq: 1, text: 5, languages: [] }), undefined);
  assert.deepEqual(checkViewMessage({ type: 'rows', seq: 1, start: 0, count: 40 }), { type: 'rows', seq: 1, start: 0, count: 40 });
  assert.equal(checkViewMessage({ type: 'rows', seq: 1, start: 1.5, count: 40 }), undefined);
  assert.deepEqual(checkViewMessage({ type: 'export', format: 'csv' }), { type: 'export', format: 'csv' });
  assert.equal(checkViewMessage({ type: 'export', format: 'xml' }), undefined);
  assert.equal(checkViewMessage({ type: 'open' }), undefined);
  assert.equal(checkViewMessage(null), undefined);
});
