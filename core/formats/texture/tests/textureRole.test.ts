import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { textureRole } from '../textureRole';

test('roles and sRGB figures follow seed 004 by name suffix, for every tier extension', () => {
  assert.equal(textureRole('textures\\x\\sword_d.tex').kind, 'diffuse');
  assert.equal(textureRole('textures\\x\\sword_d.tex').srgbLikely, true);
  assert.equal(textureRole('a/b/sword_n.texuhd').kind, 'normal');
  assert.deepEqual(textureRole('sword_n.tex0').channels, { r: 'unused', g: 'normal X', b: 'unused', a: 'normal Y' });
  assert.deepEqual(textureRole('SWORD_S.TEX').channels, { r: 'reflectance', g: 'mask', b: 'roughness' });
  assert.equal(textureRole('sword_s.tex').srgbMeasured, '17 of 3,485 _s maps');
  assert.equal(textureRole('wall_m.texa').kind, 'mask');
  assert.equal(textureRole('sky.dds').kind, 'other');
  assert.equal(textureRole('sword_d_extra.tex').kind, 'other');
});
