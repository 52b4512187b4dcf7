import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { parseDds } from '../../formats/dds';
import { QuadrantPicture, bc1QuadrantChain, writeDds } from '../../formats/texrWriter';
import { decodeDdsLevel } from '../bcn';
import { DecodePool } from '../decodePool';

const workerFile = path.join(__dirname, '..', 'decodeWorker.js');
const pic: QuadrantPicture = { quadrants: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]] };

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
    assert.deepEqual(all.map((r) => r.width), [512, 256, 512, 256]);
  } finally {
    await pool.dispose();
  }
});

test('a level that fails on the worker comes back as the same typed error', async () => {
  const pool = new DecodePool({ workerFile });
  try {
    await assert.rejects(pool.decodeOnWorker('BC1', new Uint8Array(100), 512, 512, 'short.dds'), (e: unknown) => e instanceof Arch06Error && e.file === 'short.dds' && /TRUNCATED|OUT_OF_RANGE/.test(e.code));
  } finally {
    await pool.dispose();
  }
});
