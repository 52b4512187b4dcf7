// The StringHash table scan on synthetic executables: random bytes under a PE32+ header with
// full tables, decoys (one known value wrong, a table cut by the end of the file) and copies planted.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error, isArch06Error } from '../../errors';
import { StringHasher, formatHash, knownHashTable, stringHash } from '../stringHash';
import { SEED_TABLE_RVA, findHashTables, parsePe, tableFromExecutable } from '../tableScan';
import { IMAGE_BASE, SEED_FILE_OFFSET, fullTable, syntheticExe } from '../../../test/support/syntheticExe';
import { countingBytes } from '../../../test/support/workCounters';

const SIZE = 1 << 20;
const table = fullTable(1);
/** One known value wrong: backslash (0x5C) is 43, not 42. */
const decoy = table.slice();
decoy[0x5c] = 43;
const CUT = SIZE - 200; // only 200 of the 256 bytes fit

/** StringHash from its definition (seed 000: h = h * 919 + LUT[c], 32-bit), for any table. */
function reference(t: readonly number[], s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 919) + t[s.charCodeAt(i)]) >>> 0;
  return h;
}

test('exactly one full table among decoys: found at its offset, with its PE address', () => {
  const exe = syntheticExe(SIZE, [
    { offset: 0x9000, table: decoy },
    { offset: SEED_FILE_OFFSET, table },
    { offset: CUT, table, keep: 200 },
  ]);
  const scan = findHashTables(exe);
  assert.equal(scan.total, 1);
  assert.equal(scan.knownEntries, knownHashTable().filter((v) => v !== undefined).length);
  assert.equal(scan.candidates[0].offset, SEED_FILE_OFFSET);
  assert.deepEqual(scan.candidates[0].table, table);
  assert.deepEqual(scan.candidates[0].image, { section: '.rdata', rva: SEED_TABLE_RVA, virtualAddress: IMAGE_BASE + SEED_TABLE_RVA });
  assert.ok(scan.isPe);
  assert.deepEqual(scan.cutAtEnd, [CUT]);
  assert.equal(scan.closest, undefined, 'a closest miss is only reported when nothing matched');

  const found = tableFromExecutable(exe);
  assert.ok(!isArch06Error(found));
  assert.equal(found.offset, SEED_FILE_OFFSET);
  assert.equal(found.image?.rva, SEED_TABLE_RVA);
});

test('the found table hashes known names as before, and bytes outside the known set', () => {
  const found = tableFromExecutable(syntheticExe(SIZE, [{ offset: 0x5123, table }]));
  assert.ok(!isArch06Error(found));
  const hasher = new StringHasher(found.table);
  for (const name of ['UI_1Sword_Starting_N', 'TribeDef_Goblin', 'database\\string\\enus\\string.strdb', 'a/b c-d.e']) {
    assert.equal(hasher.hash(name), stringHash(name), name);
  }
  assert.equal(formatHash(hasher.hash('UI_1Sword_Starting_N')), '0xDCDB4713');
  // Bytes the seeds do not give: the default hasher refuses them, the found table hashes them.
  for (const name of ['a(b)', 'x&y', '100%', 'quest:start', '\u00e9t\u00e9']) {
    assert.throws(
      () => stringHash(name),
      (e: unknown) => e instanceof Arch06Error && e.code === 'UNKNOWN_HASH_BYTE',
    );
    assert.equal(hasher.hash(name), reference(table, name), name);
  }
  for (let b = 0; b < 256; b++) assert.ok(hasher.knows(b), `byte ${b}`);
});

test('no full table: none, with the closest miss and the cut table named', () => {
  const exe = syntheticExe(SIZE, [
    { offset: 0x9000, table: decoy },
    { offset: CUT, table, keep: 200 },
  ]);
  const scan = findHashTables(exe);
  assert.equal(scan.total, 0);
  assert.deepEqual(scan.candidates, []);
  assert.deepEqual(scan.closest, { offset: 0x9000, agree: scan.knownEntries - 1, byte: 0x5c, expected: 42, actual: 43 });
  assert.deepEqual(scan.cutAtEnd, [CUT]);
  const err = tableFromExecutable(exe, { file: 'ShadowOfWar.exe' });
  assert.ok(isArch06Error(err));
  assert.equal(err.code, 'INVALID');
  assert.equal(err.file, 'ShadowOfWar.exe');
  assert.match(err.message, /no StringHash table/);
  assert.match(err.message, new RegExp(`cut by the end of the file`));
  assert.match(err.message, /closest at 0x9000: 67 of 68 agree, entry 0x5c is 43 not 42/);
});

test('nothing table-like at all: the reason says so', () => {
  const exe = new Uint8Array(4096); // zeros: not even the first known value
  const err = tableFromExecutable(exe);
  assert.ok(isArch06Error(err));
  assert.match(err.message, /no offset holds even the first two known values/);
  assert.equal(findHashTables(new Uint8Array(10)).total, 0, 'a file shorter than a table');
});

