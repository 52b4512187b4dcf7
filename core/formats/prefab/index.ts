/**
 * The prefab family's public face: PRFB v8 and MESH v5 (header words raw with the seed's labels,
 * LOD records, the located tables) and the writers (for tests). How the tables are searched for
 * and a draw decoded (core/model does it) stays inside the family.
 */
export { PRFB_MAGIC, PRFB_VERSION, parsePrfb, prfbNotes } from './prfb';
export type { Prfb, PrfbLodRecord } from './prfb';
export { MESH_MAGIC, WORLD_MESH_VERSION, parseWorldMesh, worldMeshNotes } from './worldMesh';
export type { WorldMesh } from './worldMesh';
export type { Buffers, Geometry, Tables } from './tables/layout';
export { samplePrefabInput, sampleWorldMeshInput, writePrfb, writeWorldMesh } from './writer';
export type { PrfbWriteInput, WorldMeshWriteInput } from './writer';
