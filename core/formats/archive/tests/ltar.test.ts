import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { MemoryByteSource } from '../../../io/byteSource';
import { LtarSource } from '../../../archive/ltarSource';
import { toGamePath } from '../../../archive/gamePath';
import { LtarArchive } from '../ltar/reader';
import { LtarWriter } from '../ltar/writer';
import { HEADER_SIZE } from '../ltar/layout';
import { prng, randomBytes } from '../../../../test/support/fixtures';

const open = (bytes: Uint8Array, name = 'test.arch06'): LtarArchive => LtarArchive.open(new MemoryByteSource(name, bytes));
const source = (bytes: Uint8Array, name = 'test.arch06'): LtarSource => new LtarSource(name, '/nowhere/' + name, new MemoryByteSource(name, bytes));
const text = (s: string): Uint8Array => Buffer.from(s, 'latin1');

test('an empty archive is 65 bytes: the header and one empty root folder', () => {
  const bytes = new LtarWriter().toBytes();
  assert.equal(bytes.length, 65);
  const a = open(bytes);
  assert.equal(a.fileCount, 0);
  assert.equal(a.folderCount, 1);
  assert.equal(a.folderPath(0), '');
  assert.equal(a.header.unk14, 1);
  assert.equal(a.header.reservedZero, true);
  assert.equal(a.find('anything.txt'), -1);
});

test('names, folders and files in table order; full path = folder + \\ + leaf', () => {
  const w = new LtarWriter();
  w.addBytes('b.txt', text('root b'));
  w.addBytes('A.txt', text('root a'));
  w.addBytes('database\\string\\enus\\string.strdb', text('en'));
  w.addBytes('database/string/dede/string.strdb', text('de'));
  const a = open(w.toBytes());
  assert.equal(a.fileCount, 4);
  // Leaves sorted case-insensitively inside each folder, folders pre-order, every ancestor present.
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => a.filePath(i)),
    ['A.txt', 'b.txt', 'database\\string\\dede\\string.strdb', 'database\\string\\enus\\string.strdb'],
  );
  assert.deepEqual(
    [...Array(a.folderCount).keys()].map((f) => a.folderPath(f)),
    ['', 'database', 'database\\string', 'database\\string\\dede', 'database\\string\\enus'],
  );
  // Leaf strings are stored once: both string.strdb records share a name offset.
  assert.equal(a.fileRecord(2).nameOffset, a.fileRecord(3).nameOffset);
  // Links: database's first child is database\string, dede's next sibling is enus.
  assert.equal(a.folderLinks(1).firstChild, 2);
  assert.equal(a.folderLinks(3).nextSibling, 4);
  assert.equal(a.folderLinks(4).nextSibling, -1);
});

test('folder order where one name is a prefix of another (bundles\\dlc, bundles\\dlc4)', () => {
  const w = new LtarWriter();
  w.addBytes('bundles\\dlc\\a.bndl', text('dlc'));
  w.addBytes('bundles\\dlc4\\b.bndl', text('dlc4'));
  w.addBytes('bundles\\dlc_x\\c.bndl', text('dlc_x'));
  const a = open(w.toBytes());
  const folders = [...Array(a.folderCount).keys()].map((f) => a.folderPath(f));
  // As if each ended in a backslash: "dlc4\" < "dlc\" < "dlc_x\" (0x34 < 0x5C < 0x5F).
  assert.deepEqual(folders, ['', 'bundles', 'bundles\\dlc4', 'bundles\\dlc', 'bundles\\dlc_x']);
  assert.equal(a.filePath(a.find('bundles\\dlc\\a.bndl')), 'bundles\\dlc\\a.bndl');
  assert.equal(a.filePath(a.find('bundles\\dlc4\\b.bndl')), 'bundles\\dlc4\\b.bndl');
  assert.equal(a.filePath(a.find('bundles\\dlc_x\\c.bndl')), 'bundles\\dlc_x\\c.bndl');
  assert.equal(a.find('bundles\\dlc\\b.bndl'), -1);
  assert.equal(a.find('bundles\\a.bndl'), -1);
});

