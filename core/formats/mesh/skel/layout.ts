/**
 * SKEL v17 skeleton (`.skel`). Layout from seed 004 "Skeletons (SKEL v17)" (primary) and
 * formats-public §6 (S2 `skel.hexpat`):
 *
 *   0x00  "SKEL"
 *   0x04  u32 x 16: [0] version 17, [1] header size 64, [2] string blob size, [3] string count
 *         (= [6] + [7]), [4] bone count, [5] bone bytes (= 37 x [4]), [6] .anix library count,
 *         [7] mesh-part count, [8] socket count, [9] bone count again, [10..15] UNCERTAIN
 *         (0, 0, 0, 0, -1, 0 on the sample; kept raw)
 *   0x44  f32, then bounds min[3], max[3]
 *   0x60  mesh parts: [7] x {u32 n; n x 14-byte LOD entries {u8 flagA, u8 flagB, f32 distance,
 *         s32 material slot, s32 unk}}
 *         0xDCDCFF00, string blob ([2] bytes, offset 0 = the empty string; every name offset is
 *         relative to the blob's first byte), bones ([4] x 37 bytes, depth-first: {u32 name
 *         offset, u8 deform, f32 position[3], f32 rotation[4] x y z w, u32 direct child count}),
 *         masks {u32 count; count x {u32 name, u32 n, u32 unk, u8[n] value per bone}},
 *         sockets {u32 count; count x 40 bytes {u32 bone, u32 name, f32 rotation[4],
 *         f32 position[3], f32 scale} (seed 004; formats-public: 32 bytes unknown after the name)}
 *         0xDCDCFF01 u32 string offsets: the [6] .anix libraries, then the [7] part names
 *         0xDCDCFF02 u32 flag per library (0 character, 1 cinematic: formats-public)
 *         0xDCDCFF03 u8 per bone
 *         0xDCDCFF04 u32 n; u32[n] names; n x {u32 signature, u32 size, bytes} (Havok cloth);
 *                    u32 checksum (0xDEADDEAD)
 *         0xDCDCFF05 u32 count; u32 checksum (count 0 seen; anything else is kept raw)
 *         0xDCDCFF99 "SKPY", u32 1, then trailing bytes (8 zero bytes on the samples)
 *
 * The two documents differ on the header in naming only except at 0x44. The seed reads 0x44
 * as "f32 radius" of the bounds; formats-public calls it "f32 unknown (400)". The real sample
 * supports formats-public: 0x44 holds 400.0 while the box it precedes is (-40, -104, -40) ..
 * (40, 104, 40), whose half-diagonal is 118.4 and whose farthest corner from the origin is the
 * same 118.4, so 400 is no radius of it. It equals the matching mesh's cull distance (MMSH info
 * +0x2C, also 400.0 on player_eltariel_head.mesh), so it is read here as a distance, named
 * `distance0x44`, and labelled UNCERTAIN. The other differences are names for the same values:
 * [4] is "boneNameCount" in formats-public and "bone count" in the seed (both 142 here, equal to
 * [9]); [3] "modelStringsCount" / "string count" (9 = 1 + 8); [7] "lodGroupCount" / "mesh-part
 * count". The part entries' material slots equal the MMSH connection records' material column
 * for the same group and position (checked on the sample).
 *
 * Bind pose. Bone translations and rotations are stored in model space, not relative to the
 * parent (checked on the sample: R_Eye and L_Eye are stored at (±3.4, 76.5, 10.3), and the eye
 * mesh's vertices lie 1.5 cm from them on average; composing them as parent-relative puts the
 * eyes 75 cm away). The MMSH bone list stores the same values.
 *
 * Name-table order. Seed 004: "Vertex palettes and the live pose arrays index bones in the
 * skeleton's name-table order, not in the depth-first record order". Read here as: bones sorted
 * by the position of their names in the string blob (`nameTableOrder[k]` = the bone whose name
 * is the k-th bone name in the blob). On the real sample the blob lists the names in
 * breadth-first order of the hierarchy (Head's 128 children, then Jaw's child Tongue1, then
 * Tongue2, then its three children), which differs from the depth-first record order at 58 of
 * 142 positions (84 .. 141). The sample settles the question the seed raises: the eye mesh's
 * palette is [84, 85]; read in name-table order these are R_Eye and L_Eye, 1.5 cm on average
 * from the eye vertices they weight, while in depth-first order they are Tongue1 and Tongue2
 * (9.2 cm); on no mesh of the sample is the depth-first reading nearer. The MMSH
 * bone list, by contrast, is in depth-first order: StringHash of SKEL bone i's name equals MMSH
 * bone i's nameHash for all 142 bones, and the parents agree. So formats-public's "palette values
 * index the bone list" does not hold where the two orders differ. The 0xDCDCFF03 bytes are
 * 0, 1, … 141 on the sample (meaning UNCERTAIN).
 */
import type { Confidence } from '../../../io/confidence';

