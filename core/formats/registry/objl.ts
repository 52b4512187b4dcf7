/**
 * OBJL, the object list of a registry (seed 001 "The object list (OBJL)"):
 *
 *   'OBJL' | u32 5 | u32 sets | u32 N | u32 class bytes | u32 name bytes | u32 group bytes
 *   0x1C   class names, object names, group names (three NUL-terminated string tables)
 *   then   per set: u32 set hash | u32 count | count x 50-byte record (unaligned)
 *
 * The record's field order comes from no document; the issue settled it on the four real
 * registries (./layout.ts `OBJL_RECORD`). Because it rests on four files, it is validated on every
 * read: the sets' counts add up to N and end exactly at the block's end, every offset lands on a
 * string start of its own table (0xFFFF = no group), every position is finite and every
 * quaternion unit (within `QUATERNION_TOLERANCE`). When any of that fails, the string tables are
 * still returned, the records raw, with the reason: never values read by a layout that did not
 * fit. The header and the string tables themselves must fit in the block (typed errors otherwise).
 */
import { Confidence } from '../../io/confidence';
import { FieldReader, hex32 } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { OBJL_HEADER_SIZE, OBJL_NO_GROUP, OBJL_RECORD, OBJL_RECORD_SIZE, OBJL_SET_HEADER_SIZE, OBJL_VERSION, QUATERNION_TOLERANCE } from './layout';
import { NulStrings, readNulStrings } from './strings';

export interface ObjectSet {
  hash: number;
  /** File offset of the set's header. */
  offset: number;
  count: number;
}

export interface RegistryObject {
  /** The set's hash. */
  set: number;
  /** Index in the list (over all sets). */
  index: number;
  /** File offset of the record. */
  offset: number;
  className: string;
  name: string;
  group: string | null;
  classOffset: number;
  nameOffset: number;
  groupOffset: number;
  /** The object's record in the ObjRes.ObjProps database. */
  propertyIndex: number;
  /** u16 @0x0C (0 in all samples). */
  reserved0C: number;
  /** Centimetres. */
  position: [number, number, number];
  /** Quaternion x, y, z, w. */
  rotation: [number, number, number, number];
  /** u32 @0x2A (0 in all samples). */
  word2A: number;
  templateId: number;
}

export interface RawObjectRecord {
  set: number;
  index: number;
  offset: number;
  bytes: Uint8Array;
}

export interface RecordLayout {
  validated: boolean;
  /** Why the layout was not accepted (absent when validated). */
  reason?: string;
  confidence: Confidence;
}

export interface ObjectList {
  /** File offset of the block's payload ("OBJL"). */
  offset: number;
  size: number;
  version: number;
  setCount: number;
  objectCount: number;
  classes: NulStrings;
  names: NulStrings;
  groups: NulStrings;
  sets: ObjectSet[];
  recordLayout: RecordLayout;
  /** Every object, when the record layout validated; empty otherwise. */
  objects: RegistryObject[];
  /** The records as bytes, when it did not (those that lie inside the block); empty otherwise. */
  rawRecords: RawObjectRecord[];
  notes: string[];
}

/**
 * Read the OBJL block whose payload spans [r.pos, r.end) of the reader's bytes (`field` prefixes
 * the field names). Throws typed errors for a bad tag, version, header or string tables; reports a
 * record layout that does not validate instead.
 */
