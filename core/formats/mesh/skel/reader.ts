/**
 * The SKEL v17 reader: the fixed header, the mesh parts, then each marked section in order, every
 * count checked against the bytes left before it is read (layout and evidence: ./layout.ts). One
 * function per section of the format; they share the reader, the notes and the string blob.
 */
import { Arch06Error, hexBytes } from '../../../errors';
import { Confidence } from '../../../io/confidence';
import { FieldReader, ParseOptions, hex32 } from '../../../io/fieldReader';
import { expectMagicVersion } from '../../../io/magic';
import { breadthFirstOrder } from './hierarchy';
import {
  SKEL_BONE_SIZE,
  SKEL_CHECKSUM,
  SKEL_FOOTER_TAG,
  SKEL_HEADER_WORDS,
  SKEL_PARTS_OFFSET,
  SKEL_PART_ENTRY_SIZE,
  SKEL_SECTION,
  SKEL_SOCKET_SIZE,
  SKEL_VERSION,
  Skel,
  SkelBone,
  SkelCloth,
  SkelHeader,
  SkelMask,
  SkelPart,
  SkelPartEntry,
  SkelRange,
  SkelSectionRange,
  SkelSocket,
} from './layout';

const latin1 = new TextDecoder('latin1');

/** The offset of header word `i` (word 0 follows the 4-byte magic). */
const word = (i: number): number => 4 + 4 * i;

/** What every section reader shares: the bytes, the field reader, the notes and the sections met so far. */
interface SkelContext {
  readonly bytes: Uint8Array;
  readonly file: string;
  readonly r: FieldReader;
  readonly notes: string[];
  readonly sections: SkelSectionRange[];
  confidence: Confidence;
}

function uncertain(c: SkelContext, note: string): void {
  c.confidence = 'uncertain';
  c.notes.push(note);
}

/** Read a section marker and record where the section starts; the caller sets `end`. */
function openSection(c: SkelContext, id: number, name: string): SkelSectionRange {
  const s = { id, name, offset: c.r.pos, end: c.r.pos };
  c.r.sectionId(id, `${name}.sectionId`);
  c.sections.push(s);
  return s;
}

/** The string blob of section 0xDCDCFF00, and the lookup of a NUL-terminated name in it. */
interface StringBlob {
  readonly offset: number;
  nameAt(offset: number, field: string, at: number): string;
}

/**
 * Parse a SKEL v17 skeleton held in memory. Throws `Arch06Error` (TRUNCATED, BAD_MAGIC,
 * UNSUPPORTED_VERSION, INVALID, OUT_OF_RANGE) naming file, offset and field.
 */
export function parseSkel(bytes: Uint8Array, file: string, options: ParseOptions = {}): Skel {
  const c: SkelContext = { bytes, file, r: new FieldReader(bytes, file, { spans: options.spans }), notes: [], sections: [], confidence: 'confirmed' };
  const header = readHeader(c);
  const parts = readParts(c, header);

  // 0xDCDCFF00: strings, bones, masks, sockets.
  const s0 = openSection(c, SKEL_SECTION.BONES, 'bones');
  const blob = readStringBlob(c, header);
  const bones = readBones(c, header, blob);
  const masks = readMasks(c, header, blob);
  const sockets = readSockets(c, header, blob);
  s0.end = c.r.pos;

  const anixNames = readModel(c, header, parts, blob);
  const animationTypes = readAnimationTypes(c, header);
  const boneBytes = readBoneBytes(c, header);
  const cloth = readCloth(c, blob);
  const unknown05 = readUnknown05(c);
  const tail = readUnknownTail(c);
  const footer = readFooter(c);

  // Name-table order: bones by the position of their names in the blob.
  const nameTableOrder = bones.map((b) => b.index).sort((a, b) => bones[a]!.nameOffset - bones[b]!.nameOffset || a - b);
  const bfs = breadthFirstOrder(bones.map((b) => b.parent));
  const nameTableIsBreadthFirst = nameTableOrder.every((b, k) => b === bfs[k]);
  if (!nameTableIsBreadthFirst) uncertain(c, 'the bone names in the string blob are not in breadth-first order (they are on the sample)');
  const bytesIdentity = boneBytes.every((b, k) => b === k);
  if (!bytesIdentity) c.notes.push('the 0xDCDCFF03 bytes are not 0, 1, 2, … (meaning UNCERTAIN)');

  return {
    file,
    size: bytes.length,
    header,
    parts,
    strings: { offset: blob.offset, size: header.stringBlobSize },
    bones,
    masks,
    sockets,
    anixNames,
    animationTypes,
    boneBytes,
    cloth,
    unknown05,
    footer,
    tail,
    sections: c.sections,
    nameTableOrder,
    nameTableIsBreadthFirst,
    confidence: c.confidence,
    notes: c.notes,
  };
}

