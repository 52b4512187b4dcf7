/**
 * Chunk streams (formats-public §1.6, seed 004 "Compression and chunks"): an entry's stored
 * bytes are {u32 storedLen, u32 rawLen, payload} records, each header 4-aligned from the entry's
 * start, both lengths at most 0x10000. The chunk rule: storedLen == rawLen is stored bytes;
 * otherwise the payload is one Oodle stream that must decode to exactly rawLen bytes. Public
 * readers disagree on storedLen > rawLen ("stored when >=" / "compressed when they differ"); a
 * payload longer than the chunk cannot be the chunk's bytes, so it is decoded as Oodle (an
 * uncompressed Oodle block is 2 bytes longer than its data) or fails, never copied as a prefix.
 *
 * Random access: the chunk index is built lazily, walking only as many headers as the
 * furthest byte requested so far needs, so reading bytes [a, b) of a 1 GB entry touches the
 * headers up to b and decodes only the chunks that overlap [a, b).
 */
import { Arch06Error, hexBytes } from '../../../errors';
import { ByteSource } from '../../../io/byteSource';
import { FieldReader } from '../../../io/fieldReader';
import { OodleWhere, decodeOodle, decodeOodleInto } from '../../../oodle';
import { CHUNK_ALIGN, CHUNK_HEADER_SIZE, MAX_CHUNK_LEN } from './layout';

/**
 * The chunk rule, the one place it is written: a chunk whose stored length equals its raw length
 * is its own bytes; any other chunk is one Oodle stream (see the top comment on storedLen > rawLen).
 */
export function isStoredChunk(storedLen: number, rawLen: number): boolean {
  return storedLen === rawLen;
}

/** Where a read's chunk payloads come from; `at` is relative to the entry's start. */
interface PayloadBytes {
  copyInto(at: number, length: number, out: Uint8Array, outAt: number): void;
  bytes(at: number, length: number): Uint8Array;
}

export interface ChunkInfo {
  index: number;
  /** Header offset relative to the entry's start. */
  headerOffset: number;
  storedLen: number;
  rawLen: number;
  /** Offset of the chunk's first decoded byte within the entry. */
  rawStart: number;
  /** storedLen == rawLen: the payload is the bytes; otherwise an Oodle stream. */
  stored: boolean;
}

export class ChunkStream {
  // Parallel growable arrays: the index of a 1 GB entry has 16,384 chunks.
  private headerAt = new Float64Array(16);
  private storedLen = new Uint32Array(16);
  private rawLen = new Uint32Array(16);
  private rawStart = new Float64Array(17);
  private count = 0;
  /** Next header offset to walk (entry-relative), and decoded bytes covered so far. */
  private nextHeader = 0;
  private covered = 0;

  /**
   * @param source    the archive
   * @param entryName the entry's path, named in every error
   * @param dataOffset absolute offset of the stream in `source`
   * @param storedSize bytes the stream occupies (validated against the archive by the reader)
   * @param size      decoded size of the entry
   */
  constructor(
    private readonly source: ByteSource,
    readonly entryName: string,
    private readonly dataOffset: number,
    private readonly storedSize: number,
    readonly size: number,
  ) {}

  /** Chunks indexed so far (all of them after `indexAll`). */
  get indexedCount(): number {
    return this.count;
  }

  /** Walk every header; validates that the raw lengths add up to the entry's size. */
  indexAll(): number {
    this.ensureCovers(this.size);
    return this.count;
  }

  chunk(i: number): ChunkInfo {
    return {
      index: i,
      headerOffset: this.headerAt[i],
      storedLen: this.storedLen[i],
      rawLen: this.rawLen[i],
      rawStart: this.rawStart[i],
      stored: isStoredChunk(this.storedLen[i], this.rawLen[i]),
    };
  }

  private error(code: 'TRUNCATED' | 'INVALID', message: string, headerOffset: number, field: string, expected?: string, actual?: string): Arch06Error {
    return new Arch06Error(code, message, { file: `${this.source.name}:${this.entryName}`, offset: this.dataOffset + headerOffset, field, expected, actual });
  }

