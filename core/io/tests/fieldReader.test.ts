// The shared reading and writing primitives: one bounded field reader, one magic/version check,
// one byte writer, half floats, strided vertex reads.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ByteWriter } from '../byteWriter';
import { FieldReader, FieldSpan, hex32 } from '../fieldReader';
import { asF32, f32ToHalf, halfToFloat } from '../half';
import { expectMagicVersion, startsWithTag, tagValue } from '../magic';
import { leadingComponents, readBytes4, readComponents } from '../strided';
import { parseMmsh } from '../../formats/mesh/mmsh/reader';
import { writeMmsh } from '../../formats/mesh/mmsh/writer';
import { expectArch06Error } from '../../../test/support/errors';

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

test('sequential and positional reads are little-endian and move only when sequential', () => {
  const r = new FieldReader(bytes(1, 0, 0xfe, 0xff, 0x78, 0x56, 0x34, 0x12, 0, 0, 0x80, 0x3f), 'x');
  assert.equal(r.u16('a'), 1);
  assert.equal(r.s16('b'), -2);
  assert.equal(r.u32('c'), 0x12345678);
  assert.equal(r.f32('d'), 1);
  assert.equal(r.pos, 12);
  assert.equal(r.u32At(4, 'c'), 0x12345678);
  assert.equal(r.pos, 12);
  assert.equal(r.peekU32(10), undefined);
  assert.equal(r.findU32(0x12345678, 0), 4);
  assert.equal(r.findU32(0x12345678, 5), -1);
});

test("a read past the end of the file is TRUNCATED; past a section's declared end INVALID; a count that cannot fit is refused", () => {
  const b = new Uint8Array(16);
  const whole = new FieldReader(b, 'f.bin', { pos: 14 });
  const t = expectArch06Error(() => whole.u32('tail.word'), 'TRUNCATED', { field: 'tail.word' });
  assert.equal(t.file, 'f.bin');
  assert.equal(t.offset, 14);
  assert.equal(t.expected, '4 bytes');
  const section = whole.sub('desc section', 4, 8);
  section.u32('desc.a');
  expectArch06Error(() => section.u8('desc.b'), 'INVALID', { message: /runs past the end of the desc section/ });
  expectArch06Error(() => whole.sub('desc section', 4, 8).atEnd('desc.end'), 'INVALID', { message: /does not end at its declared size/ });
  const s2 = whole.sub('desc section', 4, 8);
  expectArch06Error(() => s2.fits(3, 4, 'desc.count', 0), 'OUT_OF_RANGE', { field: 'desc.count' });
  expectArch06Error(() => new FieldReader(b, 'f.bin').fits(5, 4, 'count'), 'TRUNCATED');
  expectArch06Error(() => new FieldReader(b, 'f.bin').u32At(-4, 'before'), 'OUT_OF_RANGE');
});

test('offsets are file offsets: a window placed at its base reports and records where its bytes lie in the file', () => {
  const spans: FieldSpan[] = [];
  const r = new FieldReader(bytes(9, 0, 0, 0, 7, 0, 0, 0), 'big.embb', { base: 0x1000, fileSize: 0x2000, spans });
  assert.equal(r.u32('size[0]'), 9);
  assert.equal(r.u32At(0x1004, 'size[1]'), 7);
  assert.deepEqual(spans, [
    { name: 'size[0]', offset: 0x1000, length: 4 },
    { name: 'size[1]', offset: 0x1004, length: 4 },
  ]);
  // The window ends before the file does: reading on is not a truncated file.
  expectArch06Error(() => r.u32At(0x1008, 'size[2]'), 'INVALID');
});

test('spans are recorded only when asked for, one per field, in reading order', () => {
  const quiet = new FieldReader(bytes(1, 2, 3, 4, 5, 6, 7, 8), 'x');
  quiet.u32('a');
  assert.equal(quiet.spans, undefined);
  const spans: FieldSpan[] = [];
  const r = new FieldReader(new Uint8Array(32), 'x', { spans });
  r.u8('a');
  r.vec3('b');
  r.bytesOf(3, 'c');
  r.record('d', 20, 8);
  assert.deepEqual(
    spans.map((s) => [s.name, s.offset, s.length]),
    [
      ['a', 0, 1],
      ['b', 1, 12],
      ['c', 13, 3],
      ['d', 20, 8],
    ],
  );
});

test('a parser given spans says which bytes each header field came from', () => {
  const spans: FieldSpan[] = [];
  const b = writeMmsh({ blocks: [{ parts: [{ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] }] }] });
  const m = parseMmsh(b, 'x.mesh', { spans });
  assert.deepEqual(
    spans.slice(0, 5).map((s) => [s.name, s.offset, s.length]),
    [
      ['header.magic', 0, 4],
      ['header.version', 4, 4],
      ['header.descSize', 8, 4],
      ['header.infoSize', 12, 4],
      ['header.dataSize', 16, 4],
    ],
  );
  const bone0 = spans.find((s) => s.name === 'info.sphere');
  assert.equal(bone0?.length, 16);
  assert.ok(spans.every((s) => s.offset >= 0 && s.offset + s.length <= b.length));
  assert.equal(m.header.version, 17);
});

