/**
 * BNDL bundle files (`.bndl`). Two shapes share the magic; `formats-public.md` §3 (after S3)
 * tells them apart by the u32 at 0x10.
 *
 * The v6 manifest (u32 @0x10 = count != 0; S2 `bndl.hexpat`, S3, seed 004 "BNDL v6"):
 *
 *   0x00  "BNDL" | u32 version 6 | u32 typeOffset | u32 tableOffset | u32 count
 *   0x14  u32[count] declared sizes
 *   pool = 0x14 + 4 x count: strings (the member paths, then the bundle type string)
 *   pool + typeOffset   the type string (a record of the GameDB category Bundles/Types)
 *   pool + tableOffset  u32[count] member path offsets, pool-relative   ("the 0x0C rule")
 *
 * The table's position is always pool + u32 @0x0C and never computed from the strings: seed 004
 * found the rule on 225,338 of 225,338 manifests, and a constant distance on far fewer. What
 * lies between the type string and the table is UNCERTAIN (§3.1), so it is neither assumed nor
 * written with meaning (our writer pads the type string with NULs to a multiple of 4).
 * A manifest carries no payloads. It mirrors its container (seed 004 "How a manifest and its
 * container relate") when its path area equals the container's pool byte for byte, with the
 * same offsets, and the sizes predict the container's length:
 *
 *   16 + path table size + 4n + sum(4 + size[i]) = container size
 *
 * where the path table size is u32 @0x08 read as S3 reads it (the length of the path area, which
 * is the type string's offset when the type string follows the paths).
 *
 * What the retail bytes add (the four world layers of Patch_00.arch06, `fortwallgameplay.bndl`
 * of island, mtnpass, snowmtn and volcano): a member declared with size 0 is not stored in the
 * container at all. Each of those manifests declares 10 members, one of them the layer's
 * `.wldmsh` with size 0; the container holds the other 9, in the manifest's order, with the
 * manifest's sizes. Its pool is the manifest's path area with the `.wldmsh` path's slot (the
 * path, its NUL and the NUL padding to 4: 64 bytes in all four) cut out, and the offsets after
 * it move down by that slot; no offset entry and no size word stand for it. Every container is
 * 72 bytes (64 + 4 + 4) shorter than the plain sum above, and exactly as long as the sum taken
 * over the members it stores. Seed 004 agrees: no walked retail container holds a zero-size
 * section. So the identity is written over the stored members (`notStored` are the others):
 *
 *   16 + (path area - the not-stored members' path slots) + sum over stored (4 + 4 + size[i])
 *
 * Hypotheses the bytes ruled out: a fixed 72-byte difference from padding or the type string
 * (the empty type string and its padding are the 4 NULs between u32 @0x08 and u32 @0x0C; the
 * container's pool is byte for byte the path area less the slot, cut at the slot's own place,
 * mid-pool in all four, with the offsets after it shifted by the slot's length), padding in the
 * payload chain (payloads follow each other at once), other sizes (every stored size is the
 * declared one). `core/formats/tests/realSamples.test.ts` checks all of it on the four pairs.
 * Members of non-zero size that a container lacks (seed 004's 3,929 patched pairs, e.g. the
 * Desert's 42) are a different case: nothing real of theirs is available here, so they still
 * count in the identity and the mirror check reports them.
 *
 * Seed 004 counts 11 manifests with no members and an empty type: their u32 @0x10 is 0, so for
 * version 6 a count of 0 is read as an empty manifest, not as the data-carrying shape.
 *
 * The data-carrying shape (u32 @0x10 == 0; Shadow of Mordor's BNDL v4 `.embb` files, S5, and S3
 * for any version) is read-only here and labelled as such; no SoW file is known to use it:
 *
 *   0x08 namesSize | 0x0C recordTableOffset (pool-relative) | 0x10 0 | 0x14 nameRefCount |
 *   0x18 fileCount | 0x1C pool (namesSize bytes) | pool + [0x0C]: u32[nameRefCount] extra name
 *   offsets (meaning unknown, skipped by both tools), then fileCount x {u32 nameOffset; u32 size;
 *   bytes[size]} back to back.
 */
import { Arch06Error } from '../../errors';
import { quoteShort } from '../../io/bounded';
import { Confidence } from '../../io/confidence';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { EMBB_HEADER_SIZE } from './embb';
import { cutSlots } from './pathPool';

export const BNDL_MAGIC = 0x4c444e42; // "BNDL" read as a little-endian u32
export const BNDL_VERSION = 6;
/** Shadow of Mordor's version, known only in the data-carrying shape (S5). */
export const BNDL_MORDOR_VERSION = 4;
export const BNDL_MANIFEST_HEADER_SIZE = 0x14;
const BNDL_DATA_HEADER_SIZE = 0x1c;
/** The EMBB header a mirrored container adds to the manifest's figures. */

