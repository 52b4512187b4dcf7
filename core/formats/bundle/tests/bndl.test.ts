import { test } from 'node:test';
import { expectArch06Error } from '../../../../test/support/errors';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { BndlDataBundle, BndlManifest, parseBndl } from '../bndl';
import { checkMirror } from '../mirror';
import { writeBndl } from '../bndlWriter';
import { parseEmbb } from '../embb';
import { writeEmbb } from '../embbWriter';
import { prng, randomBytes } from '../../../../test/support/fixtures';

const text = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const u32 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
const setU32 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset, b.byteLength).setUint32(at, v, true);
const manifest = (bytes: Uint8Array, file = 'x.bndl'): BndlManifest => {
  const b = parseBndl(bytes, file);
  assert.equal(b.variant, 'manifest');
  return b as BndlManifest;
};

function expectError(f: () => unknown, code: string, re?: RegExp): Arch06Error {
  return expectArch06Error(f, code, { message: re });
}

const members = [
  { path: 'characters\\orcs\\orc_a\\body.mat', bytes: text('LTMI body') },
  { path: 'abc', bytes: text('x') },
  { path: 'Sound\\Hit.bnk', bytes: randomBytes(777, prng(9)) },
];
const declared = members.map((m) => ({ path: m.path, size: m.bytes.length }));

test('round trip: type string, member paths, declared sizes; the table sits at pool + u32 @0x0C', () => {
  const bytes = writeBndl('Presentation', declared);
  const m = manifest(bytes);
  assert.equal(m.version, 6);
  assert.equal(m.type, 'Presentation');
  assert.deepEqual(
    m.members.map((x) => [x.path, x.declaredSize]),
    declared.map((d) => [d.path, d.size]),
  );
  assert.equal(m.poolStart, 0x14 + 4 * 3);
  assert.equal(u32(bytes, 0x10), 3);
  // The 0x0C rule, checked against the raw bytes.
  const tableAt = m.poolStart + u32(bytes, 0x0c);
  assert.deepEqual(
    [0, 1, 2].map((i) => u32(bytes, tableAt + 4 * i)),
    m.members.map((x) => x.pathOffset),
  );
  assert.equal(tableAt + 12, bytes.length); // parses to its last byte
  assert.equal(m.typeFollowsPaths, true);
  assert.equal(m.confidence, 'confirmed');
  assert.deepEqual(m.notes, []);
});

test('the mirror identity: 16 + path table size + 4n + sum(4 + size[i]) = container size', () => {
  const rnd = prng(0xb0d1);
  for (let round = 0; round < 40; round++) {
    const n = (rnd() * 12) | 0;
    const ms = [...Array(n)].map((_, i) => ({
      path: `worlds\\r${round}\\${'abcdefgh'.slice(0, 1 + ((rnd() * 8) | 0))}_${i}.tex`,
      bytes: randomBytes(1 + ((rnd() * 300) | 0), rnd), // not 0: a 0-byte member is not stored (see the next test)
    }));
    const container = writeEmbb(ms);
    const bytes = writeBndl(
      n ? 'WorldQuest' : '',
      ms.map((m) => ({ path: m.path, size: m.bytes.length })),
    );
    const m = manifest(bytes);
    const pathTableSize = u32(bytes, 0x08);
    const identity = 16 + pathTableSize + 4 * n + ms.reduce((s, x) => s + 4 + x.bytes.length, 0);
    assert.equal(identity, container.length, `round ${round}`);
    assert.equal(m.predictedContainerSize, container.length);
    // Identical path-table bytes and offsets, sizes equal to the payloads.
    const c = parseEmbb(container, 'c.embb');
    assert.deepEqual(Buffer.from(m.pathArea), Buffer.from(c.blocks[0].pathPool));
    const check = checkMirror(m, c);
    assert.deepEqual(check, { mirrors: true, identityHolds: true, notStored: 0, differences: [] }, `round ${round}`);
  }
});

