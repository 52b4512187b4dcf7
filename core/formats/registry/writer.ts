/**
 * Writes object registries (./objr.ts) and the blocks this family reads (OBJL, SCRB, ONLS, a GADB
 * header), laid out as the real registries are (./layout.ts): for tests, the sample install and
 * the benchmark. String areas hold each string once; the SCRB index is sorted by hash and objects
 * with the same bindings share one run of binding records, as on the real files; the ONLS index
 * is sorted by hash.
 *
 * `writeRegistry` builds a layer's whole registry in the retail block order. Only blocks whose
 * layout is read here or whose empty form the samples show are written: the empty KEYF, SFXS,
 * SWFX, NLFE and Clutter blocks of the real layers, then ONLS, SCRB, a GADB header, OBJL. PFDG,
 * VOLM and WorldPhysics (undocumented) are left out.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { tagValue } from '../../io/magic';
import { stringHash } from '../../hash/stringHash';
import {
  GADB_HEADER_SIZE,
  OBJL_HEADER_SIZE,
  OBJL_NO_GROUP,
  OBJL_RECORD_SIZE,
  OBJL_VERSION,
  OBJL_WORLD_SET,
  OBJR_VERSION,
  ONLS_VERSION,
  SCRB_VERSION,
  blockNameHash,
} from './layout';

export interface ObjrWriterBlock {
  nameHash: number;
  payload: Uint8Array;
}

/** A registry holding `blocks` in order; `hash` is the header's raw u32. */
export function writeObjr(blocks: ObjrWriterBlock[], hash = 0): Uint8Array {
  const w = new ByteWriter(16 + blocks.reduce((n, b) => n + 8 + b.payload.length, 0));
  w.u32(tagValue('OBJR')).u32(OBJR_VERSION).u32(hash).u32(blocks.length);
  for (const b of blocks) w.u32(b.nameHash).u32(b.payload.length).bytes(b.payload);
  return w.toBytes();
}

/** Whether every character fits in one byte (names are written latin1). */
function singleByteText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

/** A NUL-terminated string area holding each string once. */
class StringArea {
  private readonly offsets = new Map<string, number>();
  readonly w = new ByteWriter();
  constructor(private readonly field: string) {}
  add(s: string): number {
    let off = this.offsets.get(s);
    if (off === undefined) {
      if (!singleByteText(s) || s.includes('\0'))
        throw new Arch06Error('BAD_ARGUMENT', 'registry strings are single-byte text without NUL', { field: this.field, actual: JSON.stringify(s) });
      off = this.w.length;
      this.offsets.set(s, off);
      this.w.latin1(s).u8(0);
    }
    return off;
  }
}

export interface ObjlWriterObject {
  className: string;
  name: string;
  group?: string | null;
  propertyIndex?: number;
  position?: [number, number, number];
  rotation?: [number, number, number, number];
  templateId?: number;
  /** The u16 @0x0C and u32 @0x2A (0 in every sample). */
  reserved0C?: number;
  word2A?: number;
}

export interface ObjlWriterSet {
  hash?: number;
  objects: ObjlWriterObject[];
}

/** An OBJL block (sets in order; default set hash the world set's). */
export function writeObjl(sets: ObjlWriterSet[]): Uint8Array {
  const classes = new StringArea('className');
  const names = new StringArea('name');
  const groups = new StringArea('group');
  const all = sets.flatMap((s) => s.objects);
  const refs = all.map((o) => ({
    c: classes.add(o.className),
    n: names.add(o.name),
    g: o.group === undefined || o.group === null ? OBJL_NO_GROUP : groups.add(o.group),
  }));
  if (groups.w.length > OBJL_NO_GROUP)
    throw new Arch06Error('BAD_ARGUMENT', 'group names exceed the u16 offsets of the group table', { field: 'group', actual: `${groups.w.length} bytes` });
  const w = new ByteWriter(OBJL_HEADER_SIZE + classes.w.length + names.w.length + groups.w.length + sets.length * 8 + all.length * OBJL_RECORD_SIZE);
  w.u32(tagValue('OBJL')).u32(OBJL_VERSION).u32(sets.length).u32(all.length).u32(classes.w.length).u32(names.w.length).u32(groups.w.length);
  w.bytes(classes.w.toBytes()).bytes(names.w.toBytes()).bytes(groups.w.toBytes());
  let k = 0;
  for (const s of sets) {
    w.u32(s.hash ?? OBJL_WORLD_SET).u32(s.objects.length);
    for (const o of s.objects) {
      const r = refs[k++];
      const p = o.position ?? [0, 0, 0];
      const q = o.rotation ?? [0, 0, 0, 1];
      w.u32(r.c)
        .u32(r.n)
        .u16(r.g)
        .u16(o.propertyIndex ?? 0)
        .u16(o.reserved0C ?? 0);
      for (const x of p) w.f32(x);
      for (const x of q) w.f32(x);
      w.u32(o.word2A ?? 0).u32(o.templateId ?? 0);
    }
  }
  return w.toBytes();
}

