/**
 * LZB16 decoder, synthetic: one test per rule of `../shared/docs/lzb16.md` (header bytes, the
 * big-endian length word, literal counts and their extension, the literal-only last sequence,
 * the three match forms, overlapping copies) and per failure (offsets before the output,
 * truncation, trailing bytes, raw-size lies, and every form the real chunks leave open, which
 * must fail with UNSUPPORTED_FORM naming the form). Streams come from the test writer
 * (core/oodle/lzb16/writer.ts) or are spelled out byte by byte. The real chunks are in
 * lzb16Real.test.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { decodeOodle, decodeOodleInto, identifyCodec } from '..';
import { checkLzb16Framing, decodeLzb16Into } from '../lzb16';
import { MAX_LITERAL_RUN, MAX_MATCH, canEncodeMatch, compressLzb16, encodeSequences, frameLzb16, writeLzb16, writeLzb16Literals } from '../lzb16/writer';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { Mount } from '../../archive/mount';
import { verifyMount } from '../../archive/verify';
import { prng, randomBytes, tempDir, writeTree } from '../../../test/support/fixtures';

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
const text = (s: string): Uint8Array => Buffer.from(s, 'latin1');

function decode(src: Uint8Array, rawSize: number): Uint8Array {
  return decodeOodle(src, rawSize, { file: 't.bin', chunkIndex: 0 });
}

/** Decode with guard bytes around the destination; returns the decoded range. */
function decodeGuarded(src: Uint8Array, rawSize: number): Uint8Array {
  const buf = new Uint8Array(rawSize + 64).fill(0xe7);
  decodeOodleInto(src, buf, 32, rawSize, { file: 't.bin', chunkIndex: 0 });
  assert.ok(
    buf.subarray(0, 32).every((b) => b === 0xe7),
    'nothing written before the range',
  );
  assert.ok(
    buf.subarray(32 + rawSize).every((b) => b === 0xe7),
    'nothing written after the range',
  );
  return buf.subarray(32, 32 + rawSize);
}

function expectCode(f: () => unknown, codes: string | string[], check?: (e: Arch06Error) => void): Arch06Error {
  const list = Array.isArray(codes) ? codes : [codes];
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Arch06Error, `expected Arch06Error, got ${(e as Error)?.stack ?? String(e)}`);
    assert.ok(list.includes(e.code), `expected ${list.join('/')}, got ${e.code}: ${e.message}`);
    check?.(e);
    return e;
  }
  assert.fail(`expected ${list.join('/')}`);
}

/** UNSUPPORTED_FORM naming `form`, at stream offset `at` (the dispatcher adds nothing here: no where.offset). */
function expectForm(src: Uint8Array, rawSize: number, form: RegExp, at?: number): void {
  expectCode(
    () => decode(src, rawSize),
    'UNSUPPORTED_FORM',
    (e) => {
      assert.match(e.message, /^t\.bin at 0x[0-9a-f]+: unsupported LZB16 form: /);
      assert.match(e.description, form);
      assert.match(e.field ?? '', /^chunk\[0\]\.lzb16\./);
      if (at !== undefined) assert.equal(e.offset, at, e.message);
    },
  );
}

/** A stream whose length word is recomputed for `body` (so a body can be cut or extended freely). */
const framed = (...body: number[]): Uint8Array => frameLzb16(body);

// ---- prefix -------------------------------------------------------------------------------

test('header bytes: 8C 02 is LZB16 and decodes; the stream starts after the 4-byte prefix', () => {
  const src = writeLzb16Literals(text('abc'));
  assert.deepEqual([...src], [0x8c, 0x02, 0x00, 0x03, 0x03, 0x61, 0x62, 0x63]);
  assert.equal(identifyCodec(src), 'lzb16');
  assert.equal(Buffer.from(decode(src, 3)).toString('latin1'), 'abc');
  assert.equal(Buffer.from(decodeGuarded(src, 3)).toString('latin1'), 'abc');
});

