/**
 * Archives from strangers (issue 10): names that try to be paths, folder links that loop, tables
 * that repeat one path or one huge name many times, chunks whose payload is longer than the
 * chunk, cfg lines naming files that are no archive. Each case is built by the project's writer
 * with placeholder names of the same length, then patched byte for byte, so offsets stay valid.
 * Bounded time is the test runner's `timeout`; nothing here reads a clock.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { LtarArchive } from '../../formats/archive/ltar/reader';
import { FILE_RECORD_SIZE, FOLDER_FIRST_CHILD, FOLDER_NEXT_SIBLING, FOLDER_RECORD_SIZE, NAME_POOL_START } from '../../formats/archive/ltar/layout';
import { writePathIndex, parsePathIndex } from '../../formats/archive/pathIndex';
import { MemoryByteSource } from '../../io/byteSource';
import { Mount } from '../mount';
import { verifyMount } from '../verify';
import { collectEntries } from '../extract';
import { tempDir, writeTree } from '../../../test/support/fixtures';

/** Header fields of an archive's bytes. */
function tables(bytes: Uint8Array): { pool: number; files: number; folders: number; fileCount: number; folderCount: number; dv: DataView } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const poolSize = dv.getUint32(8, true);
  const folderCount = dv.getUint32(12, true);
  const fileCount = dv.getUint32(16, true);
  const files = NAME_POOL_START + poolSize;
  return { pool: NAME_POOL_START, files, folders: files + fileCount * FILE_RECORD_SIZE, fileCount, folderCount, dv };
}

/** Replace every occurrence of `from` in the name pool with `to` (same length). */
function patchName(bytes: Uint8Array, from: string, to: string): Uint8Array {
  assert.equal(from.length, to.length);
  const t = tables(bytes);
  const pool = Buffer.from(bytes.buffer, bytes.byteOffset + t.pool, t.files - t.pool);
  const a = Buffer.from(from, 'latin1');
  let hits = 0;
  for (let at = pool.indexOf(a); at >= 0; at = pool.indexOf(a, at + 1)) {
    pool.write(to, at, 'latin1');
    hits++;
  }
  assert.ok(hits > 0, `"${from}" is not in the pool`);
  return bytes;
}

function folderIndex(bytes: Uint8Array, folderPath: string): number {
  const a = LtarArchive.open(new MemoryByteSource('x', bytes));
  for (let f = 0; f < a.folderCount; f++) if (a.folderPath(f) === folderPath) return f;
  throw new Error(`no folder ${folderPath}`);
}

function setLink(bytes: Uint8Array, folder: number, field: 'firstChild' | 'nextSibling', value: number): Uint8Array {
  const t = tables(bytes);
  t.dv.setUint32(t.folders + folder * FOLDER_RECORD_SIZE + (field === 'firstChild' ? FOLDER_FIRST_CHILD : FOLDER_NEXT_SIBLING), value >>> 0, true);
  return bytes;
}

/** An install whose cfg names `Mod.arch06` (consulted first) above a clean Base. */
function install(mod: Uint8Array): string {
  const base = new LtarWriter();
  base.addBytes('game\\Base.txt', Buffer.from('base'));
  const root = tempDir();
  writeTree(root, { 'x64/default.archcfg': '..\\Base.arch06\r\n..\\Mod.arch06\r\n', 'Base.arch06': base.toBytes(), 'Mod.arch06': mod });
  return root;
}

test('a leaf that names a path (..\\game\\Base.arch06) is hidden from listings, lookups and the index, and verify names it', () => {
  const w = new LtarWriter();
  w.addBytes('sub\\ok.txt', Buffer.from('fine'));
  w.addBytes('sub\\XXXgameXBase.arch06', Buffer.from('evil'));
  w.addBytes('sub\\YYYYYYY', Buffer.from('evil2'));
  const bytes = patchName(patchName(w.toBytes(), 'XXXgameXBase.arch06', '..\\game\\Base.arch06'), 'YYYYYYY', '../../x');
  const a = LtarArchive.open(new MemoryByteSource('Mod.arch06', bytes));
  assert.equal(a.hiddenRecords.length, 2);
  const m = Mount.open({ root: install(bytes) });
  assert.deepEqual(
    m.list('sub')!.files.map((f) => f.name),
    ['ok.txt'],
  );
  assert.equal(m.index().size, 2, 'only sub\\ok.txt and game\\Base.txt');
  assert.deepEqual(
    collectEntries(m, 'sub').map((e) => e.path),
    ['sub\\ok.txt'],
  );
  assert.deepEqual(
    collectEntries(m, '', 'Mod.arch06').map((e) => e.path),
    ['sub\\ok.txt'],
  );
  const r = verifyMount(m);
  const unsafe = r.failures.filter((f) => f.code === 'UNSAFE_NAME');
  assert.equal(unsafe.length, 2);
  assert.ok(
    unsafe.every((f) => f.source === 'Mod.arch06' && /file\[\d+\]/.test(f.message)),
    JSON.stringify(unsafe),
  );
  assert.ok(unsafe.some((f) => f.path === 'sub\\..\\game\\Base.arch06'));
  m.close();
});

