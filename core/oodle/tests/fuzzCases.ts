/**
 * Deterministic fuzz cases for the Oodle decoder: case `i` of seed `s` is always the same
 * input, so a failure or a hang reported as (seed, case) can be replayed. Used by the
 * fuzz worker and, to describe a hanging case, by the fuzz test itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { realChunks } from '../../../test/support/realChunks';
import { compressLzb16, writeLzb16, writeLzb16Literals } from '../lzb16/writer';

export interface FuzzVector {
  name: string;
  src: Uint8Array;
  rawSize: number;
  /** An LZB16 stream: after mutating, sometimes rewrite its length word to fit (so mutations reach the sequences). */
  lzb16?: boolean;
}

export interface FuzzCase {
  /** What was done to which vector, for reports. */
  label: string;
  src: Uint8Array;
  rawSize: number;
  /** Decode through `decodeOodleInto` with guard bytes around the destination. */
  into: boolean;
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
export function loadFuzzVectors(dirs: string[], patchArchive?: string): FuzzVector[] {
  const out: FuzzVector[] = [
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
export function loadLzb16FuzzVectors(patchArchive?: string): FuzzVector[] {
  const rnd = prng(0x1b16);
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
  const out: FuzzVector[] = [];
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

const KINDS = ['bitflip', 'byteset', 'truncate', 'splice', 'insert', 'delete', 'sizelie', 'garbage-after-header', 'garbage-run', 'multi'] as const;

/** Build case `index` of `seed`. */
export function makeCase(seed: number, index: number, vectors: FuzzVector[]): FuzzCase {
  const rnd = prng((seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0);
  const int = (n: number): number => Math.floor(rnd() * n);
  const v = vectors[int(vectors.length)];
  const kind = KINDS[int(KINDS.length)];
  let src: Uint8Array = v.src.slice();
  let rawSize = v.rawSize;
  let label = `${kind} of ${v.name}`;
  const mutateOnce = (k: string): void => {
    const n = src.length;
    switch (k) {
      case 'bitflip': {
        const flips = 1 + int(8);
        for (let i = 0; i < flips && n > 0; i++) src[int(n)] ^= 1 << int(8);
        break;
      }
      case 'byteset': {
        const sets = 1 + int(4);
        const pick = [0, 0xff, 0x80, 0x7f];
        for (let i = 0; i < sets && n > 0; i++) src[int(n)] = rnd() < 0.5 ? int(256) : pick[int(4)];
        break;
      }
      case 'truncate':
        src = src.slice(0, int(n + 1));
        break;
      case 'splice': {
        const w = vectors[int(vectors.length)].src;
        src = concat(src.subarray(0, int(n + 1)), w.subarray(int(w.length + 1)));
        label += ` + ${vectors.indexOf(vectors.find((x) => x.src === w) ?? v)}`;
        break;
      }
      case 'insert': {
        const at = int(n + 1);
        const bytes = new Uint8Array(1 + int(16));
        for (let i = 0; i < bytes.length; i++) bytes[i] = int(256);
        src = concat(concat(src.subarray(0, at), bytes), src.subarray(at));
        break;
      }
      case 'delete': {
        const at = int(n + 1);
        src = concat(src.subarray(0, at), src.subarray(Math.min(n, at + 1 + int(16))));
        break;
      }
      case 'sizelie': {
        const r = int(6);
        rawSize =
          r === 0
            ? Math.max(0, rawSize + int(17) - 8)
            : r === 1
              ? rawSize * 2
              : r === 2
                ? rawSize >> 1
                : r === 3
                  ? int(1 << 20)
                  : r === 4
                    ? rawSize + 0x20000
                    : 0x40000 + int(0x40000);
        break;
      }
      case 'garbage-after-header': {
        // Keep a valid block (and, sometimes, quantum) header, then random bytes.
        const keep = Math.min(n, rnd() < 0.5 ? 2 : 5);
        const g = new Uint8Array(keep + int(4096));
        g.set(src.subarray(0, keep));
        for (let i = keep; i < g.length; i++) g[i] = int(256);
        src = g;
        break;
      }
      case 'garbage-run': {
        if (n === 0) break;
        const at = int(n);
        const len = Math.min(n - at, 1 + int(64));
        for (let i = 0; i < len; i++) src[at + i] = int(256);
        break;
      }
    }
  };
  if (kind === 'multi') {
    const steps = 2 + int(3);
    const names: string[] = [];
    for (let i = 0; i < steps; i++) {
      const k = KINDS[int(KINDS.length - 1)];
      names.push(k);
      mutateOnce(k);
    }
    label = `${names.join('+')} of ${v.name}`;
  } else {
    mutateOnce(kind);
  }
  const into = rnd() < 0.5;
  // LZB16: half the time, make the length word describe the mutated payload again.
  if (v.lzb16 && src.length > 4 && rnd() < 0.5) {
    const w = Math.min(0xffff, src.length - 5);
    src[2] = w >> 8;
    src[3] = w & 0xff;
    label += ' + length word';
  }
  return { label: `${label} (raw size ${rawSize}, ${src.length} bytes)`, src, rawSize, into };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
