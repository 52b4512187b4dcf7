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
import { Arch06Error, hexBytes } from '../errors';
import { StringHasher, defaultHasher } from '../hash/stringHash';
import { Confidence, FieldReader, hex32 } from './mmsh';
import { u32 } from '../io/littleEndian';

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
const SKPY = 0x59504b53; // "SKPY"

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

const latin1 = new TextDecoder('latin1');

/**
 * Parse a SKEL v17 skeleton held in memory. Throws `Arch06Error` (TRUNCATED, BAD_MAGIC,
 * UNSUPPORTED_VERSION, INVALID, OUT_OF_RANGE) naming file, offset and field.
 */
export function parseSkel(bytes: Uint8Array, file: string): Skel {
  const notes: string[] = [];
  let confidence: Confidence = 'confirmed';
  const uncertain = (n: string): void => {
    confidence = 'uncertain';
    notes.push(n);
  };
  const r = new FieldReader(bytes, file, 0, bytes.length, 'file');
  const magic = r.u32('header.magic');
  if (magic !== SKEL_MAGIC) {
    throw new Arch06Error('BAD_MAGIC', 'not a SKEL skeleton', { file, offset: 0, field: 'header.magic', expected: '"SKEL"', actual: JSON.stringify(latin1.decode(bytes.subarray(0, 4))) });
  }
  r.need(SKEL_PARTS_OFFSET - 4, 'header');
  const w: number[] = [];
  for (let i = 0; i < SKEL_HEADER_WORDS; i++) w.push(r.u32(`header.words[${i}]`));
  const distance0x44 = r.f32('header.distance0x44');
  const min = r.vec3('header.bounds.min');
  const max = r.vec3('header.bounds.max');
  const word = (i: number): number => 4 + 4 * i;
  const header: SkelHeader = {
    version: w[0]!, headerSize: w[1]!, stringBlobSize: w[2]!, stringCount: w[3]!, boneCount: w[4]!, boneBytes: w[5]!, anixCount: w[6]!, partCount: w[7]!,
    socketCount: w[8]!, boneCountAgain: w[9]!, unknownWords: w.slice(10), distance0x44, bounds: { min, max },
  };
  if (header.version !== SKEL_VERSION) {
    throw new Arch06Error('UNSUPPORTED_VERSION', `unsupported SKEL version ${header.version}`, { file, offset: 4, field: 'header.version', expected: String(SKEL_VERSION), actual: String(header.version) });
  }
  if (header.boneBytes !== SKEL_BONE_SIZE * header.boneCount) {
    throw new Arch06Error('INVALID', 'bone bytes are not 37 x the bone count', { file, offset: word(5), field: 'header.boneBytes', expected: `${SKEL_BONE_SIZE * header.boneCount} (37 x ${header.boneCount})`, actual: String(header.boneBytes) });
  }
  if (header.boneCountAgain !== header.boneCount) {
    throw new Arch06Error('INVALID', 'the two bone counts differ', { file, offset: word(9), field: 'header.boneCountAgain', expected: String(header.boneCount), actual: String(header.boneCountAgain) });
  }
  if (header.stringCount !== header.anixCount + header.partCount) {
    throw new Arch06Error('INVALID', 'string count is not .anix count + part count', { file, offset: word(3), field: 'header.stringCount', expected: `${header.anixCount + header.partCount} (${header.anixCount} + ${header.partCount})`, actual: String(header.stringCount) });
  }
  if (header.headerSize !== 64) uncertain(`header size word is ${header.headerSize}, not 64 as on every sample`);

  // Mesh parts.
  r.fits(header.partCount, 4, 'header.partCount', word(7));
  const parts: SkelPart[] = [];
  for (let p = 0; p < header.partCount; p++) {
    const offset = r.pos;
    const n = r.u32(`parts[${p}].count`);
    r.fits(n, SKEL_PART_ENTRY_SIZE, `parts[${p}].count`, offset);
    const entries: SkelPartEntry[] = [];
    for (let k = 0; k < n; k++) {
      const o = r.pos;
      const f = `parts[${p}].entries[${k}]`;
      entries.push({ offset: o, flagA: r.u8(`${f}.flagA`), flagB: r.u8(`${f}.flagB`), distance: r.f32(`${f}.distance`), material: r.s32(`${f}.material`), unk: r.s32(`${f}.unk`) });
    }
    parts.push({ index: p, offset, name: '', entries });
  }

  const sections: SkelSectionRange[] = [];
  const section = (id: number, name: string): SkelSectionRange => {
    const s = { id, name, offset: r.pos, end: r.pos };
    r.sectionId(id, `${name}.sectionId`);
    sections.push(s);
    return s;
  };

  // 0xDCDCFF00: strings, bones, masks, sockets.
  const s0 = section(SKEL_SECTION.BONES, 'bones');
  const blobAt = r.pos;
  r.fits(header.stringBlobSize, 1, 'header.stringBlobSize', word(2));
  r.pos += header.stringBlobSize;
  const blob = bytes.subarray(blobAt, blobAt + header.stringBlobSize);
  const nameAt = (offset: number, field: string, at: number): string => {
    if (offset >= blob.length) {
      throw new Arch06Error('OUT_OF_RANGE', 'name offset outside the string blob', { file, offset: at, field, expected: `< ${blob.length}`, actual: String(offset) });
    }
    const end = blob.indexOf(0, offset);
    if (end < 0) throw new Arch06Error('INVALID', 'name runs past the end of the string blob', { file, offset: blobAt + offset, field, expected: 'a NUL-terminated name', actual: 'no NUL before the blob ends' });
    return latin1.decode(blob.subarray(offset, end));
  };
  if (blob.length > 0 && blob[0] !== 0) uncertain('the string blob does not start with a NUL (offset 0 is the empty string on every sample)');

  r.fits(header.boneCount, SKEL_BONE_SIZE, 'header.boneCount', word(4));
  const bones: SkelBone[] = [];
  const stack: { bone: number; left: number }[] = [];
  for (let i = 0; i < header.boneCount; i++) {
    const offset = r.pos;
    const f = `bones[${i}]`;
    const nameOffset = r.u32(`${f}.nameOffset`);
    const name = nameAt(nameOffset, `${f}.nameOffset`, offset);
    const deform = r.u8(`${f}.deform`);
    const translation = r.vec3(`${f}.translation`);
    const rotation = r.vec4(`${f}.rotation`);
    const childOffset = r.pos;
    const childCount = r.u32(`${f}.childCount`);
    if (childCount >= header.boneCount) {
      throw new Arch06Error('OUT_OF_RANGE', 'child count exceeds the bones there are', { file, offset: childOffset, field: `${f}.childCount`, expected: `< ${header.boneCount}`, actual: String(childCount) });
    }
    while (stack.length && stack[stack.length - 1]!.left === 0) stack.pop();
    const top = stack[stack.length - 1];
    const parent = top ? top.bone : -1;
    if (top) top.left--;
    stack.push({ bone: i, left: childCount });
    bones.push({ index: i, offset, nameOffset, name, deform, translation, rotation, childCount, parent });
  }
  const pending = stack.reduce((s, e) => s + e.left, 0);
  if (pending > 0) {
    throw new Arch06Error('INVALID', 'the child counts promise more bones than the skeleton has', { file, offset: bones[bones.length - 1]?.offset ?? r.pos, field: 'bones.childCount', expected: `${header.boneCount} bones in depth-first order`, actual: `${pending} children missing` });
  }
  const roots = bones.filter((b) => b.parent < 0).length;
  if (roots > 1) notes.push(`${roots} root bones`);

  const maskAt = r.pos;
  const maskCount = r.u32('masks.count');
  r.fits(maskCount, 12, 'masks.count', maskAt);
  const masks: SkelMask[] = [];
  for (let i = 0; i < maskCount; i++) {
    const offset = r.pos;
    const f = `masks[${i}]`;
    const nameOffset = r.u32(`${f}.nameOffset`);
    const name = nameAt(nameOffset, `${f}.nameOffset`, offset);
    const n = r.u32(`${f}.boneCount`);
    const unk = r.u32(`${f}.unk`);
    r.fits(n, 1, `${f}.boneCount`, offset + 4);
    const values = Array.from(bytes.subarray(r.pos, r.pos + n));
    r.pos += n;
    if (n !== header.boneCount) uncertain(`mask "${name}" has ${n} values for ${header.boneCount} bones`);
    masks.push({ offset, nameOffset, name, boneCount: n, unk, values });
  }
  const socketAt = r.pos;
  const socketCount = r.u32('sockets.count');
  if (socketCount !== header.socketCount) {
    throw new Arch06Error('INVALID', 'socket count differs from the header', { file, offset: socketAt, field: 'sockets.count', expected: String(header.socketCount), actual: String(socketCount) });
  }
  r.fits(socketCount, SKEL_SOCKET_SIZE, 'sockets.count', socketAt);
  const sockets: SkelSocket[] = [];
  for (let i = 0; i < socketCount; i++) {
    const offset = r.pos;
    const f = `sockets[${i}]`;
    const bone = r.u32(`${f}.bone`);
    if (bone >= header.boneCount) throw new Arch06Error('OUT_OF_RANGE', 'socket names a bone that does not exist', { file, offset, field: `${f}.bone`, expected: `< ${header.boneCount}`, actual: String(bone) });
    const nameOffset = r.u32(`${f}.nameOffset`);
    const name = nameAt(nameOffset, `${f}.nameOffset`, offset + 4);
    const raw = hexBytes(bytes.subarray(r.pos, r.pos + 32), 32);
    const rotation = r.vec4(`${f}.rotation`);
    const translation = r.vec3(`${f}.translation`);
    const scale = r.f32(`${f}.scale`);
    sockets.push({ index: i, offset, bone, nameOffset, name, rotation, translation, scale, raw });
  }
  if (socketCount) uncertain('socket fields after the name follow seed 004 (rotation, position, scale); no public sample has sockets');
  s0.end = r.pos;

  // 0xDCDCFF01: .anix libraries, then part names.
  const s1 = section(SKEL_SECTION.MODEL, 'model');
  r.fits(header.stringCount, 4, 'header.stringCount', word(3));
  const anixNames: string[] = [];
  for (let i = 0; i < header.anixCount; i++) {
    const o = r.pos;
    anixNames.push(nameAt(r.u32(`model.anix[${i}]`), `model.anix[${i}]`, o));
  }
  for (const p of parts) {
    const o = r.pos;
    p.name = nameAt(r.u32(`model.parts[${p.index}]`), `model.parts[${p.index}]`, o);
  }
  s1.end = r.pos;

  const s2 = section(SKEL_SECTION.ANIMATION_TYPES, 'animationTypes');
  r.fits(header.anixCount, 4, 'header.anixCount', word(6));
  const animationTypes: number[] = [];
  for (let i = 0; i < header.anixCount; i++) animationTypes.push(r.u32(`animationTypes[${i}]`));
  s2.end = r.pos;

  const s3 = section(SKEL_SECTION.BONE_BYTES, 'boneBytes');
  r.fits(header.boneCount, 1, 'header.boneCount', word(4));
  const boneBytes = Array.from(bytes.subarray(r.pos, r.pos + header.boneCount));
  r.pos += header.boneCount;
  s3.end = r.pos;

  const s4 = section(SKEL_SECTION.CLOTH, 'cloth');
  const clothAt = r.pos;
  const clothCount = r.u32('cloth.count');
  r.fits(clothCount, 12, 'cloth.count', clothAt);
  const clothNames: string[] = [];
  for (let i = 0; i < clothCount; i++) {
    const o = r.pos;
    clothNames.push(nameAt(r.u32(`cloth.names[${i}]`), `cloth.names[${i}]`, o));
  }
  const clothEntries: SkelCloth['entries'] = [];
  for (let i = 0; i < clothCount; i++) {
    const offset = r.pos;
    const signature = r.u32(`cloth.entries[${i}].signature`);
    const sizeAt = r.pos;
    const size = r.u32(`cloth.entries[${i}].size`);
    r.fits(size, 1, `cloth.entries[${i}].size`, sizeAt);
    clothEntries.push({ offset, signature, size, payload: { offset: r.pos, size } });
    r.pos += size;
  }
  const checksum = r.u32('cloth.checksum');
  if (checksum !== SKEL_CHECKSUM) notes.push(`cloth checksum ${hex32(checksum)} (0xDEADDEAD on the samples)`);
  if (clothCount) notes.push(`${clothCount} cloth entries (Havok tagfiles, kept as byte ranges)`);
  const cloth: SkelCloth = { offset: clothAt, names: clothNames, entries: clothEntries, checksum };
  s4.end = r.pos;

  // Optional trailing sections.
  const u32At = (o: number): number => u32(bytes, o);
  const indexOfMarker = (id: number, from: number): number => {
    for (let o = from; o + 4 <= bytes.length; o++) if (u32At(o) === id) return o;
    return -1;
  };
  let unknown05: Skel['unknown05'];
  let tail: SkelRange | undefined;
  if (r.pos + 4 <= bytes.length && u32At(r.pos) === SKEL_SECTION.UNKNOWN05) {
    const s5 = section(SKEL_SECTION.UNKNOWN05, 'unknown05');
    const offset = r.pos;
    const count = r.u32('unknown05.count');
    if (count === 0) {
      const cs = r.u32('unknown05.checksum');
      unknown05 = { offset, count, checksum: cs };
    } else {
      const next = indexOfMarker(SKEL_SECTION.FOOTER, r.pos);
      const end = next < 0 ? bytes.length : next;
      unknown05 = { offset, count, payload: { offset: r.pos, size: end - r.pos } };
      uncertain(`section 0xDCDCFF05 has count ${count}; its ${end - r.pos} bytes are kept raw (only count 0 is documented)`);
      r.pos = end;
    }
    s5.end = r.pos;
  }
  // Sections this reader does not know (0xDCDCFFxx, not 99): kept raw up to the footer.
  // (`>>> 8`, not `& 0xffffff00`: the & gives a negative int32, which never equals 0xdcdcff00.)
  if (r.pos + 4 <= bytes.length && u32At(r.pos) >>> 8 === 0xdcdcff && u32At(r.pos) !== SKEL_SECTION.FOOTER) {
    const next = indexOfMarker(SKEL_SECTION.FOOTER, r.pos + 4);
    if (next >= 0) {
      tail = { offset: r.pos, size: next - r.pos };
      uncertain(`unknown section ${hex32(u32At(r.pos))} (${next - r.pos} bytes) before the footer, kept raw`);
      r.pos = next;
    }
  }
  // The footer: 0xDCDCFF99 "SKPY" u32 1, then 8 bytes (zero on the samples; seed 004: skeleton physics).
  const s9 = section(SKEL_SECTION.FOOTER, 'footer');
  const footerAt = r.pos;
  const tagValue = r.u32('footer.tag');
  if (tagValue !== SKPY) uncertain(`footer tag ${hex32(tagValue)} is not "SKPY"`);
  const value = r.u32('footer.value');
  r.need(8, 'footer.physics');
  const footer: Skel['footer'] = { offset: footerAt, tag: latin1.decode(bytes.subarray(footerAt, footerAt + 4)), value, trailing: { offset: r.pos, size: bytes.length - r.pos } };
  if (bytes.subarray(r.pos).some((b) => b !== 0)) uncertain(`the ${bytes.length - r.pos} bytes after the footer are not all zero (kept raw; seed 004: skeleton physics, optional Havok cloth)`);
  else if (bytes.length - r.pos !== 8) notes.push(`${bytes.length - r.pos} zero bytes after the footer (8 on the samples)`);
  r.pos = bytes.length;
  s9.end = r.pos;

  // Name-table order: bones by the position of their names in the blob.
  const nameTableOrder = bones.map((b) => b.index).sort((a, b) => bones[a]!.nameOffset - bones[b]!.nameOffset || a - b);
  const bfs = breadthFirstOrder(bones.map((b) => b.parent));
  const nameTableIsBreadthFirst = nameTableOrder.every((b, k) => b === bfs[k]);
  if (!nameTableIsBreadthFirst) uncertain('the bone names in the string blob are not in breadth-first order (they are on the sample)');
  const bytesIdentity = boneBytes.every((b, k) => b === k);
  if (!bytesIdentity) notes.push('the 0xDCDCFF03 bytes are not 0, 1, 2, … (meaning UNCERTAIN)');

  return {
    file, size: bytes.length, header, parts, strings: { offset: blobAt, size: header.stringBlobSize }, bones, masks, sockets, anixNames, animationTypes, boneBytes,
    cloth, unknown05, footer, tail, sections, nameTableOrder, nameTableIsBreadthFirst, confidence, notes,
  };
}