export interface BndlManifestMember {
  path: string;
  /** Raw offset of the path, relative to the pool. */
  pathOffset: number;
  /** Declared size (the container payload's size when the manifest mirrors its container). */
  declaredSize: number;
}

export interface BndlManifest {
  variant: 'manifest';
  file: string;
  version: number;
  /** The bundle type string ('' on the memberless manifests seed 004 counts). */
  type: string;
  /** Raw u32 @0x08: pool-relative offset of the type string. */
  typeOffset: number;
  /** Raw u32 @0x0C: pool-relative offset of the path-offset table. */
  tableOffset: number;
  /** Absolute offset of the pool: 0x14 + 4 x count. */
  poolStart: number;
  members: BndlManifestMember[];
  /**
   * u32 @0x08 read as the length of the member-path area (S3's reading). Equal to `typeOffset`
   * by construction; it means "path area size" only when the type string follows the paths
   * (`typeFollowsPaths`), otherwise the mirror figures below are UNCERTAIN.
   */
  pathAreaSize: number;
  /** The bytes [pool, pool + pathAreaSize): a mirrored container's pool has the same bytes. */
  pathArea: Uint8Array;
  /**
   * The bytes from the pool to the path-offset table (paths, type string and whatever lies between,
   * UNCERTAIN), and those after the table: kept as read so the manifest writes back exactly.
   */
  rawPool: Uint8Array;
  rawTail: Uint8Array;
  /** Whether every member path ends (with its NUL) at or before `typeOffset`. */
  typeFollowsPaths: boolean;
  /**
   * Indices of the members a container does not store: those declared with size 0 (see the file
   * comment: the retail layers' `.wldmsh`). Their paths' slots are not in a mirrored container's pool.
   */
  notStored: number[];
  /** The bytes of the path area the not-stored members' path slots take (64 for each retail `.wldmsh`). */
  notStoredPathBytes: number;
  /**
   * 16 + (pathAreaSize - notStoredPathBytes) + sum over the stored members of (4 + 4 + size[i]):
   * the length of the container this manifest would mirror.
   */
  predictedContainerSize: number;
  confidence: Confidence;
  notes: string[];
}

export interface BndlDataMember {
  path: string;
  nameOffset: number;
  /** Absolute offset of the record ({u32 nameOffset; u32 size}). */
  recordOffset: number;
  /** Absolute offset of the inline payload. */
  offset: number;
  size: number;
}

/** The Mordor-era shape: payloads inline. Read-only; no writer exists on purpose. */
export interface BndlDataBundle {
  variant: 'data-carrying';
  readOnly: true;
  /** Where the layout comes from: Shadow of Mordor's .embb files (S5), also read by S3. */
  era: 'mordor';
  file: string;
  version: number;
  namesSize: number;
  /** Raw u32 @0x0C, pool-relative. */
  recordTableOffset: number;
  /** Raw u32s at pool + [0x0C]: S3's "OTHER_NAMES", meaning unknown, kept as read. */
  nameRefs: number[];
  members: BndlDataMember[];
  /** Always 'uncertain': two public tools, no SoW sample. */
  confidence: 'uncertain';
  notes: string[];
}

export type Bndl = BndlManifest | BndlDataBundle;

const td = new TextDecoder('latin1');

/**
 * Parse a BNDL file of either shape. Throws a typed `Arch06Error` naming file, offset and field
 * on any structural fault; counts are checked against the file's length before any allocation.
 */
export function parseBndl(bytes: Uint8Array, file: string, options: ParseOptions = {}): Bndl {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'BNDL', [BNDL_VERSION, BNDL_MORDOR_VERSION], 'BNDL', {
    what: 'a BNDL file',
    bigEndian: 'BNDL files',
    expectedVersion: '6 (or 4 with u32 @0x10 == 0)',
    headerSize: BNDL_MANIFEST_HEADER_SIZE,
  });
  const at10 = r.u32At(0x10, 'header.count');
  if (version === BNDL_VERSION) {
    if (at10 !== 0) return parseManifest(r);
    // Count 0: an empty v6 manifest (seed 004), unless only the data-carrying reading fits.
    try {
      return parseManifest(r);
    } catch (asManifest) {
      try {
        const d = parseDataBundle(r);
        d.notes.unshift('version 6 with u32 @0x10 == 0 did not parse as an empty manifest; read as the data-carrying shape (UNCERTAIN)');
        return d;
      } catch {
        throw asManifest;
      }
    }
  }
  if (at10 === 0) return parseDataBundle(r);
  throw new Arch06Error(
    'UNSUPPORTED_VERSION',
    `unsupported BNDL version ${version} (version 4 is known only as the Mordor data-carrying shape, u32 @0x10 == 0)`,
    {
      file,
      offset: 4,
      field: 'header.version',
      expected: '6 (or 4 with u32 @0x10 == 0)',
      actual: String(version),
    },
  );
}

