// BC6H checked against hand-made blocks whose expected floats are computed here, step by step,
// from Microsoft's "BC6H Format" page (bit layouts typed separately for this test; sign
// extension, transformed endpoints, unquantisation, interpolation, the final * 31 / 64 (or 32)
// scale and half-float bits, all written out apart from the decoder), plus values the spec pins
// down exactly (largest endpoint -> 65504, reserved modes -> 0). No independent BC6H tool is
// packaged in this environment (Basis Universal 1.x has no BC6H; Debian's nvtt lacks it), so the
// suite cannot run one. Once, by hand (2026-11-30), the decoder was also compared with the
// published reference decodes of the MIT-licensed tinybcdec's test textures (256x256 BC6H UF16
// and SF16 with RGBA16F reference outputs, modes 1-3, 5-7 and 9-13 present): 196,608 of 196,608
// values equal for each; those files are not ours to commit, so that check is not repeated here.
import { test } from 'node:test';
import { dx10Dds } from './dx10Dds';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { parseDds } from '../../formats/texture/dds';
import { decodeDdsLevel, decodeDdsLevelFloat, decodeLevel, decodeLevelFloat } from '../bcn';
import { toneMapRgba8 } from '../bc6h';
import { prng } from '../../../test/support/fixtures';

interface Mode {
  value: number;
  bits: number; // mode field width (2 or 5)
  transformed: boolean;
  regions: number;
  epb: number;
  delta: number[];
  layout: string; // after the mode bits, in the spec's notation (r0..r3 = w, x, y, z; [10:15] reversed)
}
const MODES: Record<string, Mode> = {
  'mode 1': {
    value: 0,
    bits: 2,
    transformed: true,
    regions: 2,
    epb: 10,
    delta: [5, 5, 5],
    layout: 'g2[4] b2[4] b3[4] r0[9:0] g0[9:0] b0[9:0] r1[4:0] g3[4] g2[3:0] g1[4:0] b3[0] g3[3:0] b1[4:0] b3[1] b2[3:0] r2[4:0] b3[2] r3[4:0] b3[3]',
  },
  'mode 2': {
    value: 1,
    bits: 2,
    transformed: true,
    regions: 2,
    epb: 7,
    delta: [6, 6, 6],
    layout:
      'g2[5] g3[4] g3[5] r0[6:0] b3[0] b3[1] b2[4] g0[6:0] b2[5] b3[2] g2[4] b0[6:0] b3[3] b3[5] b3[4] r1[5:0] g2[3:0] g1[5:0] g3[3:0] b1[5:0] b2[3:0] r2[5:0] r3[5:0]',
  },
  'mode 4': {
    value: 0x06,
    bits: 5,
    transformed: true,
    regions: 2,
    epb: 11,
    delta: [4, 5, 4],
    layout: 'r0[9:0] g0[9:0] b0[9:0] r1[3:0] r0[10] g3[4] g2[3:0] g1[4:0] g0[10] g3[3:0] b1[3:0] b0[10] b3[1] b2[3:0] r2[3:0] b3[0] b3[2] r3[3:0] g2[4] b3[3]',
  },
  'mode 7': {
    value: 0x12,
    bits: 5,
    transformed: true,
    regions: 2,
    epb: 8,
    delta: [6, 5, 5],
    layout: 'r0[7:0] g3[4] b2[4] g0[7:0] b3[2] g2[4] b0[7:0] b3[3] b3[4] r1[5:0] g2[3:0] g1[4:0] b3[0] g3[3:0] b1[4:0] b3[1] b2[3:0] r2[5:0] r3[5:0]',
  },
  'mode 10': {
    value: 0x1e,
    bits: 5,
    transformed: false,
    regions: 2,
    epb: 6,
    delta: [6, 6, 6],
    layout:
      'r0[5:0] g3[4] b3[0] b3[1] b2[4] g0[5:0] g2[5] b2[5] b3[2] g2[4] b0[5:0] g3[5] b3[3] b3[5] b3[4] r1[5:0] g2[3:0] g1[5:0] g3[3:0] b1[5:0] b2[3:0] r2[5:0] r3[5:0]',
  },
  'mode 11': { value: 0x03, bits: 5, transformed: false, regions: 1, epb: 10, delta: [10, 10, 10], layout: 'r0[9:0] g0[9:0] b0[9:0] r1[9:0] g1[9:0] b1[9:0]' },
  'mode 12': {
    value: 0x07,
    bits: 5,
    transformed: true,
    regions: 1,
    epb: 11,
    delta: [9, 9, 9],
    layout: 'r0[9:0] g0[9:0] b0[9:0] r1[8:0] r0[10] g1[8:0] g0[10] b1[8:0] b0[10]',
  },
  'mode 13': {
    value: 0x0b,
    bits: 5,
    transformed: true,
    regions: 1,
    epb: 12,
    delta: [8, 8, 8],
    layout: 'r0[9:0] g0[9:0] b0[9:0] r1[7:0] r0[10:11] g1[7:0] g0[10:11] b1[7:0] b0[10:11]',
  },
  'mode 14': {
    value: 0x0f,
    bits: 5,
    transformed: true,
    regions: 1,
    epb: 16,
    delta: [4, 4, 4],
    layout: 'r0[9:0] g0[9:0] b0[9:0] r1[3:0] r0[10:15] g1[3:0] g0[10:15] b1[3:0] b0[10:15]',
  },
};
// Some of the first 32 two-subset shapes of the BC7 table, with the anchor of subset 1.
const SHAPES: Record<number, { map: string; anchor: number }> = {
  0: { map: '0011001100110011', anchor: 15 },
  13: { map: '0000000011111111', anchor: 15 },
  17: { map: '0111000100000000', anchor: 2 },
  18: { map: '0000000010001110', anchor: 8 },
  29: { map: '0000111111110000', anchor: 8 },
};
const W3 = [0, 9, 18, 27, 37, 46, 55, 64];
const W4 = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];

