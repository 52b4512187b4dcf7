// The registry text that compiles back (issue 24 item 4): fromText(toText(x)) == x byte for byte on
// every real and sample registry; edits made in the text land in the bytes; what the syntax cannot
// express is an error at its line with the reason.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sampleLayerRegistry } from '../../sample';
import { isArch06Error } from '../../errors';
import { parseObjr, quaternionFromDegrees, writeObjr } from '../../formats/registry';
import { registryToText } from '../registrySource';
import { registryFromText, registryTextFormat } from '../registrySourceRead';
import { readRealRegistries, realPatch } from '../../../test/support/realLayers';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const PATH = 'worlds\\retail\\sample\\sectionsandlayers\\fortgate.objres';
const sampleText = (): string => registryToText(sampleLayerRegistry(), PATH);
const lineError = (source: string, line: number, pattern: RegExp): void =>
  assert.throws(
    () => registryFromText(source, PATH),
    (e: unknown) => isArch06Error(e) && e.code === 'INVALID' && e.field === `line ${line}` && e.message.includes(`line ${line}: `) && pattern.test(e.message),
    `line ${line}: ${pattern}`,
  );
const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('registry text: the four real registries compile back to the same sha256', { skip: realPatch.skip }, () => {
  for (const r of readRealRegistries()) {
    const text = registryTextFormat.toText(r.bytes, r.path);
    assert.equal(sha(registryTextFormat.fromText(text, r.path)), sha(r.bytes), r.layer);
    // Decoded where the project reads the block, hex elsewhere.
    assert.equal(text.match(/kind=bytes/g)?.length, 9, r.layer);
    assert.ok(text.includes('[objl.set] hash=0x3BDE767D') && text.includes('[scrb.index]') && text.includes('[onls.groups]'), r.layer);
  }
});

test('registry text: both sample registries compile back to the same sha256, and a CRLF copy too', () => {
  for (const bytes of [sampleLayerRegistry(false), sampleLayerRegistry(true)]) {
    const text = registryToText(bytes, PATH);
    assert.equal(sha(registryFromText(text, PATH)), sha(bytes));
    assert.ok(registryTextFormat.recognizes(text) && !registryTextFormat.recognizes('[strings] format=other\n'));
    assert.equal(sha(registryFromText(text.replace(/\n/g, '\r\n'), PATH)), sha(bytes));
  }
});

test('registry text: a block that writes back differently stays hex and still compiles exactly', () => {
  const reg = parseObjr(sampleLayerRegistry(), PATH);
  // An SCRB block whose index is not sorted by hash: decoded by the reader, kept as bytes here.
  const scrb = reg.blocks.find((b) => b.tag === 'SCRB')!;
  const p = scrb.raw.slice();
  const v = new DataView(p.buffer);
  const idx = p.length - 12 * v.getUint32(16, true);
  const first = p.slice(idx, idx + 12);
  p.copyWithin(idx, idx + 12, idx + 24);
  p.set(first, idx + 12);
  const bytes = writeObjr(
    reg.blocks.map((b) => ({ nameHash: b.nameHash, payload: b === scrb ? p : b.raw })),
    reg.hash,
  );
  const text = registryToText(bytes, PATH);
  assert.match(text, /# kept as bytes: it breaks a rule the reader checks \(the object index is not sorted/);
  assert.equal(sha(registryFromText(text, PATH)), sha(bytes));
});

test('registry text: edits in the text land in the bytes (a move in degrees, a rebinding, a new object, a group)', () => {
  let text = sampleText();
  text = text.replace(/^GateQuest\.QR (.*) rot=\([^)]*\)/m, 'GateQuest.QR $1 deg=(0, 45, 0)');
  text = text.replace('function=_gatequest_QR_Script1_48d7e0b6', 'function=Renamed_Function');
  text = text.replace(/^(GateRoute_00\.RN .*)$/m, '$1\nNewObject.SR class=ScriptRelay pos=(1, 2, 3)');
  text = text.replace(/^(\[scrb\.index\].*)$/m, '$1\nNewObject.SR first=0 count=1');
  text = text.replace(/^GateGuards members=\[([^\]]*)\]/m, 'GateGuards members=[$1, NewObject.SR]');
  const reg = parseObjr(registryFromText(text, PATH), PATH);
  assert.equal(reg.confidence, 'confirmed', reg.notes.join('; '));
  const objects = reg.objectList!.objects;
  assert.deepEqual(objects.find((o) => o.name === 'GateQuest.QR')!.rotation, quaternionFromDegrees([0, 45, 0]));
  assert.deepEqual(objects[objects.length - 1].position, [1, 2, 3]);
  assert.ok(reg.bindings!.bindings.some((b) => b.function === 'Renamed_Function'));
  assert.equal(reg.bindings!.objects.length, 6);
  assert.ok(reg.bindings!.sortedByHash, 'the index is sorted when compiled, wherever the line was added');
  assert.ok(reg.groups!.groups.some((g) => g.members.includes('NewObject.SR')));
});

