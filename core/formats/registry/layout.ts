/**
 * The object registry (`.objres`, OBJR v13) of a world part: layouts, constants and the names
 * its blocks register. Seed 001 ("The object registry (.objres)", "The object list (OBJL)",
 * "Group members (ONLS) and script bindings (SCRB)") gives the layouts; the four real registries of
 * `../shared/samples/real/Patch_00.arch06` (island, mtnpass, snowmtn, volcano
 * `fortwallgameplay.objres`, inside the layers' EMBB containers) were read against them:
 *
 *   'OBJR' | u32 13 | u32 hash | u32 block count, then block count x {u32 name hash | u32 size | payload}
 *
 * What the real bytes showed:
 * - The chains end exactly at the end of the file (4 of 4), 12 blocks each, in one order: KEYF,
 *   SFXS, SWFX, ONLS, NLFE, PFDG, Clutter, SCRB, VOLM, GADB, WorldPhysics, OBJL. Two payloads carry
 *   no tag (Clutter and WorldPhysics start with the u32 1): a block is named by its name hash.
 * - A block's name hash is StringHash of the name its handler registers (seed 001). Ten of the 12
 *   hashes match names: the seed's ObjRes.WorldPhysics, ObjRes.ObjProps and ObjRes.WeatherFx, and
 *   seven found by hashing candidate names (the hash folds case, so the spelling's case is a
 *   guess): ObjRes.Keyframer, ObjRes.ObjNameList, ObjRes.NativeLife, ObjRes.Clutter,
 *   ObjRes.ScriptBind, ObjRes.VolumeDB, ObjRes.ObjList. SFXS (0xBE10C375) and PFDG (0x22A69B09)
 *   stay unnamed.
 * - The header's u32 hash is not StringHash of the part's paths (the .objres, .scripts, .bndl,
 *   .embb paths, the stem, the layer name were tried): kept raw, meaning unknown.
 * - OBJL: the 50-byte record as the issue gives it holds on all 788 records (248, 192, 125, 223);
 *   one set each, the world set 0x3BDE767D; the u16 @0x0C and the u32 @0x2A are 0 throughout;
 *   quaternions are unit to within 1e-6 (|q| = 1.0000007 on the identity rotations).
 * - SCRB: exactly seed 001's layout (string offsets relative to the string area; "first binding"
 *   an index; object runs shared), every event hash = StringHash(event name).
 * - ONLS: exactly seed 001's layout: 'ONLS' | u32 1 | u32 area bytes | u32 index bytes; the area
 *   walks as groups {u32 n, n x {u16 length, name}} to its exact end, the index {u32
 *   hash(owner), u32 area offset} is sorted by hash, every offset lands on a group start (228 of
 *   228), every owner and member (223) is an OBJL name; groups may be empty (n = 0).
 * - GADB (ObjRes.ObjProps): version 17, the word S2 labels stringTableOffset is 44 (the header's
 *   size), and the first word S2 leaves unknown (block +0x10) equals the number of distinct OBJL
 *   property record indices (103, 66, 52, 82): probably the ObjectRec count. Kept raw with S2's
 *   labels (formats-public §9, UNCERTAIN).
 */
import { Confidence } from '../../io/confidence';
import { stringHash } from '../../hash/stringHash';

export const OBJR_VERSION = 13;
export const OBJR_HEADER_SIZE = 16;
export const OBJR_BLOCK_HEADER_SIZE = 8;

export const OBJL_VERSION = 5;
export const OBJL_HEADER_SIZE = 0x1c;
export const OBJL_SET_HEADER_SIZE = 8;
export const OBJL_RECORD_SIZE = 50;
/** Group name offset meaning "no group". */
export const OBJL_NO_GROUP = 0xffff;
/** The world set: the only set of the sampled lists (seed 001: "most lists hold one set"). */
export const OBJL_WORLD_SET = 0x3bde767d;
/** How far |q| may stray from 1 for a record to count as a unit quaternion. */
export const QUATERNION_TOLERANCE = 1e-3;

/** The OBJL record (the order, settled on the real files). */
export const OBJL_RECORD = {
  classOffset: 0x00, // u32, into the class table
  nameOffset: 0x04, // u32, into the name table
  groupOffset: 0x08, // u16, into the group table, 0xFFFF = none
  propertyIndex: 0x0a, // u16, the object's GADB record
  reserved0C: 0x0c, // u16, 0 in all samples
  position: 0x0e, // f32[3], cm
  rotation: 0x1a, // f32[4], x y z w
  word2A: 0x2a, // u32, 0 in all samples (seed 001: kept at run time +0x38)
  templateId: 0x2e, // u32, the template's authoring id (seed 001)
} as const;

export const SCRB_VERSION = 1;
export const SCRB_HEADER_SIZE = 20;
export const SCRB_BINDING_SIZE = 16;
export const SCRB_OBJECT_SIZE = 12;

export const ONLS_VERSION = 1;
export const ONLS_HEADER_SIZE = 16;
export const ONLS_INDEX_ENTRY_SIZE = 8;

export const GADB_HEADER_SIZE = 44;
/** S2 `gamedb.hexpat`'s names for the nine words after magic and version (formats-public §9, UNCERTAIN). */
export const GADB_LABELS = [
  'stringTableSize',
  'recordCount',
  'unknown',
  'unknown',
  'unknown',
  'blockCount',
  'unknown',
  'unknown',
  'stringTableOffset',
] as const;

export interface KnownBlockName {
  name: string;
  /** The payload's tag, or null for the blocks whose payload has none. */
  tag: string | null;
  /** 'confirmed': the seed names it and a real block carries its hash; 'likely': found by hashing candidate names, or the seed's name with no sample. */
  confidence: Confidence;
}

/** Registered block names, as far as known (see the file comment). */
export const KNOWN_BLOCK_NAMES: readonly KnownBlockName[] = [
  { name: 'ObjRes.Keyframer', tag: 'KEYF', confidence: 'likely' },
  { name: 'ObjRes.WeatherFx', tag: 'SWFX', confidence: 'confirmed' },
  { name: 'ObjRes.ObjNameList', tag: 'ONLS', confidence: 'likely' },
  { name: 'ObjRes.NativeLife', tag: 'NLFE', confidence: 'likely' },
  { name: 'ObjRes.Clutter', tag: null, confidence: 'likely' },
  { name: 'ObjRes.ScriptBind', tag: 'SCRB', confidence: 'likely' },
  { name: 'ObjRes.VolumeDB', tag: 'VOLM', confidence: 'likely' },
  { name: 'ObjRes.ObjProps', tag: 'GADB', confidence: 'confirmed' },
  { name: 'ObjRes.WorldPhysics', tag: null, confidence: 'confirmed' },
  { name: 'ObjRes.ObjList', tag: 'OBJL', confidence: 'likely' },
  { name: 'ObjRes.ContextLineDB', tag: 'CAWR', confidence: 'likely' },
];

let byHash: Map<number, KnownBlockName> | undefined;

/** The registered name of a block's name hash, where known. */
export function knownBlockName(hash: number): KnownBlockName | undefined {
  byHash ??= new Map(KNOWN_BLOCK_NAMES.map((k) => [stringHash(k.name), k]));
  return byHash.get(hash >>> 0);
}

/** The name hash of the block a tag's handler registers (for writers and the tag/name check). */
export function blockNameHash(tag: string): number | undefined {
  const k = KNOWN_BLOCK_NAMES.find((x) => x.tag === tag);
  return k ? stringHash(k.name) : undefined;
}
