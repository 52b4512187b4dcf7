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
 * translations and rotations (see core/formats/skel.ts). A palette byte does not index this
 * list: it indexes the skeleton's name-table order (seed 004), which is the breadth-first order
 * of the hierarchy on the sample (skel.ts explains the evidence).
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
import { Arch06Error } from '../errors';

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

export type Confidence = 'confirmed' | 'uncertain';

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

// ---- a bounded field reader ------------------------------------------------------------------

/**
 * Reads little-endian fields from `bytes` between `pos` and `end` (a section's declared end, or
 * the file's). Every read checks the bounds first and names the field; counts are checked
 * against the bytes left before the caller allocates.
 */
export class FieldReader {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
    public pos: number,
    public end: number,
    readonly section: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(n: number, field: string): void {
    if (this.pos + n <= this.end) return;
    const left = Math.max(0, this.end - this.pos);
    if (this.end >= this.bytes.length) {
      throw new Arch06Error('TRUNCATED', `file ends inside ${field}`, { file: this.file, offset: this.pos, field, expected: `${n} bytes`, actual: `${left} bytes` });
    }
    throw new Arch06Error('INVALID', `${field} runs past the end of the ${this.section} (its declared size)`, {
      file: this.file, offset: this.pos, field, expected: `${n} bytes before 0x${this.end.toString(16)}`, actual: `${left} bytes`,
    });
  }
  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.pos++];
  }
  u16(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  s16(field: string): number {
    this.need(2, field);
    const v = this.view.getInt16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  s32(field: string): number {
    this.need(4, field);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f32(field: string): number {
    this.need(4, field);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }
  vec3(field: string): [number, number, number] {
    this.need(12, field);
    return [this.f32(field), this.f32(field), this.f32(field)];
  }
  vec4(field: string): [number, number, number, number] {
    this.need(16, field);
    return [this.f32(field), this.f32(field), this.f32(field), this.f32(field)];
  }
  /**
   * Check that `count` records of `size` bytes fit before `end`, naming the count otherwise:
   * TRUNCATED when `end` is the end of the file (no declared size bounds it), OUT_OF_RANGE when
   * it is a section's declared end.
   */
  fits(count: number, size: number, field: string, countOffset?: number): void {
    const left = Math.max(0, this.end - this.pos);
    if (count * size > left) {
      throw new Arch06Error(this.end >= this.bytes.length ? 'TRUNCATED' : 'OUT_OF_RANGE', `${field} = ${count} does not fit in the ${this.section}`, {
        file: this.file, offset: countOffset ?? this.pos, field, expected: `at most ${Math.floor(left / Math.max(1, size))} (${left} bytes left, ${size} per record)`, actual: String(count),
      });
    }
  }
  /** Read a u32 magic and compare. */
  sectionId(expected: number, field: string): void {
    const at = this.pos;
    const v = this.u32(field);
    if (v !== expected) {
      throw new Arch06Error('BAD_MAGIC', `not the ${this.section} id`, { file: this.file, offset: at, field, expected: hex32(expected), actual: hex32(v) });
    }
  }
  /** The reader must stand exactly at `end`. */
  atEnd(field: string): void {
    if (this.pos !== this.end) {
      throw new Arch06Error('INVALID', `the ${this.section} does not end at its declared size`, {
        file: this.file, offset: this.pos, field, expected: `end at 0x${this.end.toString(16)}`, actual: `${this.end - this.pos} bytes left over`,
      });
    }
  }
}

export const hex32 = (v: number): string => '0x' + (v >>> 0).toString(16).toUpperCase().padStart(8, '0');

// ---- parse ----------------------------------------------------------------------------------

/**
 * Parse an MMSH v17 mesh held in memory: header, desc, info (groups, connections, LodInfo,
 * MeshInfo, LOD section, layouts, bones) and the data section's block offsets. Throws
 * `Arch06Error` (TRUNCATED, BAD_MAGIC, UNSUPPORTED_VERSION, INVALID, OUT_OF_RANGE) naming file,
 * offset and field. Vertex data is decoded on demand by `decodeMmshMesh`.
 */
export function parseMmsh(bytes: Uint8Array, file: string): Mmsh {
  const notes: string[] = [];
  let confidence: Confidence = 'confirmed';
  const uncertain = (note: string): void => {
    confidence = 'uncertain';
    notes.push(note);
  };

  const h = new FieldReader(bytes, file, 0, bytes.length, 'header');
  const magic = h.u32('header.magic');
  if (magic !== MMSH_MAGIC) {
    throw new Arch06Error('BAD_MAGIC', 'not an MMSH mesh', { file, offset: 0, field: 'header.magic', expected: '"MMSH"', actual: JSON.stringify(Buffer.from(bytes.subarray(0, 4)).toString('latin1')) });
  }
  const version = h.u32('header.version');
  if (version !== MMSH_VERSION) {
    throw new Arch06Error('UNSUPPORTED_VERSION', `unsupported MMSH version ${version}`, { file, offset: 4, field: 'header.version', expected: String(MMSH_VERSION), actual: String(version) });
  }
  const descSize = h.u32('header.descSize');
  const infoSize = h.u32('header.infoSize');
  const dataSize = h.u32('header.dataSize');
  const total = MMSH_HEADER_SIZE + descSize + infoSize + dataSize;
  if (total !== bytes.length) {
    const code = total > bytes.length ? 'TRUNCATED' : 'INVALID';
    throw new Arch06Error(code, '20 + descSize + infoSize + dataSize is not the file length', {
      file, offset: 8, field: 'header.sizes', expected: `${total} bytes (20 + ${descSize} + ${infoSize} + ${dataSize})`, actual: `${bytes.length} bytes`,
    });
  }
  const header: MmshHeader = { magic: 'MMSH', version, descSize, infoSize, dataSize };
  const descAt = MMSH_HEADER_SIZE;
  const infoAt = descAt + descSize;
  const dataAt = infoAt + infoSize;

  const desc = parseDesc(new FieldReader(bytes, file, descAt, infoAt, 'desc section'));
  const info = parseInfo(new FieldReader(bytes, file, infoAt, dataAt, 'info section'), notes, uncertain);

  // desc and info describe the same blocks.
  if (desc.lodCount !== info.lodCount) {
    throw new Arch06Error('INVALID', 'the desc and info sections count different data blocks', { file, offset: descAt + 8, field: 'desc.lodCount', expected: `info.lodCount = ${info.lodCount}`, actual: String(desc.lodCount) });
  }
  for (const l of info.lods) {
    for (const [k, a, b] of [['vertexBytes', l.vertexBytes, desc.vertexBytes[l.index]], ['faceBytes', l.faceBytes, desc.faceBytes[l.index]], ['paletteBytes', l.paletteBytes, desc.paletteBytes[l.index]]] as const) {
      if (a !== b) throw new Arch06Error('INVALID', `LodInfo[${l.index}].${k} differs from the desc section`, { file, offset: l.offset, field: `info.lods[${l.index}].${k}`, expected: String(b), actual: String(a) });
    }
  }
  if (desc.connectionCount !== info.connectionCount) {
    uncertain(`the desc section has ${desc.connectionCount} connection entries, the info section ${info.connectionCount} (equal in every public sample)`);
  } else {
    const differs = info.connections.findIndex((c, i) => c.flags !== desc.connectionFlags[i] || c.lod !== desc.connectionLods[i]);
    if (differs >= 0) uncertain(`desc entry ${differs} differs from connection ${differs} (flags/block), unlike the sample`);
  }

  const data = parseData(new FieldReader(bytes, file, dataAt, bytes.length, 'data section'), desc);
  checkMeshes(info, file, uncertain);

  const lodGroups: MmshLodGroup[] = info.lodGroupIds.map((id, index) => ({ index, id, connections: [] }));
  for (const c of info.connections) lodGroups[c.lodGroup]!.connections.push(c.index);
  const levels = lodLevels(info);
  if (!levels.length && info.lodSettingsCount + info.meshLodCount + info.shadowLodCount > 0) {
    uncertain('the LOD section does not read as levels (link counts must add up to the settings count and name connections): kept raw');
  }

  const mmsh = { file, size: bytes.length, header, desc, info, data, lodGroups, levels, confidence, notes } as Omit<Mmsh, 'bytes'>;
  Object.defineProperty(mmsh, 'bytes', { value: bytes, enumerable: false });
  return mmsh as Mmsh;
}

function parseDesc(r: FieldReader): MmshDesc {
  const offset = r.pos;
  r.sectionId(MMSH_DESC_ID, 'desc.sectionId');
  const mAt = r.pos;
  const M = r.u32('desc.connectionCount');
  const dAt = r.pos;
  const D = r.u32('desc.lodCount');
  r.fits(M, 8, 'desc.connectionCount', mAt);
  const arr = (n: number, signed: boolean, field: string): number[] => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(signed ? r.s32(`${field}[${i}]`) : r.u32(`${field}[${i}]`));
    return out;
  };
  const connectionFlags = arr(M, true, 'desc.connectionFlags');
  const connectionLods = arr(M, true, 'desc.connectionLods');
  r.fits(D, 12, 'desc.lodCount', dAt);
  const vertexBytes = arr(D, false, 'desc.vertexBytes');
  const faceBytes = arr(D, false, 'desc.faceBytes');
  const paletteBytes = arr(D, false, 'desc.paletteBytes');
  r.atEnd('desc.end');
  return { offset, size: r.end - offset, connectionCount: M, lodCount: D, connectionFlags, connectionLods, vertexBytes, faceBytes, paletteBytes };
}

function parseInfo(r: FieldReader, notes: string[], uncertain: (n: string) => void): MmshInfo {
  const file = r.file;
  const offset = r.pos;
  r.sectionId(MMSH_INFO_ID, 'info.sectionId');
  r.need(MMSH_INFO_FIXED_SIZE - 4, 'info.fixed');
  const G = r.u32('info.lodGroupCount');
  const C = r.u32('info.connectionCount');
  const L = r.u32('info.lodCount');
  const meshCount = r.u32('info.meshCount');
  const unknown14 = r.u32('info.unknown14');
  const S = r.u32('info.lodSettingsCount');
  const ML = r.u32('info.meshLodCount');
  const SL = r.u32('info.shadowLodCount');
  const VL = r.u32('info.layoutCount');
  const attributeTotal = r.u32('info.attributeTotal');
  const cullDistance = r.f32('info.cullDistance');
  const sphereV = r.vec4('info.sphere');
  const B = r.u32('info.boneCount');
  const boneSectionSize = r.u32('info.boneSectionSize');
  const at = (k: number): number => offset + k;

  r.fits(G, 4, 'info.lodGroupCount', at(0x04));
  const lodGroupIds: number[] = [];
  for (let i = 0; i < G; i++) lodGroupIds.push(r.u32(`info.lodGroupIds[${i}]`));

  r.fits(C, MMSH_CONNECTION_SIZE, 'info.connectionCount', at(0x08));
  const connections: MmshConnection[] = [];
  for (let i = 0; i < C; i++) {
    const o = r.pos;
    const f = `info.connections[${i}]`;
    const lodGroup = r.s32(`${f}.lodGroup`);
    const lod = r.s32(`${f}.lod`);
    const material = r.s32(`${f}.material`);
    const flags = r.s32(`${f}.flags`);
    if (lodGroup < 0 || lodGroup >= G) throw new Arch06Error('OUT_OF_RANGE', 'connection names a LOD group that does not exist', { file, offset: o, field: `${f}.lodGroup`, expected: `0..${G - 1}`, actual: String(lodGroup) });
    if (lod < -1 || lod >= L) throw new Arch06Error('OUT_OF_RANGE', 'connection names a data block that does not exist', { file, offset: o + 4, field: `${f}.lod`, expected: `-1..${L - 1}`, actual: String(lod) });
    if (material < -1) throw new Arch06Error('OUT_OF_RANGE', 'connection material slot is negative', { file, offset: o + 8, field: `${f}.material`, expected: '>= -1', actual: String(material) });
    connections.push({ index: i, offset: o, lodGroup, lod, material, flags });
  }

  r.fits(L, MMSH_LODINFO_SIZE, 'info.lodCount', at(0x0c));
  const lods: MmshLodInfo[] = [];
  let meshSum = 0;
  for (let i = 0; i < L; i++) {
    const o = r.pos;
    const f = `info.lods[${i}]`;
    const vertexBytes = r.u32(`${f}.vertexBytes`);
    const faceBytes = r.u32(`${f}.faceBytes`);
    const paletteBytes = r.u32(`${f}.paletteBytes`);
    const mc = r.u32(`${f}.meshCount`);
    const ladder: number[] = [];
    for (let k = 0; k < MMSH_LADDER_LENGTH; k++) ladder.push(r.u16(`${f}.ladder[${k}]`));
    if (faceBytes % 6 !== 0) throw new Arch06Error('INVALID', 'face bytes are not whole 16-bit triangles', { file, offset: o + 4, field: `${f}.faceBytes`, expected: 'a multiple of 6', actual: String(faceBytes) });
    const triangles = faceBytes / 6;
    let rising = ladder[MMSH_LADDER_LENGTH - 1] === Math.min(triangles, 0xffff);
    for (let k = 1; k < MMSH_LADDER_LENGTH; k++) if (ladder[k]! < ladder[k - 1]!) rising = false;
    if (!rising) uncertain(`LodInfo[${i}] ladder ${ladder.join(',')} does not rise to the block's ${triangles} triangles (seed 004: it does on 4,377 of 4,377 arenas)`);
    lods.push({ index: i, offset: o, vertexBytes, faceBytes, paletteBytes, meshCount: mc, firstMesh: meshSum, ladder, triangles, ladderConfidence: rising ? 'confirmed' : 'uncertain' });
    meshSum += mc;
  }
  if (meshSum !== meshCount) {
    throw new Arch06Error('INVALID', 'the LodInfo mesh counts do not add up to info.meshCount', { file, offset: at(0x10), field: 'info.meshCount', expected: `${meshSum} (sum over LodInfo)`, actual: String(meshCount) });
  }

  r.fits(meshCount, MMSH_MESHINFO_SIZE, 'info.meshCount', at(0x10));
  const meshes: MmshMeshInfo[] = [];
  for (const l of lods) {
    for (let k = 0; k < l.meshCount; k++) {
      const o = r.pos;
      const index = meshes.length;
      const f = `info.meshes[${index}]`;
      const vertexByteOffset = r.u32(`${f}.vertexByteOffset`);
      const firstVertex = r.u32(`${f}.firstVertex`);
      const vertexCount = r.u32(`${f}.vertexCount`);
      const firstIndex = r.u32(`${f}.firstIndex`);
      const indexCount = r.u32(`${f}.indexCount`);
      const firstPalette = r.u32(`${f}.firstPalette`);
      const paletteCount = r.u32(`${f}.paletteCount`);
      const raw7 = r.u32(`${f}.unk7`);
      const raw8 = r.u32(`${f}.unk8`);
      const layout = r.u32(`${f}.layout`);
      meshes.push({
        index, lod: l.index, indexInLod: k, offset: o, vertexByteOffset, firstVertex, vertexCount, firstIndex, indexCount, firstPalette, paletteCount,
        unk7: { raw: raw7, asFloat: asF32(raw7) }, unk8: { raw: raw8, asFloat: asF32(raw8) }, layout,
      });
    }
  }

  // LOD section.
  const lodOffset = r.pos;
  r.sectionId(MMSH_LOD_SECTION_ID, 'info.lodSection.sectionId');
  const u32s = (n: number, field: string, countField: string, countAt: number): number[] => {
    r.fits(n, 4, countField, countAt);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(r.u32(`${field}[${i}]`));
    return out;
  };
  const f32s = (n: number, field: string, countField: string, countAt: number): number[] => {
    r.fits(n, 4, countField, countAt);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(r.f32(`${field}[${i}]`));
    return out;
  };
  const lodSection: MmshLodSection = {
    offset: lodOffset,
    settings: u32s(S, 'info.lodSection.settings', 'info.lodSettingsCount', at(0x18)),
    meshLodDistances: f32s(ML, 'info.lodSection.meshLodDistances', 'info.meshLodCount', at(0x1c)),
    shadowLodDistances: f32s(SL, 'info.lodSection.shadowLodDistances', 'info.shadowLodCount', at(0x20)),
    meshLodLinks: u32s(ML, 'info.lodSection.meshLodLinks', 'info.meshLodCount', at(0x1c)),
    shadowLodLinks: u32s(SL, 'info.lodSection.shadowLodLinks', 'info.shadowLodCount', at(0x20)),
  };

  // Vertex layouts.
  r.sectionId(MMSH_LAYOUT_SECTION_ID, 'info.layouts.sectionId');
  r.fits(VL, 4, 'info.layoutCount', at(0x24));
  const layouts: MmshLayout[] = [];
  let attrSum = 0;
  for (let i = 0; i < VL; i++) {
    const o = r.pos;
    const n = r.u32(`info.layouts[${i}].attributeCount`);
    r.fits(n, 4, `info.layouts[${i}].attributeCount`, o);
    const attributes: MmshAttribute[] = [];
    for (let k = 0; k < n; k++) {
      const ao = r.pos;
      const f = `info.layouts[${i}].attributes[${k}]`;
      const stream = r.u8(`${f}.stream`);
      const type = r.u8(`${f}.type`);
      const semantic = r.u8(`${f}.semantic`);
      const channel = r.u8(`${f}.channel`);
      const t = MMSH_TYPES[type];
      attributes.push({ index: k, offset: ao, stream, type, typeName: t?.name, semantic, semanticName: MMSH_SEMANTICS[semantic] ?? `unknown${semantic}`, channel, size: t?.size });
    }
    attrSum += n;
    layouts.push(layoutOf(i, o, attributes));
  }
  if (attrSum !== attributeTotal) uncertain(`info.attributeTotal is ${attributeTotal}, the layouts hold ${attrSum} attributes (S4 reads it as the total)`);
  for (const l of layouts) for (const n of l.notes) uncertain(`layout ${l.index}: ${n}`);

  // Bones.
  r.sectionId(MMSH_BONE_SECTION_ID, 'info.bones.sectionId');
  if (boneSectionSize !== B * MMSH_BONE_SIZE) {
    throw new Arch06Error('INVALID', 'the bone section size is not 40 bytes per bone', { file, offset: at(0x44), field: 'info.boneSectionSize', expected: `${B * MMSH_BONE_SIZE} (40 x ${B})`, actual: String(boneSectionSize) });
  }
  r.fits(B, MMSH_BONE_SIZE, 'info.boneCount', at(0x40));
  const bones: MmshBone[] = [];
  for (let i = 0; i < B; i++) {
    const o = r.pos;
    const f = `info.bones[${i}]`;
    const nameHash = r.u32(`${f}.nameHash`);
    const parent = r.s16(`${f}.parent`);
    const childCount = r.u16(`${f}.childCount`);
    const translation = r.vec3(`${f}.translation`);
    const rotation = r.vec4(`${f}.rotation`);
    const scale = r.f32(`${f}.scale`);
    if (parent < -1 || parent >= B || parent === i) throw new Arch06Error('OUT_OF_RANGE', 'bone parent index outside the bone list', { file, offset: o + 4, field: `${f}.parent`, expected: `-1 or 0..${B - 1}, not ${i}`, actual: String(parent) });
    bones.push({ index: i, offset: o, nameHash, parent, childCount, translation, rotation, scale });
  }
  r.atEnd('info.end');
  const children = new Array<number>(B).fill(0);
  for (const b of bones) if (b.parent >= 0) children[b.parent]!++;
  const wrongChildren = bones.filter((b) => b.childCount !== children[b.index]).length;
  if (wrongChildren) uncertain(`${wrongChildren} MMSH bones have a child count that differs from the number of bones naming them as parent`);
  notes.push('info +0x14, MeshInfo unk7/unk8 and the connection flags are UNCERTAIN and kept raw');

  return {
    offset, size: r.end - offset, lodGroupCount: G, connectionCount: C, lodCount: L, meshCount, unknown14, lodSettingsCount: S, meshLodCount: ML, shadowLodCount: SL,
    layoutCount: VL, attributeTotal, cullDistance, sphere: { center: [sphereV[0], sphereV[1], sphereV[2]], radius: sphereV[3] }, boneCount: B, boneSectionSize,
    lodGroupIds, connections, lods, meshes, lodSection, layouts, bones,
  };
}

/** The LOD section as levels, or [] when it does not read that way. */
function lodLevels(info: MmshInfo): MmshLodLevel[] {
  const { settings, meshLodDistances, shadowLodDistances, meshLodLinks, shadowLodLinks } = info.lodSection;
  const sum = [...meshLodLinks, ...shadowLodLinks].reduce((a, b) => a + b, 0);
  if (sum !== settings.length || settings.some((c) => c >= info.connectionCount)) return [];
  const levels: MmshLodLevel[] = [];
  let at = 0;
  const take = (kind: MmshLodLevel['kind'], distances: number[], links: number[]): void => {
    links.forEach((n, index) => {
      levels.push({ kind, index, distance: distances[index]!, connections: settings.slice(at, at + n) });
      at += n;
    });
  };
  take('mesh', meshLodDistances, meshLodLinks);
  take('shadow', shadowLodDistances, shadowLodLinks);
  return levels;
}

function layoutOf(index: number, offset: number, attributes: MmshAttribute[]): MmshLayout {
  const notes: string[] = [];
  const strides: [number | undefined, number | undefined] = [0, 0];
  for (const a of attributes) {
    if (a.stream > 1) {
      notes.push(`attribute ${a.index} names stream ${a.stream} (only 0 and 1 are known)`);
      strides[0] = strides[1] = undefined;
      continue;
    }
    const s = strides[a.stream];
    if (s !== undefined) a.streamOffset = s;
    if (a.size === undefined) {
      notes.push(`attribute ${a.index} (${a.semanticName}) has unknown type code ${a.type}: its size is not known`);
      strides[a.stream] = undefined;
    } else if (s !== undefined) strides[a.stream] = s + a.size;
    if (a.semantic >= MMSH_SEMANTICS.length) notes.push(`attribute ${a.index} has unknown semantic ${a.semantic}`);
  }
  const stride = strides[0] !== undefined && strides[1] !== undefined ? strides[0] + strides[1] : undefined;
  return { index, offset, attributes, strides, stride, confidence: notes.length ? 'uncertain' : 'confirmed', notes };
}

function parseData(r: FieldReader, desc: MmshDesc): MmshData {
  const offset = r.pos;
  r.sectionId(MMSH_DATA_ID, 'data.sectionId');
  const blocks = (sizes: number[], kind: string): MmshBlock[] =>
    sizes.map((size, i) => {
      const at = r.pos;
      if (size > r.end - at) {
        throw new Arch06Error('INVALID', `${kind} block ${i} runs past the end of the data section`, { file: r.file, offset: at, field: `data.${kind}Blocks[${i}]`, expected: `at most ${r.end - at} bytes`, actual: `${size} bytes` });
      }
      r.pos += size;
      return { offset: at, size };
    });
  const vertexBlocks = blocks(desc.vertexBytes, 'vertex');
  const faceBlocks = blocks(desc.faceBytes, 'face');
  const paletteBlocks = blocks(desc.paletteBytes, 'palette');
  r.atEnd('data.end');
  return { offset, size: r.end - offset, vertexBlocks, faceBlocks, paletteBlocks };
}

/** Every mesh's ranges inside its block; the seed's closing sums are checked as notes. */
function checkMeshes(info: MmshInfo, file: string, uncertain: (n: string) => void): void {
  for (const l of info.lods) {
    let vSum = 0;
    let iSum = 0;
    let pSum = 0;
    let nextIndex = 0;
    let closes = true;
    for (let k = 0; k < l.meshCount; k++) {
      const m = info.meshes[l.firstMesh + k]!;
      const f = `info.meshes[${m.index}]`;
      if (m.layout >= info.layouts.length) {
        throw new Arch06Error('OUT_OF_RANGE', 'mesh names a vertex layout that does not exist', { file, offset: m.offset + 36, field: `${f}.layout`, expected: `0..${info.layouts.length - 1}`, actual: String(m.layout) });
      }
      const layout = info.layouts[m.layout]!;
      const span = layout.stride === undefined ? 0 : m.vertexCount * layout.stride;
      if (m.vertexByteOffset + span > l.vertexBytes) {
        throw new Arch06Error('OUT_OF_RANGE', "mesh vertices run past its block's vertex bytes", {
          file, offset: m.offset, field: `${f}.vertexByteOffset`, expected: `offset + ${m.vertexCount} x ${layout.stride ?? '?'} <= ${l.vertexBytes}`, actual: String(m.vertexByteOffset + span),
        });
      }
      if (m.firstIndex + m.indexCount > l.faceBytes / 2) {
        throw new Arch06Error('OUT_OF_RANGE', "mesh indices run past its block's face bytes", { file, offset: m.offset + 12, field: `${f}.indexCount`, expected: `firstIndex + indexCount <= ${l.faceBytes / 2}`, actual: String(m.firstIndex + m.indexCount) });
      }
      if (m.indexCount % 3 !== 0) throw new Arch06Error('INVALID', 'mesh index count is not whole triangles', { file, offset: m.offset + 16, field: `${f}.indexCount`, expected: 'a multiple of 3', actual: String(m.indexCount) });
      if (m.firstPalette + m.paletteCount > l.paletteBytes) {
        throw new Arch06Error('OUT_OF_RANGE', "mesh palette runs past its block's palette bytes", { file, offset: m.offset + 20, field: `${f}.paletteCount`, expected: `firstPalette + paletteCount <= ${l.paletteBytes}`, actual: String(m.firstPalette + m.paletteCount) });
      }
      vSum += span;
      iSum += m.indexCount * 2;
      pSum += m.paletteCount;
      if (m.firstIndex !== nextIndex) closes = false;
      nextIndex = m.firstIndex + m.indexCount;
    }
    const known = info.meshes.slice(l.firstMesh, l.firstMesh + l.meshCount).every((m) => info.layouts[m.layout]!.stride !== undefined);
    if ((known && vSum !== l.vertexBytes) || iSum !== l.faceBytes || pSum !== l.paletteBytes || !closes) {
      uncertain(`block ${l.index}: its meshes do not close its buffers exactly (vertex ${known ? vSum : '?'}/${l.vertexBytes}, index ${iSum}/${l.faceBytes}, palette ${pSum}/${l.paletteBytes}, index ranges ${closes ? 'follow on' : 'do not follow on'}); seed 004 found them closing on every loose mesh`);
    }
  }
}

const f32buf = new DataView(new ArrayBuffer(4));
/** A u32 read as the f32 with the same bits (for words kept raw whose meaning may be a float). */
export function asF32(raw: number): number {
  f32buf.setUint32(0, raw >>> 0, true);
  return f32buf.getFloat32(0, true);
}

/** IEEE half to number. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

// ---- vertex decoding -------------------------------------------------------------------------

export interface MmshAttributeResult {
  attribute: number;
  semantic: string;
  channel: number;
  type: number;
  status: 'decoded' | 'skipped' | 'failed';
  error?: Arch06Error;
  note?: string;
}

/** One mesh's vertex and index data, decoded. Arrays hold `vertexCount` entries per component group. */
export interface MmshMeshData {
  mesh: number;
  lod: number;
  vertexCount: number;
  /** xyz per vertex (as stored: centimetres). */
  positions?: Float32Array;
  /** The stored w of a 4-component position (1 on the sample). */
  positionW?: Float32Array;
  normals?: Float32Array;
  tangents?: Float32Array;
  bitangents?: Float32Array;
  /** uv per vertex per texcoord channel (f32 as stored; s16 divided by 32767: a guess, see `uvNotes`). */
  uvs: Map<number, Float32Array>;
  /** The raw s16 range of each s16 texcoord channel. */
  uvRanges: Map<number, { type: string; min: number; max: number }>;
  colors?: Uint8Array;
  /** Four weights per vertex in index-slot order (the BGRA rule applied), 0..255. */
  weights?: Uint8Array;
  /** The four weight bytes as stored. */
  weightsStored?: Uint8Array;
  /** Four palette indices per vertex. */
  blendIndices?: Uint8Array;
  /** Triangle list, local to the mesh. */
  indices: Uint16Array;
  /** The mesh's bone palette (values index the bone list). */
  palette: Uint8Array;
  attributes: MmshAttributeResult[];
  notes: string[];
}

/** SNORM16 reading of s16 texcoords (formats-public: UNCERTAIN, S4 passes the integers through). */
export const MMSH_S16_UV_SCALE = 1 / 32767;

/**
 * Decode mesh `meshIndex` (over all blocks) of a parsed MMSH. Index and palette ranges are
 * checked (OUT_OF_RANGE naming the entry). An attribute with an unknown type code or an
 * unsupported type for its semantic is recorded as failed with a typed error; the others still
 * decode.
 */
export function decodeMmshMesh(mmsh: Mmsh, meshIndex: number): MmshMeshData {
  const { bytes, file, info, data } = mmsh;
  const m = info.meshes[meshIndex];
  if (!m) throw new Arch06Error('BAD_ARGUMENT', 'no such mesh', { file, field: 'mesh', expected: `0..${info.meshes.length - 1}`, actual: String(meshIndex) });
  const layout = info.layouts[m.layout]!;
  const vblock = data.vertexBlocks[m.lod]!;
  const fblock = data.faceBlocks[m.lod]!;
  const pblock = data.paletteBlocks[m.lod]!;
  const n = m.vertexCount;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const notes: string[] = [];
  const field = `mesh[${m.index}]`;

  // Indices (local to the mesh).
  const indices = new Uint16Array(m.indexCount);
  const iAt = fblock.offset + m.firstIndex * 2;
  for (let i = 0; i < m.indexCount; i++) {
    const v = view.getUint16(iAt + 2 * i, true);
    if (v >= n) throw new Arch06Error('OUT_OF_RANGE', 'triangle index outside the mesh', { file, offset: iAt + 2 * i, field: `${field}.indices[${i}]`, expected: `< ${n} (indices are local to the mesh)`, actual: String(v) });
    indices[i] = v;
  }
  const palette = Uint8Array.from(bytes.subarray(pblock.offset + m.firstPalette, pblock.offset + m.firstPalette + m.paletteCount));
  for (let i = 0; i < palette.length; i++) {
    if (palette[i]! >= info.boneCount) {
      throw new Arch06Error('OUT_OF_RANGE', 'palette entry names a bone that does not exist', { file, offset: pblock.offset + m.firstPalette + i, field: `${field}.palette[${i}]`, expected: `< ${info.boneCount}`, actual: String(palette[i]) });
    }
  }

  // Where each stream starts; an attribute of unknown size is sized from the data when it is the only one.
  const streams = streamPlacement(mmsh, m, layout, notes);
  const out: MmshMeshData = { mesh: m.index, lod: m.lod, vertexCount: n, uvs: new Map(), uvRanges: new Map(), indices, palette, attributes: [], notes };
  for (const a of layout.attributes) {
    const res: MmshAttributeResult = { attribute: a.index, semantic: a.semanticName, channel: a.channel, type: a.type, status: 'decoded' };
    out.attributes.push(res);
    const fail = (code: 'INVALID' | 'OUT_OF_RANGE', message: string, expected: string, actual: string, offset = a.offset): void => {
      res.status = 'failed';
      res.error = new Arch06Error(code, message, { file, offset, field: `info.layouts[${layout.index}].attributes[${a.index}]`, expected, actual });
      notes.push(`${a.semanticName}${a.channel ? a.channel : ''}: ${res.error.description}`);
    };
    if (a.size === undefined || MMSH_TYPES[a.type] === undefined) {
      fail('INVALID', `unknown vertex attribute type code ${a.type}`, 'a type code of 1, 2, 3, 4, 9 or 12', String(a.type));
      continue;
    }
    const place = streams.get(a.index);
    if (!place) {
      res.status = 'skipped';
      res.note = 'its position in the vertex is not known (an attribute of unknown size precedes it)';
      notes.push(`${a.semanticName}${a.channel ? a.channel : ''}: skipped, ${res.note}`);
      continue;
    }
    const { start, stride } = place;
    const at = (v: number): number => vblock.offset + start + v * stride;
    const readF = (count: number, kind: 'f32' | 'f16' | 's16'): Float32Array => {
      const r = new Float32Array(n * count);
      for (let v = 0; v < n; v++) {
        const o = at(v);
        for (let c = 0; c < count; c++) {
          r[v * count + c] = kind === 'f32' ? view.getFloat32(o + 4 * c, true) : kind === 'f16' ? halfToFloat(view.getUint16(o + 2 * c, true)) : view.getInt16(o + 2 * c, true);
        }
      }
      return r;
    };
    const readU8 = (): Uint8Array => {
      const r = new Uint8Array(n * 4);
      for (let v = 0; v < n; v++) r.set(bytes.subarray(at(v), at(v) + 4), v * 4);
      return r;
    };
    const xyz = (src: Float32Array, comps: number): Float32Array => {
      if (comps === 3) return src;
      const r = new Float32Array(n * 3);
      for (let v = 0; v < n; v++) for (let c = 0; c < 3; c++) r[v * 3 + c] = src[v * comps + c]!;
      return r;
    };
    const unsupported = (): void => fail('INVALID', `${a.semanticName} stored as ${a.typeName} is not supported`, supportedFor(a.semantic), a.typeName ?? String(a.type));
    switch (a.semantic) {
      case MMSH_SEMANTIC.POSITION: {
        if (a.channel !== 0) { res.status = 'skipped'; res.note = `second position channel ${a.channel}`; break; }
        if (a.type === MMSH_TYPE.F16X4 || a.type === MMSH_TYPE.F32X4) {
          const raw = readF(4, a.type === MMSH_TYPE.F16X4 ? 'f16' : 'f32');
          out.positions = xyz(raw, 4);
          out.positionW = new Float32Array(n);
          let off = 0;
          for (let v = 0; v < n; v++) {
            out.positionW[v] = raw[v * 4 + 3]!;
            if (raw[v * 4 + 3] !== 1) off++;
          }
          if (off) notes.push(`${off} of ${n} positions have w != 1`);
        } else if (a.type === MMSH_TYPE.F32X3) out.positions = readF(3, 'f32');
        else unsupported();
        break;
      }
      case MMSH_SEMANTIC.NORMAL:
      case MMSH_SEMANTIC.TANGENT:
      case MMSH_SEMANTIC.BITANGENT: {
        if (a.channel !== 0) { res.status = 'skipped'; res.note = `channel ${a.channel}`; break; }
        let v: Float32Array | undefined;
        if (a.type === MMSH_TYPE.F32X3) v = readF(3, 'f32');
        else if (a.type === MMSH_TYPE.F32X4) v = xyz(readF(4, 'f32'), 4);
        else if (a.type === MMSH_TYPE.F16X4) v = xyz(readF(4, 'f16'), 4);
        else { unsupported(); break; }
        if (a.semantic === MMSH_SEMANTIC.NORMAL) out.normals = v;
        else if (a.semantic === MMSH_SEMANTIC.TANGENT) out.tangents = v;
        else out.bitangents = v;
        break;
      }
      case MMSH_SEMANTIC.TEXCOORD: {
        if (a.type === MMSH_TYPE.F32X2) out.uvs.set(a.channel, readF(2, 'f32'));
        else if (a.type === MMSH_TYPE.S16X2) {
          const raw = readF(2, 's16');
          let min = Infinity;
          let max = -Infinity;
          for (let i = 0; i < raw.length; i++) {
            const x = raw[i]!;
            if (x < min) min = x;
            if (x > max) max = x;
            raw[i] = x * MMSH_S16_UV_SCALE;
          }
          out.uvRanges.set(a.channel, { type: 's16x2', min: n ? min : 0, max: n ? max : 0 });
          out.uvs.set(a.channel, raw);
        } else unsupported();
        break;
      }
      case MMSH_SEMANTIC.COLOR:
        if (a.type === MMSH_TYPE.U8X4) out.colors = readU8();
        else unsupported();
        break;
      case MMSH_SEMANTIC.WEIGHTS: {
        if (a.type !== MMSH_TYPE.U8X4) { unsupported(); break; }
        const stored = readU8();
        const w = new Uint8Array(n * 4);
        let off = 0;
        for (let v = 0; v < n; v++) {
          for (let k = 0; k < 4; k++) w[v * 4 + k] = stored[v * 4 + MMSH_WEIGHT_BYTE_OF_SLOT[k]]!;
          if (stored[v * 4]! + stored[v * 4 + 1]! + stored[v * 4 + 2]! + stored[v * 4 + 3]! !== 255) off++;
        }
        if (off) notes.push(`${off} of ${n} vertices have weights that do not sum to 255`);
        out.weights = w;
        out.weightsStored = stored;
        break;
      }
      case MMSH_SEMANTIC.INDICES: {
        if (a.type !== MMSH_TYPE.U8X4) { unsupported(); break; }
        const idx = readU8();
        let bad = -1;
        for (let i = 0; i < idx.length && bad < 0; i++) if (idx[i]! >= m.paletteCount) bad = i;
        if (bad >= 0 && m.paletteCount > 0) {
          fail('OUT_OF_RANGE', 'blend index outside the mesh palette', `< ${m.paletteCount}`, String(idx[bad]), at(bad >> 2) + (bad & 3));
          break;
        }
        if (bad >= 0) notes.push('the mesh has blend indices but an empty palette');
        out.blendIndices = idx;
        break;
      }
      default:
        res.status = 'skipped';
        res.note = `unknown semantic ${a.semantic}`;
    }
  }
  return out;
}

function supportedFor(semantic: number): string {
  switch (semantic) {
    case MMSH_SEMANTIC.POSITION: return 'f16x4, f32x4 or f32x3';
    case MMSH_SEMANTIC.NORMAL:
    case MMSH_SEMANTIC.TANGENT:
    case MMSH_SEMANTIC.BITANGENT: return 'f32x3 (or f32x4 / f16x4)';
    case MMSH_SEMANTIC.TEXCOORD: return 'f32x2 or s16x2';
    default: return 'u8x4';
  }
}

/**
 * Where each attribute of mesh `m` lies: stream 0 at vertexByteOffset, stream 1 after
 * vertexCount stream-0 vertices (formats-public §5.4). When exactly one attribute has an
 * unknown size, its size is taken from the data (the bytes up to the next mesh of the block, or
 * to the block's end, divided by the vertex count), so the attributes after it still decode.
 */
function streamPlacement(mmsh: Mmsh, m: MmshMeshInfo, layout: MmshLayout, notes: string[]): Map<number, { start: number; stride: number }> {
  const sizes = layout.attributes.map((a) => a.size);
  const unknown = layout.attributes.filter((a) => a.size === undefined);
  if (unknown.length === 1 && unknown[0]!.stream <= 1 && m.vertexCount > 0) {
    const lod = mmsh.info.lods[m.lod]!;
    // The nearest later mesh of the block (a loop: Math.min(...) over a count the file sets throws RangeError).
    let end = lod.vertexBytes;
    let later = false;
    for (let i = lod.firstMesh; i < lod.firstMesh + lod.meshCount; i++) {
      const o = mmsh.info.meshes[i]?.vertexByteOffset;
      if (o === undefined || o <= m.vertexByteOffset) continue;
      if (!later || o < end) end = o;
      later = true;
    }
    const perVertex = (end - m.vertexByteOffset) / m.vertexCount;
    const known = sizes.reduce<number>((s, x) => s + (x ?? 0), 0);
    const guess = perVertex - known;
    if (Number.isInteger(guess) && guess > 0 && guess <= 64) {
      sizes[unknown[0]!.index] = guess;
      notes.push(`attribute ${unknown[0]!.index} (type code ${unknown[0]!.type}) taken as ${guess} bytes from the data (UNCERTAIN)`);
    }
  }
  const strides = [0, 0];
  const offsets: (number | undefined)[] = [];
  const broken = [false, false];
  for (const a of layout.attributes) {
    if (a.stream > 1) {
      offsets.push(undefined);
      broken[0] = broken[1] = true;
      continue;
    }
    const s = sizes[a.index];
    offsets.push(broken[a.stream] ? undefined : strides[a.stream]);
    if (s === undefined) broken[a.stream] = true;
    else strides[a.stream]! += s;
  }
  const out = new Map<number, { start: number; stride: number }>();
  const lodBytes = mmsh.info.lods[m.lod]!.vertexBytes;
  for (const a of layout.attributes) {
    const off = offsets[a.index];
    if (off === undefined || a.stream > 1 || broken[a.stream]) continue;
    if (a.stream === 1 && broken[0]) continue;
    const start = m.vertexByteOffset + (a.stream === 1 ? m.vertexCount * strides[0]! : 0) + off;
    const stride = strides[a.stream]!;
    const size = sizes[a.index]!;
    if (m.vertexCount > 0 && start + (m.vertexCount - 1) * stride + size > lodBytes) continue;
    out.set(a.index, { start, stride });
  }
  return out;
}
