import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { textureThumbnail } from '../thumbnail';
import { sampleTexture, sampleTextureArray, sampleTextureTier0 } from '../../../sample/sampleGame';
import { Arch06Error } from '../../../errors';

const pngSize = (png: Uint8Array): [number, number] => {
  const v = new DataView(png.buffer, png.byteOffset);
  return [v.getUint32(16), v.getUint32(20)];
};

test('a thumbnail is the largest mip that fits, as a PNG of that size', () => {
  const t = textureThumbnail(sampleTexture(), 'banner.tex', 128);
  assert.deepEqual([t.width, t.height, t.mip], [128, 128, 1]);
  assert.deepEqual(pngSize(t.png), [128, 128]);
  assert.deepEqual([...t.png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  assert.deepEqual([t.fullWidth, t.fullHeight, t.format, t.slices], [256, 256, 'BC1_UNORM', 1]);
  const small = textureThumbnail(sampleTexture(), 'banner.tex', 40);
  assert.deepEqual([small.width, small.mip], [32, 3]);
});

test('a texture array thumbnails its first slice and says how many there are', () => {
  const t = textureThumbnail(sampleTextureArray(), 'ground.texa', 128);
  assert.deepEqual([t.width, t.slices], [64, 3]);
});

test('a tier holding only a big top level gets no preview rather than a megapixel decode', () => {
  const t = textureThumbnail(sampleTextureTier0(), 'banner.tex0', 128);
  assert.equal(t.width, 512, 'within 4x the box: still previewed');
  assert.throws(
    () => textureThumbnail(sampleTextureTier0(), 'banner.tex0', 64),
    (e: unknown) => e instanceof Arch06Error && e.code === 'OUT_OF_RANGE' && /512x512/.test(e.message),
  );
});