/**
 * Breadth-first order of a hierarchy given as parent indices (-1 = root): roots in index order,
 * then their children level by level, siblings in index order. On the real sample this is the
 * order of the bone names in the SKEL string blob, i.e. the name-table order palettes index.
 */
export function breadthFirstOrder(parents: readonly number[]): number[] {
  const children: number[][] = parents.map(() => []);
  const order: number[] = [];
  parents.forEach((p, i) => {
    if (p >= 0 && p < parents.length && p !== i) children[p]!.push(i);
    else order.push(i);
  });
  for (let k = 0; k < order.length; k++) for (const c of children[order[k]!]!) order.push(c);
  if (order.length === parents.length) return order;
  // A cycle: the bones no root reaches follow, in index order.
  const seen = new Uint8Array(parents.length);
  for (const i of order) seen[i] = 1;
  for (let i = 0; i < parents.length; i++) if (!seen[i]) order.push(i);
  return order;
}

/** StringHash of each bone name → bone index (names with a byte the hash table does not know are left out). */
export function skelBonesByHash(skel: Skel, hasher: StringHasher = defaultHasher): Map<number, number> {
  const out = new Map<number, number>();
  for (const b of skel.bones) {
    const h = hasher.tryHash(b.name);
    if (h.ok && !out.has(h.hash)) out.set(h.hash, b.index);
  }
  return out;
}
