import { test } from 'node:test';
import { expectArch06Error } from '../../../../test/support/errors';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Arch06Error } from '../../../errors';
import { DDS_MAGIC, DDSCAPS2_CUBEMAP, DDSCAPS2_CUBEMAP_FACES, DDPF_ALPHAPIXELS, DDPF_FOURCC, DDPF_RGB, DDSD_MIPMAPCOUNT, parseDds } from '../dds';
import { parseTexr, parseTextureFile, tierOf } from '../texr';
import { sharedPath } from '../../../../test/support/shared';

const TEX = sharedPath('samples/real/fellbeast_body_d.tex');
const DDS = sharedPath('samples/real/fellbeast_body_d.dds');

function expectError(f: () => unknown, code: string, field?: string | RegExp): Arch06Error {
  const caught = expectArch06Error(f, code, { field });
  assert.equal(caught.file, 'x.tex');
  assert.equal(typeof caught.offset, 'number', caught.message);
  return caught;
}

// ---- synthetic files, built by the layout rules written out here ------------------------------

interface DdsSpec {
  width: number;
  height: number;
  mips: number;
  fourCC?: string;
  dx10?: { dxgi: number; arraySize: number; dimension?: number; misc?: number };
  rgb?: { bits: number; r: number; g: number; b: number; a: number; flags: number };
  caps2?: number;
  dataBytes: number;
}
function makeDds(s: DdsSpec): Uint8Array {
  const head = Buffer.alloc(128 + (s.dx10 ? 20 : 0));
  head.write('DDS ', 0, 'latin1');
  head.writeUInt32LE(124, 4);
  head.writeUInt32LE(0x1007 | DDSD_MIPMAPCOUNT, 8);
  head.writeUInt32LE(s.height, 12);
  head.writeUInt32LE(s.width, 16);
  head.writeUInt32LE(s.mips, 28);
  head.writeUInt32LE(32, 76);
  if (s.rgb) {
    head.writeUInt32LE(s.rgb.flags, 80);
    head.writeUInt32LE(s.rgb.bits, 88);
    head.writeUInt32LE(s.rgb.r, 92);
    head.writeUInt32LE(s.rgb.g, 96);
    head.writeUInt32LE(s.rgb.b, 100);
    head.writeUInt32LE(s.rgb.a >>> 0, 104);
  } else {
    head.writeUInt32LE(DDPF_FOURCC, 80);
    head.write(s.dx10 ? 'DX10' : (s.fourCC ?? 'DXT1'), 84, 'latin1');
  }
  head.writeUInt32LE(0x1000, 108);
  head.writeUInt32LE(s.caps2 ?? 0, 112);
  if (s.dx10) {
    head.writeUInt32LE(s.dx10.dxgi, 128);
    head.writeUInt32LE(s.dx10.dimension ?? 3, 132);
    head.writeUInt32LE(s.dx10.misc ?? 0, 136);
    head.writeUInt32LE(s.dx10.arraySize, 140);
  }
  const data = Buffer.alloc(s.dataBytes);
  for (let i = 0; i < data.length; i++) data[i] = (i * 37) & 0xff;
  return Buffer.concat([head, data]);
}
function makeTexr(path: string, dds: Uint8Array, unk4Length = 18, version = 8): Uint8Array {
  const p = Buffer.from(path, 'latin1');
  const h = Buffer.alloc(0x12 + p.length + 5 + unk4Length);
  h.write('TEXR', 0, 'latin1');
  h.writeUInt32LE(version, 4);
  h.writeUInt32LE(0x0d000b0c, 8);
  h.writeUInt32LE(0x201, 12);
  h.writeUInt16LE(p.length, 16);
  p.copy(h, 18);
  const P = 18 + p.length;
  h[P] = 3;
  h.writeUInt16LE(16, P + 1);
  h.writeUInt16LE(16, P + 3);
  return Buffer.concat([h, dds]);
}
// 8x8 BC1 with 4 mips: 32 + 8 + 8 + 8 bytes of levels.
const small = (): Uint8Array => makeTexr('a\\b.tex0', makeDds({ width: 8, height: 8, mips: 4, dataBytes: 56 }));

