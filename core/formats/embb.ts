/**
 * EMBB v5 bundle container (`.embb`): the bytes of a bundle's members. Layout from
 * `formats-public.md` §2 (S2 `embb.hexpat`, S3 `shadow_of_mordor.bms`, which agree) and seed 004
 * "EMBB v5", which measured it on every shipped container:
 *
 *   0x00  "EMBB" | u32 version 5 | u32 pathPoolSize | u32 count          (16-byte header)
 *   0x10  path pool: NUL-terminated paths, pathPoolSize bytes
 *         u32[count] path offsets, relative to 0x10 (the pool's start)
 *         count x { u32 size; bytes[size] }, in path-table order, no padding in between
 *
 * A member's size word is the only thing that locates the next one, and the chain ends exactly
 * at the end of the file (seed 004: 780 of 780 walked containers). Retail path tables also keep
 * one layout (seed 004: "offsets 4-aligned and chained by padded length, size exact, padding all
 * NUL"; read here as: each path NUL-terminated and NUL-padded to a multiple of 4, offsets
 * following on from 0). The reader reports a different layout instead of refusing it; the writer
 * produces the retail one. 2,441 shipped containers are empty: a bare 16-byte header.
 *
 * S3 also loops over further complete EMBB blocks when bytes remain after the last payload;
 * only S3 describes that (seed 004 measured none), so such blocks are read and flagged as
 * uncertain. Bytes after the last block that do not start a block are reported, not parsed.
 *
 * `readEmbb` takes a `ByteSource` and never reads a payload: it reads the header and path table
 * of each block, then walks the size words with small reads through a one-window cache, so a
 * 1.4 GB container costs one small read per member.
 */
import { Arch06Error, hexBytes } from '../errors';
import { ByteSource, MemoryByteSource, checkRange } from '../io/byteSource';

export const EMBB_MAGIC = 0x42424d45; // "EMBB" read as a little-endian u32
export const EMBB_MAGIC_BIG_ENDIAN = 0x454d4242; // "BBME": a byte-swapped console container (S3)
export const EMBB_VERSION = 5;
export const EMBB_HEADER_SIZE = 16;
/** Path offsets are relative to the pool, which starts right after the header. */
export const EMBB_POOL_START = EMBB_HEADER_SIZE;
/** Retail paths are NUL-padded to this multiple (seed 004 header rules). */
export const EMBB_PATH_ALIGN = 4;

const BNDL_MAGIC_LE = 0x4c444e42; // "BNDL": a Mordor-era data-carrying bundle wears the .embb extension

export interface EmbbMember {
  /** The path as the container spells it. */
  path: string;
  /** Block (0 unless blocks are concatenated) and index within it. */
  block: number;
  index: number;
  /** Raw path offset, relative to the block's pool (block start + 0x10). */
  pathOffset: number;
  /** Absolute offset of the member's size word. */
  sizeWordOffset: number;
  /** Absolute offset of the payload in the file. */
  offset: number;
  size: number;
}

export interface EmbbBlock {
  /** Absolute offset of the block's header (0 for the first). */
  offset: number;
  version: number;
  pathPoolSize: number;
  count: number;
  /** The raw path pool, to compare with a manifest's path area. */
  pathPool: Uint8Array;
  /** Raw path offsets (pool-relative), in table order. */
  pathOffsets: number[];
  /** Whether the path table has the retail layout (see the file comment). */
  retailPathLayout: boolean;
  members: EmbbMember[];
  /** Absolute offset just past the last payload. */
  end: number;
}

export interface EmbbContainer {
  file: string;
  /** File length in bytes. */
  size: number;
  blocks: EmbbBlock[];
  /** Every block's members, in file order. */
  members: EmbbMember[];
  /** Bytes after the last block that do not start another block. */
  trailing?: { offset: number; length: number };
  /**
   * 'high' when the file has the measured retail shape (one block, retail path table, nothing
   * after the chain); 'uncertain' when it relies on a single-source rule or breaks a measured one.
   */
  confidence: 'high' | 'uncertain';
  /** What made the confidence drop, and other findings that do not stop reading. */
  notes: string[];
}