test('header bytes other than 8C 02 are refused: unseen ones as UNSUPPORTED_FORM naming the byte', () => {
  const good = writeLzb16Literals(text('abc'));
  const withHeader = (b0: number, b1: number): Uint8Array => {
    const s = good.slice();
    s[0] = b0;
    s[1] = b1;
    return s;
  };
  expectForm(withHeader(0x0c, 0x02), 3, /block header byte 0 0x0C/, 0); // no "restart" bit
  expectForm(withHeader(0xcc, 0x02), 3, /block header byte 0 0xCC/, 0); // Kraken's "uncompressed" bit
  expectForm(withHeader(0x4c, 0x02), 3, /block header byte 0 0x4C/, 0);
  expectForm(withHeader(0x8c, 0x82), 3, /block header byte 1 0x82/, 1); // Kraken's "checksums" bit
  // Bits 4-5 are never set in an Oodle block header: damage, not a form.
  for (const b0 of [0x9c, 0xac])
    expectCode(
      () => decode(withHeader(b0, 0x02), 3),
      'CORRUPT_STREAM',
      (e) => assert.equal(e.field, 'chunk[0].lzb16.header'),
    );
});

test('the length word is big-endian and counts the bytes that follow, minus one', () => {
  // 269 literals: body = token + extension + 269 = 271 bytes, word 270 = 0x010E (LE would read 0x0E01).
  const data = randomBytes(MAX_LITERAL_RUN, prng(5));
  const src = writeLzb16Literals(data);
  assert.equal(src.length, 4 + 271);
  assert.deepEqual([...src.subarray(0, 6)], [0x8c, 0x02, 0x01, 0x0e, 0x0f, 0xfe]);
  assert.deepEqual(decode(src, data.length), data);
  // One more or one fewer than the bytes that follow: refused, naming the length word.
  for (const delta of [-1, 1, 2, -270]) {
    const s = src.slice();
    const w = 270 + delta;
    s[2] = w >> 8;
    s[3] = w & 0xff;
    expectForm(s, data.length, /length word 0x[0-9A-F]{4} does not describe the payload/, 2);
  }
  // The cheap framing check refuses it too, before any output is allocated.
  const s = src.slice();
  s[3] ^= 1;
  expectCode(() => checkLzb16Framing(s, data.length), 'UNSUPPORTED_FORM');
});

test('a length word with bit 14 or 15 set is refused as possible flags', () => {
  for (const word of [0x4000, 0x8000, 0xc0f2, 0x80f2]) {
    const s = new Uint8Array(4 + (word & 0x3fff) + 1);
    s.set([0x8c, 0x02, word >> 8, word & 0xff]);
    expectForm(s, 10, /length word 0x[0-9A-F]{4} with bit 14 or 15 set/, 2);
  }
});

test('streams shorter than the prefix are TRUNCATED', () => {
  for (const s of [bytes(0x8c, 0x02), bytes(0x8c, 0x02, 0x00)]) {
    expectCode(
      () => decode(s, 4),
      'TRUNCATED',
      (e) => assert.equal(e.field, 'chunk[0].lzb16.header'),
    );
  }
});

// ---- literals ------------------------------------------------------------------------------

test('literal count: 0-14 in the token, 15 + one extension byte up to 269', () => {
  const rnd = prng(11);
  for (const n of [0, 1, 2, 13, 14, 15, 16, 17, 100, 254, 268, MAX_LITERAL_RUN]) {
    const data = randomBytes(n, rnd);
    const src = writeLzb16Literals(data);
    // token, [extension], literals
    assert.equal(src[4], Math.min(n, 15), `token for ${n}`);
    if (n >= 15) assert.equal(src[5], n - 15, `extension for ${n}`);
    assert.equal(src.length, 4 + 1 + (n >= 15 ? 1 : 0) + n);
    assert.deepEqual(decode(src, n), data, `${n} literals`);
  }
});

test('literal extension byte 255 is UNSUPPORTED_FORM', () => {
  const s = framed(0x0f, 0xff, ...new Array(270).fill(0x41));
  expectForm(s, 270, /literal extension byte 255/, 5);
});

test('the last sequence carries literals only; its match code is not read', () => {
  // Token F3 (M = 15) with 3 literals, then the stream ends: no match part is read.
  assert.equal(Buffer.from(decode(framed(0xf3, 0x61, 0x62, 0x63), 3)).toString('latin1'), 'abc');
  // Token 00 alone: a final sequence of zero literals.
  const src = writeLzb16([{ literals: text('abcd'), match: { length: 4, offset: 4 } }, { literals: [] }]);
  assert.deepEqual([...src.subarray(4)], [0x04, 0x61, 0x62, 0x63, 0x64, 0x04, 0x00, 0x00]);
  assert.equal(Buffer.from(decode(src, 8)).toString('latin1'), 'abcdabcd');
});