  private grow(): void {
    const n = this.headerAt.length * 2;
    const g = <T extends Float64Array | Uint32Array>(a: T, len: number): T => {
      const b = new (a.constructor as new (n: number) => T)(len);
      b.set(a);
      return b;
    };
    this.headerAt = g(this.headerAt, n);
    this.storedLen = g(this.storedLen, n);
    this.rawLen = g(this.rawLen, n);
    this.rawStart = g(this.rawStart, n + 1);
  }

  /** Index headers until the decoded bytes [0, rawEnd) are covered. */
  private ensureCovers(rawEnd: number): void {
    while (this.covered < rawEnd) {
      const i = this.count;
      const at = this.nextHeader;
      const field = `chunk[${i}]`;
      if (at + CHUNK_HEADER_SIZE > this.storedSize) {
        throw this.error(
          'TRUNCATED',
          `chunk stream ends after ${this.covered} of ${this.size} bytes`,
          at,
          `${field}.header`,
          `${CHUNK_HEADER_SIZE} header bytes within the stored size ${this.storedSize}`,
          `${Math.max(0, this.storedSize - at)}`,
        );
      }
      const h = this.source.readSync(this.dataOffset + at, CHUNK_HEADER_SIZE);
      const r = new FieldReader(h, this.source.name, { base: at });
      const stored = r.u32(`${field}.storedLen`);
      const raw = r.u32(`${field}.rawLen`);
      if (stored > MAX_CHUNK_LEN || raw > MAX_CHUNK_LEN) {
        throw this.error(
          'INVALID',
          'corrupted chunk header (a length exceeds 0x10000)',
          at,
          field,
          'storedLen and rawLen <= 0x10000',
          `storedLen ${stored}, rawLen ${raw} (bytes ${hexBytes(h)})`,
        );
      }
      if (raw === 0) throw this.error('INVALID', 'chunk decodes to zero bytes', at, `${field}.rawLen`, '> 0', '0');
      if (at + CHUNK_HEADER_SIZE + stored > this.storedSize) {
        throw this.error(
          'TRUNCATED',
          "chunk payload runs past the entry's stored size",
          at,
          `${field}.storedLen`,
          `<= ${this.storedSize - at - CHUNK_HEADER_SIZE}`,
          String(stored),
        );
      }
      if (this.covered + raw > this.size) {
        throw this.error('INVALID', "chunks decode to more bytes than the entry's size", at, `${field}.rawLen`, `<= ${this.size - this.covered}`, String(raw));
      }
      if (i === this.headerAt.length) this.grow();
      this.headerAt[i] = at;
      this.storedLen[i] = stored;
      this.rawLen[i] = raw;
      this.rawStart[i] = this.covered;
      this.covered += raw;
      this.rawStart[i + 1] = this.covered;
      this.count = i + 1;
      const end = at + CHUNK_HEADER_SIZE + stored;
      this.nextHeader = end + ((CHUNK_ALIGN - (end % CHUNK_ALIGN)) % CHUNK_ALIGN);
    }
  }

  /** The chunk holding decoded byte `pos` (pos < covered). */
  private chunkAt(pos: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.rawStart[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Plan a read of decoded bytes [start, end): the chunks and the stored span to fetch. */
  private plan(start: number, end: number): { first: number; last: number; spanStart: number; spanLength: number } {
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= this.size)) {
      throw new Arch06Error('OUT_OF_RANGE', 'read range outside the entry', {
        file: `${this.source.name}:${this.entryName}`,
        expected: `within [0, ${this.size}]`,
        actual: `[${start}, ${end})`,
      });
    }
    this.ensureCovers(end);
    const first = this.chunkAt(start);
    const last = this.chunkAt(end - 1);
    const spanStart = this.headerAt[first];
    const spanLength = this.headerAt[last] + CHUNK_HEADER_SIZE + this.storedLen[last] - spanStart;
    return { first, last, spanStart, spanLength };
  }