/** The fixed header: magic, version, the count words, a distance and the bounds; the counts checked against each other. */
function readHeader(c: SkelContext): SkelHeader {
  const { r, file } = c;
  const w: number[] = [expectMagicVersion(r, 'SKEL', [SKEL_VERSION], 'SKEL', { what: 'a SKEL skeleton', headerSize: SKEL_PARTS_OFFSET })];
  for (let i = 1; i < SKEL_HEADER_WORDS; i++) w.push(r.u32(`header.words[${i}]`));
  const distance0x44 = r.f32('header.distance0x44');
  const min = r.vec3('header.bounds.min');
  const max = r.vec3('header.bounds.max');
  const header: SkelHeader = {
    version: w[0]!,
    headerSize: w[1]!,
    stringBlobSize: w[2]!,
    stringCount: w[3]!,
    boneCount: w[4]!,
    boneBytes: w[5]!,
    anixCount: w[6]!,
    partCount: w[7]!,
    socketCount: w[8]!,
    boneCountAgain: w[9]!,
    unknownWords: w.slice(10),
    distance0x44,
    bounds: { min, max },
  };
  if (header.boneBytes !== SKEL_BONE_SIZE * header.boneCount) {
    throw new Arch06Error('INVALID', 'bone bytes are not 37 x the bone count', {
      file,
      offset: word(5),
      field: 'header.boneBytes',
      expected: `${SKEL_BONE_SIZE * header.boneCount} (37 x ${header.boneCount})`,
      actual: String(header.boneBytes),
    });
  }
  if (header.boneCountAgain !== header.boneCount) {
    throw new Arch06Error('INVALID', 'the two bone counts differ', {
      file,
      offset: word(9),
      field: 'header.boneCountAgain',
      expected: String(header.boneCount),
      actual: String(header.boneCountAgain),
    });
  }
  if (header.stringCount !== header.anixCount + header.partCount) {
    throw new Arch06Error('INVALID', 'string count is not .anix count + part count', {
      file,
      offset: word(3),
      field: 'header.stringCount',
      expected: `${header.anixCount + header.partCount} (${header.anixCount} + ${header.partCount})`,
      actual: String(header.stringCount),
    });
  }
  if (header.headerSize !== 64) uncertain(c, `header size word is ${header.headerSize}, not 64 as on every sample`);
  return header;
}

/** The mesh parts after the header: per part a count and its LOD entries (names come later, in 0xDCDCFF01). */
function readParts(c: SkelContext, header: SkelHeader): SkelPart[] {
  const { r } = c;
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
      entries.push({
        offset: o,
        flagA: r.u8(`${f}.flagA`),
        flagB: r.u8(`${f}.flagB`),
        distance: r.f32(`${f}.distance`),
        material: r.s32(`${f}.material`),
        unk: r.s32(`${f}.unk`),
      });
    }
    parts.push({ index: p, offset, name: '', entries });
  }
  return parts;
}

