/**
 * Kraken decoder acceptance: every vector in ../shared/kraken-vectors and
 * ../shared/kraken-real-oodle decodes to its raw file (bytes and sha256), plus the codec
 * dispatch contract (codecs this build does not decode, unknown headers, raw-size lies, caller
 * buffers). LZB16 has its own tests (lzb16.test.ts, lzb16Real.test.ts).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { decodeOodle, decodeOodleInto, identifyCodec } from '..';
import { sharedPath } from '../../../test/support/shared';
import { multiArrayStream } from './vectors';

interface ManifestEntry {
  name: string;
  rawFile: string;
  compressedFile: string;
  rawSize: number;
  rawSha256: string;
  features: Record<string, number>;
}

function loadManifest(dir: string): ManifestEntry[] {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
}

function sha256(b: Uint8Array): string {
  return crypto.createHash('sha256').update(b).digest('hex');
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

for (const folder of ['kraken-vectors', 'kraken-real-oodle']) {
  const shared = sharedPath(folder);
  test(`${folder}: every vector decodes exactly`, { skip: shared.skip }, async (t) => {
    const manifest = loadManifest(shared.path);
    assert.ok(manifest.length > 0, 'manifest lists vectors');
    for (const v of manifest) {
      await t.test(`${v.name} [${Object.keys(v.features).join(' ')}]`, () => {
        const src = new Uint8Array(fs.readFileSync(path.join(shared.path, v.compressedFile)));
        const raw = new Uint8Array(fs.readFileSync(path.join(shared.path, v.rawFile)));
        assert.equal(raw.length, v.rawSize, 'raw file matches the manifest size');
        const out = decodeOodle(src, v.rawSize, { file: v.compressedFile, chunkIndex: 0 });
        assert.equal(out.length, v.rawSize);
        const diff = firstDifference(out, raw);
        assert.equal(diff, -1, `first differing byte at ${diff}`);
        assert.equal(sha256(out), v.rawSha256);
      });
    }
  });
}

test('decodeOodleInto writes at an offset and leaves the rest of the buffer alone', { skip: sharedPath('kraken-vectors').skip }, () => {
  const dir = sharedPath('kraken-vectors').path;
  const v = loadManifest(dir).find((m) => m.name === 'text_en_65536.L4') ?? loadManifest(dir)[0];
  const src = new Uint8Array(fs.readFileSync(path.join(dir, v.compressedFile)));
  const raw = new Uint8Array(fs.readFileSync(path.join(dir, v.rawFile)));
  const buf = new Uint8Array(v.rawSize + 100).fill(0xa5);
  decodeOodleInto(src, buf, 37, v.rawSize, { file: 'x' });
  assert.equal(firstDifference(buf.subarray(37, 37 + v.rawSize), raw), -1);
  assert.ok(buf.subarray(0, 37).every((b) => b === 0xa5));
  assert.ok(buf.subarray(37 + v.rawSize).every((b) => b === 0xa5));
  assert.throws(
    () => decodeOodleInto(src, buf, 101, v.rawSize, { file: 'x' }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'OUT_OF_RANGE',
  );
});

function expectError(fn: () => unknown, codes: string[], check?: (e: Arch06Error) => void): Arch06Error {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Arch06Error, `expected Arch06Error, got ${String(e)}`);
    assert.ok(codes.includes(e.code), `expected ${codes.join('/')}, got ${e.code}: ${e.message}`);
    check?.(e);
    return e;
  }
  assert.fail('expected an error');
}

test('a chunk of a codec this build does not decode (Mermaid) is UNSUPPORTED_CODEC naming the file and the chunk', () => {
  const src = Uint8Array.from([0x8c, 0x0a, 0x01, 0x23, 0x45, 0x67]);
  assert.equal(identifyCodec(src), 'mermaid');
  expectError(
    () => decodeOodle(src, 300, { file: 'gamedata/foo.bin', chunkIndex: 3, offset: 0x1000 }),
    ['UNSUPPORTED_CODEC'],
    (e) => {
      assert.match(e.message, /Mermaid/);
      assert.equal(e.file, 'gamedata/foo.bin');
      assert.match(e.field ?? '', /^chunk\[3\]/);
      assert.equal(e.offset, 0x1000);
    },
  );
  // Same through the caller-buffer variant.
  expectError(() => decodeOodleInto(src, new Uint8Array(300), 0, 300, { file: 'f', chunkIndex: 0 }), ['UNSUPPORTED_CODEC']);
});

test('unknown or empty headers are UNSUPPORTED_CODEC', () => {
  for (const bytes of [[0x8c, 0x7f, 0, 0], [0x12, 0x34, 0x56], [], [0x8c], [0x8c, 0x0a, 0, 0]]) {
    const src = Uint8Array.from(bytes);
    expectError(
      () => decodeOodle(src, 16, { file: 'a.bin', chunkIndex: 1 }),
      ['UNSUPPORTED_CODEC'],
      (e) => {
        assert.equal(e.file, 'a.bin');
        assert.match(e.field ?? '', /^chunk\[1\]/);
        assert.equal(typeof e.offset, 'number');
      },
    );
  }
});

test('raw size lies and bad arguments end in typed errors', { skip: sharedPath('kraken-vectors').skip }, () => {
  const dir = sharedPath('kraken-vectors').path;
  const manifest = loadManifest(dir);
  // Vectors whose decode depends on the size (memset and stored blocks accept any size).
  const picks = manifest.filter((m) => m.features.chunk_lz_mode1_raw_lits || m.features.chunk_lz_mode0_delta_lits).slice(0, 12);
  assert.ok(picks.length > 0);
  for (const v of picks) {
    const src = new Uint8Array(fs.readFileSync(path.join(dir, v.compressedFile)));
    for (const size of [v.rawSize - 1, v.rawSize + 1, Math.floor(v.rawSize / 2), v.rawSize * 2, 1]) {
      expectError(
        () => decodeOodle(src, size, { file: v.name, chunkIndex: 7 }),
        ['CORRUPT_STREAM', 'TRUNCATED', 'OUT_OF_RANGE'],
        (e) => {
          assert.equal(e.file, v.name);
          assert.match(e.field ?? '', /^chunk\[7\]/);
          assert.equal(typeof e.offset, 'number');
        },
      );
    }
  }
  const src = new Uint8Array(fs.readFileSync(path.join(dir, manifest[0].compressedFile)));
  for (const size of [-1, 1.5, Number.NaN]) expectError(() => decodeOodle(src, size), ['OUT_OF_RANGE']);
  // A size the stream cannot possibly describe is refused before allocating.
  expectError(() => decodeOodle(src, 2 ** 40), ['CORRUPT_STREAM']);
});

test('a memset stream fills any size; a stored block needs its bytes', () => {
  const memset = Uint8Array.from([0x8c, 0x06, 0x07, 0xff, 0xff, 0x5a]);
  const out = decodeOodle(memset, 1000);
  assert.ok(out.every((b) => b === 0x5a));
  const stored = Uint8Array.from([0xcc, 0x06, 1, 2, 3, 4]);
  assert.deepEqual([...decodeOodle(stored, 4)], [1, 2, 3, 4]);
  expectError(() => decodeOodle(stored, 5, { file: 's' }), ['TRUNCATED']);
  expectError(() => decodeOodle(stored, 3, { file: 's' }), ['CORRUPT_STREAM']);
});

test('errors carry the file offset of the failing structure', () => {
  // Bad quantum header (all-ones size with reserved top bits) two bytes into the stream.
  const src = Uint8Array.from([0x8c, 0x06, 0xff, 0xff, 0xff, 0x00]);
  expectError(
    () => decodeOodle(src, 100, { file: 'e', chunkIndex: 2, offset: 500 }),
    ['CORRUPT_STREAM'],
    (e) => {
      assert.equal(e.offset, 502);
      assert.equal(e.field, 'chunk[2].quantum.header');
    },
  );
});

test('multi-array byte arrays interleave their pieces', () => {
  const expected = 'a'.repeat(100) + 'XYZ' + 'a'.repeat(100);
  for (const wide of [true, false]) {
    const out = decodeOodle(multiArrayStream(wide), 203, { file: 'multi' });
    assert.equal(Buffer.from(out).toString('latin1'), expected, wide ? 'wide index form' : 'separate length array');
  }
  // Every single-byte change must still end in a typed error or the right size.
  const base = multiArrayStream(false);
  for (let i = 0; i < base.length; i++) {
    for (const x of [0x01, 0x80, 0xff]) {
      const m = base.slice();
      m[i] ^= x;
      try {
        assert.equal(decodeOodle(m, 203).length, 203);
      } catch (e) {
        assert.ok(e instanceof Arch06Error, String(e));
      }
    }
  }
});
