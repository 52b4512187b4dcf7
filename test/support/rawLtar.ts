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
