/**
 * ONLS, the members of every grouping object (seed 001 "Group members (ONLS) and script bindings
 * (SCRB)"), registered as ObjRes.ObjNameList:
 *
 *   'ONLS' | u32 1 | u32 area bytes | u32 index bytes
 *   area:  groups {u32 n, n x {u16 length, name (length bytes, no NUL)}}, back to back
 *   index: {u32 hash(owner name), u32 area offset of its group}, sorted by hash
 *
 * The seed's layout holds on the four real registries exactly (./layout.ts): the area walks to its
 * exact end, every index offset lands on a group start, every owner and member is an OBJL name.
 * The structure (sizes closing at the block's end, the walk) fails as typed errors; an index
 * entry pointing between groups, or an unsorted index, is reported in `problems`.
 */
import { MessageList } from '../../io/bounded';
import { Confidence } from '../../io/confidence';
import { FieldReader, hex32 } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { Arch06Error } from '../../errors';
import { ONLS_HEADER_SIZE, ONLS_INDEX_ENTRY_SIZE, ONLS_VERSION } from './layout';

export interface OnlsGroup {
  /** Offset in the area (what the index refers to). */
  areaOffset: number;
  /** File offset. */
  offset: number;
  members: string[];
}

export interface OnlsIndexEntry {
  /** File offset of the entry. */
  offset: number;
  ownerHash: number;
  areaOffset: number;
  /** The group it names, or undefined when the offset is not a group start. */
  group?: OnlsGroup;
}

export interface GroupList {
  offset: number;
  size: number;
  version: number;
  areaSize: number;
  indexSize: number;
  /** In area order. */
  groups: OnlsGroup[];
  /** In file order (sorted by owner hash on the real registries); entries naming one group share its `OnlsGroup`. */
  index: OnlsIndexEntry[];
  sortedByHash: boolean;
  problems: string[];
  confidence: Confidence;
}

const latin1 = new TextDecoder('latin1');

/** Read the ONLS block spanning [r.pos, r.end). */
export function readOnls(r: FieldReader, field = 'onls'): GroupList {
  const offset = r.pos;
  const version = expectMagicVersion(r, 'ONLS', [ONLS_VERSION], 'ONLS', {
    what: 'an ONLS group list',
    magicField: `${field}.tag`,
    versionField: `${field}.version`,
    headerSize: ONLS_HEADER_SIZE,
    headerField: `${field}.header`,
  });
  const areaAt = r.pos;
  const areaSize = r.u32(`${field}.areaBytes`);
  const indexAt = r.pos;
  const indexSize = r.u32(`${field}.indexBytes`);
  const areaStart = r.pos;
  if (areaStart + areaSize + indexSize !== r.end) {
    throw new Arch06Error('INVALID', "the ONLS area and index do not end at the block's end", {
      file: r.file,
      offset: areaAt,
      field: `${field}.areaBytes`,
      expected: `area + index = ${r.end - areaStart}`,
      actual: `${areaSize} + ${indexSize}`,
    });
  }
  if (indexSize % ONLS_INDEX_ENTRY_SIZE !== 0) {
    throw new Arch06Error('INVALID', 'the ONLS index is not a whole number of 8-byte entries', {
      file: r.file,
      offset: indexAt,
      field: `${field}.indexBytes`,
      expected: 'a multiple of 8',
      actual: String(indexSize),
    });
  }
  // The area: groups back to back, each read inside the area's bound.
  const area = r.sub(`${field} group area`, areaStart, areaStart + areaSize);
  const groups: OnlsGroup[] = [];
  const byAreaOffset = new Map<number, OnlsGroup>();
  while (area.pos < area.end) {
    const g = groups.length;
    const at = area.pos;
    const nAt = area.pos;
    const n = area.u32(`${field}.group[${g}].count`);
    area.fits(n, 2, `${field}.group[${g}].count`, nAt);
    const members: string[] = new Array(n);
    for (let k = 0; k < n; k++) {
      const len = area.u16(`${field}.group[${g}].member[${k}].length`);
      members[k] = latin1.decode(area.bytesOf(len, `${field}.group[${g}].member[${k}].name`));
    }
    const group = { areaOffset: at - areaStart, offset: at, members };
    groups.push(group);
    byAreaOffset.set(group.areaOffset, group);
  }
  r.pos = areaStart + areaSize;
  const problems = new MessageList();
  const count = indexSize / ONLS_INDEX_ENTRY_SIZE;
  const index: OnlsIndexEntry[] = new Array(count);
  let sortedByHash = true;
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const ownerHash = r.u32(`${field}.index[${i}].ownerHash`);
    const areaOffset = r.u32(`${field}.index[${i}].offset`);
    const group = byAreaOffset.get(areaOffset);
    if (!group) problems.add(`index ${i} (owner ${hex32(ownerHash)}): offset ${areaOffset} is not the start of a group in the area`);
    if (i > 0 && ownerHash < index[i - 1].ownerHash) sortedByHash = false;
    index[i] = { offset: at, ownerHash, areaOffset, group };
  }
  if (!sortedByHash) problems.add('the owner index is not sorted by hash');
  return {
    offset,
    size: r.end - offset,
    version,
    areaSize,
    indexSize,
    groups,
    index,
    sortedByHash,
    problems: problems.list(),
    confidence: problems.total ? 'uncertain' : 'confirmed',
  };
}
