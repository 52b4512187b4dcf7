/**
 * MMSH v17 mesh (`.mesh`). Layout from formats-public §5 (S4 `mesh.h` reader order, S2
 * `mesh.hexpat`) and seed 004 "Meshes (MMSH v17)"; where the seed adds facts they are taken as
 * the stronger source and checked here.
 *
 *   0x00  "MMSH" | u32 version 17 | u32 descSize | u32 infoSize | u32 dataSize
 *   0x14  desc section (descSize bytes), info section (infoSize), data section (dataSize);
 *         20 + descSize + infoSize + dataSize == file length (seed: all 711 loose meshes)
 *
 * desc:  u32 0xEBAEC3FA | u32 M | u32 D | s32[M] | s32[M] | u32[D] vertex bytes |
 *        u32[D] face bytes | u32[D] palette bytes
 *        formats-public names the two s32[M] arrays "unknownIndices" and "materialIndices". On the
 *        real sample they are, value for value, the flags and the arena (data block) columns of
 *        the info section's connection records, so they are labelled that way here (M is the
 *        connection count, D the number of data blocks).
 * info:  72 fixed bytes (+0x2C: cull distance, seed 004; +0x30: bounding sphere x, y, z, r,
 *        seed 004; on the sample the farthest drawn vertex lies on it), u32[G] LOD group ids,
 *        C x 16-byte connections, L x 48-byte LodInfo {vertex bytes, face bytes, palette bytes,
 *        mesh count, u16[16] triangle ladder}, meshCount x 40-byte MeshInfo {vertexByteOffset,
 *        firstVertex, vertexCount, firstIndex, indexCount, firstPalette, paletteCount, unk7,
 *        unk8, layout} (seed 004 reads the same table starting 8 bytes later: its +0x00 vertex
 *        count, +0x04 first index, +0x08 index count, +0x10 palette length, +0x1C format id are
 *        these fields), the LOD section (0x8E3E068E), the vertex layouts (0x37D749A6), the bones
 *        (0x93D9A424, 40 bytes each).
 * data:  u32 0x95DBDB69, then the D vertex blocks, the D face blocks (u16 triangle lists, indices
 *        local to each mesh), the D palette blocks (u8 bone palettes), grouped by kind.
 *
 * Names. formats-public calls a data block a "LOD" and its draw ranges "meshes"; seed 004 calls
 * them "arenas" and "groups". The records below keep the public names (`lods`, `meshes`); a data
 * block is not a level of detail by itself: the real LOD chains are the connection records (seed
 * 004: "an object's consecutive records are its LOD chain"), one chain per LOD group. On the
 * sample, LOD group 5 (Eltariel_Head) runs through blocks 5, 6, 7, 8 with 15598, 4957, 1523, 157
 * triangles.
 *
 * Hashes. The LOD group ids and the bone name hashes are StringHash of the names the matching
 * .skel holds (checked on the real sample: all 8 group ids and all 142 bone hashes; formats-public
 * §5.3 calls the group-id hash unknown).
 *
 * Bones and palettes. The bone list is in the skeleton's depth-first order, with model-space
 * translations and rotations (see ../skel/layout.ts). A palette byte does not index this
 * list: it indexes the skeleton's name-table order (seed 004), which is the breadth-first order
 * of the hierarchy on the sample (../skel/layout.ts explains the evidence).
 *
 * Vertex streams. On the sample every layout stores positions as f32x4 (type 3, w = 1), so
 * stream 0 is 24 bytes (position, weights, indices), not the 16 bytes (half4 position) seed 004
 * describes for other meshes; the layout's type codes decide, and both are read.
 *
 * Texture coordinates. s16x2 UVs are divided by 32767 (SNORM16): formats-public's guess, kept
 * as UNCERTAIN. On the sample they range 93 .. 32767 (channel 0) and 62 .. 32705 (channel 1):
 * never negative and reaching exactly 32767, which fits SNORM16 (0 .. 1) but cannot rule out
 * another scale; the f32 UVs of the same file range -0.007 .. 1.98.
 *
 * Every count is checked against the bytes left in its section before anything is allocated or
 * read; each section must end exactly at its declared size. Fields whose meaning is a guess are
 * kept raw and labelled UNCERTAIN.
 */
import type { Confidence } from '../../../io/confidence';

export const MMSH_MAGIC = 0x48534d4d; // "MMSH"
export const MMSH_VERSION = 17;
export const MMSH_HEADER_SIZE = 20;
export const MMSH_DESC_ID = 0xebaec3fa;
export const MMSH_INFO_ID = 0x1a1541bc;
export const MMSH_LOD_SECTION_ID = 0x8e3e068e;
export const MMSH_LAYOUT_SECTION_ID = 0x37d749a6;
export const MMSH_BONE_SECTION_ID = 0x93d9a424;
export const MMSH_DATA_ID = 0x95dbdb69;
export const MMSH_INFO_FIXED_SIZE = 72;
export const MMSH_CONNECTION_SIZE = 16;
export const MMSH_LODINFO_SIZE = 48;
export const MMSH_MESHINFO_SIZE = 40;
export const MMSH_BONE_SIZE = 40;
export const MMSH_LADDER_LENGTH = 16;