export interface ScrbWriterObject {
  /** The object's name (its StringHash keys the index). */
  name: string;
  bindings: { event: string; function: string }[];
}

/** One SCRB binding record as a table holds it (the event hash is StringHash of the event). */
export interface ScrbRecordSpec {
  event: string;
  function: string;
  scriptHash: number;
}

/** One entry of the SCRB object index: an object's hash and its run of records. */
export interface ScrbIndexSpec {
  hash: number;
  first: number;
  count: number;
}

/**
 * An SCRB block exactly as given: the strings each once in first-use order (event, then function,
 * record by record: the order of the real registries), the records and the index in the order given.
 */
export function writeScrbTable(records: readonly ScrbRecordSpec[], index: readonly ScrbIndexSpec[]): Uint8Array {
  const strings = new StringArea('binding');
  const eventHashes = new Map<string, number>();
  const refs = records.map((r) => {
    let eventHash = eventHashes.get(r.event);
    if (eventHash === undefined) eventHashes.set(r.event, (eventHash = stringHash(r.event)));
    return { eventHash, event: strings.add(r.event), fn: strings.add(r.function), scriptHash: r.scriptHash };
  });
  const area = strings.w.toBytes();
  const w = new ByteWriter(20 + area.length + 16 * refs.length + 12 * index.length);
  w.u32(tagValue('SCRB')).u32(SCRB_VERSION).u32(area.length).u32(refs.length).u32(index.length).bytes(area);
  for (const r of refs) w.u32(r.eventHash).u32(r.event).u32(r.scriptHash).u32(r.fn);
  for (const e of index) w.u32(e.hash).u32(e.first).u32(e.count);
  return w.toBytes();
}

/** An SCRB block binding `objects` to functions of the script at `scriptPath`. */
export function writeScrb(scriptPath: string, objects: ScrbWriterObject[]): Uint8Array {
  const scriptHash = stringHash(scriptPath);
  const records: ScrbRecordSpec[] = [];
  // Objects with the same bindings share one run: the same array at once, equal ones by content.
  const byArray = new Map<ScrbWriterObject['bindings'], number>();
  const byContent = new Map<string, number>();
  // Runs compared by the ids of their strings, not the strings: names may be long and shared by many.
  const ids = new Map<string, number>();
  const idOf = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    return id;
  };
  const index = objects.map((o) => {
    let first = byArray.get(o.bindings);
    if (first === undefined) {
      const key = o.bindings.map((b) => `${idOf(b.event)}:${idOf(b.function)}`).join(',');
      first = byContent.get(key);
      if (first === undefined) {
        first = records.length;
        byContent.set(key, first);
        for (const b of o.bindings) records.push({ event: b.event, function: b.function, scriptHash });
      }
      byArray.set(o.bindings, first);
    }
    return { hash: stringHash(o.name), first, count: o.bindings.length };
  });
  index.sort((a, b) => a.hash - b.hash);
  return writeScrbTable(records, index);
}

export interface OnlsWriterGroup {
  owner: string;
  members: string[];
  /** Other owners whose index entries point at this same group (the layout allows it; crafted files use it). */
  sharedBy?: string[];
}

/** One ONLS group as a table holds it: its members and the hashes of the owners whose entries point at it. */
export interface OnlsGroupSpec {
  members: readonly string[];
  owners: readonly number[];
}