// ---- the real sample ---------------------------------------------------------------------

test('texr: the real fellbeast_body_d.tex', { skip: TEX.skip || DDS.skip }, () => {
  const bytes = fs.readFileSync(TEX.path);
  const t = parseTexr(bytes, TEX.path);
  assert.equal(t.container, 'TEXR');
  assert.equal(t.version, 8);
  assert.equal(t.path, 'characters\\modelcharacters\\fellbeast\\body\\fellbeast_body_d.tex0');
  assert.deepEqual(t.tierName, { path: t.path, tier: 'tex0' });
  assert.equal(t.width, 4096);
  assert.equal(t.height, 2048);
  assert.equal(t.unk3, 3);
  assert.equal(t.unk4.length, 18);
  assert.equal(t.ddsOffset, 0x12 + 63 + 23);
  assert.equal(t.confidence, 'confirmed');
  assert.ok(
    t.fields
      .filter((f) => f.certainty === 'uncertain')
      .map((f) => f.name)
      .join() === 'unk1,unk2,unk3,unk4',
  );
  const embedded = bytes.subarray(t.ddsOffset);
  const exported = fs.readFileSync(DDS.path);
  assert.equal(embedded.length, exported.length);
  assert.ok(Buffer.compare(embedded, exported) === 0, 'the embedded DDS is byte-identical to the export');
  const d = t.dds;
  assert.equal(d.header.pixelFormat.fourCC, 'DXT5');
  assert.equal(d.format.name, 'BC3_UNORM');
  assert.equal(d.format.decodable, true);
  assert.equal(d.width, 2048);
  assert.equal(d.height, 1024);
  assert.equal(d.mipCount, 12);
  assert.equal(d.levels.length, 12);
  assert.deepEqual(d.levels.map((l) => [l.width, l.height]).slice(-3), [
    [4, 2],
    [2, 1],
    [1, 1],
  ]);
  assert.equal(d.levels[0].offset, t.ddsOffset + 128);
  assert.equal(d.levels[0].size, 512 * 256 * 16);
  assert.equal(d.dataEnd, bytes.length, 'the levels end exactly at the end of the file');
  // The bare export parses to the same description.
  const e = parseTextureFile(exported, DDS.path);
  assert.equal(e.texr, undefined);
  assert.deepEqual(
    e.dds.levels.map((l) => l.size),
    d.levels.map((l) => l.size),
  );
});

test('texr: the real file cut short or cut inside its last level gives TRUNCATED', { skip: TEX.skip }, () => {
  const bytes = fs.readFileSync(TEX.path);
  for (const n of [0, 3, 10, 17, 40, 81, 84, 100, 104 + 60, 104 + 128 + 5]) {
    expectError(() => parseTexr(bytes.subarray(0, n), 'x.tex'), 'TRUNCATED');
  }
  expectError(() => parseTexr(bytes.subarray(0, bytes.length - 1), 'x.tex'), 'TRUNCATED', 'dds.surface[0].mip[11]');
  expectError(() => parseTexr(bytes.subarray(0, bytes.length - 3000), 'x.tex'), 'TRUNCATED', /mip\[\d+\]/);
});

// ---- corruptions -------------------------------------------------------------------------

test('texr: a synthetic file parses, and every truncation gives TRUNCATED naming a field', () => {
  const b = small();
  const t = parseTexr(b, 'x.tex');
  assert.equal(t.path, 'a\\b.tex0');
  assert.equal(t.dds.levels.length, 4);
  assert.equal(t.dds.dataEnd, b.length);
  for (let n = 0; n < b.length; n++) {
    const e = expectError(() => parseTexr(b.subarray(0, n), 'x.tex'), 'TRUNCATED');
    assert.ok(e.field, `cut at ${n}: ${e.message}`);
  }
});

test('texr: bad magic, big-endian, wrong version', () => {
  const b = Buffer.from(small());
  b.write('TEXQ', 0, 'latin1');
  expectError(() => parseTexr(b, 'x.tex'), 'BAD_MAGIC', 'magic');
  b.write('RXET', 0, 'latin1');
  expectError(() => parseTexr(b, 'x.tex'), 'UNSUPPORTED_VERSION', 'magic');
  expectError(() => parseTexr(makeTexr('a', makeDds({ width: 4, height: 4, mips: 1, dataBytes: 8 }), 18, 7), 'x.tex'), 'UNSUPPORTED_VERSION', 'version');
});

