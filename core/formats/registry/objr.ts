/**
 * OBJR v13 object registries (`.objres`): the block chain and the blocks this reader decodes
 * (OBJL, SCRB, ONLS, the GADB header). Layouts and what the real files showed: ./layout.ts.
 *
 *   'OBJR' | u32 13 | u32 hash | u32 block count
 *   block count x {u32 name hash | u32 size | payload}, ending exactly at the end of the file
 *
 * The chain is the structure: a block that runs past the end, or bytes after the last block, are
 * typed errors. Inside the chain a decoded block that fails is recorded on its block (`error`, a
 * typed `Arch06Error`) and in the notes, and the other blocks stay readable: a corrupt block fails
 * when read, the registry around it does not. Every other block is kept as tag, name hash, offset,
 * size and its raw bytes.
 */
import { Arch06Error, isArch06Error } from '../../errors';
import { Confidence } from '../../io/confidence';
import { FieldReader, ParseOptions, hex32 } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { readGadbHeader, GadbHeader } from './gadb';
import { OBJR_BLOCK_HEADER_SIZE, OBJR_HEADER_SIZE, OBJR_VERSION, knownBlockName, blockNameHash } from './layout';
import { ObjectList, readObjl } from './objl';
import { GroupList, readOnls } from './onls';
import { ScriptBindings, readScrb } from './scrb';

export type DecodedTag = 'OBJL' | 'SCRB' | 'ONLS' | 'GADB';

export interface RegistryBlock {
  index: number;
  /** File offset of the block's {name hash, size} header. */
  headerOffset: number;
  nameHash: number;
  /** The name its handler registers, where known (./layout.ts), and how sure that is. */
  name?: string;
  nameConfidence?: Confidence;
  /** The payload's first four bytes when they are a tag (four capitals or digits); null otherwise. */
  tag: string | null;
  /** File offset of the payload. */
  offset: number;
  size: number;
  /** The payload (a view into the input, no copy). */
  raw: Uint8Array;
  /** Which reader decoded it, when one did. */
  decoded?: DecodedTag;
  /** Why decoding it failed. */
  error?: Arch06Error;
}

export interface ObjectRegistry {
  file: string;
  size: number;
  version: number;
  /** u32 @0x08, raw: not StringHash of any of the part's paths tried (./layout.ts). */
  hash: number;
  blocks: RegistryBlock[];
  objectList?: ObjectList;
  bindings?: ScriptBindings;
  groups?: GroupList;
  objProps?: GadbHeader;
  /** 'confirmed' when the chain closes and every decoded block validated. */
  confidence: Confidence;
  notes: string[];
}

const DECODERS: Record<DecodedTag, (r: FieldReader, field: string) => ObjectList | ScriptBindings | GroupList | GadbHeader> = {
  OBJL: readObjl,
  SCRB: readScrb,
  ONLS: readOnls,
  GADB: readGadbHeader,
};

const tagOf = (b: Uint8Array): string | null => {
  if (b.length < 4) return null;
  for (let i = 0; i < 4; i++) {
    const c = b[i];
    if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39))) return null;
  }
  return String.fromCharCode(b[0], b[1], b[2], b[3]);
};

/**
 * Read a registry. Throws typed `Arch06Error`s naming file, offset and field for a bad header or
 * a chain that does not close; records a decoded block's failure on the block.
 */
export function parseObjr(bytes: Uint8Array, file: string, options: ParseOptions = {}): ObjectRegistry {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'OBJR', [OBJR_VERSION], 'OBJR', { what: 'an OBJR object registry', headerSize: OBJR_HEADER_SIZE });
  const hash = r.u32('header.hash');
  const countAt = r.pos;
  const count = r.u32('header.blockCount');
  r.fits(count, OBJR_BLOCK_HEADER_SIZE, 'header.blockCount', countAt);
  const blocks: RegistryBlock[] = [];
  for (let i = 0; i < count; i++) {
    const headerOffset = r.pos;
    const nameHash = r.u32(`block[${i}].nameHash`);
    const sizeAt = r.pos;
    const size = r.u32(`block[${i}].size`);
    if (size > r.left) {
      throw new Arch06Error('TRUNCATED', `block ${i} runs past the end of the file`, {
        file,
        offset: sizeAt,
        field: `block[${i}].size`,
        expected: `at most ${r.left}`,
        actual: String(size),
      });
    }
    const raw = r.bytesOf(size, `block[${i}].payload`);
    const known = knownBlockName(nameHash);
    blocks.push({ index: i, headerOffset, nameHash, name: known?.name, nameConfidence: known?.confidence, tag: tagOf(raw), offset: sizeAt + 4, size, raw });
  }
  if (r.pos !== bytes.length) {
    throw new Arch06Error('INVALID', 'the block chain does not end at the end of the file (seed 001: 1,310 of 1,310 do)', {
      file,
      offset: r.pos,
      field: 'blocks.end',
      expected: `${count} blocks ending at 0x${bytes.length.toString(16)}`,
      actual: `${bytes.length - r.pos} bytes after block ${count - 1}`,
    });
  }

  const reg: ObjectRegistry = { file, size: bytes.length, version, hash, blocks, confidence: 'confirmed', notes: [] };
  const notes = reg.notes;
  for (const b of blocks) {
    if (b.tag === null || !(b.tag in DECODERS)) continue;
    const tag = b.tag as DecodedTag;
    const expected = blockNameHash(tag);
    if (expected !== undefined && expected !== b.nameHash)
      notes.push(`block ${b.index} (${tag}) has name hash ${hex32(b.nameHash)}, not the hash of its registered name (${hex32(expected)})`);
    const key = { OBJL: 'objectList', SCRB: 'bindings', ONLS: 'groups', GADB: 'objProps' }[tag] as 'objectList' | 'bindings' | 'groups' | 'objProps';
    if (reg[key] !== undefined) {
      notes.push(`block ${b.index}: a second ${tag} block, not decoded`);
      continue;
    }
    try {
      const sub = r.sub(`${tag} block`, b.offset, b.offset + b.size);
      const decoded = DECODERS[tag](sub, `block[${b.index}].${tag.toLowerCase()}`);
      (reg as unknown as Record<string, unknown>)[key] = decoded;
      b.decoded = tag;
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      b.error = e;
      notes.push(`block ${b.index} (${tag}) could not be read: ${e.message}`);
      reg.confidence = 'uncertain';
    }
  }
  const l = reg.objectList;
  if (l && !l.recordLayout.validated) reg.confidence = 'uncertain';
  if (reg.bindings?.problems.length || reg.groups?.problems.length) reg.confidence = 'uncertain';
  for (const n of l?.notes ?? []) notes.push(`OBJL: ${n}`);
  return reg;
}
