/**
 * The editable registry: what `parseObjr` read, as a model that writes back exactly.
 *
 * Every block keeps its payload's bytes. The three blocks the edits touch (OBJL, SCRB, ONLS) are
 * also decoded into plain values, but only when writing those values again gives the block's
 * bytes back exactly and the block passes every check the reader runs (OBJL records validated,
 * no SCRB or ONLS problem, indexes sorted): on the four retail registries and the sample's all
 * three do. Any other block (PFDG, GADB, VOLM, WorldPhysics, unnamed ones) and any block that
 * fails either test stays bytes, with the reason (`RawBlock.why`). Saving writes the kept bytes
 * of every block no edit touched and regenerates only the blocks an edit produced (those without
 * `bytes`), so an unchanged model saves to the file it came from, byte for byte.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { tagValue } from '../../io/magic';
import { OBJR_VERSION } from './layout';
import { ObjectList } from './objl';
import { GroupList } from './onls';
import { ObjectRegistry, RegistryBlock, parseObjr } from './objr';
import { ScriptBindings } from './scrb';
import { ObjlWriterObject, OnlsGroupSpec, ScrbIndexSpec, ScrbRecordSpec, writeObjl, writeOnlsTable, writeScrbTable } from './writer';

/** An object of the list: every field of its 50-byte record. */
export interface ModelObject {
  className: string;
  name: string;
  group: string | null;
  propertyIndex: number;
  position: [number, number, number];
  /** Quaternion x, y, z, w, as stored. */
  rotation: [number, number, number, number];
  templateId: number;
  reserved0C: number;
  word2A: number;
}

export interface ModelSet {
  hash: number;
  objects: ModelObject[];
}

interface BlockBase {
  nameHash: number;
  /** The payload as read (absent once an edit produced the block: it is then written from its values). */
  bytes?: Uint8Array;
}

export interface RawBlock extends BlockBase {
  kind: 'raw';
  bytes: Uint8Array;
  /** The payload's tag, when it has one (for the text view). */
  tag: string | null;
  /** Why a block of a decoded kind stayed bytes. */
  why?: string;
}

export interface ObjlBlock extends BlockBase {
  kind: 'OBJL';
  sets: ModelSet[];
}

export interface ScrbBlock extends BlockBase {
  kind: 'SCRB';
  records: ScrbRecordSpec[];
  /** Sorted by hash. */
  index: ScrbIndexSpec[];
}

export interface OnlsBlock extends BlockBase {
  kind: 'ONLS';
  /** In area order; each group's owners (hashes) in index order. */
  groups: OnlsGroupSpec[];
}

export type ModelBlock = RawBlock | ObjlBlock | ScrbBlock | OnlsBlock;