test('expectMagicVersion: a cut magic is TRUNCATED, any other short or wrong magic BAD_MAGIC, a swapped one UNSUPPORTED_VERSION', () => {
  const check = (b: Uint8Array, opts = {}): number => expectMagicVersion(new FieldReader(b, 'x'), 'MMSH', [17], 'MMSH', { what: 'an MMSH mesh', ...opts });
  const good = new ByteWriter().u32(tagValue('MMSH')).u32(17).toBytes();
  assert.equal(check(good), 17);
  for (let n = 0; n < 4; n++) expectArch06Error(() => check(good.subarray(0, n)), 'TRUNCATED', { field: 'header.magic' });
  expectArch06Error(() => check(good.subarray(0, 6)), 'TRUNCATED', { field: 'header.version' });
  expectArch06Error(() => check(bytes(0x4e, 0x4f)), 'BAD_MAGIC', { field: 'header.magic' });
  const bad = expectArch06Error(() => check(new ByteWriter().u32(tagValue('MMSX')).u32(17).toBytes()), 'BAD_MAGIC', { message: /not an MMSH mesh/ });
  assert.equal(bad.expected, 'MMSH');
  assert.equal(bad.actual, '"MMSX"');
  const swapped = new ByteWriter().u32(tagValue('HSMM')).u32(17).toBytes();
  expectArch06Error(() => check(swapped), 'BAD_MAGIC');
  expectArch06Error(() => check(swapped, { bigEndian: 'MMSH meshes' }), 'UNSUPPORTED_VERSION', { message: /big-endian/ });
  const v16 = new ByteWriter().u32(tagValue('MMSH')).u32(16).toBytes();
  const v = expectArch06Error(() => check(v16, { versionHint: () => ' (an older game)' }), 'UNSUPPORTED_VERSION', {
    field: 'header.version',
    message: /older game/,
  });
  assert.equal(v.offset, 4);
  // A fixed header that must be there first: a cut one is TRUNCATED whatever its version word holds.
  expectArch06Error(() => check(v16, { headerSize: 20 }), 'TRUNCATED', { field: 'header' });
  const r = new FieldReader(bytes(0x53, 0x4c), 'x');
  assert.equal(startsWithTag(r, 'SLVT'), true);
  assert.equal(startsWithTag(r, 'TEXR'), false);
});

test('the byte writer and the field reader agree on every type', () => {
  const w = new ByteWriter(4)
    .u8(0xab)
    .u16(0xbeef)
    .s16(-3)
    .u32(0xdeadbeef)
    .s32(-5)
    .f32(1.5)
    .u64(2 ** 40 + 7)
    .latin1('hé')
    .zeros(2)
    .bytes([1, 2]);
  w.setU16(1, 0xcafe);
  const r = new FieldReader(w.toBytes(), 'x');
  assert.deepEqual([r.u8('a'), r.u16('b'), r.s16('c'), r.u32('d'), r.s32('e'), r.f32('f')], [0xab, 0xcafe, -3, 0xdeadbeef, -5, 1.5]);
  assert.equal(r.u32('lo') + r.u32('hi') * 2 ** 32, 2 ** 40 + 7);
  assert.equal(r.latin1(2, 'text'), 'hé');
  assert.deepEqual([...r.bytesOf(4, 'rest')], [0, 0, 1, 2]);
  r.atEnd('end');
  assert.equal(hex32(0xdeadbeef), '0xDEADBEEF');
});

test("half floats round-trip, asF32 reads a word's bits, strided reads pick attributes out of interleaved vertices", () => {
  for (const x of [0, 1, -2, 0.5, 65504, 2 ** -24]) assert.equal(halfToFloat(f32ToHalf(x)), x);
  assert.equal(halfToFloat(0x7c00), Infinity);
  assert.ok(Number.isNaN(halfToFloat(0x7e00)));
  assert.equal(asF32(0x3f800000), 1);
  // Two vertices of {f32 x, y, z, w; u8 r, g, b, a; f16 u, v}: 24 bytes each, from offset 4.
  const w = new ByteWriter().u32(0);
  for (const v of [0, 1])
    w.f32(v)
      .f32(v + 1)
      .f32(v + 2)
      .f32(1)
      .bytes([v, 2, 3, 4])
      .u16(f32ToHalf(v / 2))
      .u16(f32ToHalf(1));
  const b = w.toBytes();
  const view = new DataView(b.buffer);
  const xyzw = readComponents(view, 4, 24, 2, 4, 'f32');
  assert.deepEqual([...leadingComponents(xyzw, 2, 4, 3)], [0, 1, 2, 1, 2, 3]);
  assert.deepEqual([...readBytes4(b, 20, 24, 2)], [0, 2, 3, 4, 1, 2, 3, 4]);
  assert.deepEqual([...readComponents(view, 24, 24, 2, 2, 'f16')], [0, 1, 0.5, 1]);
  assert.deepEqual([...readComponents(view, 24, 24, 1, 2, 's16')], [0, 0x3c00]);
});