test('members declared with 0 bytes are not stored: first, last or several, the identity and the mirror hold over the rest', () => {
  const rnd = prng(0x0b17);
  for (let round = 0; round < 30; round++) {
    const n = 1 + ((rnd() * 10) | 0);
    const all = [...Array(n)].map((_, i) => ({
      path: `worlds\\r${round}\\${'abcdefgh'.slice(0, 1 + ((rnd() * 8) | 0))}_${i}.wldmsh`,
      bytes: rnd() < 0.35 ? new Uint8Array(0) : randomBytes(1 + ((rnd() * 200) | 0), rnd),
    }));
    const stored = all.filter((x) => x.bytes.length > 0);
    const container = writeEmbb(stored); // the container a retail tool writes: no 0-byte member
    const m = manifest(
      writeBndl(
        '',
        all.map((x) => ({ path: x.path, size: x.bytes.length })),
      ),
    );
    const empty = all.flatMap((x, i) => (x.bytes.length === 0 ? [i] : []));
    assert.deepEqual(m.notStored, empty, `round ${round}`);
    // Each left-out path takes its padded length of the path area (the writer pads to 4).
    assert.equal(
      m.notStoredPathBytes,
      empty.reduce((t, i) => t + Math.ceil((all[i].path.length + 1) / 4) * 4, 0),
    );
    assert.equal(m.predictedContainerSize, container.length, `round ${round}`);
    assert.deepEqual(
      checkMirror(m, parseEmbb(container, 'c.embb')),
      { mirrors: true, identityHolds: true, notStored: empty.length, differences: [] },
      `round ${round}`,
    );
  }
});

test('a manifest that declares members its container lacks does not mirror it', () => {
  const c = parseEmbb(writeEmbb(members), 'c.embb');
  const m = manifest(writeBndl('Presentation', [...declared, { path: 'worlds\\desert\\extra.cres', size: 10 }]));
  const check = checkMirror(m, c);
  assert.equal(check.mirrors, false);
  assert.equal(check.identityHolds, false);
  assert.match(check.differences.join('\n'), /declares 4 members, container holds 3/);
  const wrongSize = manifest(
    writeBndl(
      'Presentation',
      declared.map((d, i) => (i === 1 ? { ...d, size: 2 } : d)),
    ),
  );
  assert.match(checkMirror(wrongSize, c).differences.join('\n'), /1 declared sizes differ/);
});

test('an empty manifest (count 0, empty type) is a manifest, not the data-carrying shape', () => {
  const bytes = writeBndl('', []);
  const m = manifest(bytes);
  assert.equal(u32(bytes, 0x10), 0);
  assert.equal(m.type, '');
  assert.equal(m.members.length, 0);
  assert.equal(m.predictedContainerSize, writeEmbb([]).length);
  assert.equal(checkMirror(m, parseEmbb(writeEmbb([]), 'e.embb')).mirrors, true);
  // A memberless manifest with a type is read the same way.
  assert.equal(manifest(writeBndl('Sound_1', [])).type, 'Sound_1');
});

test('the 0x0C rule is followed, never computed: a gap before the table, or a table before the strings', () => {
  // Header, sizes, pool = "a\0" "T\0", 28 unrelated bytes, then the table.
  const gap = Buffer.concat([text('BNDL'), Buffer.alloc(16), Buffer.alloc(4), text('a\0T\0'), Buffer.alloc(28, 0x7a), Buffer.alloc(4)]);
  setU32(gap, 4, 6);
  setU32(gap, 8, 2); // type at pool + 2
  setU32(gap, 12, 4 + 28); // table at pool + 32
  setU32(gap, 16, 1);
  setU32(gap, 20, 5);
  setU32(gap, 0x18 + 32, 0);
  const g = manifest(gap);
  assert.equal(g.type, 'T');
  assert.deepEqual(
    g.members.map((x) => [x.path, x.declaredSize]),
    [['a', 5]],
  );
  assert.equal(g.tableOffset, 32);
  // Table first, strings after it.
  const first = Buffer.concat([text('BNDL'), Buffer.alloc(16), Buffer.alloc(4), Buffer.alloc(4), text('T\0pth\0')]);
  setU32(first, 4, 6);
  setU32(first, 8, 4); // type at pool + 4
  setU32(first, 12, 0); // table at pool + 0
  setU32(first, 16, 1);
  setU32(first, 0x18, 6); // path at pool + 6
  const f = manifest(first);
  assert.deepEqual([f.type, f.members[0].path], ['T', 'pth']);
  // The path lies after the type string: 0x08 is then no path-area size, and the result says so.
  assert.equal(f.typeFollowsPaths, false);
  assert.equal(f.confidence, 'uncertain');
  assert.match(f.notes.join('\n'), /UNCERTAIN/);
});

