// The text forms (issue 24): string tables and scripts as text and back, byte for byte; edits made
// in the text; hostile texts (huge counts, unterminated strings, duplicate keys, NUL in names,
// 10 MB single lines) refused with the line and the reason.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { stringHash } from '../../hash/stringHash';
import { parseSkdb } from '../../formats/strings/skdb';
import { writeSkdb } from '../../formats/strings/writer';
import { parseScript } from '../../formats/script/scri';
import { writeScri } from '../../formats/script/writer';
import { fromText, textFormOfText, toText } from '../textForms';
import { scriptSourceForEditing, scriptWithSource } from '../scriptText';
import { expectArch06Error } from '../../../test/support/errors';

const TABLE = writeSkdb([
  { hash: stringHash('UI_Menu_Start'), text: 'Start' },
  { hash: stringHash('Quote'), text: 'He said "run"\nthen\tleft \\ now' },
  { hash: stringHash('Lone'), text: 'half \ud800 pair' },
  { hash: stringHash('Shared_A'), text: 'same' },
  { hash: stringHash('Shared_B'), text: 'same' },
  { hash: stringHash('Empty'), text: '' },
]);

const textsOf = (bytes: Uint8Array): Map<number, string> => new Map(parseSkdb(bytes, 't').entries.map((e) => [e.hash, e.text]));