export interface EmbbReadOptions {
  /** Bytes fetched around each size word (default 64 KiB, one decoded chunk of an archive entry). */
  window?: number;
}

const td = new TextDecoder('latin1');

/**
 * Reads u32 size words through one cached window aligned to `window`, so walking the chain over
 * a chunked archive entry decodes each 64 KiB chunk at most once while members are small, and
 * never more than one window per member when they are large.
 */
class WordReader {
  private at = -1;
  private bytes: Uint8Array = new Uint8Array(0);
  constructor(private readonly source: ByteSource, private readonly window: number) {}

  u32(pos: number, field: string): number {
    checkRange(this.source.name, this.source.size, pos, 4, field);
    if (!(pos >= this.at && pos + 4 <= this.at + this.bytes.length)) {
      const start = pos - (pos % this.window);
      const end = Math.min(this.source.size, start + this.window);
      if (pos + 4 <= end) {
        this.at = start;
        this.bytes = this.source.readSync(start, end - start);
      } else {
        // A word across a window edge: read it alone.
        const b = this.source.readSync(pos, 4);
        return (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
      }
    }
    const i = pos - this.at;
    const b = this.bytes;
    return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
  }
}

/** Parse a container held in memory. Payloads are located, not copied. */
export function parseEmbb(bytes: Uint8Array, file: string): EmbbContainer {
  return readEmbb(new MemoryByteSource(file, bytes));
}

/**
 * Parse a container from any `ByteSource` (a disk file, an archive entry) without reading its
 * payloads. Throws a typed `Arch06Error` naming the file, offset and field on any structural
 * fault; every length is checked against the source before anything is allocated for it.
 */
export function readEmbb(source: ByteSource, options: EmbbReadOptions = {}): EmbbContainer {
  const window = Math.max(16, options.window ?? 0x10000);
  const words = new WordReader(source, window);
  const blocks: EmbbBlock[] = [];
  const notes: string[] = [];
  let at = 0;
  do {
    blocks.push(readBlock(source, at, blocks.length, words));
    at = blocks[blocks.length - 1].end;
  } while (at < source.size && startsBlock(source, at));
  let trailing: EmbbContainer['trailing'];
  if (at < source.size) {
    trailing = { offset: at, length: source.size - at };
    const peek = source.readSync(at, Math.min(16, source.size - at));
    notes.push(`${trailing.length} bytes after the last payload that do not start an EMBB block (bytes ${hexBytes(peek)}); retail chains end exactly at the end of the file`);
  }
  if (blocks.length > 1) notes.push(`${blocks.length} concatenated EMBB blocks: only S3 describes concatenation, seed 004 measured none (UNCERTAIN)`);
  for (const b of blocks) {
    if (!b.retailPathLayout) notes.push(`block ${blocks.indexOf(b)}: path table is not in the retail layout (NUL-padded to 4, offsets following on from 0)`);
  }
  const members = blocks.flatMap((b) => b.members);
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    const k = m.path.toLowerCase();
    const first = seen.get(k);
    if (first !== undefined) notes.push(`member ${i} ${JSON.stringify(m.path)} repeats member ${first}'s path`);
    else seen.set(k, i);
    if (m.path.length === 0) notes.push(`block ${m.block} member ${m.index} has an empty path`);
  });
  const zero = members.filter((m) => m.size === 0).length;
  if (zero) notes.push(`${zero} zero-size members (seed 004 found none in retail containers)`);
  const confidence = blocks.length === 1 && !trailing && blocks[0].retailPathLayout ? 'high' : 'uncertain';
  return { file: source.name, size: source.size, blocks, members, trailing, confidence, notes };
}

