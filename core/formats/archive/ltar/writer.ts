/**
 * LTAR v4 writer: lays out an archive the reader (and the engine's binary searches) accept:
 * folders sorted case-insensitively as if each path ended in a backslash (root first), every
 * ancestor folder present, each folder's files sorted by `_stricmp` and grouped in folder order,
 * deduplicated names, the 6 x fileCount gap before the data, entries stored plain, as stored
 * chunks, or as chunk payloads compressed by the caller. Used by fixtures, the sample game, the
 * benchmarks and mod packing (core/mod/pack.ts), which streams its files' bytes: a `deferred`
 * entry is laid out from its size alone and its stored chunks are written by the caller, in the
 * order `plan()` gives, with `storedChunkHeader`.
 */
import { Arch06Error } from '../../../errors';
import { ByteWriter } from '../../../io/byteWriter';
import {
  CHUNK_ALIGN,
  CHUNK_HEADER_SIZE,
  FILE_RECORD_SIZE,
  FOLDER_RECORD_SIZE,
  HEADER_SIZE,
  LTAR_MAGIC,
  LTAR_VERSION,
  MAX_CHUNK_LEN,
  NO_FOLDER,
} from './layout';
import { compareFolderPaths, compareLeafNames } from './order';

/** One chunk of a chunk stream: stored when payload.length == rawLen, else an Oodle stream (tests may write other lengths on purpose). */
export interface WriterChunk {
  payload: Uint8Array;
  rawLen: number;
}

export type WriterEntry =
  /** A plain byte range (+0x1D = 0). */
  | { storage: 'plain'; bytes: Uint8Array }
  /** A chunk stream of stored chunks of `chunkSize` (default 0x10000) bytes. */
  | { storage: 'chunked'; bytes: Uint8Array; chunkSize?: number }
  /** A chunk stream whose chunks the caller built (e.g. Kraken payloads). */
  | { storage: 'chunks'; chunks: WriterChunk[] }
  /** A record with stored size 0: empty or absent. */
  | { storage: 'empty' }
  /**
   * A chunk stream of stored chunks of 0x10000 bytes (the last one shorter) whose bytes the caller
   * writes itself where `plan()` places the entry: only its size is needed to lay the archive out.
   */
  | { storage: 'deferred'; size: number; id: number };

/** One entry of a planned archive, in file-table order (which is also data order). */
export interface PlannedEntry {
  /** The path as the archive stores it (folder + `\` + leaf). */
  path: string;
  /** Zero bytes before the entry's data (4-byte alignment in the archive). */
  padBefore: number;
  dataOffset: number;
  storedSize: number;
  size: number;
  /** The entry's bytes, for every entry but a deferred one. */
  parts?: Uint8Array[];
  /** A deferred entry's id: the caller writes `storedSize` bytes of stored chunks here. */
  deferredId?: number;
}

export interface ArchivePlan {
  /** Header, name pool, file and folder tables and the gap before the data, back to back. */
  head: Uint8Array[];
  entries: PlannedEntry[];
  /** The archive's length in bytes. */
  totalSize: number;
}

interface PendingFile {
  folder: string;
  leaf: string;
  entry: WriterEntry;
}

const PADDING_BYTE = 0x58; // 'X', as the public writer pads; readers must ignore it

/** Split a path into folder and leaf; separators may be / or \, no leading/trailing ones kept. */
function splitArchivePath(path: string): { folder: string; leaf: string } {
  const parts = path.split(/[\\/]+/).filter((p) => p.length > 0);
  if (parts.length === 0) throw new Arch06Error('BAD_ARGUMENT', 'empty archive path', { actual: JSON.stringify(path) });
  for (const p of parts) {
    if (p === '.' || p === '..') throw new Arch06Error('BAD_ARGUMENT', 'archive paths cannot contain . or .. segments', { actual: path });
    if (/[\x00-\x1f]/.test(p) || /[^\x00-\xff]/.test(p))
      throw new Arch06Error('BAD_ARGUMENT', 'archive paths are single-byte text without control characters', { actual: JSON.stringify(path) });
  }
  const leaf = parts.pop()!;
  return { folder: parts.join('\\'), leaf };
}

/** Split `bytes` into stored chunks of `chunkSize`. */
function storedChunks(bytes: Uint8Array, chunkSize = MAX_CHUNK_LEN): WriterChunk[] {
  if (!(chunkSize > 0 && chunkSize <= MAX_CHUNK_LEN)) throw new Arch06Error('BAD_ARGUMENT', 'chunk size must be 1..0x10000', { actual: String(chunkSize) });
  const out: WriterChunk[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) {
    const payload = bytes.subarray(at, Math.min(bytes.length, at + chunkSize));
    out.push({ payload, rawLen: payload.length });
  }
  return out;
}

