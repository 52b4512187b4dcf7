import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';
import { parseTexa } from '../texa';
import { parseTextureFile } from '../texr';
import { decodeDdsLevel } from '../../../image/bcn';
import { QuadrantPicture, Rgb, bc1QuadrantChain, writeDds, writeTexa } from '../writer';
import { SAMPLE_TEXTURE_ARRAY, SAMPLE_TEXTURE_ARRAY_SLICES, sampleTextureArray } from '../../../sample/sampleGame';

// Expected colours from the chosen colours by the BC1 rules (RGB565 with bit replication).
const widen = (c: Rgb): number[] => {
  const r5 = Math.round((c[0] * 31) / 255);
  const g6 = Math.round((c[1] * 63) / 255);
  const b5 = Math.round((c[2] * 31) / 255);
  return [(r5 << 3) | (r5 >> 2), (g6 << 2) | (g6 >> 4), (b5 << 3) | (b5 >> 2), 255];
};
const pics: QuadrantPicture[] = [
  {
    quadrants: [
      [255, 0, 0],
      [255, 0, 0],
      [255, 0, 0],
      [255, 0, 0],
    ],
  },
  {
    quadrants: [
      [0, 0, 255],
      [0, 0, 255],
      [0, 0, 255],
      [0, 0, 255],
    ],
  },
];
const arrayDds = (): Uint8Array =>
  writeDds({ width: 32, height: 32, format: 'BC1', mips: bc1QuadrantChain(32, pics[0]), extraSlices: [bc1QuadrantChain(32, pics[1])] });

test('the sample array parses: DX10 DDS with arraySize = slice count, own path then one source per slice', () => {
  const t = parseTexa(sampleTextureArray(), 'sample.texa');
  assert.equal(t.version, 1);
  assert.ok(t.dds.dx10, 'DX10 header');
  assert.equal(t.dds.arraySize, 3);
  assert.equal(t.dds.mipCount, 7);
  assert.equal(t.dds.levels.length, 3 * 7);
  assert.equal(t.ownPath, SAMPLE_TEXTURE_ARRAY);
  assert.deepEqual(t.slicePaths, SAMPLE_TEXTURE_ARRAY_SLICES);
  assert.ok(
    t.paths.every((p) => p.framing === 'u16 length'),
    JSON.stringify(t.paths),
  );
  assert.equal(t.confidence, 'uncertain');
  assert.match(t.notes.join('\n'), /no documented header layout/);
});

test('slices are stored one after another with full mip chains: each slice decodes to its own picture', () => {
  const bytes = writeTexa({ path: 'a.texa', slicePaths: ['red.tex', 'blue.tex'], dds: arrayDds() });
  const t = parseTextureFile(bytes, 'a.texa');
  assert.ok(t.texa);
  assert.equal(t.dds.surfaces, 2);
  const l0 = t.dds.levels.find((l) => l.slice === 1 && l.mip === 0)!;
  const lastOf0 = t.dds.levels.filter((l) => l.slice === 0).pop()!;
  assert.equal(l0.offset, lastOf0.offset + lastOf0.size, 'slice 1 starts right after slice 0 mip chain');
  assert.deepEqual([...decodeDdsLevel(t.dds, t.bytes, 0, 0).rgba.subarray(0, 4)], widen([255, 0, 0]));
  assert.deepEqual([...decodeDdsLevel(t.dds, t.bytes, 1, 0).rgba.subarray(0, 4)], widen([0, 0, 255]));
  assert.deepEqual([...decodeDdsLevel(t.dds, t.bytes, 1, 3).rgba.subarray(0, 4)], widen([0, 0, 255]));
});

test('paths that do not fit own + one per slice are listed unassigned, with a note', () => {
  const t = parseTexa(writeTexa({ path: 'a.texa', slicePaths: ['red.tex'], dds: arrayDds() }), 'a.texa');
  assert.equal(t.paths.length, 2);
  assert.equal(t.slicePaths, undefined);
  assert.match(t.notes.join('\n'), /listed unassigned/);
});

test('bad TEXA input fails with typed errors naming the field', () => {
  const good = writeTexa({ path: 'a.texa', slicePaths: ['red.tex', 'blue.tex'], dds: arrayDds() });
  expectArch06Error(() => parseTexa(good.subarray(0, 6), 'x'), 'TRUNCATED');
  const v2 = Uint8Array.from(good);
  v2[4] = 2;
  expectArch06Error(() => parseTexa(v2, 'x'), 'UNSUPPORTED_VERSION', { field: 'version' });
  const noDds = Uint8Array.from(good.subarray(0, 40));
  expectArch06Error(() => parseTexa(noDds, 'x'), 'INVALID', { field: 'dds.magic' });
  const badMagic = Uint8Array.from(good);
  badMagic[0] = 0x58;
  expectArch06Error(() => parseTexa(badMagic, 'x'), 'BAD_MAGIC', { field: 'magic' });
  // Every truncation and random mutations: parsed or a typed error, never anything else.
  const rand = prng(61);
  for (let cut = 0; cut < good.length; cut += 7) {
    try {
      parseTexa(good.subarray(0, cut), 'cut');
    } catch (e) {
      assert.ok(e instanceof Arch06Error, `cut ${cut}: ${String(e)}`);
    }
  }
  for (let i = 0; i < 500; i++) {
    const m = Uint8Array.from(good);
    for (let k = 0; k < 4; k++) m[Math.floor(rand() * Math.min(m.length, 300))] = Math.floor(rand() * 256);
    try {
      parseTexa(m, 'mut');
    } catch (e) {
      assert.ok(e instanceof Arch06Error, `mutation ${i}: ${String(e)}`);
    }
  }
});

test('a header made to defeat the framing search (64 KB of near-chains) still parses, scanned once per byte', () => {
  // 04 00 "AAAA" repeated, with the last string cut short: every start begins a long chain that
  // fails at the end. A search that re-walked the chain from every start took ~20 s on this.
  const unit = [4, 0, 0x41, 0x41, 0x41, 0x41];
  const head = new Uint8Array(Math.floor(64000 / unit.length) * unit.length);
  for (let i = 0; i < head.length; i++) head[i] = unit[i % unit.length];
  head[head.length - 1] = 0x01;
  const dds = arrayDds();
  const bytes = new Uint8Array(8 + head.length + dds.length);
  bytes.set([0x54, 0x45, 0x58, 0x41, 1, 0, 0, 0]);
  bytes.set(head, 8);
  bytes.set(dds, 8 + head.length);
  const t = parseTexa(bytes, 'crafted.texa');
  assert.equal(t.dds.arraySize, 2);
  assert.match(t.notes.join('\n'), /path characters|prefixed/);
});
