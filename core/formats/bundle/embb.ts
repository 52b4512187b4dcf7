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
import { Arch06Error, hexBytes } from '../../errors';
import { MessageList, quoteShort } from '../../io/bounded';
import { ByteSource, MemoryByteSource, checkRange } from '../../io/byteSource';
import { Confidence } from '../../io/confidence';
import { FieldReader, FieldSpan, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { isRetailPathLayout } from './pathPool';

export const EMBB_MAGIC = 0x42424d45; // "EMBB" read as a little-endian u32
export const EMBB_VERSION = 5;
export const EMBB_HEADER_SIZE = 16;
/** Path offsets are relative to the pool, which starts right after the header. */
const EMBB_POOL_START = EMBB_HEADER_SIZE;

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
   * 'confirmed' when the file has the measured retail shape (one block, retail path table, nothing
   * after the chain); 'uncertain' when it relies on a single-source rule or breaks a measured one.
   */
  confidence: Confidence;
  /** What made the confidence drop, and other findings that do not stop reading. */
  notes: string[];
}

export interface EmbbReadOptions extends ParseOptions {
  /** Bytes fetched around each size word (default 64 KiB, one decoded chunk of an archive entry). */
  window?: number;
}

const td = new TextDecoder('latin1');
/** Repeated paths noted one by one before they are only counted. */
const NOTED_EXAMPLES = 20;

/**
 * Reads u32 size words through one cached window aligned to `window`, so walking the chain over
 * a chunked archive entry decodes each 64 KiB chunk at most once while members are small, and
 * never more than one window per member when they are large. Each window is read through a
 * field reader placed at its file offset.
 */
class SizeWords {
  private r: FieldReader | undefined;
  constructor(
    private readonly source: ByteSource,
    private readonly window: number,
    private readonly spans: FieldSpan[] | undefined,
  ) {}

  u32(pos: number, field: string): number {
    checkRange(this.source.name, this.source.size, pos, 4, field);
    if (this.r === undefined || !this.r.has(pos, 4)) {
      const start = pos - (pos % this.window);
      const end = Math.min(this.source.size, start + this.window);
      // A word across a window edge gets a window of its own.
      const [from, to] = pos + 4 <= end ? [start, end] : [pos, pos + 4];
      this.r = new FieldReader(this.source.readSync(from, to - from), this.source.name, { base: from, fileSize: this.source.size, spans: this.spans });
    }
    return this.r.u32At(pos, field);
  }
}

/** Parse a container held in memory. Payloads are located, not copied. */
export function parseEmbb(bytes: Uint8Array, file: string, options: ParseOptions = {}): EmbbContainer {
  return readEmbb(new MemoryByteSource(file, bytes), options);
}

/**
 * Parse a container from any `ByteSource` (a disk file, an archive entry) without reading its
 * payloads. Throws a typed `Arch06Error` naming the file, offset and field on any structural
 * fault; every length is checked against the source before anything is allocated for it.
 */
export function readEmbb(source: ByteSource, options: EmbbReadOptions = {}): EmbbContainer {
  const window = Math.max(16, options.window ?? 0x10000);
  const words = new SizeWords(source, window, options.spans);
  const blocks: EmbbBlock[] = [];
  const notes: string[] = [];
  let at = 0;
  do {
    blocks.push(readBlock(source, at, blocks.length, words, options.spans));
    at = blocks[blocks.length - 1].end;
  } while (at < source.size && startsBlock(source, at));
  let trailing: EmbbContainer['trailing'];
  if (at < source.size) {
    trailing = { offset: at, length: source.size - at };
    const peek = source.readSync(at, Math.min(16, source.size - at));
    notes.push(
      `${trailing.length} bytes after the last payload that do not start an EMBB block (bytes ${hexBytes(peek)}); retail chains end exactly at the end of the file`,
    );
  }
  if (blocks.length > 1) notes.push(`${blocks.length} concatenated EMBB blocks: only S3 describes concatenation, seed 004 measured none (UNCERTAIN)`);
  for (const b of blocks) {
    if (!b.retailPathLayout) notes.push(`block ${blocks.indexOf(b)}: path table is not in the retail layout (NUL-padded to 4, offsets following on from 0)`);
  }
  const members = blocks.flatMap((b) => b.members);
  notes.push(...pathNotes(members));
  const zero = members.filter((m) => m.size === 0).length;
  if (zero) notes.push(`${zero} zero-size members (seed 004 found none in retail containers)`);
  const confidence: Confidence = blocks.length === 1 && !trailing && blocks[0].retailPathLayout ? 'confirmed' : 'uncertain';
  return { file: source.name, size: source.size, blocks, members, trailing, confidence, notes };
}

