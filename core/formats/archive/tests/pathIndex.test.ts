import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { stringHash } from '../../../hash/stringHash';
import { parsePathIndex, writePathIndex } from '../pathIndex';

const paths = ['worlds\\retail\\desert\\desert.objres', 'sound\\a.bnk', 'anims\\x.anix', 'sound\\a.bnk'];

test('round trip: leading 1, rows sorted by hash, each hash the StringHash of its path', () => {
  const bytes = writePathIndex(paths);
  const ix = parsePathIndex(bytes);
  assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true), 1);
  assert.equal(ix.rows.length, 3);
  assert.deepEqual(
    ix.rows.map((r) => r.hash),
    [...ix.rows.map((r) => r.hash)].sort((a, b) => a - b),
  );
  for (const r of ix.rows) assert.equal(r.hash, stringHash(r.path));
  assert.deepEqual(ix.problems, []);
});

test('rows whose hash is not StringHash of their path, and unsorted rows, are reported', () => {
  const bytes = Uint8Array.from(writePathIndex(paths));
  const dv = new DataView(bytes.buffer);
  const strings = dv.getUint32(4, true);
  const rowsAt = 8 + strings + 4;
  dv.setUint32(rowsAt, dv.getUint32(rowsAt, true) ^ 1, true); // corrupt row 0's hash
  dv.setUint32(rowsAt + 16, 0, true); // row 2 hash 0: out of order
  const ix = parsePathIndex(bytes);
  assert.equal(ix.problems.filter((p) => /is not StringHash/.test(p.message)).length, 2);
  assert.equal(ix.problems.filter((p) => /not sorted/.test(p.message)).length, 1);
});

test('malformed indexes fail with typed errors naming the offset', () => {
  const good = writePathIndex(paths);
  const lead = Uint8Array.from(good);
  lead[0] = 2;
  assert.throws(
    () => parsePathIndex(lead, 'x'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'INVALID' && e.offset === 0,
  );
  for (let cut = 0; cut < good.length - 1; cut += 7) {
    assert.throws(
      () => parsePathIndex(good.subarray(0, cut), 'x'),
      (e: unknown) => e instanceof Arch06Error && (e.code === 'TRUNCATED' || e.code === 'OUT_OF_RANGE'),
      `cut ${cut}`,
    );
  }
  const huge = Uint8Array.from(good);
  new DataView(huge.buffer).setUint32(8 + new DataView(huge.buffer).getUint32(4, true), 0x7fffffff, true);
  assert.throws(
    () => parsePathIndex(huge, 'x'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'TRUNCATED',
  );
  const off = Uint8Array.from(good);
  const dv = new DataView(off.buffer);
  dv.setUint32(8 + dv.getUint32(4, true) + 8, 99999, true);
  assert.throws(
    () => parsePathIndex(off, 'x'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'OUT_OF_RANGE',
  );
});
