// BCn decoding checked three independent ways: hand-made blocks whose expected pixels are
// computed here from the formulas in Microsoft's public BCn documentation (float arithmetic,
// written apart from the decoder), ImageMagick's decode of the real sample, and NVIDIA Texture
// Tools (nvcompress -> our decoder vs nvdecompress) when Debian's libnvtt-bin is installed.
import { test } from 'node:test';
import { dx10Dds } from './dx10Dds';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { parseDds, DdsDecoder } from '../../formats/texture/dds';
import { parseTexr } from '../../formats/texture/texr';
import { decodeDdsLevel, decodeLevel } from '../bcn';
import { encodePng } from '../node/png';
import { prng, tempDir } from '../../../test/support/fixtures';
import { sharedPath } from '../../../test/support/shared';

const TEX = sharedPath('samples/real/fellbeast_body_d.tex');
const DDS = sharedPath('samples/real/fellbeast_body_d.dds');

// ---- the documented formulas, per pixel ------------------------------------------------------

type RGBA = [number, number, number, number];
const expand565 = (c: number): [number, number, number] => [
  Math.round((((c >> 11) & 31) * 255) / 31),
  Math.round((((c >> 5) & 63) * 255) / 63),
  Math.round(((c & 31) * 255) / 31),
];
const mix = (a: number[], b: number[], wa: number, wb: number): number[] => a.map((v, i) => Math.round(v * wa + b[i] * wb));

/** The four colours of a BC1 colour block (Microsoft "Texture Block Compression in Direct3D 11", BC1). */
function bc1Palette(c0: number, c1: number, threeColourAllowed: boolean): RGBA[] {
  const a = expand565(c0);
  const b = expand565(c1);
  if (c0 > c1 || !threeColourAllowed) {
    return [
      [...a, 255],
      [...b, 255],
      [...mix(a, b, 2 / 3, 1 / 3), 255],
      [...mix(a, b, 1 / 3, 2 / 3), 255],
    ] as RGBA[];
  }
  return [
    [...a, 255],
    [...b, 255],
    [...mix(a, b, 1 / 2, 1 / 2), 255],
    [0, 0, 0, 0],
  ] as RGBA[];
}

/** The eight values of a BC4 / BC3-alpha block (Microsoft docs, BC3 and BC4). */
function bc4Palette(r0: number, r1: number): number[] {
  if (r0 > r1) return [r0, r1, ...[1, 2, 3, 4, 5, 6].map((k) => Math.round(((7 - k) * r0 + k * r1) / 7))];
  return [r0, r1, ...[1, 2, 3, 4].map((k) => Math.round(((5 - k) * r0 + k * r1) / 5)), 0, 255];
}

// Encoders of the block layouts (packing, not decoding).
function colourBlock(c0: number, c1: number, idx: number[]): number[] {
  let bits = 0n;
  idx.forEach((v, i) => (bits |= BigInt(v) << BigInt(2 * i)));
  return [c0 & 255, c0 >> 8, c1 & 255, c1 >> 8, ...[0, 1, 2, 3].map((k) => Number((bits >> BigInt(8 * k)) & 255n))];
}
function valueBlock(r0: number, r1: number, idx: number[]): number[] {
  let bits = 0n;
  idx.forEach((v, i) => (bits |= BigInt(v) << BigInt(3 * i)));
  return [r0, r1, ...[0, 1, 2, 3, 4, 5].map((k) => Number((bits >> BigInt(8 * k)) & 255n))];
}
function nibbleBlock(alpha4: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < 16; i += 2) out.push(alpha4[i] | (alpha4[i + 1] << 4));
  return out;
}

const IDX2 = Array.from({ length: 16 }, (_, i) => (i * 7 + (i >> 2)) & 3);
const IDX3 = Array.from({ length: 16 }, (_, i) => (i * 5 + 3) & 7);