test('lookup ignores case and accepts either separator', () => {
  const w = new LtarWriter();
  w.addBytes('Worlds\\Retail\\Desert\\Desert.bndl', text('x'));
  const a = open(w.toBytes());
  for (const p of ['worlds\\retail\\desert\\desert.bndl', 'WORLDS/RETAIL/DESERT/DESERT.BNDL', 'Worlds/Retail\\Desert/desert.BNDL']) {
    assert.equal(a.find(p), 0, p);
  }
  assert.equal(a.find('worlds\\retail\\desert.bndl'), -1);
});

test('lookup finds every file of a larger archive, and nothing else', () => {
  const rnd = prng(42);
  const w = new LtarWriter();
  const paths: string[] = [];
  const seg = (): string =>
    'abcdefghij_-.0123'
      .split('')
      .filter(() => rnd() < 0.4)
      .join('') || 'x';
  for (let i = 0; i < 800; i++) {
    const depth = (rnd() * 4) | 0;
    const p = [...Array(depth)].map(seg).join('\\') + (depth ? '\\' : '') + `f${i}_${seg()}.bin`;
    paths.push(p);
    w.addBytes(p, text(p));
  }
  const s = source(w.toBytes());
  for (const p of paths) {
    const e = s.lookup(toGamePath(p.toUpperCase()));
    assert.ok(e, p);
    assert.equal(Buffer.from(e.readSync()).toString('latin1'), p);
  }
  assert.equal(s.lookup(toGamePath('f0_missing.bin')), undefined);
});

test('zero-size entry, plain entry and stored-size-0 record', () => {
  const w = new LtarWriter();
  w.add('empty.bin', { storage: 'empty' });
  w.addBytes('zero.bin', new Uint8Array(0));
  w.addBytes('plain.txt', text('plain bytes'));
  const s = source(w.toBytes());
  const empty = s.lookup(toGamePath('empty.bin'))!;
  assert.equal(empty.storage, 'empty');
  assert.equal(empty.size, 0);
  assert.equal(empty.readSync().length, 0);
  const zero = s.lookup(toGamePath('zero.bin'))!;
  assert.equal(zero.size, 0);
  assert.equal(zero.readSync().length, 0);
  const plain = s.lookup(toGamePath('plain.txt'))!;
  assert.equal(plain.storage, 'plain');
  assert.equal(plain.record.flags, 0);
  assert.equal(Buffer.from(plain.readSync()).toString(), 'plain bytes');
  assert.equal(Buffer.from(plain.readSync(6, 11)).toString(), 'bytes');
});

test('multi-chunk stored entry: layout, full read and every ranged read across chunk boundaries', () => {
  const rnd = prng(7);
  const data = randomBytes(5 * 1000 + 3, rnd);
  const w = new LtarWriter();
  w.add('multi.bin', { storage: 'chunked', bytes: data, chunkSize: 1000 });
  const s = source(w.toBytes());
  const e = s.lookup(toGamePath('multi.bin'))!;
  assert.equal(e.storage, 'chunked');
  assert.equal(e.record.flags, 9);
  // 6 chunks: 8-byte headers, payloads padded to 4 from the entry start.
  assert.equal(e.storedSize, 6 * 8 + 5 * 1000 + 4);
  assert.deepEqual(Buffer.from(e.readSync()), Buffer.from(data));
  for (let k = 0; k < 300; k++) {
    const a = (rnd() * data.length) | 0;
    const b = a + ((rnd() * (data.length - a + 1)) | 0);
    assert.deepEqual(Buffer.from(e.readSync(a, b)), Buffer.from(data.subarray(a, b)), `[${a}, ${b})`);
  }
  for (const [a, b] of [
    [999, 1001],
    [1000, 2000],
    [0, 1],
    [5002, 5003],
    [4999, 5003],
  ]) {
    assert.deepEqual(Buffer.from(e.readSync(a, b)), Buffer.from(data.subarray(a, b)), `[${a}, ${b})`);
  }
});