test('texr: DDS found after an unknown block of another length (noted), or not at all', () => {
  const t = parseTexr(makeTexr('', makeDds({ width: 4, height: 4, mips: 1, dataBytes: 8 }), 30), 'x.tex');
  assert.equal(t.unk4.length, 30);
  assert.equal(t.tierName.tier, 'empty');
  assert.equal(t.confidence, 'uncertain');
  assert.ok(t.notes.some((n) => /P \+ 35/.test(n)));
  const far = makeTexr('a', makeDds({ width: 4, height: 4, mips: 1, dataBytes: 8 }), 400);
  expectError(() => parseTexr(far, 'x.tex'), 'INVALID', 'dds.magic');
});

test('texr: DDS header faults (sizes, mip count, level data past the end)', () => {
  const base = small();
  const dds = base.length - 56 - 128;
  const patch = (at: number, v: number): Uint8Array => {
    const b = Buffer.from(base);
    b.writeUInt32LE(v, dds + at);
    return b;
  };
  expectError(() => parseTexr(patch(4, 123), 'x.tex'), 'INVALID', 'dds.header.size');
  expectError(() => parseTexr(patch(76, 36), 'x.tex'), 'INVALID', 'dds.header.pixelFormat.size');
  expectError(() => parseTexr(patch(28, 5), 'x.tex'), 'OUT_OF_RANGE', 'dds.header.mipMapCount');
  expectError(() => parseTexr(patch(16, 0), 'x.tex'), 'OUT_OF_RANGE', 'dds.header.width');
  expectError(() => parseTexr(patch(12, 1 << 20), 'x.tex'), 'OUT_OF_RANGE', 'dds.header.height');
  // 16 high instead of 8: the top level needs 64 bytes, so the last level runs past the end.
  expectError(() => parseTexr(patch(12, 16), 'x.tex'), 'TRUNCATED', /dds\.surface\[0\]\.mip\[\d\]/);
  const e = expectError(() => parseTexr(patch(0, 0x53444400), 'x.tex'), 'INVALID', 'dds.magic');
  assert.equal(e.offset, dds - 18 - 5 + 5);
});

test('texr: SLVT v4 wrapping a TEXR; SLVT faults', () => {
  const inner = small();
  const slvt = Buffer.concat([Buffer.from('SLVT', 'latin1'), Buffer.from([4, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]), inner]);
  const t = parseTexr(slvt, 'x.tex');
  assert.equal(t.container, 'SLVT');
  assert.equal(t.texrOffset, 16);
  assert.equal(t.slvt?.certainty, 'uncertain');
  assert.equal(t.confidence, 'uncertain');
  assert.equal(t.dds.dataEnd, slvt.length);
  const v3 = Buffer.from(slvt);
  v3[4] = 3;
  expectError(() => parseTexr(v3, 'x.tex'), 'UNSUPPORTED_VERSION', 'slvt.version');
  const none = Buffer.concat([slvt.subarray(0, 16), Buffer.alloc(5000)]);
  expectError(() => parseTexr(none, 'x.tex'), 'INVALID', 'slvt.texr');
  expectError(() => parseTexr(slvt.subarray(0, 6), 'x.tex'), 'TRUNCATED', 'slvt.version');
});

test('texr: tier of a name field', () => {
  assert.equal(tierOf('a\\b.tex'), 'tex');
  assert.equal(tierOf('a\\b.TEX0'), 'tex0');
  assert.equal(tierOf('a\\b.texuhd'), 'texuhd');
  assert.equal(tierOf(''), 'empty');
  assert.equal(tierOf('a.b\\c'), 'other');
});

// ---- DDS variants ---------------------------------------------------------------------------