test('trailing bytes after the table are noted', () => {
  const m = manifest(Buffer.concat([writeBndl('Presentation', declared), text('zz')]));
  assert.match(m.notes.join('\n'), /2 bytes after/);
  assert.equal(m.confidence, 'uncertain');
});

/** A Mordor-shaped data-carrying BNDL v4: inline members. */
function dataBundle(files: { name: string; bytes: Uint8Array }[], nameRefs: number[] = []): Uint8Array {
  const names = Buffer.concat(files.map((f) => text(f.name + '\0')));
  const offsets: number[] = [];
  let o = 0;
  for (const f of files) {
    offsets.push(o);
    o += f.name.length + 1;
  }
  const head = Buffer.alloc(0x1c);
  head.write('BNDL', 0, 'latin1');
  head.writeUInt32LE(4, 4);
  head.writeUInt32LE(names.length, 8);
  head.writeUInt32LE(names.length, 0x0c); // records right after the names
  head.writeUInt32LE(0, 0x10);
  head.writeUInt32LE(nameRefs.length, 0x14);
  head.writeUInt32LE(files.length, 0x18);
  const refs = Buffer.alloc(4 * nameRefs.length);
  nameRefs.forEach((r, i) => refs.writeUInt32LE(r, 4 * i));
  const recs = files.flatMap((f, i) => {
    const r = Buffer.alloc(8);
    r.writeUInt32LE(offsets[i], 0);
    r.writeUInt32LE(f.bytes.length, 4);
    return [r, f.bytes];
  });
  return Buffer.concat([head, names, refs, ...recs]);
}

test('the data-carrying shape (Mordor era) is read, labelled read-only and uncertain', () => {
  const files = [
    { name: 'tex\\a.tex', bytes: text('TEXR a') },
    { name: 'b.tex', bytes: text('TEXR bb') },
  ];
  const bytes = dataBundle(files, [7]);
  const d = parseBndl(bytes, 'mordor.embb') as BndlDataBundle;
  assert.equal(d.variant, 'data-carrying');
  assert.equal(d.readOnly, true);
  assert.equal(d.era, 'mordor');
  assert.equal(d.confidence, 'uncertain');
  assert.deepEqual(d.nameRefs, [7]);
  assert.deepEqual(
    d.members.map((m) => [m.path, m.size]),
    [
      ['tex\\a.tex', 6],
      ['b.tex', 7],
    ],
  );
  for (const [i, m] of d.members.entries()) assert.deepEqual(Buffer.from(bytes.subarray(m.offset, m.offset + m.size)), Buffer.from(files[i].bytes));
  assert.match(d.notes.join('\n'), /read-only/);
  assert.match(d.notes.join('\n'), /unknown meaning/);
  // Every truncation is a typed error.
  for (let cut = 0; cut < bytes.length; cut++) {
    // The record table's offset then points past the end: OUT_OF_RANGE; anything else ends early.
    const refsEnd = 0x1c + 16 + 4;
    expectError(() => parseBndl(bytes.subarray(0, cut), 'm'), cut >= 0x1c + 16 && cut < refsEnd ? 'OUT_OF_RANGE' : 'TRUNCATED');
  }
  const badName = Uint8Array.from(bytes);
  setU32(badName, 0x1c + 0x10 + 4, 999); // first record's name offset
  expectError(() => parseBndl(badName, 'm'), 'OUT_OF_RANGE');
  const hugeCount = Uint8Array.from(bytes);
  setU32(hugeCount, 0x18, 0xffffffff);
  expectError(() => parseBndl(hugeCount, 'm'), 'TRUNCATED');
});

test('header faults: magic, byte-swapped magic, versions, a v4 manifest, every truncation', () => {
  const good = writeBndl('Presentation', declared);
  expectError(() => parseBndl(text('EMBB\x05\0\0\0'), 'x'), 'BAD_MAGIC');
  expectError(() => parseBndl(text('LDNB\0\0\0\x06'), 'x'), 'UNSUPPORTED_VERSION', /big-endian/);
  const v5 = Uint8Array.from(good);
  setU32(v5, 4, 5);
  const e = expectError(() => parseBndl(v5, 'v5.bndl'), 'UNSUPPORTED_VERSION');
  assert.deepEqual([e.file, e.offset, e.field], ['v5.bndl', 4, 'header.version']);
  const v4 = Uint8Array.from(good);
  setU32(v4, 4, 4);
  expectError(() => parseBndl(v4, 'x'), 'UNSUPPORTED_VERSION', /data-carrying/);
  for (let cut = 0; cut < good.length; cut++) {
    const err = expectError(() => parseBndl(good.subarray(0, cut), 'cut.bndl'), cut < 0x14 + 12 ? 'TRUNCATED' : 'OUT_OF_RANGE');
    assert.equal(err.file, 'cut.bndl');
  }
  const empty = writeBndl('', []);
  for (let cut = 0; cut < empty.length; cut++) assert.throws(() => parseBndl(empty.subarray(0, cut), 'e'), Arch06Error);
});