/** The string blob opening section 0xDCDCFF00; every name in the file is an offset into it. */
function readStringBlob(c: SkelContext, header: SkelHeader): StringBlob {
  const { r, file } = c;
  const blobAt = r.pos;
  r.fits(header.stringBlobSize, 1, 'header.stringBlobSize', word(2));
  const blob = r.bytesOf(header.stringBlobSize, 'strings');
  const nameAt = (offset: number, field: string, at: number): string => {
    if (offset >= blob.length) {
      throw new Arch06Error('OUT_OF_RANGE', 'name offset outside the string blob', {
        file,
        offset: at,
        field,
        expected: `< ${blob.length}`,
        actual: String(offset),
      });
    }
    const end = blob.indexOf(0, offset);
    if (end < 0)
      throw new Arch06Error('INVALID', 'name runs past the end of the string blob', {
        file,
        offset: blobAt + offset,
        field,
        expected: 'a NUL-terminated name',
        actual: 'no NUL before the blob ends',
      });
    return latin1.decode(blob.subarray(offset, end));
  };
  if (blob.length > 0 && blob[0] !== 0) uncertain(c, 'the string blob does not start with a NUL (offset 0 is the empty string on every sample)');
  return { offset: blobAt, nameAt };
}

/** The bones, depth-first: each child count opens a run of children, from which the parents follow. */
function readBones(c: SkelContext, header: SkelHeader, blob: StringBlob): SkelBone[] {
  const { r, file } = c;
  r.fits(header.boneCount, SKEL_BONE_SIZE, 'header.boneCount', word(4));
  const bones: SkelBone[] = [];
  const stack: { bone: number; left: number }[] = [];
  for (let i = 0; i < header.boneCount; i++) {
    const offset = r.pos;
    const f = `bones[${i}]`;
    const nameOffset = r.u32(`${f}.nameOffset`);
    const name = blob.nameAt(nameOffset, `${f}.nameOffset`, offset);
    const deform = r.u8(`${f}.deform`);
    const translation = r.vec3(`${f}.translation`);
    const rotation = r.vec4(`${f}.rotation`);
    const childOffset = r.pos;
    const childCount = r.u32(`${f}.childCount`);
    if (childCount >= header.boneCount) {
      throw new Arch06Error('OUT_OF_RANGE', 'child count exceeds the bones there are', {
        file,
        offset: childOffset,
        field: `${f}.childCount`,
        expected: `< ${header.boneCount}`,
        actual: String(childCount),
      });
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
    throw new Arch06Error('INVALID', 'the child counts promise more bones than the skeleton has', {
      file,
      offset: bones[bones.length - 1]?.offset ?? r.pos,
      field: 'bones.childCount',
      expected: `${header.boneCount} bones in depth-first order`,
      actual: `${pending} children missing`,
    });
  }
  const roots = bones.filter((b) => b.parent < 0).length;
  if (roots > 1) c.notes.push(`${roots} root bones`);
  return bones;
}

/** The bone masks: a name and one byte per bone each. */
function readMasks(c: SkelContext, header: SkelHeader, blob: StringBlob): SkelMask[] {
  const { r } = c;
  const maskAt = r.pos;
  const maskCount = r.u32('masks.count');
  r.fits(maskCount, 12, 'masks.count', maskAt);
  const masks: SkelMask[] = [];
  for (let i = 0; i < maskCount; i++) {
    const offset = r.pos;
    const f = `masks[${i}]`;
    const nameOffset = r.u32(`${f}.nameOffset`);
    const name = blob.nameAt(nameOffset, `${f}.nameOffset`, offset);
    const n = r.u32(`${f}.boneCount`);
    const unk = r.u32(`${f}.unk`);
    r.fits(n, 1, `${f}.boneCount`, offset + 4);
    const values = Array.from(r.bytesOf(n, `${f}.values`));
    if (n !== header.boneCount) uncertain(c, `mask "${name}" has ${n} values for ${header.boneCount} bones`);
    masks.push({ offset, nameOffset, name, boneCount: n, unk, values });
  }
  return masks;
}

/** The sockets closing section 0xDCDCFF00: a bone, a name and a transform each. */
function readSockets(c: SkelContext, header: SkelHeader, blob: StringBlob): SkelSocket[] {
  const { r, file, bytes } = c;
  const socketAt = r.pos;
  const socketCount = r.u32('sockets.count');
  if (socketCount !== header.socketCount) {
    throw new Arch06Error('INVALID', 'socket count differs from the header', {
      file,
      offset: socketAt,
      field: 'sockets.count',
      expected: String(header.socketCount),
      actual: String(socketCount),
    });
  }
  r.fits(socketCount, SKEL_SOCKET_SIZE, 'sockets.count', socketAt);
  const sockets: SkelSocket[] = [];
  for (let i = 0; i < socketCount; i++) {
    const offset = r.pos;
    const f = `sockets[${i}]`;
    const bone = r.u32(`${f}.bone`);
    if (bone >= header.boneCount)
      throw new Arch06Error('OUT_OF_RANGE', 'socket names a bone that does not exist', {
        file,
        offset,
        field: `${f}.bone`,
        expected: `< ${header.boneCount}`,
        actual: String(bone),
      });
    const nameOffset = r.u32(`${f}.nameOffset`);
    const name = blob.nameAt(nameOffset, `${f}.nameOffset`, offset + 4);
    const raw = hexBytes(bytes.subarray(r.pos, r.pos + 32), 32);
    const rotation = r.vec4(`${f}.rotation`);
    const translation = r.vec3(`${f}.translation`);
    const scale = r.f32(`${f}.scale`);
    sockets.push({ index: i, offset, bone, nameOffset, name, rotation, translation, scale, raw });
  }
  if (socketCount) uncertain(c, 'socket fields after the name follow seed 004 (rotation, position, scale); no public sample has sockets');
  return sockets;
}

/** 0xDCDCFF01: the .anix library names, then the part names (set on `parts`). */
function readModel(c: SkelContext, header: SkelHeader, parts: SkelPart[], blob: StringBlob): string[] {
  const { r } = c;
  const s1 = openSection(c, SKEL_SECTION.MODEL, 'model');
  r.fits(header.stringCount, 4, 'header.stringCount', word(3));
  const anixNames: string[] = [];
  for (let i = 0; i < header.anixCount; i++) {
    const o = r.pos;
    anixNames.push(blob.nameAt(r.u32(`model.anix[${i}]`), `model.anix[${i}]`, o));
  }
  for (const p of parts) {
    const o = r.pos;
    p.name = blob.nameAt(r.u32(`model.parts[${p.index}]`), `model.parts[${p.index}]`, o);
  }
  s1.end = r.pos;
  return anixNames;
}

/** 0xDCDCFF02: one animation type word per .anix library. */
function readAnimationTypes(c: SkelContext, header: SkelHeader): number[] {
  const { r } = c;
  const s2 = openSection(c, SKEL_SECTION.ANIMATION_TYPES, 'animationTypes');
  r.fits(header.anixCount, 4, 'header.anixCount', word(6));
  const animationTypes: number[] = [];
  for (let i = 0; i < header.anixCount; i++) animationTypes.push(r.u32(`animationTypes[${i}]`));
  s2.end = r.pos;
  return animationTypes;
}

/** 0xDCDCFF03: one byte per bone. */
function readBoneBytes(c: SkelContext, header: SkelHeader): number[] {
  const { r } = c;
  const s3 = openSection(c, SKEL_SECTION.BONE_BYTES, 'boneBytes');
  r.fits(header.boneCount, 1, 'header.boneCount', word(4));
  const boneBytes = Array.from(r.bytesOf(header.boneCount, 'boneBytes.values'));
  s3.end = r.pos;
  return boneBytes;
}

/** 0xDCDCFF04: cloth names, then their Havok tagfiles kept as byte ranges, then the checksum. */
function readCloth(c: SkelContext, blob: StringBlob): SkelCloth {
  const { r } = c;
  const s4 = openSection(c, SKEL_SECTION.CLOTH, 'cloth');
  const clothAt = r.pos;
  const clothCount = r.u32('cloth.count');
  r.fits(clothCount, 12, 'cloth.count', clothAt);
  const clothNames: string[] = [];
  for (let i = 0; i < clothCount; i++) {
    const o = r.pos;
    clothNames.push(blob.nameAt(r.u32(`cloth.names[${i}]`), `cloth.names[${i}]`, o));
  }
  const clothEntries: SkelCloth['entries'] = [];
  for (let i = 0; i < clothCount; i++) {
    const offset = r.pos;
    const signature = r.u32(`cloth.entries[${i}].signature`);
    const sizeAt = r.pos;
    const size = r.u32(`cloth.entries[${i}].size`);
    r.fits(size, 1, `cloth.entries[${i}].size`, sizeAt);
    clothEntries.push({ offset, signature, size, payload: { offset: r.pos, size } });
    r.skip(size, `cloth.entries[${i}].payload`);
  }
  const checksum = r.u32('cloth.checksum');
  if (checksum !== SKEL_CHECKSUM) c.notes.push(`cloth checksum ${hex32(checksum)} (0xDEADDEAD on the samples)`);
  if (clothCount) c.notes.push(`${clothCount} cloth entries (Havok tagfiles, kept as byte ranges)`);
  const cloth: SkelCloth = { offset: clothAt, names: clothNames, entries: clothEntries, checksum };
  s4.end = r.pos;
  return cloth;
}

/** The optional 0xDCDCFF05: a count and a checksum when the count is 0, else its bytes up to the footer kept raw. */
function readUnknown05(c: SkelContext): Skel['unknown05'] {
  const { r, bytes } = c;
  if (r.peekU32(r.pos) !== SKEL_SECTION.UNKNOWN05) return undefined;
  let unknown05: Skel['unknown05'];
  const s5 = openSection(c, SKEL_SECTION.UNKNOWN05, 'unknown05');
  const offset = r.pos;
  const count = r.u32('unknown05.count');
  if (count === 0) {
    const cs = r.u32('unknown05.checksum');
    unknown05 = { offset, count, checksum: cs };
  } else {
    const next = r.findU32(SKEL_SECTION.FOOTER, r.pos);
    const end = next < 0 ? bytes.length : next;
    unknown05 = { offset, count, payload: { offset: r.pos, size: end - r.pos } };
    uncertain(c, `section 0xDCDCFF05 has count ${count}; its ${end - r.pos} bytes are kept raw (only count 0 is documented)`);
    r.skip(end - r.pos, 'unknown05.payload');
  }
  s5.end = r.pos;
  return unknown05;
}

/** Sections this reader does not know (0xDCDCFFxx, not 99): kept raw up to the footer. */
function readUnknownTail(c: SkelContext): SkelRange | undefined {
  const { r } = c;
  // (`>>> 8`, not `& 0xffffff00`: the & gives a negative int32, which never equals 0xdcdcff00.)
  const marker = r.peekU32(r.pos);
  if (marker === undefined || marker >>> 8 !== 0xdcdcff || marker === SKEL_SECTION.FOOTER) return undefined;
  const next = r.findU32(SKEL_SECTION.FOOTER, r.pos + 4);
  if (next < 0) return undefined;
  const tail = { offset: r.pos, size: next - r.pos };
  uncertain(c, `unknown section ${hex32(marker)} (${next - r.pos} bytes) before the footer, kept raw`);
  r.skip(next - r.pos, 'tail');
  return tail;
}

/** The footer: 0xDCDCFF99 "SKPY" u32 1, then 8 bytes (zero on the samples; seed 004: skeleton physics). */
function readFooter(c: SkelContext): Skel['footer'] {
  const { r, bytes } = c;
  const s9 = openSection(c, SKEL_SECTION.FOOTER, 'footer');
  const footerAt = r.pos;
  const tagValue = r.u32('footer.tag');
  if (tagValue !== SKEL_FOOTER_TAG) uncertain(c, `footer tag ${hex32(tagValue)} is not "SKPY"`);
  const value = r.u32('footer.value');
  r.need(8, 'footer.physics');
  const footer: Skel['footer'] = {
    offset: footerAt,
    tag: latin1.decode(bytes.subarray(footerAt, footerAt + 4)),
    value,
    trailing: { offset: r.pos, size: bytes.length - r.pos },
  };
  if (bytes.subarray(r.pos).some((b) => b !== 0))
    uncertain(c, `the ${bytes.length - r.pos} bytes after the footer are not all zero (kept raw; seed 004: skeleton physics, optional Havok cloth)`);
  else if (bytes.length - r.pos !== 8) c.notes.push(`${bytes.length - r.pos} zero bytes after the footer (8 on the samples)`);
  r.skip(r.left, 'footer.trailing');
  s9.end = r.pos;
  return footer;
}