test('random access walks only the headers it needs and decodes only overlapping chunks', async () => {
  const data = randomBytes(64 * 0x10000, prng(3)); // 4 MiB, 64 chunks
  const w = new LtarWriter();
  w.add('big.bin', { storage: 'chunked', bytes: data });
  const s = source(w.toBytes());
  const e = s.lookup(toGamePath('big.bin'))!;
  const cs = (e as import('../../../archive/ltarSource').LtarEntry).chunkStream();
  assert.deepEqual(Buffer.from(e.readSync(10, 20)), Buffer.from(data.subarray(10, 20)));
  assert.equal(cs.indexedCount, 1);
  assert.deepEqual(Buffer.from(await e.read(0x10000 * 3 - 5, 0x10000 * 3 + 5)), Buffer.from(data.subarray(0x10000 * 3 - 5, 0x10000 * 3 + 5)));
  assert.equal(cs.indexedCount, 4);
  assert.equal(cs.indexAll(), 64);
});

test('an Oodle chunk this build cannot decode raises a typed error naming entry, chunk and header bytes', () => {
  const w = new LtarWriter();
  const payload = new Uint8Array([0x8c, 0x0a, 1, 2, 3, 4, 5, 6]); // a Mermaid block header (not decoded by this build)
  w.add('tex\\a.tex', {
    storage: 'chunks',
    chunks: [
      { payload: new Uint8Array(100).fill(1), rawLen: 100 },
      { payload, rawLen: 300 },
    ],
  });
  const s = source(w.toBytes(), 'Patch_05.arch06');
  const e = s.lookup(toGamePath('tex\\a.tex'))!;
  assert.equal(e.size, 400);
  // The stored first chunk is readable on its own.
  assert.deepEqual(Buffer.from(e.readSync(0, 100)), Buffer.alloc(100, 1));
  assert.throws(
    () => e.readSync(50, 150),
    (err: unknown) =>
      err instanceof Arch06Error &&
      err.code === 'UNSUPPORTED_CODEC' &&
      /Patch_05\.arch06:tex\\a\.tex/.test(err.message) &&
      /^chunk\[1\]/.test(err.field ?? '') &&
      /8c 0a/.test(err.actual ?? ''),
  );
});

// ---- bad input --------------------------------------------------------------------------

function sample(): Uint8Array {
  const w = new LtarWriter();
  w.addBytes('a\\one.txt', text('one'));
  w.addBytes('a\\b\\two.txt', text('two'));
  w.add('c\\chunked.bin', { storage: 'chunked', bytes: randomBytes(3000, prng(1)), chunkSize: 1024 });
  return w.toBytes();
}