function assertPixels(rgba: Uint8Array, expected: RGBA[], what: string, channels = [0, 1, 2, 3]): void {
  expected.forEach((e, i) => {
    for (const c of channels) {
      assert.ok(Math.abs(rgba[i * 4 + c] - e[c]) <= 1, `${what}: pixel ${i} channel ${c}: got ${rgba[i * 4 + c]}, documented formula gives ${e[c]}`);
    }
  });
}

test('bcn: BC1 four-colour and three-colour + transparent blocks', () => {
  for (const [c0, c1] of [
    [0xf800, 0x001f],
    [0x7bef, 0x2104],
    [0x001f, 0xf800],
    [0x1234, 0x1234],
  ]) {
    const rgba = decodeLevel('BC1', Uint8Array.from(colourBlock(c0, c1, IDX2)), 0, 4, 4);
    const pal = bc1Palette(c0, c1, true);
    assertPixels(
      rgba,
      IDX2.map((k) => pal[k]),
      `BC1 c0=${c0.toString(16)} c1=${c1.toString(16)}`,
    );
  }
  // c0 <= c1: index 3 is transparent black.
  const t = decodeLevel('BC1', Uint8Array.from(colourBlock(0x001f, 0xf800, new Array(16).fill(3))), 0, 4, 4);
  assert.deepEqual([...t.subarray(0, 4)], [0, 0, 0, 0]);
});

test('bcn: BC2 explicit alpha; colour always four-colour', () => {
  const alpha = Array.from({ length: 16 }, (_, i) => 15 - i);
  const c0 = 0x001f;
  const c1 = 0xf800; // c0 <= c1, still four-colour in BC2
  const rgba = decodeLevel('BC2', Uint8Array.from([...nibbleBlock(alpha), ...colourBlock(c0, c1, IDX2)]), 0, 4, 4);
  const pal = bc1Palette(c0, c1, false);
  assertPixels(
    rgba,
    IDX2.map((k, i) => [pal[k][0], pal[k][1], pal[k][2], Math.round((alpha[i] * 255) / 15)] as RGBA),
    'BC2',
  );
});

test('bcn: BC3 alpha in eight-value and six-value modes', () => {
  for (const [a0, a1] of [
    [200, 50],
    [50, 200],
    [255, 0],
    [7, 7],
  ]) {
    const rgba = decodeLevel('BC3', Uint8Array.from([...valueBlock(a0, a1, IDX3), ...colourBlock(0x001f, 0xf800, IDX2)]), 0, 4, 4);
    const ap = bc4Palette(a0, a1);
    const cp = bc1Palette(0x001f, 0xf800, false);
    assertPixels(
      rgba,
      IDX2.map((k, i) => [cp[k][0], cp[k][1], cp[k][2], ap[IDX3[i]]] as RGBA),
      `BC3 a0=${a0} a1=${a1}`,
    );
  }
});

test('bcn: BC4 and BC5 (UNORM) to R and RG', () => {
  for (const [r0, r1] of [
    [240, 16],
    [16, 240],
    [0, 255],
  ]) {
    const r = decodeLevel('BC4', Uint8Array.from(valueBlock(r0, r1, IDX3)), 0, 4, 4);
    const p = bc4Palette(r0, r1);
    assertPixels(
      r,
      IDX3.map((k) => [p[k], 0, 0, 255] as RGBA),
      `BC4 r0=${r0} r1=${r1}`,
    );
  }
  const IDXG = IDX3.map((v) => 7 - v);
  const rg = decodeLevel('BC5', Uint8Array.from([...valueBlock(100, 20, IDX3), ...valueBlock(20, 100, IDXG)]), 0, 4, 4);
  const pr = bc4Palette(100, 20);
  const pg = bc4Palette(20, 100);
  assertPixels(
    rg,
    IDX3.map((k, i) => [pr[k], pg[IDXG[i]], 0, 255] as RGBA),
    'BC5',
  );
});