export interface RegistryModel {
  file: string;
  /** The header's u32 @0x08, raw. */
  hash: number;
  blocks: ModelBlock[];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The payload of a block: its kept bytes, or its values written. */
export function encodeBlock(b: ModelBlock): Uint8Array {
  if (b.bytes) return b.bytes;
  switch (b.kind) {
    case 'OBJL':
      return writeObjl(b.sets.map((s) => ({ hash: s.hash, objects: s.objects as ObjlWriterObject[] })));
    case 'SCRB':
      return writeScrbTable(b.records, b.index);
    case 'ONLS':
      return writeOnlsTable(b.groups);
    default:
      throw new Arch06Error('INVALID', 'a raw block without bytes', { field: 'block.bytes' });
  }
}

/** The registry's bytes: header, then every block (kept bytes where no edit touched it). */
export function saveRegistry(model: RegistryModel): Uint8Array {
  const payloads = model.blocks.map(encodeBlock);
  const w = new ByteWriter(16 + payloads.reduce((n, p) => n + 8 + p.length, 0));
  w.u32(tagValue('OBJR')).u32(OBJR_VERSION).u32(model.hash).u32(model.blocks.length);
  model.blocks.forEach((b, i) => w.u32(b.nameHash).u32(payloads[i].length).bytes(payloads[i]));
  return w.toBytes();
}

function objlValues(l: ObjectList): ModelSet[] | string {
  if (!l.recordLayout.validated) return `its records did not validate (${l.recordLayout.reason ?? 'unknown reason'})`;
  let k = 0;
  return l.sets.map((s) => ({
    hash: s.hash,
    objects: l.objects.slice(k, (k += s.count)).map((o) => ({
      className: o.className,
      name: o.name,
      group: o.group,
      propertyIndex: o.propertyIndex,
      position: [...o.position],
      rotation: [...o.rotation],
      templateId: o.templateId,
      reserved0C: o.reserved0C,
      word2A: o.word2A,
    })),
  }));
}

function scrbValues(s: ScriptBindings): { records: ScrbRecordSpec[]; index: ScrbIndexSpec[] } | string {
  if (s.problems.length) return `it breaks a rule the reader checks (${s.problems[0]})`;
  const records = s.bindings.map((b) => ({ event: b.event!, function: b.function!, scriptHash: b.scriptHash }));
  return { records, index: s.objects.map((o) => ({ hash: o.hash, first: o.firstBinding, count: o.count })) };
}

function onlsValues(g: GroupList): OnlsGroupSpec[] | string {
  if (g.problems.length) return `it breaks a rule the reader checks (${g.problems[0]})`;
  const owners = new Map(g.groups.map((x) => [x, [] as number[]]));
  for (const e of g.index) owners.get(e.group!)!.push(e.ownerHash);
  return g.groups.map((x) => ({ members: x.members, owners: owners.get(x)! }));
}

/** The block as a model block: decoded when its values write back to its exact bytes, raw otherwise. */
function modelBlock(reg: ObjectRegistry, b: RegistryBlock): ModelBlock {
  const raw: RawBlock = { kind: 'raw', nameHash: b.nameHash, bytes: b.raw, tag: b.tag };
  if (b.error) return { ...raw, why: `the reader failed on it: ${b.error.message}` };
  let block: ModelBlock | string;
  if (b.decoded === 'OBJL') {
    const sets = objlValues(reg.objectList!);
    block = typeof sets === 'string' ? sets : { kind: 'OBJL', nameHash: b.nameHash, sets };
  } else if (b.decoded === 'SCRB') {
    const v = scrbValues(reg.bindings!);
    block = typeof v === 'string' ? v : { kind: 'SCRB', nameHash: b.nameHash, ...v };
  } else if (b.decoded === 'ONLS') {
    const groups = onlsValues(reg.groups!);
    block = typeof groups === 'string' ? groups : { kind: 'ONLS', nameHash: b.nameHash, groups };
  } else return raw;
  if (typeof block === 'string') return { ...raw, why: block };
  try {
    if (!sameBytes(encodeBlock(block), b.raw))
      return { ...raw, why: 'writing its values again does not give its bytes (a layout this writer does not produce)' };
  } catch (e) {
    return { ...raw, why: `its values cannot be written again: ${(e as Error).message}` };
  }
  return { ...block, bytes: b.raw };
}

/** A parsed registry as a model (see the file comment). */
export function modelOf(reg: ObjectRegistry): RegistryModel {
  return { file: reg.file, hash: reg.hash, blocks: reg.blocks.map((b) => modelBlock(reg, b)) };
}

/** Read a registry's bytes into a model (the reader's typed errors when the chain does not parse). */
export function openRegistry(bytes: Uint8Array, file: string): RegistryModel {
  return modelOf(parseObjr(bytes, file));
}

/** The first block of a decoded kind (edits work on the first, as the reader decodes only the first). */
export function blockOf<K extends ModelBlock['kind']>(model: RegistryModel, kind: K): Extract<ModelBlock, { kind: K }> | undefined {
  return model.blocks.find((b) => b.kind === kind) as Extract<ModelBlock, { kind: K }> | undefined;
}