test('folder segments that are not names (.., a drive, control characters) hide the folder and its files', () => {
  const w = new LtarWriter();
  w.addBytes('ok\\a.txt', Buffer.from('a'));
  w.addBytes('QQ\\b.txt', Buffer.from('b'));
  w.addBytes('WW\\c.txt', Buffer.from('c'));
  w.addBytes('ZZZ\\d.txt', Buffer.from('d'));
  let bytes = patchName(w.toBytes(), 'QQ', '..');
  bytes = patchName(bytes, 'WW', 'C:');
  bytes = patchName(bytes, 'ZZZ', 'e\x1b[');
  const m = Mount.open({ root: install(bytes) });
  assert.deepEqual(
    m.list('')!.folders.map((f) => f.name),
    ['game', 'ok'],
  );
  assert.equal(m.which('C:\\c.txt'), undefined);
  const a = (m.source('Mod.arch06') as unknown as { archive: LtarArchive }).archive;
  assert.equal(a.structureProblems.length, 3, a.structureProblems.join('\n'));
  assert.equal(verifyMount(m).failures.filter((f) => f.code === 'UNSAFE_NAME').length, 3);
  m.close();
});

test('folder links that loop back to the root, name a folder as its own sibling, or chain 20,000 deep end in bounded work', { timeout: 20_000 }, () => {
  // The root as a child of a child: the old walk recursed until the stack overflowed.
  const w = new LtarWriter();
  w.addBytes('a\\x.txt', Buffer.from('x'));
  w.addBytes('b\\y.txt', Buffer.from('y'));
  let bytes = w.toBytes();
  bytes = setLink(bytes, folderIndex(bytes, 'a'), 'firstChild', 0);
  // A folder that is its own next sibling: the old walk was exponential.
  bytes = setLink(bytes, folderIndex(bytes, 'b'), 'nextSibling', folderIndex(bytes, 'b'));
  const m = Mount.open({ root: install(bytes) });
  assert.deepEqual(
    m.list('')!.folders.map((f) => f.name),
    ['a', 'b', 'game'],
  );
  assert.deepEqual(m.list('a')!.folders, []);
  assert.deepEqual([...m.walk('')].map((e) => e.path).sort(), ['a\\x.txt', 'b\\y.txt', 'game\\Base.txt']);
  assert.equal(collectEntries(m, '', 'Mod.arch06').length, 2);
  const findings = verifyMount(m).failures.filter((f) => f.source === 'Mod.arch06');
  assert.ok(findings.length >= 1 && findings.every((f) => f.code === 'INVALID'), JSON.stringify(findings));
  m.close();

  // 20,000 folders, each linked as the first child of the one before (all are children of the root by path).
  const deep = new LtarWriter();
  for (let i = 0; i < 20_000; i++) deep.addBytes(`f${String(i).padStart(5, '0')}\\x`, Buffer.from('x'));
  let d = deep.toBytes();
  const t = tables(d);
  for (let f = 1; f < t.folderCount - 1; f++) setLink(d, f, 'firstChild', f + 1);
  d = setLink(d, 0, 'firstChild', 1);
  const a = LtarArchive.open(new MemoryByteSource('deep.arch06', d));
  assert.ok(a.children(0).length >= 1);
  assert.ok(a.structureProblems.length > 0);
});