test('count, offset and string faults are typed errors naming the field', () => {
  const good = writeBndl('Presentation', declared);
  const m = manifest(good);
  const tableAt = m.poolStart + m.tableOffset;
  const huge = Uint8Array.from(good);
  setU32(huge, 0x10, 0xffffffff);
  expectError(() => parseBndl(huge, 'x'), 'TRUNCATED', /declared sizes/);
  const table = Uint8Array.from(good);
  setU32(table, 0x0c, m.tableOffset + 1);
  const te = expectError(() => parseBndl(table, 'x'), 'OUT_OF_RANGE', /0x0C/);
  assert.equal(te.field, 'header.tableOffset');
  const type = Uint8Array.from(good);
  setU32(type, 0x08, 0xfffffff0);
  assert.equal(expectError(() => parseBndl(type, 'x'), 'OUT_OF_RANGE').field, 'header.typeOffset');
  const path = Uint8Array.from(good);
  setU32(path, tableAt + 4, 0x7fffffff);
  const pe = expectError(() => parseBndl(path, 'x'), 'OUT_OF_RANGE');
  assert.deepEqual([pe.field, pe.offset], ['pathOffset[1]', tableAt + 4]);
  // The type string with no NUL before the end of the file.
  const unterminated = Uint8Array.from(good);
  setU32(unterminated, 0x08, good.length - 1 - m.poolStart);
  unterminated[good.length - 1] = 0x41;
  expectError(() => parseBndl(unterminated, 'x'), 'INVALID', /NUL-terminated/);
});

test('seeded mutations of both shapes: a parse or a typed error, never a hang', () => {
  const rnd = prng(0xbd1);
  const bases = [
    writeBndl('Presentation', declared),
    writeBndl('', []),
    dataBundle(
      [
        { name: 'a.tex', bytes: text('abc') },
        { name: 'bb.tex', bytes: text('defg') },
      ],
      [1, 2],
    ),
  ];
  let parsed = 0;
  for (let k = 0; k < 3000; k++) {
    const base = bases[k % bases.length];
    const b = Uint8Array.from(base);
    const edits = 1 + ((rnd() * 3) | 0);
    for (let j = 0; j < edits; j++) {
      const at = (rnd() * b.length) | 0;
      if (rnd() < 0.4 && b.length >= 4) setU32(b, Math.min(at, b.length - 4), (rnd() * 0x100000000) >>> 0);
      else b[at] = (rnd() * 256) | 0;
    }
    const input = rnd() < 0.2 ? b.subarray(0, (rnd() * b.length) | 0) : b;
    try {
      const r = parseBndl(input, 'm.bndl');
      parsed++;
      if (r.variant === 'data-carrying') for (const m of r.members) assert.ok(m.offset + m.size <= input.length);
      else assert.ok(r.poolStart + r.tableOffset + 4 * r.members.length <= input.length);
    } catch (e) {
      assert.ok(e instanceof Arch06Error, String(e));
      assert.ok(['TRUNCATED', 'BAD_MAGIC', 'UNSUPPORTED_VERSION', 'OUT_OF_RANGE', 'INVALID'].includes(e.code), e.code);
    }
  }
  assert.ok(parsed > 0);
});

test('the writer refuses bad paths, duplicate paths and sizes that are not u32', () => {
  expectError(
    () =>
      writeBndl('T', [
        { path: 'a', size: 1 },
        { path: 'A', size: 2 },
      ]),
    'BAD_ARGUMENT',
    /twice/,
  );
  expectError(() => writeBndl('T', [{ path: 'a', size: -1 }]), 'BAD_ARGUMENT');
  expectError(() => writeBndl('T', [{ path: 'a', size: 2 ** 32 }]), 'BAD_ARGUMENT');
  expectError(() => writeBndl('T\0', [{ path: 'a', size: 1 }]), 'BAD_ARGUMENT');
});
