// `arch06 hashtable` and `arch06 hash --table-from`, as a user runs them: the bundled dist/cli.js
// against synthetic executables (test/support/syntheticExe.ts) written to a temp folder.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { cliJson, runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { IMAGE_BASE, SEED_FILE_OFFSET, fullTable, syntheticExe } from '../support/syntheticExe';
import { formatHash, stringHash } from '../../core/hash';

const SIZE = 1 << 20;
const table = fullTable(3);
const decoy = table.slice();
decoy[0x2e] = 56; // '.' is 55
const dir = tempDir('arch06-hashtable-');
writeTree(dir, {
  'one.exe': syntheticExe(SIZE, [
    { offset: 0x8000, table: decoy },
    { offset: SEED_FILE_OFFSET, table },
    { offset: SIZE - 100, table, keep: 100 },
  ]),
  'none.exe': syntheticExe(SIZE, [{ offset: 0x8000, table: decoy }]),
  'two.exe': syntheticExe(SIZE, [
    { offset: 0x4000, table },
    { offset: 0x9000, table },
  ]),
});
const at = (name: string): string => path.join(dir, name);

function reference(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 919) + table[s.charCodeAt(i)]) >>> 0;
  return formatHash(h);
}

test('hashtable: exactly one table, its offset and address, exit 0', () => {
  const r = runCli('hashtable', at('one.exe'));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(
    r.stdout,
    new RegExp(`file offset 0x${SEED_FILE_OFFSET.toString(16).toUpperCase()}: \\.rdata rva 0x1DB50D0, address 0x141DB50D0 \\(as seed 000 says\\)`),
  );
  // The grid: row 6_ holds 'a'..'o' at 0x61.., the known values 1..15.
  const row6 = r.stdout.split('\n').find((l) => l.startsWith('  6_'));
  assert.ok(row6);
  assert.deepEqual(row6.trim().split(/\s+/).slice(2, 17), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15']);

  const j = cliJson('hashtable', at('one.exe'));
  assert.equal(j.offset, SEED_FILE_OFFSET);
  assert.equal(j.total, 1);
  assert.equal(j.candidates.length, 1);
  assert.equal(j.candidates[0].offset, SEED_FILE_OFFSET);
  assert.equal(j.candidates[0].rva, 0x1db50d0);
  assert.equal(j.candidates[0].virtualAddress, IMAGE_BASE + 0x1db50d0);
  assert.equal(j.candidates[0].section, '.rdata');
  assert.deepEqual(j.candidates[0].table, table);
  assert.deepEqual(j.cutAtEnd, [SIZE - 100]);
  assert.equal(j.error, null);
});

test('hashtable: none or several, exit 2 with one stderr line', () => {
  const none = runCli('hashtable', at('none.exe'));
  assert.equal(none.code, 2);
  assert.equal(none.stdout, '');
  assert.equal(none.stderr.split('\n').length, 2, 'one line');
  assert.match(none.stderr, /^arch06: .*none\.exe: no StringHash table in this executable, .*closest at 0x8000: 67 of 68 agree, entry 0x2e is 56 not 55/);

  const two = runCli('hashtable', at('two.exe'));
  assert.equal(two.code, 2);
  assert.equal(two.stderr.split('\n').length, 2, 'one line');
  assert.match(two.stderr, /2 StringHash table candidates, cannot choose one.*2 at 0x4000, 0x9000 \(identical contents\)/);
  assert.equal(two.stdout.trim().split('\n').length, 2, 'both candidates listed on stdout');

  const j = runCli('hashtable', at('two.exe'), '--json');
  assert.equal(j.code, 2);
  const out = JSON.parse(j.stdout);
  assert.equal(out.offset, null);
  assert.deepEqual(
    out.candidates.map((c: { offset: number }) => c.offset),
    [0x4000, 0x9000],
  );
  assert.equal(out.error.code, 'INVALID');

  const missing = runCli('hashtable', at('absent.exe'));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^arch06: /);
});

test('hash --table-from: known names hash as before, other bytes hash with the found table', () => {
  for (const name of ['UI_1Sword_Starting_N', 'worlds\\retail\\x.objres']) {
    const r = runCli('hash', '--table-from', at('one.exe'), name);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), formatHash(stringHash(name)));
  }
  const plain = runCli('hash', 'a(b)');
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /not known/);
  const r = runCli('hash', 'a(b)', '--table-from', at('one.exe'));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), reference('a(b)'));
  const j = cliJson('hash', '--table-from', at('one.exe'), 'x&y');
  assert.deepEqual(j, { string: 'x&y', hash: reference('x&y'), table: { file: at('one.exe'), offset: SEED_FILE_OFFSET } });
});

test('hash --table-from an executable without exactly one table fails, exit 2', () => {
  for (const exe of ['none.exe', 'two.exe']) {
    const r = runCli('hash', '--table-from', at(exe), 'abc');
    assert.equal(r.code, 2, exe);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^arch06: .*StringHash table/);
  }
  const noValue = runCli('hash', 'abc', '--table-from');
  assert.equal(noValue.code, 2);
  assert.match(noValue.stderr, /--table-from needs a value/);
});

test('help lists hashtable and hash --table-from', () => {
  const r = runCli('--help');
  assert.match(r.stdout, /hashtable <exe>/);
  assert.match(r.stdout, /--table-from EXE/);
});
