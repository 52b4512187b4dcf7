import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inflateSync } from 'node:zlib';
import { Arch06Error } from '../../../errors';
import { crc32, encodePng } from '../png';
import { prng, randomBytes, tempDir } from '../../../../test/support/fixtures';

/** A tiny PNG reader written for this test: chunks, CRCs, IHDR, inflate, filter-0 scanlines. */
function readPng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array; chunks: string[] } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert.deepEqual([...png.subarray(0, 8)], sig);
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: string[] = [];
  const idat: Uint8Array[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length;) {
    const len = dv.getUint32(at);
    const type = Buffer.from(png.subarray(at + 4, at + 8)).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + len);
    assert.equal(dv.getUint32(at + 8 + len), crc32(png.subarray(at + 4, at + 8 + len)), `${type} CRC`);
    chunks.push(type);
    if (type === 'IHDR') {
      width = dv.getUint32(at + 8);
      height = dv.getUint32(at + 12);
      assert.deepEqual([...data.subarray(8)], [8, 6, 0, 0, 0]);
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, (width * 4 + 1) * height);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (width * 4 + 1)], 0, 'filter type 0');
    rgba.set(raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4);
  }
  return { width, height, rgba, chunks };
}

test('png: CRC-32 of the standard check string', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32(Buffer.from('IEND')), 0xae426082);
});

test('png: encoder output inflates back to the same pixels', () => {
  for (const [w, h] of [
    [1, 1],
    [7, 3],
    [64, 33],
  ]) {
    const px = randomBytes(w * h * 4, prng(w * 31 + h));
    const png = encodePng(px, w, h);
    const r = readPng(png);
    assert.deepEqual(r.chunks, ['IHDR', 'IDAT', 'IEND']);
    assert.equal(r.width, w);
    assert.equal(r.height, h);
    assert.deepEqual(r.rgba, px);
  }
});

test('png: bad dimensions or buffer size are refused', () => {
  assert.throws(() => encodePng(new Uint8Array(4), 0, 1), Arch06Error);
  assert.throws(() => encodePng(new Uint8Array(5), 1, 1), Arch06Error);
});

test('png: ImageMagick identify reads it', (t) => {
  const probe = spawnSync('identify', ['-version']);
  if (probe.error || probe.status !== 0) {
    t.skip('ImageMagick identify is absent (apt-get install imagemagick)');
    return;
  }
  const dir = tempDir();
  const f = path.join(dir, 'x.png');
  const px = randomBytes(13 * 9 * 4, prng(3));
  fs.writeFileSync(f, encodePng(px, 13, 9));
  const r = spawnSync('identify', ['-format', '%m %w %h', f]);
  assert.equal(r.status, 0, r.stderr.toString());
  assert.equal(r.stdout.toString().trim(), 'PNG 13 9');
  // And ImageMagick's decode of it gives the same pixels.
  const raw = spawnSync('convert', [f, '-depth', '8', 'rgba:-'], { maxBuffer: 1 << 20 });
  assert.equal(raw.status, 0, raw.stderr.toString());
  assert.deepEqual(new Uint8Array(raw.stdout), px);
});