test('bcn: partial edge blocks, uncompressed formats, errors', () => {
  // 5x3: two blocks wide, one tall; pixel (4, 0) is the second block's pixel 0.
  const blocks = Uint8Array.from([...colourBlock(0xf800, 0xf800, new Array(16).fill(0)), ...colourBlock(0x07e0, 0x07e0, new Array(16).fill(0))]);
  const r = decodeLevel('BC1', blocks, 0, 5, 3);
  assert.equal(r.length, 5 * 3 * 4);
  assert.deepEqual([...r.subarray(0, 4)], [255, 0, 0, 255]);
  assert.deepEqual([...r.subarray(16, 20)], [0, 255, 0, 255]);
  assert.deepEqual([...r.subarray((2 * 5 + 4) * 4, (2 * 5 + 5) * 4)], [0, 255, 0, 255]);

  const px = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
  const cases: [DdsDecoder, number[]][] = [
    ['RGBA8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['BGRA8', [3, 2, 1, 4, 7, 6, 5, 8]],
    ['BGRX8', [3, 2, 1, 255, 7, 6, 5, 255]],
    ['RG8', [1, 2, 0, 255, 3, 4, 0, 255]],
    ['R8', [1, 0, 0, 255, 2, 0, 0, 255]],
    ['A8', [0, 0, 0, 1, 0, 0, 0, 2]],
  ];
  for (const [d, want] of cases) assert.deepEqual([...decodeLevel(d, px, 0, 2, 1)], want, d);

  assert.throws(
    () => decodeLevel('BC3', new Uint8Array(15), 0, 4, 4),
    (e: unknown) => e instanceof Arch06Error && e.code === 'TRUNCATED',
  );
  assert.throws(
    () => decodeLevel('BC1', new Uint8Array(8), 0, 0, 4),
    (e: unknown) => e instanceof Arch06Error && e.code === 'OUT_OF_RANGE',
  );
});

test('bcn: BC6H_TYPELESS is reported, not decoded', () => {
  const head = dx10Dds(94, new Uint8Array(16));
  const dds = parseDds(head, 'x.dds');
  assert.equal(dds.format.decodable, false);
  assert.throws(
    () => decodeDdsLevel(dds, head),
    (e: unknown) => e instanceof Arch06Error && e.code === 'UNSUPPORTED_CODEC' && /BC6H/.test(e.message),
  );
});

// ---- ImageMagick on the real sample ----------------------------------------------------------

/** ImageMagick's convert: the Debian binary when present, else whatever is on PATH. */
function convertTool(): string | undefined {
  for (const c of ['/usr/bin/convert', 'convert']) {
    const r = spawnSync(c, ['-version']);
    if (!r.error && r.status === 0 && /ImageMagick/.test(r.stdout.toString())) return c;
  }
  return undefined;
}

test('bcn: BC3 decode of the real texture matches ImageMagick within 3 levels', { skip: TEX.skip || DDS.skip }, (t) => {
  const convert = convertTool();
  if (!convert) {
    t.skip('ImageMagick convert is absent (apt-get install imagemagick): no independent BC3 reference');
    return;
  }
  const bytes = fs.readFileSync(TEX.path);
  const tex = parseTexr(bytes, TEX.path);
  const ours = decodeDdsLevel(tex.dds, bytes, 0, 0);
  const dir = tempDir();
  const raw = path.join(dir, 'ref.raw');
  // ImageMagick reads the exported .dds (its top level), independent of our TEXR parsing.
  const r = spawnSync(convert, [`${DDS.path}[0]`, '-depth', '8', `rgba:${raw}`]);
  assert.equal(r.status, 0, r.stderr?.toString());
  const ref = fs.readFileSync(raw);
  assert.equal(ref.length, ours.rgba.length, 'same size (2048 x 1024 x 4)');
  let max = 0;
  let sum = 0;
  let at = -1;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(ref[i] - ours.rgba[i]);
    sum += d;
    if (d > max) {
      max = d;
      at = i;
    }
  }
  const mean = sum / ref.length;
  t.diagnostic(`ImageMagick vs ours, 2048x1024 BC3: max difference ${max}, mean ${mean.toFixed(4)} per channel`);
  assert.ok(max <= 3, `max difference ${max} at pixel ${at >> 2} channel ${at & 3}`);
});

