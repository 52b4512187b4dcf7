import { test } from 'node:test';
import { expectArch06Error } from '../../../../test/support/errors';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { ByteSource, MemoryByteSource } from '../../../io/byteSource';
import { EMBB_HEADER_SIZE, parseEmbb, readEmbb } from '../embb';
import { writeEmbb } from '../embbWriter';
import { buildPathPool, isRetailPathLayout } from '../pathPool';
import { prng, randomBytes } from '../../../../test/support/fixtures';

const text = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const u32 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
const setU32 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset, b.byteLength).setUint32(at, v, true);

const members = [
  { path: 'characters\\orcs\\orc_a\\body.mat', bytes: text('LTMI body') },
  { path: 'abc', bytes: text('three-byte path: pads to 4') },
  { path: 'abcd', bytes: text('four-byte path: pads to 8') },
  { path: 'Sound\\Hit.bnk', bytes: randomBytes(1000, prng(5)) },
];

function expectError(f: () => unknown, code: string, re?: RegExp): Arch06Error {
  return expectArch06Error(f, code, { message: re });
}

test('round trip: header, retail path table, payloads back to back, chain ends at the end of the file', () => {
  const bytes = writeEmbb(members);
  const c = parseEmbb(bytes, 'x.embb');
  assert.equal(
    text('EMBB').every((b, i) => bytes[i] === b),
    true,
  );
  assert.equal(u32(bytes, 4), 5);
  assert.equal(c.blocks.length, 1);
  assert.equal(c.confidence, 'confirmed');
  assert.deepEqual(c.notes, []);
  assert.equal(c.trailing, undefined);
  const b = c.blocks[0];
  assert.equal(b.count, 4);
  // Each path NUL-terminated and padded to 4: 31+1 -> 32, 3+1 -> 4, 4+1 -> 8, 13+1 -> 16.
  assert.deepEqual(b.pathOffsets, [0, 32, 36, 44]);
  assert.equal(b.pathPoolSize, 60);
  assert.equal(b.retailPathLayout, true);
  assert.deepEqual(
    c.members.map((m) => m.path),
    members.map((m) => m.path),
  );
  // Payload i starts right after its size word; the next size word right after payload i.
  let pos = EMBB_HEADER_SIZE + b.pathPoolSize + 4 * b.count;
  for (const [i, m] of c.members.entries()) {
    assert.equal(m.sizeWordOffset, pos);
    assert.equal(m.offset, pos + 4);
    assert.equal(m.size, members[i].bytes.length);
    assert.deepEqual(Buffer.from(bytes.subarray(m.offset, m.offset + m.size)), Buffer.from(members[i].bytes));
    pos = m.offset + m.size;
  }
  assert.equal(b.end, bytes.length);
  // The size identity the manifests predict: 16 + pool + 4n + sum(4 + size).
  assert.equal(16 + b.pathPoolSize + 4 * b.count + members.reduce((n, m) => n + 4 + m.bytes.length, 0), bytes.length);
});

test('an empty container is a bare 16-byte header', () => {
  const bytes = writeEmbb([]);
  assert.equal(bytes.length, 16);
  const c = parseEmbb(bytes, 'empty.embb');
  assert.equal(c.members.length, 0);
  assert.equal(c.blocks[0].pathPoolSize, 0);
  assert.equal(c.confidence, 'confirmed');
});

test('zero-size members are read and noted', () => {
  const c = parseEmbb(
    writeEmbb([
      { path: 'a', bytes: new Uint8Array(0) },
      { path: 'b', bytes: text('x') },
    ]),
    'z.embb',
  );
  assert.deepEqual(
    c.members.map((m) => [m.path, m.size]),
    [
      ['a', 0],
      ['b', 1],
    ],
  );
  assert.match(c.notes.join('\n'), /1 zero-size/);
});

test('concatenated blocks (S3): every block read, offsets absolute, flagged uncertain', () => {
  const a = writeEmbb(members.slice(0, 2));
  const e = writeEmbb([]);
  const b = writeEmbb(members.slice(2));
  const bytes = Buffer.concat([a, e, b]);
  const c = parseEmbb(bytes, 'cat.embb');
  assert.deepEqual(
    c.blocks.map((x) => [x.offset, x.count]),
    [
      [0, 2],
      [a.length, 0],
      [a.length + e.length, 2],
    ],
  );
  assert.deepEqual(
    c.members.map((m) => [m.path, m.block, m.index]),
    [
      [members[0].path, 0, 0],
      ['abc', 0, 1],
      ['abcd', 2, 0],
      ['Sound\\Hit.bnk', 2, 1],
    ],
  );
  for (const [i, m] of c.members.entries()) assert.deepEqual(Buffer.from(bytes.subarray(m.offset, m.offset + m.size)), Buffer.from(members[i].bytes));
  assert.equal(c.confidence, 'uncertain');
  assert.match(c.notes.join('\n'), /3 concatenated EMBB blocks/);
});

