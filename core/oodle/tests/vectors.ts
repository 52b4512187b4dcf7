/**
 * The Oodle decoders' test vectors: the shared Kraken vectors (both manifests), hand-made streams
 * no vector covers (a multi-array), writer-made LZB16 streams and the real chunks of
 * Patch_00.arch06. The decoder tests use them, and the fuzz targets (fuzz/targets/oodle.ts) mutate
 * them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { realChunks } from '../../../test/support/realChunks';
import { compressLzb16, writeLzb16, writeLzb16Literals } from '../lzb16/writer';

export interface OodleVector {
  name: string;
  src: Uint8Array;
  rawSize: number;
  /** An LZB16 stream: after mutating, sometimes rewrite its length word to fit (so mutations reach the sequences). */
  lzb16?: boolean;
}

/** Small, fast, seedable PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every vector in the shared Kraken folders (both manifests), tiny hand-made streams and, when
 * `patchArchive` is given, the real Kraken chunks of Patch_00.arch06.
 */
export function loadKrakenVectors(dirs: string[], patchArchive?: string): OodleVector[] {
  const out: OodleVector[] = [
    { name: 'memset', src: Uint8Array.from([0x8c, 0x06, 0x07, 0xff, 0xff, 0x41]), rawSize: 5000 },
    { name: 'stored-block', src: Uint8Array.from([0xcc, 0x06, 1, 2, 3, 4, 5, 6, 7, 8]), rawSize: 8 },
    { name: 'multi-array-wide', src: multiArrayStream(true), rawSize: 203 },
    { name: 'multi-array', src: multiArrayStream(false), rawSize: 203 },
  ];
  for (const dir of dirs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { name: string; compressedFile: string; rawSize: number }[];
    for (const m of manifest) {
      out.push({ name: m.name, src: new Uint8Array(fs.readFileSync(path.join(dir, m.compressedFile))), rawSize: m.rawSize });
    }
  }
  if (patchArchive) for (const c of realChunks(patchArchive)) if (c.codec === 'kraken') out.push({ name: `real ${c.name}`, src: c.src, rawSize: c.rawSize });
  return out;
}

/**
 * No vector uses a multi-array (recursive type with bit 7 set; levels ≥ 7 of the real
 * encoder), so build one by hand: two pieces ("a" × 200 as a 1-byte RLE, "XYZ" stored)
 * interleaved as a×100, XYZ, a×100 by an index array and 2^b + b-bit interval lengths.
 */
export function multiArrayStream(wide: boolean): Uint8Array {
  const rleA = [0x80 | (3 << 4) | (((200 - 1 - 1) >> 6) & 0x0f), ((200 - 1 - 1) << 2) & 0xff, 1, 0x61];
  const storedB = [0x80, 3, 0x58, 0x59, 0x5a];
  // Lengths 100 (b=6: 100100), 3 (b=1: 1), 100, and in the wide form the terminator (b=0).
  // Even ones read MSB-first from the front, odd ones from the back.
  const bits = [0x92, 0x40, 0x80];
  const tables = wide
    ? [0x80, 4, 0x61, 0x12, 0x61, 0x00] // (log2 << 4) | piece, stored
    : [0x80, 4, 1, 2, 1, 0, 0x80, 3, 6, 1, 6]; // pieces, then log2s, both stored
  const q = (wide ? 0x8000 : 0) | bits.length;
  const payload = [0x82, ...rleA, ...storedB, q & 0xff, q >> 8, ...tables, ...bits];
  const raw = 203;
  // Long byte-array header (an entropy-only piece needs bit 23 of its first 3 bytes clear).
  const v = ((raw - 1) & 0x3fff) * 2 ** 18 + payload.length;
  const piece = [(5 << 4) | ((raw - 1) >> 14), (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff, ...payload];
  const comp = piece.length;
  return Uint8Array.from([0x8c, 0x06, (comp - 1) >> 16, ((comp - 1) >> 8) & 0xff, (comp - 1) & 0xff, ...piece]);
}

/**
 * The LZB16 target: writer-made streams (literal-only, each match form, compressed data up to a
 * full 64 KiB chunk) and, when `patchArchive` is given, the four real chunks of Patch_00.arch06.
 */
export function loadLzb16Vectors(patchArchive?: string): OodleVector[] {
  const rnd = prng(0x1b16);
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
  const out: OodleVector[] = [];
  const add = (name: string, src: Uint8Array, rawSize: number): void => void out.push({ name, src, rawSize, lzb16: true });
  add('lzb16-literals-3', writeLzb16Literals(Uint8Array.from([0x61, 0x62, 0x63])), 3);
  add('lzb16-literals-269', writeLzb16Literals(bytes(269)), 269);
  add('lzb16-m0', writeLzb16([{ literals: bytes(13), match: { length: 4, offset: 13 } }, { literals: bytes(23) }]), 40);
  add(
    'lzb16-long',
    writeLzb16([{ literals: bytes(64), match: { length: 146, offset: 64 } }, { literals: bytes(7), match: { length: 57, offset: 200 } }, { literals: [] }]),
    274,
  );
  add(
    'lzb16-short',
    writeLzb16([{ literals: bytes(43), match: { length: 5, offset: 1 } }, { literals: bytes(5), match: { length: 19, offset: 1 } }, { literals: bytes(2) }]),
    74,
  );
  // A 2 KiB and a 64 KiB chunk of repeated "paragraphs" with a few changed bytes.
  for (const [name, size, para] of [
    ['lzb16-2k', 2048, 200],
    ['lzb16-64k', 0x10000, 250],
  ] as const) {
    const p = bytes(para);
    const data = Uint8Array.from({ length: size }, (_, i) => (rnd() < 0.003 ? Math.floor(rnd() * 256) : p[i % para]));
    add(name, compressLzb16(data, para + 100), size);
  }
  if (patchArchive) for (const c of realChunks(patchArchive)) if (c.codec === 'lzb16') add(`real ${c.name}`, c.src, c.rawSize);
  return out;
}
