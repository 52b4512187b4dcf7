/**
 * The mesh family's public face: MMSH v17 and SKEL v17, read (every section checked against its
 * declared size) and written, and a skeleton's bones by hash. Section readers and the vertex
 * decoder (core/model builds models with it) stay inside the family.
 */
export { MMSH_MAGIC, MMSH_VERSION } from './mmsh/layout';
export type { Mmsh, MmshBlock, MmshBone, MmshLodGroup, MmshLodLevel, MmshMeshInfo } from './mmsh/layout';
export { parseMmsh } from './mmsh/reader';
export { writeMmsh } from './mmsh/writer';
export type { MmshWriteInput, MmshWritePart } from './mmsh/writer';
export { SKEL_MAGIC, SKEL_VERSION } from './skel/layout';
export type { Skel, SkelBone, SkelPart, SkelSocket } from './skel/layout';
export { parseSkel } from './skel/reader';
export { skelBonesByHash } from './skel/hierarchy';
export { writeSkel } from './skel/writer';
export type { SkelWriteInput } from './skel/writer';