function startsBlock(source: ByteSource, at: number): boolean {
  if (at + 4 > source.size) return false;
  const b = source.readSync(at, 4);
  return ((b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0) === EMBB_MAGIC;
}

function readBlock(source: ByteSource, at: number, blockIndex: number, words: WordReader): EmbbBlock {
  const file = source.name;
  const f = `block[${blockIndex}]`;
  // The magic first, so a short file that is no container at all is called that.
  const head = source.readSync(at, Math.min(EMBB_HEADER_SIZE, source.size - at));
  const dv = new DataView(head.buffer, head.byteOffset, head.length);
  const magic = head.length >= 4 ? dv.getUint32(0, true) : -1;
  if (magic === EMBB_MAGIC_BIG_ENDIAN) {
    throw new Arch06Error('UNSUPPORTED_VERSION', 'big-endian (console) EMBB containers are not supported', { file, offset: at, field: `${f}.magic`, expected: 'EMBB', actual: 'BBME' });
  }
  if (head.length < 4 && head.every((b, i) => b === 'EMBB'.charCodeAt(i))) {
    throw new Arch06Error('TRUNCATED', 'file ends inside the EMBB magic', { file, offset: at, field: `${f}.magic`, expected: '4 bytes', actual: `${head.length} bytes` });
  }
  if (magic !== EMBB_MAGIC) {
    const hint = magic === BNDL_MAGIC_LE ? ' (this is a BNDL: a Mordor-era data-carrying bundle, read it with parseBndl)' : '';
    throw new Arch06Error('BAD_MAGIC', `not an EMBB container${hint}`, { file, offset: at, field: `${f}.magic`, expected: 'EMBB', actual: JSON.stringify(td.decode(head.subarray(0, 4))) });
  }
  checkRange(file, source.size, at, EMBB_HEADER_SIZE, `${f}.header`);
  const version = dv.getUint32(4, true);
  if (version !== EMBB_VERSION) {
    throw new Arch06Error('UNSUPPORTED_VERSION', `unsupported EMBB version ${version}`, { file, offset: at + 4, field: `${f}.version`, expected: String(EMBB_VERSION), actual: String(version) });
  }
  const pathPoolSize = dv.getUint32(8, true);
  const count = dv.getUint32(12, true);
  const poolAt = at + EMBB_POOL_START;
  const tableAt = poolAt + pathPoolSize;
  // Pool and path table must lie in the file, and so must one size word per member, before
  // anything sized by these two fields is allocated.
  checkRange(file, source.size, poolAt, pathPoolSize + 4 * count, `${f}.pathPool + pathOffsets (pathPoolSize ${pathPoolSize}, count ${count})`);
  checkRange(file, source.size, tableAt + 4 * count, 4 * count, `${f}.sizeWords (at least 4 bytes per member, count ${count})`);
  const table = source.readSync(poolAt, pathPoolSize + 4 * count);
  const pathPool = Uint8Array.from(table.subarray(0, pathPoolSize));
  const tdv = new DataView(table.buffer, table.byteOffset + pathPoolSize, 4 * count);

  const pathOffsets: number[] = new Array(count);
  const paths: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const off = tdv.getUint32(4 * i, true);
    const field = `${f}.pathOffset[${i}]`;
    if (off >= pathPoolSize) {
      throw new Arch06Error('OUT_OF_RANGE', 'path offset outside the path pool (offsets are relative to 0x10)', { file, offset: tableAt + 4 * i, field, expected: `< ${pathPoolSize}`, actual: String(off) });
    }
    const end = pathPool.indexOf(0, off);
    if (end < 0) {
      throw new Arch06Error('INVALID', 'path is not NUL-terminated inside the path pool', { file, offset: poolAt + off, field, expected: `a NUL before pool end ${pathPoolSize}`, actual: `${pathPoolSize - off} bytes without one` });
    }
    pathOffsets[i] = off;
    paths[i] = td.decode(pathPool.subarray(off, end));
  }

  const members: EmbbMember[] = new Array(count);
  let pos = tableAt + 4 * count;
  for (let i = 0; i < count; i++) {
    const field = `${f}.member[${i}].size`;
    const size = words.u32(pos, field);
    if (pos + 4 + size > source.size) {
      throw new Arch06Error('TRUNCATED', `member ${JSON.stringify(paths[i])} runs past the end of the file`, { file, offset: pos, field, expected: `<= ${source.size - pos - 4}`, actual: String(size) });
    }
    members[i] = { path: paths[i], block: blockIndex, index: i, pathOffset: pathOffsets[i], sizeWordOffset: pos, offset: pos + 4, size };
    pos += 4 + size;
  }
  return { offset: at, version, pathPoolSize, count, pathPool, pathOffsets, retailPathLayout: isRetailPathLayout(pathPool, pathOffsets), members, end: pos };
}

