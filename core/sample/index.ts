/** core/sample, the public face: the embedded sample install (built in memory by the writers) and the facts tests check it against. */
export {
  SAMPLE_BUNDLE,
  SAMPLE_MESH,
  SAMPLE_SKELETON,
  SAMPLE_SWORD_BONES,
  SAMPLE_SWORD_GROUPS,
  SAMPLE_TEXTURE,
  SAMPLE_TEXTURE_ARRAY,
  SAMPLE_TEXTURE_ARRAY_SLICES,
  SAMPLE_TEXTURE_PICTURE,
  sampleGame,
  sampleSwordMesh,
  sampleSwordSkeleton,
  sampleTexture,
  sampleTextureArray,
  sampleTextureArrayTier0,
  sampleTextureTier0,
} from './sampleGame';
export type { SampleFile } from './sampleGame';