/** Vertex attribute type codes (formats-public §5.3, S4 `size_check`). Codes 0, 5-8, 10, 11 are unknown. */
export const MMSH_TYPES: Readonly<Record<number, { name: string; size: number }>> = {
  1: { name: 'f32x2', size: 8 },
  2: { name: 'f32x3', size: 12 },
  3: { name: 'f32x4', size: 16 },
  4: { name: 'u8x4', size: 4 },
  9: { name: 's16x2', size: 4 },
  12: { name: 'f16x4', size: 8 },
};
export const MMSH_TYPE = { F32X2: 1, F32X3: 2, F32X4: 3, U8X4: 4, S16X2: 9, F16X4: 12 } as const;

/** Semantic codes (formats-public §5.3); 8-12 are unknown. */
export const MMSH_SEMANTICS = ['position', 'normal', 'tangent', 'bitangent', 'texcoord', 'color', 'weights', 'indices'] as const;
export const MMSH_SEMANTIC = { POSITION: 0, NORMAL: 1, TANGENT: 2, BITANGENT: 3, TEXCOORD: 4, COLOR: 5, WEIGHTS: 6, INDICES: 7 } as const;

/**
 * Seed 004: "Weights are stored in BGRA order against RGBA indices: the weight of index slot k is
 * byte (2, 1, 0, 3)[k]". On the real sample the first vertex stores weights 00 00 FF 00 against
 * indices 01 00 00 00: slot 0 (index 1) gets byte 2 = 255.
 */
export const MMSH_WEIGHT_BYTE_OF_SLOT = [2, 1, 0, 3] as const;

export interface MmshHeader {
  magic: 'MMSH';
  version: number;
  descSize: number;
  infoSize: number;
  dataSize: number;
}

export interface MmshDesc {
  offset: number;
  size: number;
  /** M: one entry per connection record. */
  connectionCount: number;
  /** D: one vertex, face and palette block each. */
  lodCount: number;
  /** formats-public "unknownIndices": equal to the connection records' flags on the sample. */
  connectionFlags: number[];
  /** formats-public "materialIndices": equal to the connection records' block (arena) index on the sample (-1 = none). */
  connectionLods: number[];
  vertexBytes: number[];
  faceBytes: number[];
  paletteBytes: number[];
}

/**
 * A 16-byte connection record. formats-public: {s32 lodGroup, s32 lod (-1 = none), s32 material,
 * s32 unk}; seed 004: {flags, object id, arena, material slot}, read from another starting
 * point (its fields are the same ones rotated by one). On the sample: the group, the data block,
 * the material slot (the SKEL part entry at the same position carries the same slot), and flags
 * 1 or 3, equal to flagA << 1 | flagB of that SKEL part entry; bit 1 marks the connections the
 * shadow levels list (casts shadows: UNCERTAIN, one sample).
 */
export interface MmshConnection {
  index: number;
  offset: number;
  lodGroup: number;
  /** Data block drawn (-1 = nothing: the chain ends / culled). */
  lod: number;
  material: number;
  /** UNCERTAIN (1 or 3 on the sample). */
  flags: number;
}

export interface MmshLodInfo {
  index: number;
  offset: number;
  vertexBytes: number;
  faceBytes: number;
  paletteBytes: number;
  meshCount: number;
  /** Index of this block's first MeshInfo in `Mmsh.info.meshes`. */
  firstMesh: number;
  /**
   * u16[16] "LOD triangle ladder" (seed 004: rising to the block's triangle count, found for
   * 4,377 of 4,377 arenas; formats-public: "faceCount", UNCERTAIN). The sample repeats the
   * triangle count 16 times.
   */
  ladder: number[];
  /** faceBytes / 6 (16-bit indices, triangle lists). */
  triangles: number;
  /** 'confirmed' when the ladder rises to `triangles` as seed 004 says. */
  ladderConfidence: Confidence;
}

export interface MmshMeshInfo {
  /** Index over all blocks. */
  index: number;
  lod: number;
  indexInLod: number;
  offset: number;
  /** Byte offset of the mesh's stream 0 inside its block's vertex data; stream 1 follows it. */
  vertexByteOffset: number;
  firstVertex: number;
  vertexCount: number;
  firstIndex: number;
  indexCount: number;
  firstPalette: number;
  paletteCount: number;
  /** +0x1C, +0x20: both look like f32 (formats-public: UNCERTAIN); raw u32 and as f32. */
  unk7: { raw: number; asFloat: number };
  unk8: { raw: number; asFloat: number };
  layout: number;
}