/**
 * NUL-terminated strings read by absolute offset, each offset decoded once: members may share a
 * path string (a crafted manifest of 50,000 members naming one 200 KB path holds one copy of it,
 * and scans for its NUL once).
 */
class PoolStrings {
  private readonly known = new Map<number, { text: string; end: number }>();
  constructor(
    private readonly bytes: Uint8Array,
    private readonly file: string,
  ) {}
  at(at: number, limit: number, field: string, refAt: number, refValue: number, base: string): { text: string; end: number } {
    let s = this.known.get(at); // one reader per parse, with one limit: a known string stays valid
    if (s === undefined) {
      s = stringAt(this.bytes, at, limit, this.file, field, refAt, refValue, base);
      this.known.set(at, s);
    }
    return s;
  }
}

/** The NUL-terminated string at absolute `at`, which must end before `limit`. */
function stringAt(
  bytes: Uint8Array,
  at: number,
  limit: number,
  file: string,
  field: string,
  refAt: number,
  refValue: number,
  base: string,
): { text: string; end: number } {
  if (at >= limit) {
    throw new Arch06Error('OUT_OF_RANGE', `string offset outside the ${base}`, {
      file,
      offset: refAt,
      field,
      expected: `< ${limit - (at - refValue)}`,
      actual: String(refValue),
    });
  }
  const end = bytes.subarray(0, limit).indexOf(0, at);
  if (end < 0) {
    throw new Arch06Error('INVALID', `string is not NUL-terminated inside the ${base}`, {
      file,
      offset: at,
      field,
      expected: `a NUL before 0x${limit.toString(16)}`,
      actual: `${limit - at} bytes without one`,
    });
  }
  return { text: td.decode(bytes.subarray(at, end)), end };
}

function parseManifest(r: FieldReader): BndlManifest {
  const { bytes, file } = r;
  const typeOffset = r.u32At(0x08, 'header.typeOffset');
  const tableOffset = r.u32At(0x0c, 'header.tableOffset');
  const count = r.u32At(0x10, 'header.count');
  const poolStart = BNDL_MANIFEST_HEADER_SIZE + 4 * count;
  if (poolStart > bytes.length) {
    throw new Arch06Error('TRUNCATED', 'the declared sizes run past the end of the file', {
      file,
      offset: BNDL_MANIFEST_HEADER_SIZE,
      field: 'sizes',
      expected: `${4 * count} bytes (count ${count})`,
      actual: `${bytes.length - BNDL_MANIFEST_HEADER_SIZE} bytes`,
    });
  }
  // The 0x0C rule: the table is at pool + [0x0C], wherever the strings end.
  const tableAt = poolStart + tableOffset;
  if (tableAt + 4 * count > bytes.length) {
    throw new Arch06Error('OUT_OF_RANGE', 'path-offset table (pool + u32 @0x0C) runs past the end of the file', {
      file,
      offset: 0x0c,
      field: 'header.tableOffset',
      expected: `<= ${bytes.length - poolStart - 4 * count}`,
      actual: String(tableOffset),
    });
  }
  const strings = new PoolStrings(bytes, file);
  const type = strings.at(poolStart + typeOffset, bytes.length, 'header.typeOffset', 0x08, typeOffset, 'file');
  const members: BndlManifestMember[] = new Array(count);
  let pathsEnd = 0; // pool-relative end of the furthest path, its NUL included
  let covered = Math.max(tableAt + 4 * count, type.end + 1);
  for (let i = 0; i < count; i++) {
    const off = r.u32At(tableAt + 4 * i, `pathOffset[${i}]`);
    const s = strings.at(poolStart + off, bytes.length, `pathOffset[${i}]`, tableAt + 4 * i, off, 'file');
    members[i] = { path: s.text, pathOffset: off, declaredSize: r.u32At(BNDL_MANIFEST_HEADER_SIZE + 4 * i, `sizes[${i}]`) };
    pathsEnd = Math.max(pathsEnd, s.end + 1 - poolStart);
    covered = Math.max(covered, s.end + 1);
  }
  const notes: string[] = [];
  const typeFollowsPaths = pathsEnd <= typeOffset;
  if (!typeFollowsPaths)
    notes.push("a member path ends after the type string starts: u32 @0x08 is then not the path area's size, so predictedContainerSize is UNCERTAIN");
  if (covered < bytes.length)
    notes.push(`${bytes.length - covered} bytes after the last string and the path-offset table (retail manifests parse to their last byte)`);
  const pathAreaSize = typeOffset;
  const pathArea = Uint8Array.from(bytes.subarray(poolStart, Math.min(bytes.length, poolStart + pathAreaSize)));
  const notStored: number[] = [];
  let stored = 0;
  members.forEach((m, i) => {
    if (m.declaredSize === 0) notStored.push(i);
    else stored += 8 + m.declaredSize; // its offset entry, its size word, its payload
  });
  const notStoredPathBytes = cutSlots(
    members.map((m) => m.pathOffset),
    notStored,
    pathAreaSize,
  ).reduce((n, c) => n + c.end - c.start, 0);
  return {
    variant: 'manifest',
    file,
    version: r.u32At(4, 'header.version'),
    type: type.text,
    typeOffset,
    tableOffset,
    poolStart,
    members,
    pathAreaSize,
    pathArea,
    rawPool: Uint8Array.from(bytes.subarray(poolStart, tableAt)),
    rawTail: Uint8Array.from(bytes.subarray(tableAt + 4 * count)),
    typeFollowsPaths,
    notStored,
    notStoredPathBytes,
    predictedContainerSize: EMBB_HEADER_SIZE + pathAreaSize - notStoredPathBytes + stored,
    confidence: notes.length === 0 ? 'confirmed' : 'uncertain',
    notes,
  };
}