test('a stream that ends right after a match (no final literal-only sequence) is UNSUPPORTED_FORM', () => {
  // 4 literals, M = 0 match length 4 offset 4, end.
  const s = framed(0x04, 0x61, 0x62, 0x63, 0x64, 0x04, 0x00);
  expectForm(s, 8, /stream ends after a match/, 11);
  // Short of the raw size, the same stream is simply cut.
  expectCode(
    () => decode(s, 9),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /ends before the raw size/),
  );
});

// ---- matches -------------------------------------------------------------------------------

test("M = 0: match of length 4 with a little-endian u16 offset (the sample's offset 13)", () => {
  const lits = text('0123456789abc');
  const src = writeLzb16([{ literals: lits, match: { length: 4, offset: 13 } }, { literals: text('!') }]);
  // token 0x0D (L = 13, M = 0), literals, offset 0D 00, final token 0x01 + '!'
  assert.deepEqual([...src.subarray(4)], [0x0d, ...lits, 0x0d, 0x00, 0x01, 0x21]);
  assert.equal(Buffer.from(decode(src, 18)).toString('latin1'), '0123456789abc0123!');
  // An offset above 255 uses both bytes, low byte first.
  const long = randomBytes(260, prng(3));
  const seqs = [
    { literals: long.subarray(0, 200), match: { length: 19, offset: 1 } },
    { literals: long.subarray(200, 260), match: { length: 4, offset: 0x104 } },
    { literals: [] },
  ];
  const src2 = writeLzb16(seqs);
  const out = decode(src2, 260 + 19 + 4);
  assert.deepEqual(out.subarray(279, 283), out.subarray(279 - 0x104, 283 - 0x104));
  assert.ok(Buffer.from(src2).includes(Buffer.from([0x04, 0x01])), 'offset 0x104 written as 04 01');
});

test('M = 15, E < 0x80: match of length E + 19 with a u16 offset', () => {
  const unit = text('worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.inst\0\0\0\0'); // 64 bytes
  assert.equal(unit.length, 64);
  for (const length of [19, 20, 57, 58, 63, 100, MAX_MATCH]) {
    const src = writeLzb16([{ literals: unit, match: { length: Math.min(length, MAX_MATCH), offset: 64 } }, { literals: text('x') }]);
    // token 0xF?: L = 15 + extension 49, then E = length − 19, offset 40 00.
    assert.equal(src[4], 0xff);
    assert.equal(src[5], 64 - 15);
    assert.deepEqual([...src.subarray(6 + 64, 6 + 64 + 3)], [length - 19, 0x40, 0x00]);
    const out = decode(src, 64 + length + 1);
    for (let i = 0; i < length; i++) assert.equal(out[64 + i], out[i % 64], `byte ${64 + i} of length ${length}`);
    assert.equal(out[64 + length], 0x78);
  }
});

test('M = 15, E ≥ 0x80: short form, length ((E >> 3) & 15) + 4 at offset 1, no offset word', () => {
  for (let length = 4; length <= 19; length++) {
    const src = writeLzb16([{ literals: text('ab'), match: { length, offset: 1 } }, { literals: text('c') }]);
    const e = 0x80 | ((length - 4) << 3) | 1;
    assert.deepEqual([...src.subarray(4)], [0xf2, 0x61, 0x62, e, 0x01, 0x63]);
    assert.equal(Buffer.from(decode(src, 2 + length + 1)).toString('latin1'), 'ab' + 'b'.repeat(length) + 'c');
  }
  // The sample's E bytes: 0x89, 0x91, 0xB9 → lengths 5, 6, 11.
  for (const [e, length] of [
    [0x89, 5],
    [0x91, 6],
    [0xb9, 11],
  ]) {
    assert.equal(Buffer.from(decode(framed(0xf1, 0x00, e, 0x01, 0x2e), 1 + length + 1)).toString('latin1'), '\0'.repeat(1 + length) + '.');
  }
});

test('overlapping copies repeat the bytes just written (offset 1, and offset 3 with a long match)', () => {
  const s1 = writeLzb16([{ literals: text('z'), match: { length: 80, offset: 1 } }, { literals: [] }]);
  assert.equal(Buffer.from(decode(s1, 81)).toString('latin1'), 'z'.repeat(81));
  const s2 = writeLzb16([{ literals: text('abc'), match: { length: 30, offset: 3 } }, { literals: [] }]);
  assert.equal(Buffer.from(decode(s2, 33)).toString('latin1'), 'abc'.repeat(11));
  const s3 = writeLzb16([{ literals: text('abcd'), match: { length: 4, offset: 2 } }, { literals: [] }]);
  assert.equal(Buffer.from(decode(s3, 8)).toString('latin1'), 'abcdcdcd');
});

