// Choosing and decoding the texture a modder assigns to a material slot: which paths are offered
// (and in what order), which level is shown (the largest slice-0 mip ≤ 2048 on its longer side),
// and the errors that leave everything as it was.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { writeDds, writeTexr } from '../../formats/texture/writer';
import { largestLevelWithin } from '../../image/previewLevel';
import { parseDds } from '../../formats/texture/dds';
import { dx10Dds } from '../../image/tests/dx10Dds';
import { SAMPLE_TEXTURE_PICTURE, sampleTexture, sampleTextureTier0 } from '../../sample/sampleGame';
import { bc1QuadrantChain } from '../../formats/texture/writer';
import {
  MATERIAL_TEXTURE_MAX_SIDE,
  chooseMaterialTexture,
  decodeMaterialTexture,
  gameFolderOf,
  isMaterialTexturePath,
  textureChoices,
} from '../materialTexture';

const isError =
  (code: string, pattern?: RegExp) =>
  (e: unknown): boolean =>
    e instanceof Arch06Error && e.code === code && (!pattern || pattern.test(e.message));

test('texture paths: the four texture types, case-insensitive; texture arrays and other files are not offered', () => {
  for (const p of ['a\\b.tex', 'a\\b.TEX0', 'b.texuhd', 'x/y.dds']) assert.ok(isMaterialTexturePath(p), p);
  for (const p of ['a\\b.texa', 'a\\b.texa0', 'a\\tex', 'a.tex\\b.mesh', 'b.mat', 'noext']) assert.ok(!isMaterialTexturePath(p), p);
  assert.equal(gameFolderOf('Characters\\Sample\\sword.mesh'), 'characters\\sample');
  assert.equal(gameFolderOf('characters/sample/x.tex'), 'characters\\sample');
  assert.equal(gameFolderOf('root.tex'), '');
});

test('texture choices: the mesh folder first, then the rest, each in the order given', () => {
  const paths = [
    'textures\\a_d.tex',
    'Characters\\Orc\\orc_d.tex',
    'characters\\orc\\orc.mesh',
    'characters\\orc\\sub\\x_d.tex',
    'characters\\orc\\orc_n.dds',
    'textures\\arr.texa',
  ];
  assert.deepEqual(textureChoices(paths, 'characters\\orc\\orc.mesh'), {
    near: ['Characters\\Orc\\orc_d.tex', 'characters\\orc\\orc_n.dds'],
    rest: ['textures\\a_d.tex', 'characters\\orc\\sub\\x_d.tex'],
  });
  assert.deepEqual(textureChoices(paths), {
    near: [],
    rest: ['textures\\a_d.tex', 'Characters\\Orc\\orc_d.tex', 'characters\\orc\\sub\\x_d.tex', 'characters\\orc\\orc_n.dds'],
  });
});

test('the level: the largest slice-0 mip no longer than the limit on its longer side', () => {
  // 4096x1024 BC1 with its whole chain: 2048x512 is the one at the default limit.
  const wide = writeDds({ width: 4096, height: 1024, format: 'BC1', mips: levelsOf(4096, 1024) });
  const dds = parseDds(wide, 'wide.dds');
  assert.equal(MATERIAL_TEXTURE_MAX_SIDE, 2048);
  const at = (max: number): [number, number, number] | undefined => {
    const l = largestLevelWithin(dds, max);
    return l && [l.mip, l.width, l.height];
  };
  assert.deepEqual(at(2048), [1, 2048, 512]);
  assert.deepEqual(at(4096), [0, 4096, 1024]);
  assert.deepEqual(at(2047), [2, 1024, 256]);
  assert.deepEqual(at(1), [12, 1, 1]);
  assert.equal(at(0), undefined);
  assert.equal(largestLevelWithin(dds, 2048, 1), undefined, 'no slice 1');
  const choice = chooseMaterialTexture(wide, 'wide.dds');
  assert.deepEqual([choice.level.mip, choice.level.width, choice.level.height], [1, 2048, 512]);
});

test('the sample banner decodes whole (256² has no larger mip to skip); a smaller limit takes a smaller mip', () => {
  const t = decodeMaterialTexture(sampleTexture(), 'sample_banner_d.tex');
  assert.deepEqual([t.width, t.height, t.mip, t.fullWidth, t.format], [256, 256, 0, 256, 'BC1_UNORM']);
  assert.equal(t.rgba.length, 256 * 256 * 4);
  // Rows are top first: the picture's top-left quadrant (red) is in the first rows, its bottom-right (yellow) in the last.
  const px = (x: number, y: number): number[] => [...t.rgba.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 3)];
  const [tl, tr, bl, br] = SAMPLE_TEXTURE_PICTURE.quadrants;
  assert.deepEqual([px(64, 64), px(192, 64), px(64, 192), px(192, 192)], [tl, tr, bl, br]);
  const small = decodeMaterialTexture(sampleTexture(), 'sample_banner_d.tex', 100);
  assert.deepEqual([small.width, small.mip], [64, 2]);
  // The .tex0 tier holds its 512² top mip alone.
  assert.equal(decodeMaterialTexture(sampleTextureTier0(), 'sample_banner_d.tex0').width, 512);
});

test('a tier with no level small enough, an undecoded format and a file that is not a texture are typed errors', () => {
  assert.throws(() => chooseMaterialTexture(sampleTextureTier0(), 'sample_banner_d.tex0', 256), isError('OUT_OF_RANGE', /pick the \.tex.*smallest 512×512/s));
  assert.throws(() => chooseMaterialTexture(dx10Dds(94, new Uint8Array(16)), 'hdr.dds'), isError('UNSUPPORTED_CODEC', /BC6H/));
  assert.throws(
    () => chooseMaterialTexture(new TextEncoder().encode('not a texture at all'), 'x.tex'),
    (e: unknown) => e instanceof Arch06Error,
  );
  // A TEXR whose DDS is cut short fails in the parser, naming the file.
  const tex = writeTexr({
    path: '',
    width: 64,
    height: 64,
    dds: writeDds({ width: 64, height: 64, format: 'BC1', mips: bc1QuadrantChain(64, SAMPLE_TEXTURE_PICTURE) }),
  });
  assert.throws(
    () => chooseMaterialTexture(tex.subarray(0, tex.length - 100), 'cut.tex'),
    (e: unknown) => e instanceof Arch06Error && /cut\.tex/.test(e.message),
  );
});

/** Zero-filled BC1 levels for a whole chain of width x height. */
function levelsOf(width: number, height: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let w = width, h = height; ; w = Math.max(1, w >> 1), h = Math.max(1, h >> 1)) {
    out.push(new Uint8Array(Math.max(1, Math.ceil(w / 4)) * Math.max(1, Math.ceil(h / 4)) * 8));
    if (w === 1 && h === 1) break;
  }
  return out;
}