test('trailing bytes that start no block are reported, not parsed; a truncated extra block is an error', () => {
  const good = writeEmbb(members);
  const junk = Buffer.concat([good, text('\0\0junk')]);
  const c = parseEmbb(junk, 'junk.embb');
  assert.deepEqual(c.trailing, { offset: good.length, length: 6 });
  assert.equal(c.confidence, 'uncertain');
  assert.match(c.notes.join('\n'), /6 bytes after the last payload/);
  assert.equal(c.members.length, 4);
  expectError(() => parseEmbb(Buffer.concat([good, text('EMBB\x05\0')]), 'x'), 'TRUNCATED');
});

test('a path table outside the retail layout is read and reported', () => {
  const { pool, offsets } = buildPathPool(['ab', 'cd']);
  assert.equal(isRetailPathLayout(pool, offsets), true);
  assert.equal(isRetailPathLayout(pool, [offsets[1], offsets[0]]), false);
  // Same container, path offsets swapped: still valid, no longer retail.
  const bytes = Uint8Array.from(
    writeEmbb([
      { path: 'ab', bytes: text('1') },
      { path: 'cd', bytes: text('2') },
    ]),
  );
  setU32(bytes, 16 + 8, 4);
  setU32(bytes, 16 + 12, 0);
  const c = parseEmbb(bytes, 'swap.embb');
  assert.deepEqual(
    c.members.map((m) => m.path),
    ['cd', 'ab'],
  );
  assert.equal(c.blocks[0].retailPathLayout, false);
  assert.equal(c.confidence, 'uncertain');
});

test('header faults: magic, byte-swapped magic, a BNDL, version, every truncation', () => {
  const good = writeEmbb(members);
  const bad = Uint8Array.from(good);
  bad[0] = 0x58;
  const e = expectError(() => parseEmbb(bad, 'bad.embb'), 'BAD_MAGIC');
  assert.equal(e.file, 'bad.embb');
  assert.equal(e.offset, 0);
  assert.equal(e.field, 'block[0].magic');
  expectError(() => parseEmbb(text('BBME\0\0\0\x05\0\0\0\0\0\0\0\0'), 'be.embb'), 'UNSUPPORTED_VERSION', /big-endian/);
  expectError(() => parseEmbb(text('BNDL\x04\0\0\0'), 'mordor.embb'), 'BAD_MAGIC', /parseBndl/);
  const v4 = Uint8Array.from(good);
  setU32(v4, 4, 4);
  const ve = expectError(() => parseEmbb(v4, 'v4.embb'), 'UNSUPPORTED_VERSION');
  assert.equal(ve.offset, 4);
  // Every proper prefix lacks something the header promises.
  for (let cut = 0; cut < good.length; cut++) {
    const err = expectError(() => parseEmbb(good.subarray(0, cut), 'cut.embb'), 'TRUNCATED');
    assert.equal(err.file, 'cut.embb', `cut ${cut}`);
  }
});

test('pool, offset and size-word faults are typed errors naming the field', () => {
  const good = writeEmbb(members);
  const poolSize = u32(good, 8);
  const tableAt = 16 + poolSize;
  const firstSizeAt = tableAt + 4 * members.length;

  const off = Uint8Array.from(good);
  setU32(off, tableAt + 8, poolSize);
  const oe = expectError(() => parseEmbb(off, 'x'), 'OUT_OF_RANGE', /relative to 0x10/);
  assert.equal(oe.field, 'block[0].pathOffset[2]');
  assert.equal(oe.offset, tableAt + 8);

  const unterminated = Uint8Array.from(good);
  unterminated.fill(0x41, 16 + 44, 16 + poolSize); // the last path and all its padding
  expectError(() => parseEmbb(unterminated, 'x'), 'INVALID', /NUL-terminated/);

  const big = Uint8Array.from(good);
  setU32(big, firstSizeAt, 0xfffffff0);
  const be = expectError(() => parseEmbb(big, 'x'), 'TRUNCATED', /runs past the end/);
  assert.equal(be.field, 'block[0].member[0].size');
  assert.equal(be.offset, firstSizeAt);

  // A size word that lands the next size word inside a payload: the walk then fails cleanly.
  const short = Uint8Array.from(good);
  setU32(short, firstSizeAt, u32(good, firstSizeAt) + 1);
  expectError(() => parseEmbb(short, 'x'), 'TRUNCATED');

  // Counts and pool sizes far beyond the file fail before anything is allocated for them.
  for (const [at, v] of [
    [8, 0xffffffff],
    [12, 0xffffffff],
    [12, 0x40000000],
    [12, members.length + 1],
  ] as const) {
    const h = Uint8Array.from(good);
    setU32(h, at, v);
    expectError(() => parseEmbb(h, 'x'), 'TRUNCATED');
  }
});