test('dds: DX10 arrays, cube maps, legacy masks, formats reported but not decoded', () => {
  const arr = parseDds(makeDds({ width: 8, height: 4, mips: 2, dx10: { dxgi: 94, arraySize: 3 }, dataBytes: 3 * (32 + 16) }), 'x.tex');
  assert.equal(arr.format.name, 'BC6H_TYPELESS');
  assert.equal(arr.format.decodable, false);
  assert.match(arr.format.reason ?? '', /BC6H/);
  assert.equal(arr.surfaces, 3);
  assert.deepEqual(
    arr.levels.map((l) => [l.slice, l.mip, l.size]),
    [
      [0, 0, 32],
      [0, 1, 16],
      [1, 0, 32],
      [1, 1, 16],
      [2, 0, 32],
      [2, 1, 16],
    ],
  );
  expectError(
    () => parseDds(makeDds({ width: 8, height: 4, mips: 2, dx10: { dxgi: 98, arraySize: 3 }, dataBytes: 3 * 48 - 1 }), 'x.tex'),
    'TRUNCATED',
    'dds.surface[2].mip[1]',
  );
  expectError(
    () => parseDds(makeDds({ width: 8, height: 4, mips: 1, dx10: { dxgi: 71, arraySize: 0 }, dataBytes: 8 }), 'x.tex'),
    'INVALID',
    'dds.dx10.arraySize',
  );
  expectError(
    () => parseDds(makeDds({ width: 8, height: 4, mips: 1, dx10: { dxgi: 71, arraySize: 0x7fffffff }, dataBytes: 8 }), 'x.tex'),
    'TRUNCATED',
    'dds.dx10.arraySize',
  );
  expectError(
    () => parseDds(makeDds({ width: 8, height: 4, mips: 1, dx10: { dxgi: 71, arraySize: 1, dimension: 9 }, dataBytes: 8 }), 'x.tex'),
    'INVALID',
    'dds.dx10.resourceDimension',
  );

  const cube = parseDds(
    makeDds({ width: 4, height: 4, mips: 1, fourCC: 'ATI2', caps2: DDSCAPS2_CUBEMAP | DDSCAPS2_CUBEMAP_FACES, dataBytes: 6 * 16 }),
    'x.tex',
  );
  assert.equal(cube.dimension, 'cube');
  assert.equal(cube.surfaces, 6);
  assert.equal(cube.format.name, 'BC5_UNORM');

  const bgra = parseDds(
    makeDds({
      width: 3,
      height: 5,
      mips: 3,
      rgb: { bits: 32, r: 0xff0000, g: 0xff00, b: 0xff, a: 0xff000000, flags: DDPF_RGB | DDPF_ALPHAPIXELS },
      dataBytes: 4 * (15 + 2 + 1),
    }),
    'x.tex',
  );
  assert.equal(bgra.format.name, 'B8G8R8A8_UNORM');
  assert.deepEqual(
    bgra.levels.map((l) => [l.width, l.height, l.size]),
    [
      [3, 5, 60],
      [1, 2, 8],
      [1, 1, 4],
    ],
  );
  const rgba = parseDds(
    makeDds({
      width: 2,
      height: 2,
      mips: 1,
      rgb: { bits: 32, r: 0xff, g: 0xff00, b: 0xff0000, a: 0xff000000, flags: DDPF_RGB | DDPF_ALPHAPIXELS },
      dataBytes: 16,
    }),
    'x.tex',
  );
  assert.equal(rgba.format.name, 'R8G8B8A8_UNORM');

  const odd = parseDds(makeDds({ width: 5, height: 3, mips: 3, fourCC: 'DXT1', dataBytes: 2 * 8 + 8 + 8 }), 'x.tex');
  assert.deepEqual(
    odd.levels.map((l) => l.size),
    [16, 8, 8],
    'minimum one 4x4 block per level',
  );

  const unknown = parseDds(makeDds({ width: 4, height: 4, mips: 1, fourCC: 'ABCD', dataBytes: 3 }), 'x.tex');
  assert.equal(unknown.format.decodable, false);
  assert.equal(unknown.levels.length, 0);
  assert.ok(unknown.notes.some((n) => /unknown/.test(n)));
  assert.equal(DDS_MAGIC, 0x20534444);
});