/** Bytes a stored chunk stream of `size` bytes takes (chunk headers and padding included). */
export function storedStreamSize(size: number): number {
  if (!(Number.isSafeInteger(size) && size >= 0)) throw new Arch06Error('BAD_ARGUMENT', 'entry size must be a whole number of bytes', { actual: String(size) });
  if (size === 0) return 0;
  const full = Math.floor(size / MAX_CHUNK_LEN);
  const last = size - full * MAX_CHUNK_LEN;
  const chunk = (len: number): number => CHUNK_HEADER_SIZE + len + ((CHUNK_ALIGN - ((CHUNK_HEADER_SIZE + len) % CHUNK_ALIGN)) % CHUNK_ALIGN);
  return full * chunk(MAX_CHUNK_LEN) + (last ? chunk(last) : 0);
}

/**
 * Write a stored chunk's header (`len`, `len`) at `at` in `target` and its padding after the
 * `len` payload bytes the caller puts at `at + 8`; returns the offset after the padding. A
 * deferred entry is its chunks of 0x10000 bytes (the last one shorter), one after another.
 */
export function frameStoredChunk(target: Uint8Array, at: number, len: number): number {
  if (!(len > 0 && len <= MAX_CHUNK_LEN)) throw new Arch06Error('BAD_ARGUMENT', 'chunk size must be 1..0x10000', { actual: String(len) });
  const dv = new DataView(target.buffer, target.byteOffset, target.byteLength);
  dv.setUint32(at, len, true);
  dv.setUint32(at + 4, len, true);
  let end = at + CHUNK_HEADER_SIZE + len;
  while ((end - at) % CHUNK_ALIGN !== 0) target[end++] = PADDING_BYTE;
  return end;
}

export class LtarWriter {
  private readonly files = new Map<string, PendingFile>();
  private readonly folders = new Map<string, string>(); // lower-case key -> path as given

  /** Add an (empty) folder; ancestors are added too. */
  addFolder(path: string): void {
    const parts = path.split(/[\\/]+/).filter((p) => p.length > 0);
    for (let i = 1; i <= parts.length; i++) {
      const p = parts.slice(0, i).join('\\');
      const key = p.toLowerCase();
      if (!this.folders.has(key)) this.folders.set(key, p);
    }
  }

  add(path: string, entry: WriterEntry): void {
    const { folder, leaf } = splitArchivePath(path);
    const key = (folder ? folder + '\\' + leaf : leaf).toLowerCase();
    if (this.files.has(key)) throw new Arch06Error('BAD_ARGUMENT', 'path added twice (paths are case-insensitive)', { actual: path });
    if (entry.storage === 'deferred' && !(Number.isSafeInteger(entry.size) && entry.size >= 0))
      throw new Arch06Error('BAD_ARGUMENT', 'a deferred entry needs its size', { actual: String(entry.size) });
    if (entry.storage === 'chunks') {
      for (const [i, c] of entry.chunks.entries()) {
        if (c.payload.length > MAX_CHUNK_LEN || c.rawLen > MAX_CHUNK_LEN || c.rawLen <= 0) {
          throw new Arch06Error('BAD_ARGUMENT', 'chunk lengths must be 1..0x10000', {
            field: `chunk[${i}]`,
            actual: `payload ${c.payload.length}, raw ${c.rawLen}`,
          });
        }
      }
    }
    this.addFolder(folder);
    this.files.set(key, { folder: this.folders.get(folder.toLowerCase()) ?? folder, leaf, entry });
  }

  /** Convenience: a plain entry for short files, stored chunks for longer ones. */
  addBytes(path: string, bytes: Uint8Array, storage: 'plain' | 'chunked' = 'plain'): void {
    this.add(path, storage === 'plain' ? { storage, bytes } : { storage, bytes });
  }

  get fileCount(): number {
    return this.files.size;
  }

  /** The archive as a list of byte parts (written back to back), avoiding one huge copy. No deferred entries. */
  build(): Uint8Array[] {
    const plan = this.plan();
    const out = [...plan.head];
    for (const e of plan.entries) {
      if (!e.parts) throw new Arch06Error('BAD_ARGUMENT', 'a deferred entry has no bytes to build: write it from plan()', { actual: e.path });
      if (e.padBefore) out.push(new Uint8Array(e.padBefore));
      for (const p of e.parts) out.push(p); // not push(...): an entry of 131,072 chunks overflows a spread
    }
    return out;
  }

