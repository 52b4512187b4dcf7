import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { expectArch06Error } from '../../../../test/support/errors';
import { parseDds } from '../dds';
import { parseTexr } from '../texr';
import { decodeDdsLevel } from '../../../image/bcn';
import { QuadrantPicture, Rgb, TEXR_SAMPLE_UNK4, bc1QuadrantChain, ddsLevelBytes, encodeBc1Solid, writeDds, writeTexr } from '../writer';
import { SAMPLE_TEXTURE, sampleGame, sampleTexture, sampleTextureTier0 } from '../../../sample/sampleGame';

// Expected colours come from the chosen colours by the BC1 rules (RGB565, bit replication),
// not from the decoder under test.
const widen = (c: Rgb): Rgb => {
  const r5 = Math.round((c[0] * 31) / 255);
  const g6 = Math.round((c[1] * 63) / 255);
  const b5 = Math.round((c[2] * 31) / 255);
  return [(r5 << 3) | (r5 >> 2), (g6 << 2) | (g6 >> 4), (b5 << 3) | (b5 >> 2)];
};
const PIC: QuadrantPicture = {
  quadrants: [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [200, 120, 40],
  ],
};
const pixel = (rgba: Uint8Array, w: number, x: number, y: number): number[] => Array.from(rgba.subarray((y * w + x) * 4, (y * w + x) * 4 + 4));

test('writeTexr + writeDds round-trip through parseTexr: path, dimensions, format, mips, level sizes', () => {
  const mips = bc1QuadrantChain(256, PIC);
  assert.equal(mips.length, 9);
  const bytes = writeTexr({ path: 'textures\\t\\x_d.tex0', width: 512, height: 512, dds: writeDds({ width: 256, height: 256, format: 'BC1', mips }) });
  const t = parseTexr(bytes, 'x.tex');
  assert.equal(t.version, 8);
  assert.equal(t.path, 'textures\\t\\x_d.tex0');
  assert.equal(t.tierName.tier, 'tex0');
  assert.deepEqual([t.width, t.height], [512, 512]);
  assert.deepEqual([t.unk1, t.unk2, t.unk3], [0x0d000b0c, 0x201, 3]);
  assert.deepEqual(Array.from(t.unk4), TEXR_SAMPLE_UNK4);
  assert.equal(t.ddsOffset, 0x12 + t.path.length + 23);
  assert.equal(t.confidence, 'confirmed');
  assert.equal(t.dds.format.name, 'BC1_UNORM');
  assert.equal(t.dds.header.pixelFormat.fourCC, 'DXT1');
  assert.deepEqual([t.dds.width, t.dds.height, t.dds.mipCount], [256, 256, 9]);
  assert.equal(t.dds.header.pitchOrLinearSize, 64 * 64 * 8);
  assert.deepEqual(
    t.dds.levels.map((l) => l.size),
    [32768, 8192, 2048, 512, 128, 32, 8, 8, 8],
  );
  assert.deepEqual(t.dds.notes, []);
  assert.equal(t.dds.dataEnd, bytes.length);
  // Each level holds its own blocks: the 1x1 level is the solid average, not a copy of the top.
  const last = t.dds.levels[8];
  assert.deepEqual(
    bytes.subarray(last.offset, last.offset + 8),
    encodeBc1Solid(...([0, 1, 2].map((k) => PIC.quadrants.reduce((s, q) => s + q[k], 0) / 4) as [number, number, number])),
  );

  const top = decodeDdsLevel(t.dds, bytes, 0, 0);
  assert.deepEqual([top.width, top.height], [256, 256]);
  const centres: [number, number][] = [
    [64, 64],
    [192, 64],
    [64, 192],
    [192, 192],
  ];
  centres.forEach(([x, y], i) => assert.deepEqual(pixel(top.rgba, 256, x, y), [...widen(PIC.quadrants[i]), 255], `quadrant ${i}`));
  // The last pixel of a block is its c1: the diagonal grey, 255 * (bx + by) / (2 * (64 - 1)).
  const g = Math.round((255 * 32) / 126);
  assert.deepEqual(pixel(top.rgba, 256, 67, 67), [...widen([g, g, g]), 255]);
  // Mip 1 keeps the quadrants.
  const m1 = decodeDdsLevel(t.dds, bytes, 0, 1);
  assert.deepEqual(pixel(m1.rgba, 128, 96, 96), [...widen(PIC.quadrants[3]), 255]);
});

test('writeDds: BC3 and RGBA8 headers parse to their formats', () => {
  const bc3 = parseDds(
    writeDds({ width: 8, height: 4, format: 'BC3', mips: [new Uint8Array(32), new Uint8Array(16), new Uint8Array(16), new Uint8Array(16)] }),
    'x.dds',
  );
  assert.equal(bc3.format.name, 'BC3_UNORM');
  assert.equal(bc3.header.pixelFormat.fourCC, 'DXT5');
  assert.deepEqual(
    bc3.levels.map((l) => l.size),
    [32, 16, 16, 16],
  );
  const px = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
  const rgba = writeDds({ width: 2, height: 1, format: 'RGBA8', mips: [px] });
  const d = parseDds(rgba, 'x.dds');
  assert.equal(d.format.name, 'R8G8B8A8_UNORM');
  assert.equal(d.header.pitchOrLinearSize, 8);
  assert.equal(d.mipCount, 1);
  assert.deepEqual(decodeDdsLevel(d, rgba).rgba, px);
  assert.equal(ddsLevelBytes('BC1', 1, 1), 8);
});

test('writers refuse bad input', () => {
  expectArch06Error(() => writeDds({ width: 4, height: 4, format: 'BC1', mips: [new Uint8Array(7)] }), 'BAD_ARGUMENT', { field: 'mips[0]' });
  expectArch06Error(() => writeDds({ width: 4, height: 4, format: 'BC1', mips: [] }), 'BAD_ARGUMENT', { field: 'mips' });
  expectArch06Error(() => writeDds({ width: 0, height: 4, format: 'BC1', mips: [new Uint8Array(8)] }), 'BAD_ARGUMENT', { field: 'width' });
  expectArch06Error(
    () => writeTexr({ path: 'a', width: 70000, height: 1, dds: writeDds({ width: 4, height: 4, format: 'BC1', mips: [new Uint8Array(8)] }) }),
    'BAD_ARGUMENT',
    { field: 'width' },
  );
  expectArch06Error(() => writeTexr({ path: 'a', width: 1, height: 1, dds: new Uint8Array(8) }), 'BAD_ARGUMENT', { field: 'dds' });
});

test('the sample install ships the texture in Base and its .tex0 tier in Patch_01', () => {
  const tex = parseTexr(sampleTexture(), 'sample.tex');
  assert.equal(tex.path, `${SAMPLE_TEXTURE}0`);
  assert.deepEqual([tex.dds.width, tex.dds.height, tex.dds.mipCount, tex.width, tex.height], [256, 256, 9, 512, 512]);
  const tier = parseTexr(sampleTextureTier0(), 'sample.tex0');
  assert.equal(tier.path, SAMPLE_TEXTURE);
  assert.equal(tier.tierName.tier, 'tex');
  assert.deepEqual([tier.dds.width, tier.dds.height, tier.dds.mipCount], [512, 512, 1]);
  assert.deepEqual(
    sampleGame()
      .map((f) => f.path)
      .filter((p) => /Base|Patch_01/.test(p)),
    ['Base.arch06', 'Patch_01.arch06'],
  );
});