  /**
   * The one loop every read path runs: each chunk of first..last puts its part of [start, end)
   * into `out`, stored chunks copied, the others decoded. Only where the payload bytes come from
   * differs between the paths (`payloads`).
   */
  private fill(out: Uint8Array, start: number, end: number, first: number, last: number, payloads: PayloadBytes): void {
    for (let i = first; i <= last; i++) {
      const stored = this.storedLen[i];
      const raw = this.rawLen[i];
      const chunkStart = this.rawStart[i];
      // The part of this chunk that falls inside [start, end), in chunk coordinates.
      const from = Math.max(start, chunkStart) - chunkStart;
      const to = Math.min(end, chunkStart + raw) - chunkStart;
      const outAt = chunkStart + from - start;
      const payloadAt = this.headerAt[i] + CHUNK_HEADER_SIZE;
      if (isStoredChunk(stored, raw)) {
        payloads.copyInto(payloadAt + from, to - from, out, outAt);
      } else if (from === 0 && to === raw && stored < raw) {
        // A whole chunk inside the range decodes straight into the result.
        decodeOodleInto(payloads.bytes(payloadAt, stored), out, outAt, raw, this.where(i));
      } else {
        out.set(this.decodeChunk(i, payloads.bytes(payloadAt, stored)).subarray(from, to), outAt);
      }
    }
  }

  /**
   * Decoded bytes [start, end), decoding only the chunks that overlap them. Stored chunks are
   * read straight into the result; only compressed payloads pass through a buffer of their own.
   */
  readSync(start: number, end: number): Uint8Array {
    if (start === end) return new Uint8Array(0);
    const p = this.plan(start, end);
    const out = new Uint8Array(end - start);
    const base = this.dataOffset;
    const source = this.source;
    this.fill(out, start, end, p.first, p.last, {
      copyInto: (at, length, into, intoAt) => source.readIntoSync(base + at, length, into, intoAt),
      bytes: (at, length) => source.readSync(base + at, length),
    });
    return out;
  }

  private where(i: number): OodleWhere {
    return { file: `${this.source.name}:${this.entryName}`, chunkIndex: i, offset: this.dataOffset + this.headerAt[i] + CHUNK_HEADER_SIZE };
  }

  private decodeChunk(i: number, payload: Uint8Array): Uint8Array {
    if (this.storedLen[i] < this.rawLen[i]) return decodeOodle(payload, this.rawLen[i], this.where(i));
    try {
      return decodeOodle(payload, this.rawLen[i], this.where(i));
    } catch (e) {
      if (!(e instanceof Arch06Error)) throw e;
      const h = this.headerAt[i];
      throw this.error(
        'INVALID',
        `chunk payload (${this.storedLen[i]} bytes) is longer than the chunk (${this.rawLen[i]} bytes) and is not an Oodle stream of exactly that size (${e.description})`,
        h,
        `chunk[${i}].storedLen`,
        `storedLen == rawLen (stored), or an Oodle stream decoding to ${this.rawLen[i]} bytes`,
        `storedLen ${this.storedLen[i]}, payload starts ${hexBytes(payload, 4) || '(empty)'}`,
      );
    }
  }

  /** `readSync`'s asynchronous twin: the stored span of the chunks is fetched in one read, then the same loop. */
  async read(start: number, end: number): Promise<Uint8Array> {
    if (start === end) return new Uint8Array(0);
    const p = this.plan(start, end);
    const span = await this.source.read(this.dataOffset + p.spanStart, p.spanLength);
    const out = new Uint8Array(end - start);
    const inSpan = (at: number, length: number): Uint8Array => span.subarray(at - p.spanStart, at - p.spanStart + length);
    this.fill(out, start, end, p.first, p.last, {
      copyInto: (at, length, into, intoAt) => into.set(inSpan(at, length), intoAt),
      bytes: inSpan,
    });
    return out;
  }
}