  /** The archive's layout: the tables as bytes, then every entry where it goes (deferred ones by id). */
  plan(): ArchivePlan {
    // Folders: root first, then the on-disk order the engine's folder search expects.
    const folderPaths = ['', ...[...this.folders.values()].sort(compareFolderPaths)];
    const folderIndex = new Map<string, number>(folderPaths.map((p, i) => [p.toLowerCase(), i]));
    const byFolder: PendingFile[][] = folderPaths.map(() => []);
    for (const f of this.files.values()) byFolder[folderIndex.get(f.folder.toLowerCase())!].push(f);
    for (const list of byFolder) list.sort((a, b) => compareLeafNames(a.leaf, b.leaf));
    const ordered = byFolder.flat();

    // Name pool: each distinct string once.
    const pool = new ByteWriter();
    const poolOffsets = new Map<string, number>();
    const nameOffset = (s: string): number => {
      let off = poolOffsets.get(s);
      if (off === undefined) {
        off = pool.length;
        pool.latin1(s).u8(0); // latin1: one byte per character, as names are stored
        poolOffsets.set(s, off);
      }
      return off;
    };
    const folderNameOffsets = folderPaths.map(nameOffset);
    const fileNameOffsets = ordered.map((f) => nameOffset(f.leaf));

    // Folder links: parent's first child and next sibling, in table order.
    const firstChild = new Array<number>(folderPaths.length).fill(NO_FOLDER);
    const nextSibling = new Array<number>(folderPaths.length).fill(NO_FOLDER);
    const lastChild = new Map<number, number>();
    for (let i = 1; i < folderPaths.length; i++) {
      const p = folderPaths[i];
      const cut = p.lastIndexOf('\\');
      const parent = cut < 0 ? 0 : folderIndex.get(p.slice(0, cut).toLowerCase())!;
      const prev = lastChild.get(parent);
      if (prev === undefined) firstChild[parent] = i;
      else nextSibling[prev] = i;
      lastChild.set(parent, i);
    }

    const fileCount = ordered.length;
    const poolSize = pool.length;
    const tablesEnd = HEADER_SIZE + poolSize + fileCount * FILE_RECORD_SIZE + folderPaths.length * FOLDER_RECORD_SIZE;
    let dataAt = tablesEnd + 6 * fileCount;

    // Entry data, each 4-aligned in the archive.
    const entries: PlannedEntry[] = [];
    const records = new ByteWriter(fileCount * FILE_RECORD_SIZE);
    const align = (n: number): number => (CHUNK_ALIGN - (n % CHUNK_ALIGN)) % CHUNK_ALIGN;
    ordered.forEach((f, i) => {
      const pad = align(dataAt);
      dataAt += pad;
      const { parts, storedSize, size, chunked } = encodeEntry(f.entry);
      // {u32 name, u64 data offset, u64 stored size, u64 size, u8 reader = 1, u8 flags} (./layout.ts).
      records
        .u32(fileNameOffsets[i])
        .u64(storedSize === 0 ? 0 : dataAt)
        .u64(storedSize)
        .u64(size)
        .u8(1)
        .u8(chunked ? 9 : 0);
      entries.push({
        path: f.folder ? `${f.folder}\\${f.leaf}` : f.leaf,
        padBefore: pad,
        dataOffset: dataAt,
        storedSize,
        size,
        ...(f.entry.storage === 'deferred' ? { deferredId: f.entry.id } : { parts }),
      });
      dataAt += storedSize;
    });

    const folderTable = new ByteWriter(folderPaths.length * FOLDER_RECORD_SIZE);
    folderPaths.forEach((_, i) => folderTable.u32(folderNameOffsets[i]).u32(firstChild[i]).u32(nextSibling[i]).u32(byFolder[i].length));

    const header = new ByteWriter(HEADER_SIZE).u32(LTAR_MAGIC).u32(LTAR_VERSION).u32(poolSize).u32(folderPaths.length).u32(fileCount).u32(1);
    header.zeros(HEADER_SIZE - header.length);

    return { head: [header.toBytes(), pool.toBytes(), records.toBytes(), folderTable.toBytes(), new Uint8Array(6 * fileCount)], entries, totalSize: dataAt };
  }

  /** The whole archive in one buffer (small archives, tests). */
  toBytes(): Uint8Array {
    return Buffer.concat(this.build());
  }
}

function encodeEntry(entry: WriterEntry): { parts: Uint8Array[]; storedSize: number; size: number; chunked: boolean } {
  switch (entry.storage) {
    case 'empty':
      return { parts: [], storedSize: 0, size: 0, chunked: false };
    case 'deferred':
      return { parts: [], storedSize: storedStreamSize(entry.size), size: entry.size, chunked: true };
    case 'plain':
      return { parts: [entry.bytes], storedSize: entry.bytes.length, size: entry.bytes.length, chunked: false };
    case 'chunked':
    case 'chunks': {
      const chunks = entry.storage === 'chunks' ? entry.chunks : storedChunks(entry.bytes, entry.chunkSize);
      const parts: Uint8Array[] = [];
      let at = 0;
      let size = 0;
      for (const c of chunks) {
        parts.push(new ByteWriter(CHUNK_HEADER_SIZE).u32(c.payload.length).u32(c.rawLen).toBytes(), c.payload);
        at += CHUNK_HEADER_SIZE + c.payload.length;
        const pad = (CHUNK_ALIGN - (at % CHUNK_ALIGN)) % CHUNK_ALIGN;
        if (pad) parts.push(new Uint8Array(pad).fill(PADDING_BYTE));
        at += pad;
        size += c.rawLen;
      }
      // Readers that follow the public rule take stored == size for a plain range; a chunk stream
      // that happens to have that length gets 4 more padding bytes so it cannot be misread.
      if (at === size && size > 0) {
        parts.push(new Uint8Array(CHUNK_ALIGN).fill(PADDING_BYTE));
        at += CHUNK_ALIGN;
      }
      return { parts, storedSize: at, size, chunked: true };
    }
  }
}
