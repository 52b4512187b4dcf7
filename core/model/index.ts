/**
 * core/model, the public face: the format-independent `MeshModel`, built from MMSH + SKEL or a
 * checked PRFB/MESH, exported as glTF binary, sent to a webview as ArrayBuffers, with a mesh's
 * sibling skeleton and the textures a material slot may take. Browser-safe (the mesh webview
 * bundles `winding` and `wire` from here).
 */
export type { MeshModel, ModelBone, ModelBounds, ModelLod, ModelPart, ModelSkeleton, ModelSocket } from './meshModel';
export { meshModelFromSkel } from './fromMmsh';
export { explainNoModel, prefabKindOf, readPrefabLike } from './fromPrfb';
export type { ModelAttempt, PrefabLikeRead } from './fromPrfb';
export { findSiblingSkeleton, loadMeshWithSkeleton, meshModelWithSkeleton } from './meshWithSkeleton';
export type { MeshWithSkeleton, SkeletonFile, SkeletonLookup, SkeletonReader } from './meshWithSkeleton';
export { writeGlb } from './glb';
export type { GlbImage, GlbOptions } from './glb';
export { reverseTriangles, windingOf } from './winding';
export { bonesToLabel, hashKey, hashTokens, lodDisabledReason, nameHashes, searchBones } from './viewChoices';
export { WIRE_VERSION, fromWireModel, toWireModel, wireTransferables } from './wire';
export type { WireLod, WireModel, WirePart } from './wire';
export { chooseMaterialTexture, gameFolderOf, isMaterialTexturePath, textureChoices } from './materialTexture';
export type { MaterialTextureChoice } from './materialTexture';