export const SKEL_MAGIC = 0x4c454b53; // "SKEL"
export const SKEL_VERSION = 17;
export const SKEL_HEADER_WORDS = 16;
/** The fixed header: magic, 16 words, f32 + bounds; mesh parts start here. */
export const SKEL_PARTS_OFFSET = 0x60;
export const SKEL_BONE_SIZE = 37;
export const SKEL_PART_ENTRY_SIZE = 14;
export const SKEL_SOCKET_SIZE = 40;
export const SKEL_CHECKSUM = 0xdeaddead;
export const SKEL_SECTION = {
  BONES: 0xdcdcff00,
  MODEL: 0xdcdcff01,
  ANIMATION_TYPES: 0xdcdcff02,
  BONE_BYTES: 0xdcdcff03,
  CLOTH: 0xdcdcff04,
  UNKNOWN05: 0xdcdcff05,
  FOOTER: 0xdcdcff99,
} as const;
export const SKEL_FOOTER_TAG = 0x59504b53; // "SKPY"

export interface SkelHeader {
  version: number;
  headerSize: number;
  stringBlobSize: number;
  stringCount: number;
  boneCount: number;
  boneBytes: number;
  anixCount: number;
  partCount: number;
  socketCount: number;
  boneCountAgain: number;
  /** Words [10..15], UNCERTAIN, raw. */
  unknownWords: number[];
  /** f32 at 0x44: "radius" in seed 004, "unknown (400)" in formats-public; see the file comment. UNCERTAIN. */
  distance0x44: number;
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

export interface SkelPartEntry {
  offset: number;
  flagA: number;
  flagB: number;
  /** Switch distance (cm) of this LOD of the part: 0, 500, 1500, 2500, 4500 on the sample. */
  distance: number;
  /** Material slot (the MMSH connection record's material at the same position). */
  material: number;
  /** UNCERTAIN (-1 on the sample). */
  unk: number;
}

export interface SkelPart {
  index: number;
  offset: number;
  /** From 0xDCDCFF01 (the LOD-group name; StringHash of it is the MMSH lodGroupId). */
  name: string;
  entries: SkelPartEntry[];
}

export interface SkelBone {
  index: number;
  offset: number;
  nameOffset: number;
  name: string;
  /** u8 "deform" (seed) / "active" (formats-public). */
  deform: number;
  translation: [number, number, number];
  /** x, y, z, w. */
  rotation: [number, number, number, number];
  childCount: number;
  /** Reconstructed from the depth-first order and the child counts (-1 = root). */
  parent: number;
}

export interface SkelMask {
  offset: number;
  nameOffset: number;
  name: string;
  boneCount: number;
  /** UNCERTAIN (0 on the sample). */
  unk: number;
  /** One byte per bone. */
  values: number[];
}

export interface SkelSocket {
  index: number;
  offset: number;
  bone: number;
  nameOffset: number;
  name: string;
  /** Seed 004's reading of the 32 bytes formats-public leaves unknown (no sample socket: UNCERTAIN). */
  rotation: [number, number, number, number];
  translation: [number, number, number];
  scale: number;
  /** The 32 bytes after the name offset, hex. */
  raw: string;
}

export interface SkelRange {
  offset: number;
  size: number;
}

export interface SkelCloth {
  offset: number;
  names: string[];
  entries: { offset: number; signature: number; size: number; payload: SkelRange }[];
  checksum: number;
}

export interface SkelSectionRange {
  id: number;
  name: string;
  offset: number;
  end: number;
}

export interface Skel {
  file: string;
  size: number;
  header: SkelHeader;
  parts: SkelPart[];
  /** The string blob (after 0xDCDCFF00). */
  strings: SkelRange;
  bones: SkelBone[];
  masks: SkelMask[];
  sockets: SkelSocket[];
  anixNames: string[];
  /** 0xDCDCFF02: one flag per .anix library. */
  animationTypes: number[];
  /** 0xDCDCFF03: one byte per bone (0, 1, … on the sample). */
  boneBytes: number[];
  cloth: SkelCloth;
  /** 0xDCDCFF05, when present. */
  unknown05?: { offset: number; count: number; checksum?: number; payload?: SkelRange };
  /** 0xDCDCFF99: "SKPY", u32 (1), then the bytes to the end of the file (8 zero bytes on the samples). */
  footer: { offset: number; tag: string; value: number; trailing: SkelRange };
  /** An unknown 0xDCDCFFxx section before the footer (kept raw). */
  tail?: SkelRange;
  /** Every marked section, in file order. */
  sections: SkelSectionRange[];
  /** nameTableOrder[k] = index of the bone whose name is the k-th bone name in the string blob. */
  nameTableOrder: number[];
  /** Whether `nameTableOrder` is the breadth-first order of the hierarchy (it is on the sample). */
  nameTableIsBreadthFirst: boolean;
  confidence: Confidence;
  notes: string[];
}