/** An ONLS block: the groups in order in the area, the index sorted by owner hash (ties in group order). */
export function writeOnlsTable(groups: readonly OnlsGroupSpec[]): Uint8Array {
  const area = new ByteWriter();
  const index = groups.flatMap((g, i) => {
    const at = area.length;
    area.u32(g.members.length);
    for (const m of g.members) {
      if (m.length > 0xffff || !singleByteText(m))
        throw new Arch06Error('BAD_ARGUMENT', 'member names are single-byte text of at most 65535 bytes', {
          field: `groups[${i}].members`,
          actual: JSON.stringify(m.slice(0, 40)),
        });
      area.u16(m.length).latin1(m);
    }
    return g.owners.map((hash) => ({ hash: hash >>> 0, at }));
  });
  index.sort((a, b) => a.hash - b.hash);
  const a = area.toBytes();
  const w = new ByteWriter(16 + a.length + 8 * index.length);
  w.u32(tagValue('ONLS'))
    .u32(ONLS_VERSION)
    .u32(a.length)
    .u32(8 * index.length)
    .bytes(a);
  for (const e of index) w.u32(e.hash).u32(e.at);
  return w.toBytes();
}

/** An ONLS block: the groups in order in the area, the index sorted by owner hash. */
export function writeOnls(groups: OnlsWriterGroup[]): Uint8Array {
  return writeOnlsTable(groups.map((g) => ({ members: g.members, owners: [g.owner, ...(g.sharedBy ?? [])].map((o) => stringHash(o)) })));
}

/** A GADB block holding only its 44-byte header (version 17; `words` the nine words after it). */
export function writeGadbHeader(words: number[] = [0, 0, 0, 0, 0, 0, 0, 0, GADB_HEADER_SIZE]): Uint8Array {
  if (words.length !== 9)
    throw new Arch06Error('BAD_ARGUMENT', 'a GADB header has nine words after magic and version', { field: 'words', actual: String(words.length) });
  const w = new ByteWriter(GADB_HEADER_SIZE).u32(tagValue('GADB')).u32(17);
  for (const x of words) w.u32(x);
  return w.toBytes();
}

export interface RegistryWriterLayer {
  /** The part's script path, whose StringHash every binding carries. */
  scriptPath: string;
  objects: ObjlWriterObject[];
  bindings?: ScrbWriterObject[];
  groups?: OnlsWriterGroup[];
  /** The header's raw u32 (meaning unknown). */
  hash?: number;
}

const named = (tag: string | null, name: string | undefined, payload: Uint8Array): ObjrWriterBlock => ({
  nameHash: tag ? blockNameHash(tag)! : stringHash(name!),
  payload,
});
const empty = (tag: string, words: number[]): Uint8Array => {
  const w = new ByteWriter().u32(tagValue(tag));
  for (const x of words) w.u32(x);
  return w.toBytes();
};

/** A layer's registry as the retail layers ship one (see the file comment for the blocks written). */
export function writeRegistry(layer: RegistryWriterLayer): Uint8Array {
  const props = 1 + layer.objects.reduce((m, o) => Math.max(m, o.propertyIndex ?? 0), 0);
  return writeObjr(
    [
      named('KEYF', undefined, empty('KEYF', [1, 0, 0])),
      { nameHash: 0xbe10c375, payload: empty('SFXS', [1, 0x20, 0x20, 0, 0, 0, 0]) }, // name unknown: the real blocks' hash
      named('SWFX', undefined, empty('SWFX', [1, 0, 0])),
      named('ONLS', undefined, writeOnls(layer.groups ?? [])),
      named('NLFE', undefined, empty('NLFE', [1, 0x1c, 0, 0, 0, 0])),
      named(null, 'ObjRes.Clutter', new Uint8Array([1, 0, 0, 0, ...new Array(16).fill(0)])),
      named('SCRB', undefined, writeScrb(layer.scriptPath, layer.bindings ?? [])),
      named('GADB', undefined, writeGadbHeader([0, 1, props, 0, 0, 0, 0, 0, GADB_HEADER_SIZE])),
      named('OBJL', undefined, writeObjl([{ objects: layer.objects }])),
    ],
    layer.hash ?? 0,
  );
}