function parseDataBundle(r: FieldReader): BndlDataBundle {
  const { bytes, file } = r;
  const namesSize = r.u32At(0x08, 'header.namesSize');
  const recordTableOffset = r.u32At(0x0c, 'header.recordTableOffset');
  const nameRefCount = r.u32At(0x14, 'header.nameRefCount');
  const fileCount = r.u32At(0x18, 'header.fileCount');
  const pool = BNDL_DATA_HEADER_SIZE;
  if (pool + namesSize > bytes.length) {
    throw new Arch06Error('TRUNCATED', 'the name pool runs past the end of the file', {
      file,
      offset: 0x08,
      field: 'header.namesSize',
      expected: `<= ${bytes.length - pool}`,
      actual: String(namesSize),
    });
  }
  const refsAt = pool + recordTableOffset;
  if (refsAt + 4 * nameRefCount > bytes.length) {
    throw new Arch06Error('OUT_OF_RANGE', 'the record table (pool + u32 @0x0C) and its name references run past the end of the file', {
      file,
      offset: 0x0c,
      field: 'header.recordTableOffset',
      expected: `<= ${bytes.length - pool - 4 * nameRefCount}`,
      actual: String(recordTableOffset),
    });
  }
  let pos = refsAt + 4 * nameRefCount;
  // Each record needs at least its 8-byte head: bound the count before allocating for it.
  if (pos + 8 * fileCount > bytes.length) {
    throw new Arch06Error('TRUNCATED', 'the file count needs more record bytes than the file holds', {
      file,
      offset: 0x18,
      field: 'header.fileCount',
      expected: `<= ${Math.floor((bytes.length - pos) / 8)}`,
      actual: String(fileCount),
    });
  }
  const nameRefs: number[] = new Array(nameRefCount);
  for (let i = 0; i < nameRefCount; i++) nameRefs[i] = r.u32At(refsAt + 4 * i, `nameRefs[${i}]`);
  const members: BndlDataMember[] = new Array(fileCount);
  const limit = pool + namesSize;
  const strings = new PoolStrings(bytes, file);
  for (let i = 0; i < fileCount; i++) {
    const nameOffset = r.u32At(pos, `record[${i}].nameOffset`);
    const size = r.u32At(pos + 4, `record[${i}].size`);
    const name = strings.at(pool + nameOffset, limit, `record[${i}].nameOffset`, pos, nameOffset, 'name pool');
    if (pos + 8 + size > bytes.length) {
      throw new Arch06Error('TRUNCATED', `member ${quoteShort(name.text)} runs past the end of the file`, {
        file,
        offset: pos + 4,
        field: `record[${i}].size`,
        expected: `<= ${bytes.length - pos - 8}`,
        actual: String(size),
      });
    }
    members[i] = { path: name.text, nameOffset, recordOffset: pos, offset: pos + 8, size };
    pos += 8 + size;
  }
  const notes = ['data-carrying BNDL (Shadow of Mordor era, S5/S3 only): read-only, no SoW sample known (UNCERTAIN)'];
  if (nameRefCount > 0) notes.push(`${nameRefCount} extra name references of unknown meaning kept raw in nameRefs`);
  if (pos < bytes.length) notes.push(`${bytes.length - pos} bytes after the last member`);
  return {
    variant: 'data-carrying',
    readOnly: true,
    era: 'mordor',
    file,
    version: r.u32At(4, 'header.version'),
    namesSize,
    recordTableOffset,
    nameRefs,
    members,
    confidence: 'uncertain',
    notes,
  };
}
