import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Arch06Error } from '../../../errors';
import { parseDds } from '../../../formats/texture/dds';
import { QuadrantPicture, bc1QuadrantChain, writeDds } from '../../../formats/texture/writer';
import { decodeDdsLevel } from '../../bcn';
import { DecodePool } from '../decodePool';
import { exactCopy } from '../../../io/byteSource';

const workerFile = path.join(__dirname, '..', 'nodeDecodeWorker.js');
const pic: QuadrantPicture = {
  quadrants: [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ],
};

test('levels above the inline size decode on the worker, byte for byte as inline; small ones stay inline', async () => {
  const bytes = writeDds({ width: 512, height: 512, format: 'BC1', mips: bc1QuadrantChain(512, pic) });
  const dds = parseDds(bytes, 'pool.dds');
  const pool = new DecodePool({ workerFile, inlinePixels: 128 * 128 });
  try {
    const big = await pool.decode(dds, bytes, 0, 0);
    assert.equal(big.onWorker, true);
    assert.deepEqual(Buffer.from(big.rgba), Buffer.from(decodeDdsLevel(dds, bytes, 0, 0).rgba));
    const small = await pool.decode(dds, bytes, 0, 2);
    assert.equal(small.onWorker, false);
    assert.equal(small.width, 128);
    // Several at once come back to the right callers.
    const all = await Promise.all([0, 1, 0, 1].map((m) => pool.decode(dds, bytes, 0, m)));
    assert.deepEqual(
      all.map((r) => r.width),
      [512, 256, 512, 256],
    );
  } finally {
    await pool.dispose();
  }
});

test('a level that fails on the worker comes back as the same typed error', async () => {
  const pool = new DecodePool({ workerFile });
  try {
    await assert.rejects(
      pool.decodeOnWorker('BC1', new Uint8Array(100), 512, 512, 'short.dds'),
      (e: unknown) => e instanceof Arch06Error && e.file === 'short.dds' && /TRUNCATED|OUT_OF_RANGE/.test(e.code),
    );
  } finally {
    await pool.dispose();
  }
});

test('decoding from a Node Buffer posts a copy of the level only: the caller keeps its bytes', async () => {
  const bytes = Buffer.from(writeDds({ width: 512, height: 512, format: 'BC1', mips: bc1QuadrantChain(512, pic) }));
  const dds = parseDds(bytes, 'buffer.dds');
  const pool = new DecodePool({ workerFile, inlinePixels: 0 });
  const length = bytes.length;
  try {
    const r = await pool.decode(dds, bytes, 0, 0);
    assert.equal(r.onWorker, true);
    assert.equal(bytes.length, length, 'the Buffer was not detached by a transfer');
    assert.deepEqual(Buffer.from(r.rgba), Buffer.from(decodeDdsLevel(dds, bytes, 0, 0).rgba));
  } finally {
    await pool.dispose();
  }
});

test('exactCopy gives a fresh buffer of exactly the range, also from a pooled Buffer', () => {
  const pooled = Buffer.from('abcdef');
  const c = exactCopy(pooled, 1, 3);
  assert.equal(c.buffer.byteLength, 2);
  assert.equal(Buffer.from(c).toString(), 'bc');
  assert.notEqual(c.buffer, pooled.buffer);
});