// ---- NVIDIA Texture Tools round trip ---------------------------------------------------------

/** A minimal uncompressed TGA reader (types 2/3, 8/24/32 bits), for nvdecompress output. */
function readTga(b: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const idLen = b[0];
  const type = b[2];
  const width = b[12] | (b[13] << 8);
  const height = b[14] | (b[15] << 8);
  const bpp = b[16];
  const topDown = (b[17] & 0x20) !== 0;
  assert.ok((type === 2 || type === 3) && b[1] === 0, `uncompressed TGA expected, got type ${type}`);
  const n = bpp / 8;
  const rgba = new Uint8Array(width * height * 4);
  let s = 18 + idLen;
  for (let row = 0; row < height; row++) {
    const y = topDown ? row : height - 1 - row;
    for (let x = 0; x < width; x++, s += n) {
      const d = (y * width + x) * 4;
      if (n === 1) rgba.set([b[s], b[s], b[s], 255], d);
      else rgba.set([b[s + 2], b[s + 1], b[s], n === 4 ? b[s + 3] : 255], d);
    }
  }
  return { width, height, rgba };
}

test('bcn: BC1-BC5 against NVIDIA Texture Tools (nvcompress -> ours vs nvdecompress)', (t) => {
  const have = (c: string): boolean => !spawnSync(c, [], { stdio: 'ignore' }).error;
  if (!have('nvcompress') || !have('nvdecompress')) {
    t.skip('nvcompress / nvdecompress are absent (apt-get install libnvtt-bin): no NVTT reference');
    return;
  }
  const dir = tempDir();
  const w = 16;
  const h = 12;
  const rnd = prng(77);
  const img = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      img[i] = (x * 16 + rnd() * 24) & 255;
      img[i + 1] = (y * 20 + rnd() * 24) & 255;
      img[i + 2] = ((x + y) * 9) & 255;
      img[i + 3] = 255 - ((x * y * 3) & 255);
    }
  }
  const src = path.join(dir, 'in.png');
  fs.writeFileSync(src, encodePng(img, w, h));
  const channels: Record<string, number[]> = { bc1: [0, 1, 2], bc2: [0, 1, 2, 3], bc3: [0, 1, 2, 3], bc4: [0], bc5: [0, 1] };
  for (const [mode, chans] of Object.entries(channels)) {
    const dds = path.join(dir, `${mode}.dds`);
    const c = spawnSync('nvcompress', [`-${mode}`, '-nomips', src, dds]);
    assert.equal(c.status, 0, `nvcompress -${mode}: ${c.stderr}`);
    const d = spawnSync('nvdecompress', [dds], { cwd: dir });
    assert.equal(d.status, 0, `nvdecompress: ${d.stderr}`);
    const ref = readTga(fs.readFileSync(path.join(dir, `${mode}.tga`)));
    const bytes = fs.readFileSync(dds);
    const parsed = parseDds(bytes, dds);
    const ours = decodeDdsLevel(parsed, bytes, 0, 0);
    assert.deepEqual([ref.width, ref.height], [ours.width, ours.height]);
    let max = 0;
    for (let i = 0; i < ref.rgba.length; i += 4) for (const ch of chans) max = Math.max(max, Math.abs(ref.rgba[i + ch] - ours.rgba[i + ch]));
    t.diagnostic(`${mode} (${parsed.format.name}): max difference vs nvdecompress ${max} over channels ${chans.join(',')}`);
    assert.ok(max <= 3, `${mode}: max difference ${max}`);
  }
});