test('strdb text: from-text(to-text(x)) is x, names in comments where known', () => {
  const text = toText(TABLE, 'string.strdb', { nameOf: (h) => (h === stringHash('Quote') ? 'Quote' : undefined) });
  assert.match(text.split('\n')[0], /^# arch06 strdb text: string\.strdb, 6 keys/);
  assert.match(text, /= "He said \\"run\\"\\nthen\\tleft \\\\ now" # Quote\n/);
  assert.equal(textFormOfText(text, 'x').name, 'strdb');
  assert.deepEqual(fromText(text, 'string.strdb'), TABLE);
});

test('strdb text: a text changed, a key added by name and one deleted, in the text', () => {
  const lines = toText(TABLE, 's.strdb')
    .split('\n')
    .filter((l) => !l.includes('"Start"'))
    .map((l) => (l.startsWith(`0x${stringHash('Shared_A').toString(16).toUpperCase().padStart(8, '0')}`) ? l.replace('"same"', '"changed"') : l));
  lines.push('UI_Added_Key = "added"  # a comment');
  const out = textsOf(fromText(lines.join('\n'), 's.strdb'));
  assert.equal(out.has(stringHash('UI_Menu_Start')), false);
  assert.equal(out.get(stringHash('UI_Added_Key')), 'added');
  assert.equal(out.get(stringHash('Shared_A')), 'changed');
  assert.equal(out.get(stringHash('Shared_B')), 'same');
  assert.equal(out.get(stringHash('Lone')), 'half \ufffd pair'); // the reader shows a lone surrogate as U+FFFD
});

test('strdb text: another layout and nonzero header words come back exactly through "#! layout offsets"', () => {
  const texts = 'Starting Sword\0unused\0tail';
  const bytes = new Uint8Array(0x1c + 16 + 2 * texts.length);
  const dv = new DataView(bytes.buffer);
  [0x42444b53, 9, 0x1c, 2, 7, texts.length, 0x10000].forEach((w, i) => dv.setUint32(4 * i, w, true));
  [
    [0x10, 0],
    [0x20, 9],
  ].forEach(([h, o], i) => {
    dv.setUint32(0x1c + 8 * i, h, true);
    dv.setUint32(0x20 + 8 * i, o, true);
  });
  for (let i = 0; i < texts.length; i++) dv.setUint16(0x2c + 2 * i, texts.charCodeAt(i), true);
  const text = toText(bytes, 'odd.strdb');
  assert.match(text, /^#! words 0x00000007 0x00010000$/m);
  assert.match(text, /^#! layout offsets$/m);
  assert.match(text, /^@15 = "unused"$/m);
  assert.match(text, /^@22 = "tail" !no-nul$/m);
  assert.match(text, /^0x00000020 @9 = "Sword"$/m);
  assert.deepEqual(fromText(text, 'odd.strdb'), bytes);
  // An edit that breaks the layout is an error at its line; without the offsets it is laid out anew.
  expectArch06Error(() => fromText(text.replace('@9 = "Sword"', '@9 = "Spear"'), 'odd.strdb'), 'INVALID', {
    message: /: line \d+: its text disagrees at unit 10 with the text of line \d+/,
  });
  const free = text
    .replace('#! layout offsets\n', '')
    .replace(/^@.*\n/gm, '')
    .replace(/ @\d+ =/g, ' =');
  assert.equal(textsOf(fromText(free, 'odd.strdb')).get(0x20), 'Sword');
});

const header = '# arch06 strdb text\n';

test('strdb text, hostile: each refused with its line and reason', () => {
  const cases: [string, RegExp][] = [
    [`${header}0x1 = "abc`, /: line 2: unterminated string/],
    [`${header}0x1 = "a"\nUI_X = "b"\n0x00000001 = "c"`, /: line 4: the key 0x00000001 is already the key 0x00000001 of line 2/],
    [`${header}UI_Menu_Start = "a"\n${'0x' + stringHash('UI_Menu_Start').toString(16)} = "b"`, /: line 3: .*"UI_Menu_Start".* line 2/],
    [`${header}na\0me = "x"`, /: line 2: a key name cannot hold NUL/],
    [`${header}0x1 = "a\\u0000b"`, /: line 2: a text cannot hold NUL/],
    [`${header}0x123456789 = "a"`, /: line 2: "0x123456789" is not a hash/],
    [`${header}0x1 "a"`, /: line 2: expected KEY = "text"/],
    [`${header}0x1 = 'a'`, /: line 2: the text must be a JSON string/],
    [`${header}0x1 = "a" trailing`, /: line 2: unexpected/],
    [`${header}0x1 = "\\q"`, /: line 2: the text is not a JSON string/],
    [`${header}#! layout offsets\n0x1 @4294967295 = "a"`, /: line 3: the offset 4294967295 lies beyond/],
    [`${header}#! layout offsets\n0x1 @9999999999 = "a"`, /: line 3: the offset 9999999999 is not a u32/],
    [`${header}#! layout offsets\n0x1 @0 = "ab"\n0x2 @1 = "b"\n0x3 @4 = "c"`, /unit 3 of the text area is covered by no line/],
    [`${header}0x1 @0 = "a"`, /: line 2: @offsets are only read under/],
    [`${header}#! frobnicate`, /: line 2: unknown directive/],
    [`${header}#! words 1 2`, /: line 2: #! words takes two hashes/],
  ];
  for (const [text, message] of cases) expectArch06Error(() => fromText(text, 'h.strdb'), 'INVALID', { message });
});

test('strdb text, hostile: 10 MB single lines', () => {
  const big = 'x'.repeat(10 << 20);
  // A valid one is read; an unterminated one fails at its line.
  const bytes = fromText(`${header}\n0x1 = "${big}"\n`, 'big.strdb');
  assert.equal(textsOf(bytes).get(1)!.length, 10 << 20);
  expectArch06Error(() => fromText(`${header}\n\n0x1 = "${big}\n`, 'big.strdb'), 'INVALID', { message: /: line 4: unterminated string/ });
  // A 10 MB key name is a name like any other: hashed.
  assert.equal(textsOf(fromText(`${header}${big} = "a"`, 'big.strdb')).get(stringHash(big)), 'a');
});

test('text forms: a text without a header line, or naming no known form, is refused at line 1', () => {
  expectArch06Error(() => fromText('0x1 = "a"\n', 'x'), 'INVALID', { message: /: line 1: not an arch06 text/ });
  expectArch06Error(() => fromText('# arch06 nonsense text\n', 'x'), 'INVALID', { message: /: line 1: no text form named "?nonsense/ });
  expectArch06Error(() => toText(Uint8Array.of(1, 2, 3, 4), 'x.bin'), 'UNSUPPORTED_FORM');
});

const SOURCE = 'local x = 1\r\nfunction f()\n  return "é"\nend\n';

test('scripts text: the SCRI header in line 1, the source after it unchanged; from-text restores every field', () => {
  for (const bytes of [
    writeScri(SOURCE),
    writeScri(SOURCE, { flag: 7, trailingNuls: 3 }),
    writeScri(SOURCE, { nulTerminated: false }),
    writeScri('\ufeff-- a BOM first\n'),
    writeScri('', { trailingNuls: 0 }),
    writeScri(SOURCE, { bare: true, trailingNuls: 0 }),
  ]) {
    const text = toText(bytes, 'a.scripts');
    assert.match(text, /^-- arch06 scripts text: (SCRI version=\d+ flag=\d+|bare) nuls=\d+/);
    assert.equal(text.slice(text.indexOf('\n') + 1), parseScript(bytes, 'a').source);
    assert.deepEqual(fromText(text, 'a.scripts'), bytes);
  }
  // An edited source: the payload size follows.
  const text = toText(writeScri(SOURCE), 'a.scripts').replace('local x = 1', 'local x = 12345');
  const out = parseScript(fromText(text, 'a.scripts'), 'a');
  assert.equal(out.header!.size, SOURCE.length + 4 + 2); // 4 more characters, "é" is 2 bytes, one NUL
});

test('scripts text: compiled or non-UTF-8 scripts have no exact text and say so', () => {
  const hks = writeScri(Uint8Array.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x0e, 1, 4, 8, 4, 8, 0, 0, 0, 5]));
  expectArch06Error(() => toText(hks, 'c.scripts'), 'UNSUPPORTED_FORM', { message: /compiled/ });
  expectArch06Error(() => toText(writeScri(Uint8Array.from([0x61, 0xff, 0x62, 0])), 'u.scripts'), 'UNSUPPORTED_FORM', { message: /UTF-8/ });
});

test('scripts text, hostile: huge counts, a bad header, NUL in the source, 10 MB lines', () => {
  const h = '-- arch06 scripts text: SCRI version=1 flag=1 nuls=1\n';
  expectArch06Error(() => fromText('-- arch06 scripts text: SCRI version=1 flag=1 nuls=99999999\nx', 's'), 'INVALID', {
    message: /: line 1: nuls=99999999 is over/,
  });
  expectArch06Error(() => fromText('-- arch06 scripts text: SCRI version=9999999999 flag=1 nuls=1\n', 's'), 'INVALID', { message: /: line 1: version/ });
  expectArch06Error(() => fromText('-- arch06 scripts text: SCRI version=1 flag=300 nuls=1\n', 's'), 'INVALID', { message: /: line 1: flag 300/ });
  expectArch06Error(() => fromText('-- arch06 scripts text: SCRI flag=1\n', 's'), 'INVALID', { message: /: line 1: expected/ });
  expectArch06Error(() => fromText(`${h}a\nb\nc\0d\n`, 's'), 'INVALID', { message: /: line 4: the source holds a NUL/ });
  const big = `x = "${'y'.repeat(10 << 20)}"`;
  assert.equal(parseScript(fromText(h + big, 's'), 's').source, big);
  expectArch06Error(() => fromText(`-- arch06 scripts text: SCRI ${'x'.repeat(10 << 20)}\n`, 's'), 'INVALID', { message: /: line 1: expected/ });
});

test('mod scripts: the source alone is edited, saving keeps the header and sets the new payload size', () => {
  const current = writeScri(SOURCE, { flag: 7, trailingNuls: 2 });
  assert.equal(scriptSourceForEditing(current, 'm.scripts'), SOURCE);
  const saved = parseScript(scriptWithSource(current, 'm.scripts', SOURCE + 'print("added")\n'), 'm');
  assert.equal(saved.source, SOURCE + 'print("added")\n');
  assert.deepEqual([saved.header!.version, saved.header!.flag, saved.trailingNuls], [1, 7, 2]);
  assert.equal(saved.header!.size, Buffer.byteLength(SOURCE + 'print("added")\n') + 2);
  expectArch06Error(() => scriptWithSource(current, 'm.scripts', 'a\nb\0'), 'INVALID', { message: /: line 2: the source holds a NUL/ });
  expectArch06Error(
    () => scriptSourceForEditing(writeScri(Uint8Array.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x0e, 1, 4, 8, 4, 8, 0, 0, 0])), 'c'),
    'UNSUPPORTED_FORM',
  );
});