test('registry text: what the syntax cannot express is an error at its line, with the reason', () => {
  const text = sampleText();
  const at = (needle: string): number => lineOf(text, needle);
  const edit = (needle: string, f: (line: string) => string): string =>
    text
      .split('\n')
      .map((l) => (l.includes(needle) ? f(l) : l))
      .join('\n');
  lineError(
    edit('GateQuest.QR class', (l) => l.replace('GateQuest.QR', '"Gate\\u0000Quest"')),
    at('GateQuest.QR class'),
    /NUL/,
  );
  lineError(
    edit('GateQuest.QR class', (l) => l.replace('GateQuest.QR', '"Gate\\u4e00"')),
    at('GateQuest.QR class'),
    /single-byte/,
  );
  lineError(
    edit('GateQuest.QR class', (l) => l.replace(/rot=\([^)]*\)/, 'rot=(0, 0, 0, 2)')),
    at('GateQuest.QR class'),
    /not a unit quaternion/,
  );
  lineError(
    edit('GateQuest.QR class', (l) => l.replace('class=QuestRelay', 'class="QuestRelay')),
    at('GateQuest.QR class'),
    /unterminated string/,
  );
  lineError(
    edit('GateQuest.QR class', (l) => `${l} colour=red`),
    at('GateQuest.QR class'),
    /no attribute colour=/,
  );
  lineError(
    edit('GateGuards members', (l) => l.replace('GateAlarm_00.SR', 'Nobody')),
    at('GateGuards members'),
    /"Nobody" is no object of the OBJL block/,
  );
  lineError(
    edit('GateQuest.QR first=', (l) => l.replace('GateQuest.QR', 'Nobody')),
    at('GateQuest.QR first='),
    /the object "Nobody" is no object/,
  );
  lineError(
    edit('GateQuest.QR first=', (l) => l.replace(/count=\d+/, 'count=99999999999')),
    at('GateQuest.QR first='),
    /count= must be an integer/,
  );
  lineError(
    edit('GateQuest.QR first=', (l) => l.replace(/count=\d+/, 'count=9')),
    at('GateQuest.QR first='),
    /run past the 4 records/,
  );
  lineError(
    edit('0 event=', (l) => l.replace(/^0 /, '1 ')),
    at('0 event='),
    /record 1 where record 0 comes next/,
  );
  const hexAt = text.split('\n').findIndex((l) => l.startsWith('@0x000000')) + 1;
  lineError(
    text
      .split('\n')
      .map((l, i) => (i + 1 === hexAt ? l.replace('@0x000000', '@0x000010') : l))
      .join('\n'),
    hexAt,
    /a line was added, removed or moved/,
  );
  lineError(
    text
      .split('\n')
      .map((l, i) => (i + 1 === hexAt ? l.replace(/ {2}[0-9A-F]{2} /, '  ZZ ') : l))
      .join('\n'),
    hexAt,
    /not a byte in hex/,
  );
  lineError(text.replace('format=arch06-registry-text', 'format=other'), at('[registry]'), /not a registry text/);
  lineError(
    edit('GateQuest.QR class', (l) => `${l.replace('GateQuest.QR', 'GateCon.SO')}`),
    at('GateQuest.QR class'),
    /names "GateCon.SO" twice/,
  );
});

test('registry text: hostile input fails with a line, allocates nothing from a count, and reads a 10 MB line once', () => {
  const text = sampleText();
  // A huge count in a section header is for reading only.
  assert.equal(sha(registryFromText(text.replace(/\[objl\.set\] (.*) count=\d+/, '[objl.set] $1 count=4294967295'), PATH)), sha(sampleLayerRegistry()));
  // A 10 MB line: an unterminated string, reported at its line.
  const long = `${'x'.repeat(64)} class="${'y'.repeat(10 << 20)}`;
  const withLong = text.replace(/^(GateRoute_00\.RN .*)$/m, `$1\n${long}`);
  lineError(withLong, lineOf(withLong, 'xxxxxxxx'), /unterminated string/);
  // Not a registry text at all.
  lineError('hello\n', 1, /starts with its \[registry\] header/);
  lineError('', 1, /starts with its \[registry\] header/);
  // A hex block whose size does not match its lines.
  const hexBlock = lineOf(text, 'kind=bytes size=16');
  lineError(text.replace('kind=bytes size=16', 'kind=bytes size=4000000000'), hexBlock, /size=4000000000; its hex lines hold 16 bytes/);
});