/** The LOD section as read (S4's names); `Mmsh.levels` is its reading as LOD levels. */
export interface MmshLodSection {
  offset: number;
  /** The levels' connection-index lists, concatenated (mesh levels, then shadow levels). */
  settings: number[];
  /** From these distances (cm) on, far to near: 4500, 2500, 1500, 500, 1, 0 on the sample. */
  meshLodDistances: number[];
  shadowLodDistances: number[];
  /** Length of each mesh level's list in `settings` (8 x 6 on the sample). */
  meshLodLinks: number[];
  /** Length of each shadow level's list (7, 7, 8, 8, 5, 5 on the sample). */
  shadowLodLinks: number[];
}

export interface MmshAttribute {
  index: number;
  offset: number;
  stream: number;
  type: number;
  /** The type's name, undefined for an unknown code. */
  typeName?: string;
  semantic: number;
  semanticName: string;
  channel: number;
  /** Byte size from the type code; undefined when the code is unknown. */
  size?: number;
  /** Byte offset inside its stream's vertex; undefined after an attribute of unknown size. */
  streamOffset?: number;
}

export interface MmshLayout {
  index: number;
  offset: number;
  attributes: MmshAttribute[];
  /** Bytes per vertex of stream 0 and stream 1; undefined when an attribute's size is unknown. */
  strides: [number | undefined, number | undefined];
  /** stride0 + stride1 when both are known. */
  stride?: number;
  confidence: Confidence;
  notes: string[];
}

export interface MmshBone {
  index: number;
  offset: number;
  nameHash: number;
  parent: number;
  /** u16 after the parent: the number of direct children on the sample (Head: 128). */
  childCount: number;
  translation: [number, number, number];
  /** x, y, z, w (formats-public §5.3: S2 and the sample's identity root; S4's w-first naming is contradicted). */
  rotation: [number, number, number, number];
  scale: number;
}

export interface MmshInfo {
  offset: number;
  size: number;
  lodGroupCount: number;
  connectionCount: number;
  lodCount: number;
  meshCount: number;
  /**
   * +0x14 UNCERTAIN: 4 on the sample, which is the largest block's mesh count, the longest chain
   * of drawn blocks and the number of distinct non-empty LOD levels alike.
   */
  unknown14: number;
  lodSettingsCount: number;
  meshLodCount: number;
  shadowLodCount: number;
  layoutCount: number;
  /** +0x28: total attribute count over all layouts (S4 "ulongReadCount"). */
  attributeTotal: number;
  /** +0x2C: cull distance in cm (seed 004: 500, 400 or 140 on most meshes). */
  cullDistance: number;
  /** +0x30: bounding sphere (seed 004; formats-public: a guess). */
  sphere: { center: [number, number, number]; radius: number };
  boneCount: number;
  boneSectionSize: number;
  /** StringHash of the LOD group (SKEL mesh part) names, in the SKEL's order. */
  lodGroupIds: number[];
  connections: MmshConnection[];
  lods: MmshLodInfo[];
  meshes: MmshMeshInfo[];
  lodSection: MmshLodSection;
  layouts: MmshLayout[];
  bones: MmshBone[];
}

export interface MmshBlock {
  offset: number;
  size: number;
}

export interface MmshData {
  offset: number;
  size: number;
  vertexBlocks: MmshBlock[];
  faceBlocks: MmshBlock[];
  paletteBlocks: MmshBlock[];
}

/**
 * One level of the LOD section: from `distance` on (cm), the engine draws (mesh levels) or
 * renders into shadow maps (shadow levels) the listed connection records, one per LOD group.
 * Worked out on the real sample (not in either document): `settings` is the concatenation of the
 * levels' connection-index lists, mesh levels first; `meshLodLinks[i]` / `shadowLodLinks[i]` are
 * the list lengths and the distances run from far to near. There, sum(links) == settingsCount
 * (48 + 40 = 88), every mesh level lists 8 connections (one per group, the one whose SKEL part
 * entry is active at that distance), and every shadow level lists exactly the connections of
 * its mesh level whose flags have bit 1 set (bit 1 = casts shadows: UNCERTAIN, one sample).
 */
export interface MmshLodLevel {
  kind: 'mesh' | 'shadow';
  /** Position among the levels of its kind, as stored (far to near on the sample). */
  index: number;
  distance: number;
  connections: number[];
}

/** A LOD group (seed 004: an "object") and the chain its connection records form. */
export interface MmshLodGroup {
  index: number;
  id: number;
  /** Indices into `info.connections`, in file order: the group's LOD chain. */
  connections: number[];
}

export interface Mmsh {
  file: string;
  size: number;
  header: MmshHeader;
  desc: MmshDesc;
  info: MmshInfo;
  data: MmshData;
  lodGroups: MmshLodGroup[];
  /** The LOD section read as levels (see `MmshLodLevel`); empty when its counts do not add up. */
  levels: MmshLodLevel[];
  confidence: Confidence;
  notes: string[];
  /** The parsed bytes (not enumerable, so the record prints as JSON without them). */
  readonly bytes: Uint8Array;
}