test("a match offset before the output's start, or 0, is CORRUPT_STREAM", () => {
  // 3 literals, then a length-4 match at offset 4.
  expectCode(
    () => decode(framed(0x03, 0x61, 0x62, 0x63, 0x04, 0x00, 0x00), 7),
    'CORRUPT_STREAM',
    (e) => {
      assert.match(e.message, /offset reaches before the output's start/);
      assert.equal(e.offset, 8);
      assert.equal(e.field, 'chunk[0].lzb16.offset');
    },
  );
  // The same stream decoded into the middle of a larger buffer: the output's start is dstOffset, not 0.
  expectCode(() => decodeOodleInto(framed(0x03, 0x61, 0x62, 0x63, 0x04, 0x00, 0x00), new Uint8Array(100), 50, 7), 'CORRUPT_STREAM');
  expectCode(
    () => decode(framed(0xf3, 0x61, 0x62, 0x63, 0x20, 0x04, 0x00, 0x00), 3 + 51),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /before the output's start/),
  );
  expectCode(
    () => decode(framed(0x03, 0x61, 0x62, 0x63, 0x00, 0x00, 0x00), 7),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /offset 0/),
  );
});

// ---- unsupported forms -------------------------------------------------------------------

test('match codes 1-14 are UNSUPPORTED_FORM naming the code', () => {
  for (let m = 1; m <= 14; m++) {
    const token = (m << 4) | 2;
    expectForm(framed(token, 0x61, 0x62, 0x05, 0x00, 0x00), 100, new RegExp(`match code ${m} \\(token 0x${token.toString(16).toUpperCase()}\\)$`), 4);
  }
});

test('the short form with offsets 0 or 2-7 is UNSUPPORTED_FORM naming the offset', () => {
  for (const off of [0, 2, 3, 4, 5, 6, 7]) {
    const e = 0x80 | (3 << 3) | off;
    expectForm(
      framed(0xf8, ...text('abcdefgh'), e, 0x00),
      100,
      new RegExp(`short match with offset ${off} \\(E byte 0x${e.toString(16).toUpperCase()}\\)`),
      13,
    );
  }
});

test('the error names file, chunk and the offset within the file (stream offset + where.offset)', () => {
  const s = framed(0x32, 0x61, 0x62, 0x05, 0x00, 0x00);
  expectCode(
    () => decodeOodle(s, 100, { file: 'Patch_09.arch06:x.bndl', chunkIndex: 7, offset: 0x1000 }),
    'UNSUPPORTED_FORM',
    (e) => {
      assert.equal(e.file, 'Patch_09.arch06:x.bndl');
      assert.equal(e.offset, 0x1004);
      assert.equal(e.field, 'chunk[7].lzb16.token');
      assert.match(e.message, /^Patch_09\.arch06:x\.bndl at 0x1004: unsupported LZB16 form: match code 3 \(token 0x32\), field chunk\[7\]\.lzb16\.token/);
    },
  );
});

// ---- size, truncation, trailing bytes ------------------------------------------------------

test('truncated streams are typed errors; with a matching length word they are TRUNCATED at the field', () => {
  const src = writeLzb16([
    { literals: randomBytes(20, prng(1)), match: { length: 40, offset: 20 } },
    { literals: text('ab'), match: { length: 4, offset: 30 } },
    { literals: text('xyz') },
  ]);
  const raw = 20 + 40 + 2 + 4 + 3;
  assert.equal(decode(src, raw).length, raw);
  for (let n = 0; n < src.length; n++) {
    // Cut as it is: the length word no longer describes the payload (under 2 bytes: no codec at all).
    expectCode(() => decode(src.subarray(0, n), raw), n < 2 ? 'UNSUPPORTED_CODEC' : n < 4 ? 'TRUNCATED' : 'UNSUPPORTED_FORM');
    if (n <= 4) continue;
    // Cut and re-framed: the sequences themselves end early.
    const body = src.subarray(4, n);
    expectCode(() => decode(frameLzb16(body), raw), ['TRUNCATED', 'CORRUPT_STREAM', 'UNSUPPORTED_FORM']);
  }
  // Specific fields: the extension byte, the literals, the offset word.
  expectCode(
    () => decode(framed(0x0f), 20),
    'TRUNCATED',
    (e) => assert.equal(e.field, 'chunk[0].lzb16.literalExtension'),
  );
  expectCode(
    () => decode(framed(0x05, 0x61, 0x62), 5),
    'TRUNCATED',
    (e) => assert.equal(e.field, 'chunk[0].lzb16.literals'),
  );
  expectCode(
    () => decode(framed(0x04, 0x61, 0x62, 0x63, 0x64, 0x04), 8),
    'TRUNCATED',
    (e) => assert.equal(e.field, 'chunk[0].lzb16.offset'),
  );
  expectCode(
    () => decode(framed(0xf4, 0x61, 0x62, 0x63, 0x64, 0x20, 0x04), 60),
    'TRUNCATED',
    (e) => assert.equal(e.field, 'chunk[0].lzb16.offset'),
  );
});