/** Padded length of a path in a retail pool: the string, its NUL, NULs up to a multiple of 4. */
function paddedLength(byteLength: number): number {
  return Math.ceil((byteLength + 1) / EMBB_PATH_ALIGN) * EMBB_PATH_ALIGN;
}

/**
 * Whether a pool and its offsets have the retail layout: offsets start at 0 and follow on by
 * padded length, the pool ends with the last padded path, and every padding byte is NUL.
 */
export function isRetailPathLayout(pool: Uint8Array, offsets: number[]): boolean {
  let expect = 0;
  for (const off of offsets) {
    if (off !== expect) return false;
    const end = pool.indexOf(0, off);
    if (end < 0) return false;
    expect = off + paddedLength(end - off);
    if (expect > pool.length) return false;
    for (let p = end; p < expect; p++) if (pool[p] !== 0) return false;
  }
  return expect === pool.length;
}

// ---- writing ---------------------------------------------------------------------------

export interface EmbbWriterMember {
  path: string;
  bytes: Uint8Array;
}

/** Refuse strings a pool cannot hold: empty, with NUL or control characters, or beyond one byte per character. */
export function checkMemberPath(path: string, field: string): void {
  if (path.length === 0) throw new Arch06Error('BAD_ARGUMENT', 'pool strings cannot be empty', { field });
  if (/[\x00-\x1f]/.test(path) || /[^\x00-\xff]/.test(path)) {
    throw new Arch06Error('BAD_ARGUMENT', 'pool strings are single-byte text without control characters', { field, actual: JSON.stringify(path) });
  }
}

/**
 * The retail path pool for `paths` (in order): each path NUL-terminated and NUL-padded to 4,
 * offsets following on from 0. Shared by `writeEmbb` and `writeBndl`, so a manifest's path area
 * is byte-identical to its container's pool. Paths are case-insensitive: duplicates are refused.
 */
export function buildPathPool(paths: string[]): { pool: Uint8Array; offsets: number[] } {
  const seen = new Set<string>();
  let size = 0;
  const offsets: number[] = [];
  paths.forEach((p, i) => {
    checkMemberPath(p, `member[${i}].path`);
    const k = p.toLowerCase();
    if (seen.has(k)) throw new Arch06Error('BAD_ARGUMENT', 'member path given twice (paths are case-insensitive)', { field: `member[${i}].path`, actual: p });
    seen.add(k);
    offsets.push(size);
    size += paddedLength(p.length);
  });
  const pool = new Uint8Array(size); // zero-filled: terminators and padding are NUL
  paths.forEach((p, i) => pool.set(Buffer.from(p, 'latin1'), offsets[i]));
  return { pool, offsets };
}

/** A v5 container holding `members` in order, with the retail path table. */
export function writeEmbb(members: EmbbWriterMember[]): Uint8Array {
  const { pool, offsets } = buildPathPool(members.map((m) => m.path));
  members.forEach((m, i) => {
    if (m.bytes.length > 0xffffffff) throw new Arch06Error('BAD_ARGUMENT', 'a member holds at most 0xFFFFFFFF bytes (u32 size word)', { field: `member[${i}].bytes`, actual: String(m.bytes.length) });
  });
  const head = Buffer.alloc(EMBB_HEADER_SIZE + pool.length + 4 * members.length);
  head.writeUInt32LE(EMBB_MAGIC, 0);
  head.writeUInt32LE(EMBB_VERSION, 4);
  head.writeUInt32LE(pool.length, 8);
  head.writeUInt32LE(members.length, 12);
  head.set(pool, EMBB_POOL_START);
  offsets.forEach((o, i) => head.writeUInt32LE(o, EMBB_POOL_START + pool.length + 4 * i));
  const parts: Uint8Array[] = [head];
  for (const m of members) {
    const w = Buffer.alloc(4);
    w.writeUInt32LE(m.bytes.length, 0);
    parts.push(w, m.bytes); // no padding between payloads (seed 004)
  }
  return Buffer.concat(parts);
}
