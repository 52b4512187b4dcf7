/**
 * An LTAR v4 archive's file records read straight from its bytes, as formats-public §1 lays
 * them out, without the project's reader: tests use it as an independent oracle for what an
 * archive holds (paths, sizes, storage).
 *
 *   header: u32 namePoolSize @0x08, u32 folderCount @0x0C, u32 fileCount @0x10; name pool @0x30
 *   file records (30 bytes): u32 nameOffset | u64 dataOffset | u64 storedSize | u64 size | u8 +0x1C | u8 flags
 *   folder records (16 bytes): u32 nameOffset (a full path) | s32 child | s32 sibling | u32 fileCount;
 *   in table order, each folder takes the next `fileCount` file records.
 */
export interface RawLtarRecord {
  path: string;
  dataOffset: number;
  storedSize: number;
  size: number;
  unk1C: number;
  flags: number;
  /** §1.4 "Robust decode rule". */
  storage: 'empty' | 'plain' | 'chunked';
}

export const rawU32 = (b: Uint8Array, o: number): number => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, o: number): number => rawU32(b, o) + rawU32(b, o + 4) * 2 ** 32;
export const rawCString = (b: Uint8Array, o: number): string => Buffer.from(b.subarray(o, b.indexOf(0, o))).toString('latin1');

export function rawLtarRecords(a: Uint8Array): RawLtarRecord[] {
  const namePoolSize = rawU32(a, 0x08);
  const folderCount = rawU32(a, 0x0c);
  const fileCount = rawU32(a, 0x10);
  const filesAt = 0x30 + namePoolSize;
  const foldersAt = filesAt + 30 * fileCount;
  const out: RawLtarRecord[] = [];
  let next = 0;
  for (let f = 0; f < folderCount; f++) {
    const rec = foldersAt + 16 * f;
    const folder = rawCString(a, 0x30 + rawU32(a, rec));
    for (let k = rawU32(a, rec + 12); k > 0; k--, next++) {
      const r = filesAt + 30 * next;
      const leaf = rawCString(a, 0x30 + rawU32(a, r));
      const storedSize = u64(a, r + 0x0c);
      const size = u64(a, r + 0x14);
      const unk1C = a[r + 0x1c];
      const flags = a[r + 0x1d];
      const storage = storedSize === 0 ? 'empty' : unk1C === 0 || flags === 0 || storedSize === size ? 'plain' : 'chunked';
      out.push({ path: folder ? `${folder}\\${leaf}` : leaf, dataOffset: u64(a, r + 0x04), storedSize, size, unk1C, flags, storage });
    }
  }
  if (next !== fileCount) throw new Error(`the folders claim ${next} of ${fileCount} file records`);
  return out;
}

/** A record's bytes as stored: plain as they are; a chunk stream split by its 8-byte headers (stored chunks only, which is all the sample writes). */
export function rawEntryBytes(a: Uint8Array, r: RawLtarRecord): Buffer {
  const data = Buffer.from(a.subarray(r.dataOffset, r.dataOffset + r.storedSize));
  if (r.storage === 'empty') return Buffer.alloc(0);
  if (r.storage === 'plain') return data;
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length;) {
    const stored = rawU32(data, at);
    if (stored !== rawU32(data, at + 4)) throw new Error(`${r.path}: chunk at ${at} is not stored`);
    parts.push(data.subarray(at + 8, at + 8 + stored));
    at += (8 + stored + 3) & ~3;
  }
  return Buffer.concat(parts);
}

/** The sample's sources in search order, as its cfg lists them (`mount --json` on the sample asserts it). */
export const SAMPLE_SEARCH_ORDER = ['HotChunk.arch06', 'Patch_02.arch06', 'Patch_01.arch06', 'Patch_00_LC.arch06', 'Base.arch06', 'Game'] as const;

const fold = (p: string): string => p.replace(/\//g, '\\').toLowerCase();

/**
 * Every mounted source of the files `make-sample` writes (`sampleGame()`), in search order: each
 * path (lower case, backslashes) to a reader of its bytes, read by hand (archives by
 * rawLtarRecords, the loose files of Game/ as written).
 */
export function rawSampleSources(files: readonly { path: string; bytes: Uint8Array }[]): { name: string; files: Map<string, () => Buffer> }[] {
  return SAMPLE_SEARCH_ORDER.map((name) => {
    const out = new Map<string, () => Buffer>();
    if (name === 'Game') {
      for (const f of files.filter((x) => x.path.startsWith('Game/'))) out.set(fold(f.path.slice(5)), () => Buffer.from(f.bytes));
    } else {
      const bytes = files.find((f) => f.path === name)!.bytes;
      for (const r of rawLtarRecords(bytes)) out.set(fold(r.path), () => rawEntryBytes(bytes, r));
    }
    return { name, files: out };
  });
}

/** The bytes the engine serves for `rel` in the sample install: the first source in search order that holds it. */
export function rawSampleServed(files: readonly { path: string; bytes: Uint8Array }[], rel: string): Buffer {
  for (const s of rawSampleSources(files)) {
    const read = s.files.get(fold(rel));
    if (read) return read();
  }
  throw new Error(`${rel} is in no source of the sample`);
}