test('trailing bytes after the output is complete are refused', () => {
  const src = writeLzb16Literals(text('hello'));
  // Appended without touching the length word: the word no longer describes the payload.
  const appended = new Uint8Array(src.length + 2);
  appended.set(src);
  expectCode(
    () => decode(appended, 5),
    'UNSUPPORTED_FORM',
    (e) => assert.match(e.message, /length word/),
  );
  // Appended inside the stream (length word recomputed): bytes after the last byte of output.
  expectCode(
    () => decode(framed(0x05, ...text('hello'), 0x00, 0x00), 5),
    'CORRUPT_STREAM',
    (e) => {
      assert.match(e.message, /bytes after the output is complete/);
      assert.equal(e.offset, 10);
    },
  );
});

test('raw size lies: too large or too small are typed errors; an impossible one fails before allocation', () => {
  const src = writeLzb16([{ literals: text('abc'), match: { length: 60, offset: 3 } }, { literals: text('!') }]);
  assert.equal(decode(src, 64).length, 64);
  expectCode(
    () => decode(src, 65),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /ends before the raw size/),
  );
  expectCode(
    () => decode(src, 63),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /past the raw size/),
  );
  expectCode(
    () => decode(src, 2),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /literals run past the raw size/),
  );
  // A stream of n bytes cannot describe more than 37 × n: refused by the framing check alone.
  const streamLen = src.length - 4;
  assert.doesNotThrow(() => checkLzb16Framing(src, 37 * streamLen));
  expectCode(
    () => checkLzb16Framing(src, 37 * streamLen + 1),
    'CORRUPT_STREAM',
    (e) => assert.equal(e.field, 'rawSize'),
  );
  // Through the dispatcher, that check runs before the output buffer is allocated.
  expectCode(
    () => decode(src, 0x7fffffff),
    'CORRUPT_STREAM',
    (e) => assert.equal(e.field, 'chunk[0].rawSize'),
  );
  expectCode(() => decode(src, -1), 'OUT_OF_RANGE');
  expectCode(
    () => decodeLzb16Into(src, new Uint8Array(10), 0, 64),
    'CORRUPT_STREAM',
    (e) => assert.match(e.message, /outside the destination/),
  );
});

// ---- the writer --------------------------------------------------------------------------

/** Words from a small vocabulary, with runs and stray bytes: compressible enough for the known forms. */
function wordSoup(size: number, rnd: () => number): Uint8Array {
  const words = ['worlds\\', 'retail\\', 'fortwall', 'gameplay', '.inst', '\0\0\0\0', 'BNDL', '\x06\0\0\0'];
  const parts: number[] = [];
  while (parts.length < size) {
    if (rnd() < 0.1) parts.push(...new Array(1 + Math.floor(rnd() * 30)).fill(Math.floor(rnd() * 256)));
    else if (rnd() < 0.15) parts.push(Math.floor(rnd() * 256));
    else parts.push(...text(words[Math.floor(rnd() * words.length)]));
  }
  return Uint8Array.from(parts.slice(0, size));
}

test('writer: every stream it makes decodes to its input (random compressible data up to 64 KiB)', () => {
  const rnd = prng(2024);
  for (let round = 0; round < 25; round++) {
    let data: Uint8Array;
    if (round < 20) data = wordSoup(1 + Math.floor(rnd() * 3000), rnd);
    else {
      // A full 64 KiB chunk: a 1 KiB paragraph repeated with a few edits (long matches).
      const para = wordSoup(1024, rnd);
      data = new Uint8Array(0x10000 - Math.floor(rnd() * 100));
      for (let i = 0; i < data.length; i++) data[i] = rnd() < 0.002 ? Math.floor(rnd() * 256) : para[i % para.length];
    }
    const src = compressLzb16(data, round < 20 ? 4096 : 1100);
    assert.ok(src.length < data.length + 8, `round ${round} compresses`);
    assert.deepEqual(decodeGuarded(src, data.length), data, `round ${round}: ${data.length} bytes`);
  }
});