test('several full tables: no choice, every offset named, identical or not', () => {
  const identical = syntheticExe(SIZE, [
    { offset: 0x4000, table },
    { offset: 0x70001, table },
  ]);
  const scan = findHashTables(identical);
  assert.equal(scan.total, 2);
  assert.deepEqual(
    scan.candidates.map((c) => c.offset),
    [0x4000, 0x70001],
  );
  const err = tableFromExecutable(identical);
  assert.ok(isArch06Error(err));
  assert.equal(err.code, 'INVALID');
  assert.match(err.message, /2 StringHash table candidates/);
  assert.match(err.message, /2 at 0x4000, 0x70001 \(identical contents\)/);

  const other = fullTable(2); // same known values, other unknown ones
  const differ = tableFromExecutable(
    syntheticExe(SIZE, [
      { offset: 0x4000, table },
      { offset: 0x8000, table: other },
    ]),
  );
  assert.ok(isArch06Error(differ));
  assert.match(differ.message, /their contents differ/);
});

test('candidates kept are capped, all are counted', () => {
  const planted = [0x3000, 0x5000, 0x7000, 0x9000].map((offset) => ({ offset, table }));
  const scan = findHashTables(syntheticExe(SIZE, planted), { maxCandidates: 2 });
  assert.equal(scan.total, 4);
  assert.equal(scan.candidates.length, 2);
  const err = tableFromExecutable(syntheticExe(SIZE, planted), { maxCandidates: 2 });
  assert.ok(isArch06Error(err));
  assert.match(err.message, /4 at 0x3000, 0x5000 and 2 more/);
});

test('4-byte entries are found only when asked for', () => {
  const exe = syntheticExe(SIZE, [{ offset: 0x6000, table, elementSize: 4 }]);
  assert.equal(findHashTables(exe).total, 0);
  const scan = findHashTables(exe, { elementSize: 4 });
  assert.equal(scan.total, 1);
  assert.equal(scan.candidates[0].offset, 0x6000);
  assert.deepEqual(scan.candidates[0].table, table);
  assert.equal(findHashTables(syntheticExe(SIZE, [{ offset: 0x6000, table, elementSize: 2 }]), { elementSize: 2 }).total, 1);
});

test('not a PE: the table is found, without an address', () => {
  const exe = syntheticExe(SIZE, [{ offset: 0x100, table }], { pe: false });
  const scan = findHashTables(exe);
  assert.equal(scan.isPe, false);
  assert.equal(scan.total, 1);
  assert.equal(scan.candidates[0].image, undefined);
  assert.equal(parsePe(exe), undefined);
});

test('a PE header cut short or pointing outside the file gives no address, no error', () => {
  const exe = syntheticExe(SIZE, [{ offset: SEED_FILE_OFFSET, table }]);
  assert.ok(parsePe(exe));
  assert.equal(parsePe(exe.subarray(0, 0x100)), undefined, 'section table cut off');
  const bad = exe.slice();
  new DataView(bad.buffer).setUint32(0x3c, 0xfffffff0, true);
  assert.equal(parsePe(bad), undefined);
  assert.equal(findHashTables(bad).candidates[0].image, undefined);
  // An offset outside every section (in the headers) has no address.
  assert.equal(parsePe(exe)?.addressOf(0x10), undefined);
});

test('bad options are typed errors', () => {
  assert.throws(
    () => findHashTables(new Uint8Array(1024), { reference: [1, 2, 3] }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
  );
  assert.throws(
    () => findHashTables(new Uint8Array(1024), { elementSize: 3 as 1 }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT' && e.field === 'elementSize',
  );
  assert.throws(
    () => findHashTables(new Uint8Array(1024), { maxCandidates: 0 }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT' && e.field === 'maxCandidates',
  );
  assert.throws(
    () => findHashTables(new Uint8Array(1024), { reference: new Array(256).fill(undefined) }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
  );
});

test('an executable-sized file: the table near the end of 64 MiB is found', { timeout: 300_000 }, () => {
  const size = 64 << 20;
  const exe = syntheticExe(size, [{ offset: size - 4096, table }], { seed: 99 });
  const scan = findHashTables(exe);
  assert.equal(scan.total, 1);
  assert.equal(scan.candidates[0].offset, size - 4096);
});

test('one linear pass, counted: byte reads grow with the file, one or two per offset', () => {
  const reads = (size: number): number => {
    const counted = countingBytes(syntheticExe(size, [{ offset: size - 4096, table }], { seed: 99 }));
    const scan = findHashTables(counted.bytes);
    assert.equal(scan.total, 1);
    assert.equal(scan.candidates[0].offset, size - 4096);
    return counted.reads();
  };
  const small = reads(1 << 20);
  const large = reads(2 << 20);
  // One or two cheap-check bytes per offset, the full comparison only where both agree (random bytes: 1 in 65,536), the found table read once.
  for (const [size, n] of [
    [1 << 20, small],
    [2 << 20, large],
  ]) {
    assert.ok(n >= size - 512 && n <= 2 * size + 70 * (size >> 12) + 1024, `${n} reads for ${size} bytes`);
  }
  // Linear: twice the file, twice the reads (a quadratic scan would be four times).
  assert.ok(large / small < 2.1, `${small} then ${large} reads`);
});
