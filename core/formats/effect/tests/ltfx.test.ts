import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { GADB_HEADER_SIZE, LTFX_GADB_OFFSET, parseLtfxHeader } from '../ltfx';
import { expectArch06Error } from '../../../../test/support/errors';

/** "LTFX" v8, then a GADB header with version 17 and words 100, 101, … (built here, byte by byte). */
function header(ltfxVersion = 8): Uint8Array {
  const b = Buffer.alloc(LTFX_GADB_OFFSET + GADB_HEADER_SIZE + 6);
  b.write('LTFX', 0, 'latin1');
  b.writeUInt32LE(ltfxVersion, 4);
  b.write('GADB', 8, 'latin1');
  b.writeUInt32LE(17, 12);
  for (let i = 0; i < 9; i++) b.writeUInt32LE(100 + i, 16 + 4 * i);
  return b;
}

test('ltfx: a synthetic header reads back: versions and the nine GADB words at their offsets', () => {
  const h = parseLtfxHeader(header(), 'x.fxp');
  assert.equal(h.version, 8);
  assert.equal(h.gadb.offset, 8);
  assert.equal(h.gadb.version, 17);
  assert.deepEqual(
    h.gadb.words.map((w) => [w.offset, w.value]),
    Array.from({ length: 9 }, (_, i) => [16 + 4 * i, 100 + i]),
  );
  assert.equal(h.gadb.words[0].label, 'stringTableSize');
  assert.equal(h.gadb.words[8].label, 'stringTableOffset');
  assert.equal(h.confidence, 'uncertain');
});

test('ltfx: every truncation inside the 52 header bytes is TRUNCATED naming the field', () => {
  const b = header();
  const end = LTFX_GADB_OFFSET + GADB_HEADER_SIZE;
  for (let n = 0; n < end; n++) {
    const field = n < 4 ? 'header.magic' : n < 8 ? 'header.version' : n < 12 ? 'gadb.magic' : 'gadb.header';
    expectArch06Error(() => parseLtfxHeader(b.subarray(0, n), 'x.fxp'), 'TRUNCATED', { field });
  }
  assert.equal(parseLtfxHeader(b.subarray(0, end), 'x.fxp').size, end);
});

test('ltfx: bad magics and an unknown LTFX version are typed errors', () => {
  const notLtfx = header();
  notLtfx[0] = 0x4d; // "MTFX"
  expectArch06Error(() => parseLtfxHeader(notLtfx, 'x.fxp'), 'BAD_MAGIC', { field: 'header.magic' });
  const noGadb = header();
  noGadb[8] = 0x48; // "HADB"
  expectArch06Error(() => parseLtfxHeader(noGadb, 'x.fxp'), 'BAD_MAGIC', { field: 'gadb.magic' });
  expectArch06Error(() => parseLtfxHeader(header(9), 'x.fxp'), 'UNSUPPORTED_VERSION', { field: 'header.version' });
});