export function readObjl(r: FieldReader, field = 'objl'): ObjectList {
  const offset = r.pos;
  const size = r.end - offset;
  const version = expectMagicVersion(r, 'OBJL', [OBJL_VERSION], 'OBJL', {
    what: 'an OBJL object list',
    magicField: `${field}.tag`,
    versionField: `${field}.version`,
    headerSize: OBJL_HEADER_SIZE,
    headerField: `${field}.header`,
  });
  const setCount = r.u32(`${field}.sets`);
  const objectCount = r.u32(`${field}.objects`);
  const sizes = [r.u32(`${field}.classBytes`), r.u32(`${field}.nameBytes`), r.u32(`${field}.groupBytes`)];
  let at = r.pos;
  const tables = (['classes', 'names', 'groups'] as const).map((t, i) => {
    const s = readNulStrings(r, at, sizes[i], `${field}.${t}`);
    at += sizes[i];
    return s;
  });
  const [classes, names, groups] = tables;
  const notes: string[] = [];
  tables.forEach((t, i) => {
    if (t.unterminated) notes.push(`the ${['class', 'name', 'group'][i]} table ends with ${t.unterminated} bytes without a NUL`);
  });
  r.pos = at;

  // Walk the sets: bounded by the block, nothing allocated beyond what lies in it.
  const sets: ObjectSet[] = [];
  const recordAt: number[] = [];
  const recordSet: number[] = [];
  let reason: string | undefined;
  for (let s = 0; s < setCount && reason === undefined; s++) {
    if (!r.has(r.pos, OBJL_SET_HEADER_SIZE)) {
      reason = `set ${s} of ${setCount}: its header runs past the end of the block (0x${r.end.toString(16)})`;
      break;
    }
    const setAt = r.pos;
    const hash = r.u32(`${field}.set[${s}].hash`);
    const count = r.u32(`${field}.set[${s}].count`);
    sets.push({ hash, offset: setAt, count });
    const fit = Math.min(count, Math.floor(r.left / OBJL_RECORD_SIZE));
    for (let i = 0; i < fit; i++) {
      recordAt.push(r.pos + OBJL_RECORD_SIZE * i);
      recordSet.push(hash);
    }
    r.record(`${field}.set[${s}].records`, r.pos, OBJL_RECORD_SIZE * fit);
    r.pos += OBJL_RECORD_SIZE * fit;
    if (fit < count) reason = `set ${s} (${hex32(hash)}) declares ${count} records of 50 bytes; ${fit} fit before the end of the block`;
  }
  if (reason === undefined && r.pos !== r.end) reason = `${r.end - r.pos} bytes after the last set: the records do not end at the block's end`;
  if (reason === undefined && recordAt.length !== objectCount) reason = `the sets hold ${recordAt.length} records, the header says ${objectCount}`;

  const objects: RegistryObject[] = [];
  const where = (i: number): string => `record ${i} (at 0x${recordAt[i].toString(16)})`;
  if (reason === undefined) {
    const v = r.view;
    for (let i = 0; i < recordAt.length && reason === undefined; i++) {
      const o = recordAt[i] - r.base;
      const classOffset = v.getUint32(o + OBJL_RECORD.classOffset, true);
      const nameOffset = v.getUint32(o + OBJL_RECORD.nameOffset, true);
      const groupOffset = v.getUint16(o + OBJL_RECORD.groupOffset, true);
      const className = classes.byOffset.get(classOffset);
      const name = names.byOffset.get(nameOffset);
      const group = groupOffset === OBJL_NO_GROUP ? null : groups.byOffset.get(groupOffset);
      const p = o + OBJL_RECORD.position;
      const q = o + OBJL_RECORD.rotation;
      const position: [number, number, number] = [v.getFloat32(p, true), v.getFloat32(p + 4, true), v.getFloat32(p + 8, true)];
      const rotation: [number, number, number, number] = [
        v.getFloat32(q, true),
        v.getFloat32(q + 4, true),
        v.getFloat32(q + 8, true),
        v.getFloat32(q + 12, true),
      ];
      const norm = Math.sqrt(rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2] + rotation[3] * rotation[3]);
      if (className === undefined) reason = `${where(i)}: class name offset ${classOffset} is not a string start of the class table`;
      else if (name === undefined) reason = `${where(i)}: object name offset ${nameOffset} is not a string start of the name table`;
      else if (group === undefined) reason = `${where(i)}: group name offset ${groupOffset} is neither 0xFFFF nor a string start of the group table`;
      else if (!position.every(Number.isFinite)) reason = `${where(i)}: the position is not finite (${position.join(', ')})`;
      else if (!(Math.abs(norm - 1) <= QUATERNION_TOLERANCE)) reason = `${where(i)}: the rotation is not a unit quaternion (|q| = ${norm})`;
      else {
        objects.push({
          set: recordSet[i],
          index: i,
          offset: recordAt[i],
          className,
          name,
          group,
          classOffset,
          nameOffset,
          groupOffset,
          propertyIndex: v.getUint16(o + OBJL_RECORD.propertyIndex, true),
          reserved0C: v.getUint16(o + OBJL_RECORD.reserved0C, true),
          position,
          rotation,
          word2A: v.getUint32(o + OBJL_RECORD.word2A, true),
          templateId: v.getUint32(o + OBJL_RECORD.templateId, true),
        });
      }
    }
  }
  // The tables are the same either way; only the records differ.
  const common = { offset, size, version, setCount, objectCount, classes, names, groups, sets, notes };
  if (reason !== undefined) {
    const rawRecords = recordAt.map((a, i) => ({ set: recordSet[i], index: i, offset: a, bytes: r.bytes.subarray(a - r.base, a - r.base + OBJL_RECORD_SIZE) }));
    notes.push(`the 50-byte record layout did not validate: ${reason}; records kept raw`);
    return { ...common, recordLayout: { validated: false, reason, confidence: 'uncertain' }, objects: [], rawRecords };
  }
  const nonzero0C = objects.filter((o) => o.reserved0C !== 0).length;
  const nonzero2A = objects.filter((o) => o.word2A !== 0).length;
  if (nonzero0C) notes.push(`${nonzero0C} records have a nonzero u16 @0x0C (0 in all samples)`);
  if (nonzero2A) notes.push(`${nonzero2A} records have a nonzero u32 @0x2A (0 in all samples)`);
  return { ...common, recordLayout: { validated: true, confidence: 'confirmed' }, objects, rawRecords: [] };
}