class Packer {
  private v = 0n;
  private n = 0;
  put(value: number, bits: number): void {
    assert.ok(value >= 0 && value < 2 ** bits);
    this.v |= BigInt(value) << BigInt(this.n);
    this.n += bits;
  }
  get length(): number {
    return this.n;
  }
  bytes(): Uint8Array {
    assert.equal(this.n, 128, 'a BC6H block is 128 bits');
    return Uint8Array.from({ length: 16 }, (_, i) => Number((this.v >> BigInt(8 * i)) & 255n));
  }
}

const bitOf = (v: number, b: number): number => Math.floor(v / 2 ** b) % 2;
const signed = (v: number, bits: number): number => (v >= 2 ** (bits - 1) ? v - 2 ** bits : v);

/** IEEE half bits to a number, spelled out: sign, 5-bit exponent (bias 15), 10-bit fraction. */
function half(h: number): number {
  const sign = h >= 0x8000 ? -1 : 1;
  const exp = Math.floor(h / 1024) % 32;
  const frac = h % 1024;
  return exp === 0 ? (sign * frac) / 2 ** 24 : sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function unquantize(c: number, epb: number, isSigned: boolean): number {
  if (!isSigned) {
    if (epb >= 15) return c;
    if (c === 0) return 0;
    if (c === 2 ** epb - 1) return 0xffff;
    return Math.floor((c * 65536 + 32768) / 2 ** epb);
  }
  if (epb >= 16) return c;
  const mag = Math.abs(c);
  const u = mag === 0 ? 0 : mag >= 2 ** (epb - 1) - 1 ? 0x7fff : Math.floor((mag * 32768 + 16384) / 2 ** (epb - 1));
  return c < 0 ? -u : u;
}

/** Final step: interpolated 16-bit value to half bits. */
function finish(v: number, isSigned: boolean): number {
  if (!isSigned) return Math.floor((v * 31) / 64);
  return v < 0 ? 0x8000 + Math.floor((-v * 31) / 32) : Math.floor((v * 31) / 32);
}

/** Pack raw endpoint fields `raw[e][c]` and indices into a block; return it and the expected floats. */
function makeBlock(m: Mode, raw: number[][], shape: number, idx: number[], isSigned: boolean): { bytes: Uint8Array; expected: number[] } {
  const p = new Packer();
  p.put(m.value, m.bits);
  for (const f of m.layout.split(' ')) {
    const r = /^([rgb])(\d)\[(\d+)(?::(\d+))?\]$/.exec(f)!;
    const c = 'rgb'.indexOf(r[1]);
    const e = Number(r[2]);
    const a = Number(r[3]);
    const b = r[4] === undefined ? a : Number(r[4]);
    const order = a >= b ? Array.from({ length: a - b + 1 }, (_, k) => b + k) : Array.from({ length: b - a + 1 }, (_, k) => b - k);
    for (const bit of order) p.put(bitOf(raw[e][c], bit), 1);
  }
  const two = m.regions === 2;
  assert.equal(p.length, two ? 77 : 65, 'header length');
  if (two) p.put(shape, 5);
  const subset = (i: number): number => (two ? Number(SHAPES[shape].map[i]) : 0);
  const anchor = (i: number): boolean => i === 0 || (two && i === SHAPES[shape].anchor);
  const ib = two ? 3 : 4;
  for (let i = 0; i < 16; i++) p.put(idx[i], anchor(i) ? ib - 1 : ib);

  // Endpoints, per channel.
  const ne = m.regions * 2;
  const ep: number[][] = Array.from({ length: ne }, () => [0, 0, 0]);
  for (let c = 0; c < 3; c++) {
    const w = isSigned ? signed(raw[0][c], m.epb) : raw[0][c];
    ep[0][c] = w;
    for (let e = 1; e < ne; e++) {
      let v = raw[e][c];
      if (m.transformed) {
        const d = signed(v, m.delta[c]);
        v = (((w + d) % 2 ** m.epb) + 2 ** m.epb) % 2 ** m.epb;
        if (isSigned) v = signed(v, m.epb);
      } else if (isSigned) {
        v = signed(v, m.epb);
      }
      ep[e][c] = v;
    }
  }
  const unq = ep.map((e) => e.map((v) => unquantize(v, m.epb, isSigned)));
  const expected: number[] = [];
  for (let i = 0; i < 16; i++) {
    const s = subset(i);
    const wt = (two ? W3 : W4)[idx[i]];
    for (let c = 0; c < 3; c++) {
      const v = Math.floor(((64 - wt) * unq[2 * s][c] + wt * unq[2 * s + 1][c] + 32) / 64);
      expected.push(half(finish(v, isSigned)));
    }
  }
  return { bytes: p.bytes(), expected };
}

function randomBlock(m: Mode, rnd: () => number, isSigned: boolean, shape: number): { bytes: Uint8Array; expected: number[] } {
  const int = (bits: number): number => Math.floor(rnd() * 2 ** bits);
  const ne = m.regions * 2;
  const raw = Array.from({ length: ne }, (_, e) => [0, 1, 2].map((c) => int(e === 0 ? m.epb : m.transformed ? m.delta[c] : m.epb)));
  const two = m.regions === 2;
  const idx = Array.from({ length: 16 }, (_, i) => int((two ? 3 : 4) - (i === 0 || (two && i === SHAPES[shape].anchor) ? 1 : 0)));
  return makeBlock(m, raw, shape, idx, isSigned);
}

test('bc6h: hand-made blocks in nine modes, unsigned and signed, against the documented steps', () => {
  const rnd = prng(0xbc6);
  let count = 0;
  for (const [name, m] of Object.entries(MODES)) {
    for (const isSigned of [false, true]) {
      const shapes = m.regions === 2 ? Object.keys(SHAPES).map(Number) : [0];
      for (const shape of shapes) {
        for (let k = 0; k < 6; k++) {
          const b = randomBlock(m, rnd, isSigned, shape);
          const got = decodeLevelFloat(isSigned ? 'BC6H_SF16' : 'BC6H_UF16', b.bytes, 0, 4, 4);
          for (let i = 0; i < 48; i++) {
            assert.equal(got[i], b.expected[i], `${name} ${isSigned ? 'SF16' : 'UF16'} shape ${shape} #${k}: pixel ${Math.floor(i / 3)} channel ${i % 3}`);
          }
          count++;
        }
      }
    }
  }
  assert.ok(count > 100);
});

test('bc6h: values the spec fixes exactly; reserved modes decode to zeros', () => {
  const m = MODES['mode 11'];
  const idx = [0, ...new Array(14).fill(7), 15];
  // Unsigned: endpoint 1023 unquantises to 0xFFFF, which scales to half 0x7BFF = 65504; 0 stays 0.
  const u = makeBlock(
    m,
    [
      [1023, 1023, 1023],
      [0, 0, 0],
    ],
    0,
    idx,
    false,
  );
  const fu = decodeLevelFloat('BC6H_UF16', u.bytes, 0, 4, 4);
  assert.deepEqual(Array.from(fu.subarray(0, 3)), [65504, 65504, 65504]);
  assert.deepEqual(Array.from(fu.subarray(45, 48)), [0, 0, 0]);
  // Signed: +511 and -511 (10-bit two's complement 0x201) are the extremes, +-65504.
  const s = makeBlock(
    m,
    [
      [511, 511, 511],
      [0x201, 0x201, 0x201],
    ],
    0,
    idx,
    true,
  );
  const fs = decodeLevelFloat('BC6H_SF16', s.bytes, 0, 4, 4);
  assert.deepEqual(Array.from(fs.subarray(0, 3)), [65504, 65504, 65504]);
  assert.deepEqual(Array.from(fs.subarray(45, 48)), [-65504, -65504, -65504]);
  // Reserved mode values 10011, 10111, 11011, 11111: all zeros, whatever follows.
  const rnd = prng(5);
  for (const mode of [0x13, 0x17, 0x1b, 0x1f]) {
    const blk = Uint8Array.from({ length: 16 }, (_, i) => (i === 0 ? (Math.floor(rnd() * 8) << 5) | mode : Math.floor(rnd() * 256)));
    for (const d of ['BC6H_UF16', 'BC6H_SF16'] as const) assert.deepEqual(Array.from(decodeLevelFloat(d, blk, 0, 4, 4)), new Array(48).fill(0));
  }
  // Any bytes: never throws, never reads past the level.
  for (let k = 0; k < 512; k++) {
    const blk = Uint8Array.from({ length: 16 }, () => Math.floor(rnd() * 256));
    assert.equal(decodeLevelFloat(k & 1 ? 'BC6H_SF16' : 'BC6H_UF16', blk, 0, 4, 4).length, 48);
  }
  assert.throws(
    () => decodeLevelFloat('BC6H_UF16', new Uint8Array(15), 0, 4, 4),
    (e: unknown) => e instanceof Arch06Error && e.code === 'TRUNCATED',
  );
  assert.throws(
    () => decodeLevelFloat('BC7', new Uint8Array(16), 0, 4, 4),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
  );
});

test('bc6h: tone mapping for previews (rgb * 2^exposure, clamp, sRGB)', () => {
  // sRGB(0.5) = 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 188; sRGB(0.002) = 12.92 * 0.002 -> 7.
  const rgb = Float32Array.from([0, 0.5, 1, 2, -1, NaN, 0.25, 0.002, 65504]);
  assert.deepEqual(Array.from(toneMapRgba8(rgb, 0)), [0, 188, 255, 255, 255, 0, 0, 255, 137, 7, 255, 255]);
  assert.deepEqual(Array.from(toneMapRgba8(Float32Array.from([0.25, 1, 0.125]), 1)), [188, 255, 137, 255]);
  assert.deepEqual(Array.from(toneMapRgba8(Float32Array.from([1, 2, 4]), -1)), [188, 255, 255, 255]);
});

test('bc6h: DDS BC6H_UF16 / SF16 levels; BC6H_TYPELESS is reported, not decoded', () => {
  const m = MODES['mode 1'];
  const b = randomBlock(m, prng(9), false, 17);
  const dds = (dxgi: number, w = 4, h = 4): { bytes: Buffer } => ({ bytes: dx10Dds(dxgi, b.bytes, w, h) });
  const uf = parseDds(dds(95).bytes, 'x.dds');
  assert.equal(uf.format.name, 'BC6H_UF16');
  assert.equal(uf.format.decodable, true);
  const f = decodeDdsLevelFloat(uf, dds(95).bytes);
  assert.deepEqual(Array.from(f.rgb), b.expected);
  const rgba = decodeDdsLevel(uf, dds(95).bytes).rgba;
  assert.deepEqual(Array.from(rgba), Array.from(toneMapRgba8(Float32Array.from(b.expected), 0)));
  assert.deepEqual(Array.from(decodeLevel('BC6H_UF16', b.bytes, 0, 3, 2)), Array.from(rgba.filter((_, i) => (i >> 2) % 4 < 3 && i < 32)));
  const sf = parseDds(dds(96).bytes, 'x.dds');
  assert.equal(sf.format.decodable, true);
  assert.equal(decodeDdsLevelFloat(sf, dds(96).bytes).rgb.length, 48);
  const tl = parseDds(dds(94).bytes, 'x.dds');
  assert.equal(tl.format.decodable, false);
  assert.throws(
    () => decodeDdsLevel(tl, dds(94).bytes),
    (e: unknown) => e instanceof Arch06Error && e.code === 'UNSUPPORTED_CODEC' && /BC6H/.test(e.message),
  );
  assert.throws(
    () => decodeDdsLevelFloat(tl, dds(94).bytes),
    (e: unknown) => e instanceof Arch06Error && e.code === 'UNSUPPORTED_CODEC',
  );
  const bc7 = parseDds(dds(98).bytes, 'x.dds');
  assert.throws(
    () => decodeDdsLevelFloat(bc7, dds(98).bytes),
    (e: unknown) => e instanceof Arch06Error && e.code === 'UNSUPPORTED_CODEC',
  );
});
