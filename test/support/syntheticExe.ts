// A synthetic "game executable" for the StringHash table scan (core/hash/tableScan.ts): random
// bytes under a minimal PE32+ header, with tables planted where a test asks.
import { knownHashTable } from '../../core/hash';
import { prng, randomBytes } from './fixtures';

/** Where the synthetic PE maps its `.rdata` section: file 0x2000 → RVA 0x1DB4000, so file 0x30D0 is RVA 0x1DB50D0 (seed 000). */
export const RDATA_FILE = 0x2000;
export const RDATA_RVA = 0x1db4000;
export const IMAGE_BASE = 0x140000000;
/** The file offset that maps to seed 000's address in the synthetic PE. */
export const SEED_FILE_OFFSET = RDATA_FILE + (0x1db50d0 - RDATA_RVA);

/** A full table: the known values, and random values (0-99) for the bytes the seeds do not give. */
export function fullTable(seed: number): number[] {
  const rnd = prng(seed);
  return knownHashTable().map((v) => (v === undefined ? Math.floor(rnd() * 100) : v));
}

export interface Planted {
  offset: number;
  table: readonly number[];
  /** Bytes per entry, little-endian; default 1. */
  elementSize?: 1 | 2 | 4;
  /** Keep only the first `keep` bytes of the table (a table cut by the end of the file). */
  keep?: number;
}

/** Random bytes of `size` (with a PE32+ header unless `pe` is false) and the tables planted in order. */
export function syntheticExe(size: number, planted: Planted[], opts: { seed?: number; pe?: boolean } = {}): Uint8Array {
  const exe = randomBytes(size, prng(opts.seed ?? 7));
  if (opts.pe !== false) writePeHeader(exe);
  for (const p of planted) {
    const es = p.elementSize ?? 1;
    const bytes = new Uint8Array(256 * es);
    const view = new DataView(bytes.buffer);
    p.table.forEach((v, i) => (es === 1 ? view.setUint8(i, v) : es === 2 ? view.setUint16(i * 2, v, true) : view.setUint32(i * 4, v, true)));
    exe.set(bytes.subarray(0, p.keep ?? bytes.length), p.offset);
  }
  return exe;
}

function writePeHeader(exe: Uint8Array): void {
  const v = new DataView(exe.buffer, exe.byteOffset, exe.byteLength);
  exe.fill(0, 0, 0x400);
  exe[0] = 0x4d; // MZ
  exe[1] = 0x5a;
  const pe = 0x80;
  v.setUint32(0x3c, pe, true);
  v.setUint32(pe, 0x00004550, true); // PE\0\0
  v.setUint16(pe + 4, 0x8664, true); // x64
  v.setUint16(pe + 6, 2, true); // sections
  v.setUint16(pe + 20, 240, true); // optional header size (PE32+)
  const opt = pe + 24;
  v.setUint16(opt, 0x20b, true);
  v.setUint32(opt + 24, IMAGE_BASE % 0x100000000, true);
  v.setUint32(opt + 28, Math.floor(IMAGE_BASE / 0x100000000), true);
  const sections: [string, number, number, number][] = [
    ['.text', 0x1000, 0x400, RDATA_FILE - 0x400],
    ['.rdata', RDATA_RVA, RDATA_FILE, exe.length - RDATA_FILE],
  ];
  sections.forEach(([name, va, raw, rawSize], s) => {
    const h = opt + 240 + s * 40;
    for (let i = 0; i < name.length; i++) exe[h + i] = name.charCodeAt(i);
    v.setUint32(h + 8, rawSize, true); // virtual size
    v.setUint32(h + 12, va, true);
    v.setUint32(h + 16, rawSize, true);
    v.setUint32(h + 20, raw, true);
  });
}