// "Never a hang": the runner's timeout fails the test if the 3000 cases do not finish in time (no
// clock is read here). The loop yields to the event loop every 100 cases, because node:test cannot
// time out a synchronous function while it runs.
test('seeded mutations: every outcome is a parse or a typed error, never a hang', { timeout: 20_000 }, async () => {
  const rnd = prng(0xe1bb);
  const base = Buffer.concat([writeEmbb(members), writeEmbb(members.slice(1, 3))]);
  let parsed = 0;
  for (let k = 0; k < 3000; k++) {
    if (k % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    const b = Uint8Array.from(base);
    const edits = 1 + ((rnd() * 4) | 0);
    for (let j = 0; j < edits; j++) {
      // Mostly the header, pool, table and size words; sometimes anywhere.
      const at = rnd() < 0.7 ? (rnd() * 140) | 0 : (rnd() * b.length) | 0;
      if (rnd() < 0.3) setU32(b, Math.min(at, b.length - 4), (rnd() * 0x100000000) >>> 0);
      else b[at] = (rnd() * 256) | 0;
    }
    const input = rnd() < 0.2 ? b.subarray(0, (rnd() * b.length) | 0) : b;
    try {
      const c = parseEmbb(input, 'm.embb');
      parsed++;
      for (const m of c.members) assert.ok(m.offset + m.size <= input.length);
    } catch (e) {
      assert.ok(e instanceof Arch06Error, String(e));
      assert.ok(['TRUNCATED', 'BAD_MAGIC', 'UNSUPPORTED_VERSION', 'OUT_OF_RANGE', 'INVALID'].includes(e.code), e.code);
    }
  }
  assert.ok(parsed > 0);
});

/** A source that records every read, to show the reader never touches payloads. */
class CountingSource implements ByteSource {
  readonly reads: [number, number][] = [];
  private readonly inner: MemoryByteSource;
  constructor(
    readonly name: string,
    bytes: Uint8Array,
  ) {
    this.inner = new MemoryByteSource(name, bytes);
  }
  get size(): number {
    return this.inner.size;
  }
  readSync(position: number, length: number): Uint8Array {
    this.reads.push([position, length]);
    return this.inner.readSync(position, length);
  }
  readIntoSync(position: number, length: number, target: Uint8Array, targetOffset: number): void {
    target.set(this.readSync(position, length), targetOffset);
  }
  read(position: number, length: number): Promise<Uint8Array> {
    return Promise.resolve(this.readSync(position, length));
  }
}

test('readEmbb walks the size words with small reads and never reads a payload', () => {
  const payload = 300_000;
  const big = [0, 1, 2, 3, 4].map((i) => ({ path: `worlds\\big_${i}.bin`, bytes: new Uint8Array(payload).fill(i) }));
  const bytes = writeEmbb(big);
  const src = new CountingSource('big.embb', bytes);
  const c = readEmbb(src, { window: 4096 });
  assert.equal(c.members.length, 5);
  assert.equal(c.blocks[0].end, bytes.length);
  const total = src.reads.reduce((n, [, len]) => n + len, 0);
  assert.ok(
    src.reads.every(([, len]) => len <= 4096),
    JSON.stringify(src.reads),
  );
  assert.ok(total < 6 * 4096, `read ${total} bytes of ${bytes.length}`);
  // Same answer as the in-memory parse.
  assert.deepEqual(c.members, parseEmbb(bytes, 'big.embb').members);
});

test('the writer refuses duplicate (case-insensitive), empty and non-single-byte paths', () => {
  expectError(
    () =>
      writeEmbb([
        { path: 'a\\B.txt', bytes: text('1') },
        { path: 'A\\b.TXT', bytes: text('2') },
      ]),
    'BAD_ARGUMENT',
    /twice/,
  );
  expectError(() => writeEmbb([{ path: '', bytes: text('1') }]), 'BAD_ARGUMENT');
  expectError(() => writeEmbb([{ path: 'a\0b', bytes: text('1') }]), 'BAD_ARGUMENT');
  expectError(() => writeEmbb([{ path: 'snow\u2603', bytes: text('1') }]), 'BAD_ARGUMENT');
});