/** Repeated and empty member paths, each kind counted once with its first few examples (a crafted pool may repeat one path 50,000 times). */
function pathNotes(members: EmbbMember[]): string[] {
  const seen = new Map<string, number>();
  const lower = new Map<string, string>(); // members sharing a pool string share its key
  const repeats = new MessageList(NOTED_EXAMPLES);
  let empty = 0;
  members.forEach((m, i) => {
    let k = lower.get(m.path);
    if (k === undefined) lower.set(m.path, (k = m.path.toLowerCase()));
    const first = seen.get(k);
    if (first !== undefined) repeats.add(() => `member ${i} ${quoteShort(m.path)} repeats member ${first}'s path`);
    else seen.set(k, i);
    if (m.path.length === 0) empty++;
  });
  const out = repeats.list();
  if (repeats.total > NOTED_EXAMPLES)
    out.splice(-1, 1, `… and ${repeats.total - NOTED_EXAMPLES} more members repeat an earlier member's path (${repeats.total} in all)`);
  if (empty) out.push(`${empty} members have an empty path`);
  return out;
}

function startsBlock(source: ByteSource, at: number): boolean {
  if (at + 4 > source.size) return false;
  return new FieldReader(source.readSync(at, 4), source.name, { base: at }).peekU32(at) === EMBB_MAGIC;
}

function readBlock(source: ByteSource, at: number, blockIndex: number, words: SizeWords, spans: FieldSpan[] | undefined): EmbbBlock {
  const file = source.name;
  const f = `block[${blockIndex}]`;
  const h = new FieldReader(source.readSync(at, Math.min(EMBB_HEADER_SIZE, source.size - at)), file, { base: at, fileSize: source.size, spans });
  const version = expectMagicVersion(h, 'EMBB', [EMBB_VERSION], 'EMBB', {
    what: 'an EMBB container',
    magicField: `${f}.magic`,
    versionField: `${f}.version`,
    bigEndian: 'EMBB containers',
    headerSize: EMBB_HEADER_SIZE,
    headerField: `${f}.header`,
    hint: (found) => (found === BNDL_MAGIC_LE ? ' (this is a BNDL: a Mordor-era data-carrying bundle, read it with parseBndl)' : ''),
  });
  const pathPoolSize = h.u32(`${f}.pathPoolSize`);
  const count = h.u32(`${f}.count`);
  const poolAt = at + EMBB_POOL_START;
  const tableAt = poolAt + pathPoolSize;
  // Pool and path table must lie in the file, and so must one size word per member, before
  // anything sized by these two fields is allocated.
  checkRange(file, source.size, poolAt, pathPoolSize + 4 * count, `${f}.pathPool + pathOffsets (pathPoolSize ${pathPoolSize}, count ${count})`);
  checkRange(file, source.size, tableAt + 4 * count, 4 * count, `${f}.sizeWords (at least 4 bytes per member, count ${count})`);
  const t = new FieldReader(source.readSync(poolAt, pathPoolSize + 4 * count), file, { base: poolAt, fileSize: source.size, spans });
  const pathPool = Uint8Array.from(t.bytesOf(pathPoolSize, `${f}.pathPool`));

  const pathOffsets: number[] = new Array(count);
  const paths: string[] = new Array(count);
  // Members may share a path string: each offset is decoded once (50,000 members naming one 200 KB path hold one copy).
  const decoded = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    const field = `${f}.pathOffset[${i}]`;
    const off = t.u32(field);
    if (off >= pathPoolSize) {
      throw new Arch06Error('OUT_OF_RANGE', 'path offset outside the path pool (offsets are relative to 0x10)', {
        file,
        offset: tableAt + 4 * i,
        field,
        expected: `< ${pathPoolSize}`,
        actual: String(off),
      });
    }
    const known = decoded.get(off);
    if (known !== undefined) {
      pathOffsets[i] = off;
      paths[i] = known;
      continue;
    }
    const end = pathPool.indexOf(0, off);
    if (end < 0) {
      throw new Arch06Error('INVALID', 'path is not NUL-terminated inside the path pool', {
        file,
        offset: poolAt + off,
        field,
        expected: `a NUL before pool end ${pathPoolSize}`,
        actual: `${pathPoolSize - off} bytes without one`,
      });
    }
    pathOffsets[i] = off;
    paths[i] = td.decode(pathPool.subarray(off, end));
    decoded.set(off, paths[i]);
  }

  const members: EmbbMember[] = new Array(count);
  let pos = tableAt + 4 * count;
  for (let i = 0; i < count; i++) {
    const field = `${f}.member[${i}].size`;
    const size = words.u32(pos, field);
    if (pos + 4 + size > source.size) {
      throw new Arch06Error('TRUNCATED', `member ${quoteShort(paths[i])} runs past the end of the file`, {
        file,
        offset: pos,
        field,
        expected: `<= ${source.size - pos - 4}`,
        actual: String(size),
      });
    }
    members[i] = { path: paths[i], block: blockIndex, index: i, pathOffset: pathOffsets[i], sizeWordOffset: pos, offset: pos + 4, size };
    pos += 4 + size;
  }
  return { offset: at, version, pathPoolSize, count, pathPool, pathOffsets, retailPathLayout: isRetailPathLayout(pathPool, pathOffsets), members, end: pos };
}
