/**
 * What a texture is for, from its name suffix, and what seed 004 measured about its sRGB flag.
 * The flag itself lives somewhere in the TEXR header that nobody has located (the stored DXGI
 * format is always UNORM), so the editor shows this as a hint with its figures, not as a fact.
 */
export interface TextureRole {
  kind: 'diffuse' | 'normal' | 'specular' | 'mask' | 'other';
  /** Channel meanings the game uses for this kind (seed 004). */
  channels?: { r: string; g: string; b: string; a?: string };
  /** Seed 004's count of textures of this kind with the sRGB flag set, e.g. "5,128 of 5,203". */
  srgbMeasured?: string;
  /** Whether that count makes sRGB the likely reading (more than half). */
  srgbLikely?: boolean;
}

/** The role of `path` (any separator, any tier extension: .tex, .tex0, .texuhd, .texa*, .dds). */
export function textureRole(path: string): TextureRole {
  const leaf = path.slice(Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1).toLowerCase();
  const stem = leaf.replace(/\.[^.]*$/, '');
  if (stem.endsWith('_d')) return { kind: 'diffuse', srgbMeasured: '5,128 of 5,203 _d maps', srgbLikely: true };
  if (stem.endsWith('_n')) {
    return { kind: 'normal', channels: { r: 'unused', g: 'normal X', b: 'unused', a: 'normal Y' }, srgbMeasured: '1 of 4,712 _n maps', srgbLikely: false };
  }
  if (stem.endsWith('_s')) {
    return { kind: 'specular', channels: { r: 'reflectance', g: 'mask', b: 'roughness' }, srgbMeasured: '17 of 3,485 _s maps', srgbLikely: false };
  }
  if (stem.endsWith('_m')) return { kind: 'mask', srgbMeasured: '95 of 2,511 _m masks', srgbLikely: false };
  return { kind: 'other' };
}