test('writer: refuses what no known form encodes', () => {
  assert.equal(canEncodeMatch(5, 2), false); // would need match code 1
  assert.equal(canEncodeMatch(18, 40), false);
  assert.equal(canEncodeMatch(147, 1), false);
  assert.equal(canEncodeMatch(5, 1), true);
  assert.equal(canEncodeMatch(4, 65535), true);
  assert.equal(canEncodeMatch(19, 0), false);
  const refuse = (f: () => unknown): void => void expectCode(f, 'BAD_ARGUMENT');
  refuse(() => encodeSequences([{ literals: [], match: { length: 6, offset: 9 } }, { literals: [] }]));
  refuse(() => encodeSequences([{ literals: new Uint8Array(MAX_LITERAL_RUN + 1) }]));
  refuse(() => encodeSequences([{ literals: [1] }, { literals: [] }])); // a match is missing
  refuse(() => encodeSequences([{ literals: [1], match: { length: 4, offset: 1 } }])); // the last has a match
  refuse(() => compressLzb16(randomBytes(600, prng(8)))); // incompressible: literal runs too long
  refuse(() => frameLzb16([]));
});

// ---- in an archive ------------------------------------------------------------------------

test('in an archive: LZB16 chunks read like any other; verify counts chunks per codec and unseen forms apart', async () => {
  const para = Buffer.from('worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.');
  const data = new Uint8Array(3000).map((_, i) => para[i % para.length] ^ (i % 997 === 0 ? 1 : 0));
  const good = compressLzb16(data);
  const odd = framed(0x32, 0x61, 0x62, 0x05, 0x00, 0x00); // match code 3
  const stored = randomBytes(100, prng(4));
  const w = new LtarWriter();
  w.add('a\\mixed.bin', {
    storage: 'chunks',
    chunks: [
      { payload: stored, rawLen: 100 },
      { payload: good, rawLen: data.length },
      { payload: writeLzb16Literals(text('tail')), rawLen: 4 },
    ],
  });
  w.add('a\\odd.bin', {
    storage: 'chunks',
    chunks: [
      { payload: good, rawLen: data.length },
      { payload: odd, rawLen: 100 },
      { payload: odd, rawLen: 100 },
    ],
  });
  const root = tempDir('arch06-lzb16-');
  writeTree(root, { 'x64/default.archcfg': '..\\L.arch06\n', 'L.arch06': w.toBytes() });
  const m = Mount.open({ root });
  try {
    const e = m.sources[0].entryAt(0);
    assert.equal(e.path, 'a\\mixed.bin');
    // The oracle: the bytes the test put in (stored chunk, LZB16 chunk, literal-only tail), never the reader's own output.
    const expected = Buffer.concat([stored, data, text('tail')]);
    assert.deepEqual(Buffer.from(e.readSync()), expected);
    // A range inside the LZB16 chunk, one across the stored/LZB16 boundary, one across LZB16/LZB16; both read paths.
    for (const [a, b] of [
      [1000, 1100],
      [90, 110],
      [100 + data.length - 2, 100 + data.length + 3],
    ]) {
      assert.deepEqual(Buffer.from(e.readSync(a, b)), expected.subarray(a, b), `[${a}, ${b})`);
      assert.deepEqual(Buffer.from(await e.read(a, b)), expected.subarray(a, b), `async [${a}, ${b})`);
    }
    // The odd entry: its first chunk still reads; the second fails with the form named.
    const odd = m.sources[0].entryAt(1);
    assert.deepEqual(odd.readSync(0, 10), data.subarray(0, 10));
    expectCode(
      () => odd.readSync(),
      'UNSUPPORTED_FORM',
      (err) => {
        assert.match(err.message, /^L\.arch06:a\\odd\.bin at 0x[0-9a-f]+: unsupported LZB16 form: match code 3/);
        assert.match(err.field ?? '', /^chunk\[1\]\.lzb16\.token$/);
      },
    );
    const report = verifyMount(m);
    assert.deepEqual(
      report.failures.map((f) => [f.path, f.code]),
      [['a\\odd.bin', 'UNSUPPORTED_FORM']],
    );
    assert.deepEqual(report.unsupportedForms, { lzb16: 2 });
    assert.deepEqual(report.unsupportedChunks, {});
    assert.deepEqual(report.chunksByCodec, { stored: 1, lzb16: 2 });
  } finally {
    m.close();
  }
});