test('one path held many times by one archive: one distinct path, not a copy; lookups and listings agree on the served record', { timeout: 20_000 }, () => {
  const n = 100_000;
  const w = new LtarWriter();
  for (let i = 0; i < n; i++) w.addBytes(`d\\f${String(i).padStart(6, '0')}`, Buffer.from(String(i)));
  const bytes = w.toBytes();
  // Every leaf becomes "f000000": the names stay sorted (all equal), offsets unchanged.
  const t = tables(bytes);
  const pool = Buffer.from(bytes.buffer, bytes.byteOffset + t.pool, t.files - t.pool);
  for (let at = pool.indexOf('f'); at >= 0; at = pool.indexOf('f', at + 7)) pool.write('f000000', at, 'latin1');
  const m = Mount.open({ root: install(bytes) });
  assert.equal(m.index().size, 2);
  assert.equal(m.index().shadowedCount(), 0);
  const dup = m.index().duplicates;
  assert.equal(dup.length, 1);
  assert.equal(dup[0].files.length, n);
  const listed = m.list('d')!.files;
  assert.equal(listed.length, 1);
  assert.equal(listed[0].copies, 1, 'a duplicate inside one archive is not "+1 shadowed"');
  const served = m.entry('d\\f000000');
  assert.equal((listed[0].winner as unknown as { index: number }).index, (served as unknown as { index: number }).index);
  assert.equal(dup[0].served, (served as unknown as { index: number }).index);
  const r = verifyMount(m);
  assert.ok(r.warnings.some((x) => /held 100000 times.*lookups get record/.test(x.message)));
  m.close();
});

test('50,000 records sharing one 500 KB leaf name cost the name once: hidden as over-long, mount and listing stay small', { timeout: 30_000 }, () => {
  const n = 50_000;
  const w = new LtarWriter();
  for (let i = 0; i < n; i++) w.addBytes(`d\\${String(i).padStart(5, '0')}`, Buffer.from('x'));
  w.addBytes('z\\' + 'L'.repeat(500_000), Buffer.from('long'));
  const bytes = w.toBytes();
  const t = tables(bytes);
  // Point every record of folder d at the long name.
  const longAt = Buffer.from(bytes.buffer, bytes.byteOffset + t.pool, t.files - t.pool).indexOf('LLLL');
  for (let i = 0; i < t.fileCount; i++) t.dv.setUint32(t.files + i * FILE_RECORD_SIZE, longAt, true);
  const before = process.memoryUsage().heapUsed;
  const m = Mount.open({ root: install(bytes) });
  assert.deepEqual(m.list('d')!.files, []);
  assert.equal(m.index().size, 1);
  const r = verifyMount(m);
  assert.equal(r.failures.filter((f) => f.code === 'UNSAFE_NAME').length, n + 1);
  assert.ok(r.failures.every((f) => f.path.length < 400));
  // Far below n x 500 KB (25 GB): the names were never built in full.
  assert.ok(process.memoryUsage().heapUsed - before < 512 << 20);
  m.close();
});

test('path-index rows that all point at one long string are read once, not once per row', { timeout: 20_000 }, () => {
  const ix = Buffer.from(writePathIndex(['a\\' + 'x'.repeat(2000)]));
  // Repeat the one row 200,000 times (the table's count and rows rewritten).
  const rows = 200_000;
  const stringBytes = ix.readUInt32LE(4);
  const head = ix.subarray(0, 8 + stringBytes);
  const table = Buffer.alloc(4 + rows * 8);
  table.writeUInt32LE(rows, 0);
  for (let i = 0; i < rows; i++) table.writeUInt32LE(ix.readUInt32LE(8 + stringBytes + 4), 4 + i * 8);
  const parsed = parsePathIndex(Buffer.concat([head, table]));
  assert.equal(parsed.rows.length, 0, 'a path over the length bound is left out');
  assert.equal(parsed.problems.length, rows);
});

test('storedLen > rawLen: an Oodle stream that yields exactly rawLen bytes is decoded, anything else fails; never a prefix', () => {
  const raw = Buffer.alloc(300);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) & 0xff;
  // An uncompressed Kraken block: header CC 06 then the bytes, 302 bytes for a 300-byte chunk.
  const krakenStored = Buffer.concat([Buffer.from([0xcc, 0x06]), raw]);
  const w = new LtarWriter();
  w.add('a.bin', { storage: 'chunks', chunks: [{ payload: krakenStored, rawLen: 300 }] });
  w.add('b.bin', { storage: 'chunks', chunks: [{ payload: Buffer.concat([raw, Buffer.from([1, 2])]), rawLen: 300 }] });
  const root = install(w.toBytes());
  const m = Mount.open({ root });
  assert.deepEqual(Buffer.from(m.entry('a.bin').readSync()), raw);
  assert.throws(
    () => m.entry('b.bin').readSync(),
    (e: Error & { code?: string }) => e.code === 'INVALID' && /longer than the chunk/.test(e.message),
  );
  const r = verifyMount(m);
  assert.deepEqual(
    r.failures.map((f) => f.path),
    ['b.bin'],
  );
  assert.equal(r.chunksByCodec.kraken, 1);
  m.close();
  fs.rmSync(path.join(root, 'Mod.arch06'));
});