const expectError = (f: () => unknown, code: string, re?: RegExp): void => {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof Arch06Error, `expected Arch06Error, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.file !== undefined, true, 'error names the file');
    if (re) assert.match(e.message, re);
    return true;
  });
};

test('truncated header, bad magic, other versions', () => {
  const b = sample();
  expectError(() => open(b.subarray(0, 20)), 'TRUNCATED');
  const bad = Uint8Array.from(b);
  bad[0] = 0x58;
  expectError(() => open(bad), 'BAD_MAGIC', /expected LTAR/);
  const v3 = Uint8Array.from(b);
  v3[4] = 3;
  expectError(() => open(v3), 'UNSUPPORTED_VERSION', /Mordor/);
  const be = Uint8Array.from(b);
  be.set(text('RATL'), 0);
  expectError(() => open(be), 'UNSUPPORTED_VERSION', /big-endian/);
});

test('tables that claim more than the file holds fail before allocating', () => {
  const b = Uint8Array.from(sample());
  const dv = new DataView(b.buffer);
  dv.setUint32(16, 0xffffffff, true); // fileCount: 4 G records would be 120 GB
  expectError(() => open(b), 'TRUNCATED', /file table/);
  const c = Uint8Array.from(sample());
  new DataView(c.buffer).setUint32(8, 0x7fffffff, true); // name pool size
  expectError(() => open(c), 'TRUNCATED');
  expectError(() => open(sample().subarray(0, HEADER_SIZE + 10)), 'TRUNCATED');
});

test('pool, record and folder corruption', () => {
  const base = sample();
  const a = open(base);
  const poolSize = a.header.namePoolSize;
  const filesAt = HEADER_SIZE + poolSize;
  const foldersAt = filesAt + a.fileCount * 30;
  // A file name offset beyond the pool.
  const name = Uint8Array.from(base);
  new DataView(name.buffer).setUint32(filesAt, poolSize + 100, true);
  expectError(() => open(name), 'INVALID', /name pool/);
  // Folder file counts that do not add up.
  const counts = Uint8Array.from(base);
  new DataView(counts.buffer).setUint32(foldersAt + 12, 99, true);
  expectError(() => open(counts), 'INVALID', /file count/);
  // A folder link out of range.
  const link = Uint8Array.from(base);
  new DataView(link.buffer).setUint32(foldersAt + 4, 1000, true);
  expectError(() => open(link), 'INVALID', /link/);
  // A data offset beyond the archive: the archive opens, the entry fails when read.
  const data = Uint8Array.from(base);
  new DataView(data.buffer).setUint32(filesAt + 4, 0x7ffffff0, true);
  const s = source(data);
  assert.equal(s.archive.problems.length, 1);
  expectError(() => s.entry(s.archive.problems[0].index).readSync(), 'OUT_OF_RANGE', /outside the archive/);
});

test('chunk header corruption: oversize lengths, truncation, overrun, zero length', () => {
  const base = sample();
  const s0 = source(base);
  const e0 = s0.lookup(toGamePath('c\\chunked.bin'))!;
  const at = e0.record.dataOffset;
  const mutate = (f: (dv: DataView) => void): LtarSource => {
    const b = Uint8Array.from(base);
    f(new DataView(b.buffer));
    return source(b);
  };
  const read = (s: LtarSource) => () => s.lookup(toGamePath('c\\chunked.bin'))!.readSync();
  expectError(read(mutate((dv) => dv.setUint32(at, 0x10001, true))), 'INVALID', /0x10000/);
  expectError(read(mutate((dv) => dv.setUint32(at + 4, 0x20000, true))), 'INVALID', /0x10000/);
  expectError(read(mutate((dv) => dv.setUint32(at + 4, 0, true))), 'INVALID', /zero bytes/);
  expectError(read(mutate((dv) => dv.setUint32(at + 4, 2000, true))), 'INVALID', /more bytes than/);
  // Stored size shrunk: the stream runs out before the entry's size is covered.
  const recAt = HEADER_SIZE + s0.archive.header.namePoolSize + e0.record.index * 30;
  expectError(read(mutate((dv) => dv.setUint32(recAt + 0x0c, 1500, true))), 'TRUNCATED');
  // Payload length past the stored size.
  expectError(read(mutate((dv) => dv.setUint32(at, 0xff00, true))), 'TRUNCATED');
});

test('random corruption never escapes as anything but a typed error', () => {
  const base = sample();
  const rnd = prng(2024);
  let opened = 0;
  for (let k = 0; k < 1500; k++) {
    const b = Uint8Array.from(base);
    const flips = 1 + ((rnd() * 4) | 0);
    for (let i = 0; i < flips; i++) b[(rnd() * b.length) | 0] = (rnd() * 256) | 0;
    const cut = rnd() < 0.2 ? (rnd() * b.length) | 0 : b.length;
    try {
      const s = source(b.subarray(0, cut));
      opened++;
      for (let i = 0; i < s.fileCount; i++) {
        try {
          s.entry(i).readSync();
          s.allPaths();
        } catch (e) {
          if (!(e instanceof Arch06Error)) throw e;
        }
      }
    } catch (e) {
      if (!(e instanceof Arch06Error)) throw e;
    }
  }
  assert.ok(opened > 100, `some mutants still open (${opened})`);
});
