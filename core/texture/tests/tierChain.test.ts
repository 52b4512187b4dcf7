// The tier chain over the sample install's texture and array (seed 004 "Tiers"), and the tiers
// that do not join: missing, unparsable, other slices, unreadable.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { parseTextureFile } from '../../formats/texture/texr';
import { writeDds, writeTexr, bc1QuadrantChain } from '../../formats/texture/writer';
import {
  SAMPLE_TEXTURE,
  SAMPLE_TEXTURE_ARRAY,
  SAMPLE_TEXTURE_PICTURE,
  sampleTexture,
  sampleTextureArray,
  sampleTextureArrayTier0,
  sampleTextureTier0,
} from '../../sample/sampleGame';
import { tierChain } from '../tierChain';

/** A reader over a fixed set of files (by exact path), recording what it was asked for. */
function files(map: Record<string, Uint8Array>): { read: (p: string) => Uint8Array | undefined; asked: string[] } {
  const asked: string[] = [];
  return { read: (p) => (asked.push(p), map[p]), asked };
}

const TEX0 = `${SAMPLE_TEXTURE}0`;
const TEXUHD = SAMPLE_TEXTURE.replace(/\.tex$/, '.texuhd');

test('tierChain: the .tex0 sibling heads the chain, each level labelled with its file; the missing .texuhd is listed', async () => {
  const tex = sampleTexture();
  const tex0 = sampleTextureTier0();
  const r = files({ [TEX0]: tex0 });
  const chain = await tierChain(SAMPLE_TEXTURE, parseTextureFile(tex, SAMPLE_TEXTURE), r.read);
  assert.deepEqual(r.asked, [TEX0, TEXUHD]);
  assert.deepEqual(
    chain.tiers.map((t) => ({ file: t.file, own: t.own, present: t.present, size: t.size, joined: t.joined })),
    [
      { file: 'sample_banner_d.tex', own: true, present: true, size: tex.length, joined: true },
      { file: 'sample_banner_d.tex0', own: false, present: true, size: tex0.length, joined: true },
      { file: 'sample_banner_d.texuhd', own: false, present: false, size: undefined, joined: false },
    ],
  );
  assert.equal(chain.tiers[1]!.path, TEX0);
  // 512 from the .tex0, then the .tex's own chain 256 .. 1.
  assert.deepEqual(
    chain.levels.map((l) => `${l.width}:${l.from}:${l.mip}`),
    ['512:sample_banner_d.tex0:0', ...[256, 128, 64, 32, 16, 8, 4, 2, 1].map((w, mip) => `${w}:sample_banner_d.tex:${mip}`)],
  );
  assert.equal(chain.levels[0]!.size, (512 / 4) * (512 / 4) * 8, 'BC1: 8 bytes a 4x4 block');
});

test('tierChain: opened from the .tex0, the chain is the same; the higher tier wins a size both carry', async () => {
  const fromTier0 = await tierChain(TEX0, parseTextureFile(sampleTextureTier0(), TEX0), files({ [SAMPLE_TEXTURE]: sampleTexture() }).read);
  assert.deepEqual(
    fromTier0.tiers.map((t) => [t.file, t.own, t.joined]),
    [
      ['sample_banner_d.tex', false, true],
      ['sample_banner_d.tex0', true, true],
      ['sample_banner_d.texuhd', false, false],
    ],
  );
  assert.equal(fromTier0.levels.length, 10);
  assert.equal(fromTier0.levels[0]!.from, 'sample_banner_d.tex0');
  // A .tex0 with its full chain overlaps the .tex at every size below 512: the .tex0 wins them all.
  const full = writeTexr({
    path: SAMPLE_TEXTURE,
    width: 512,
    height: 512,
    dds: writeDds({ width: 512, height: 512, format: 'BC1', mips: bc1QuadrantChain(512, SAMPLE_TEXTURE_PICTURE) }),
  });
  const overlap = await tierChain(SAMPLE_TEXTURE, parseTextureFile(sampleTexture(), SAMPLE_TEXTURE), files({ [TEX0]: full }).read);
  assert.equal(overlap.levels.length, 10);
  assert.ok(overlap.levels.every((l) => l.from === 'sample_banner_d.tex0'));
  assert.deepEqual(
    overlap.levels.map((l) => l.mip),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
});

test('tierChain: an array joins its .texa0 (same slices); a tier with other slices or that does not parse stays out, with the reason', async () => {
  const own = parseTextureFile(sampleTextureArray(), SAMPLE_TEXTURE_ARRAY);
  const joined = await tierChain(SAMPLE_TEXTURE_ARRAY, own, files({ [`${SAMPLE_TEXTURE_ARRAY}0`]: sampleTextureArrayTier0() }).read);
  assert.deepEqual(joined.levels.map((l) => `${l.width}:${l.from}`).slice(0, 2), ['128:sample_ground_array.texa0', '64:sample_ground_array.texa']);
  // A one-slice texture as the .texa0 of a three-slice array; garbage as the .texauhd.
  const odd = await tierChain(
    SAMPLE_TEXTURE_ARRAY,
    own,
    files({ [`${SAMPLE_TEXTURE_ARRAY}0`]: sampleTexture(), [SAMPLE_TEXTURE_ARRAY.replace(/\.texa$/, '.texauhd')]: new Uint8Array(16) }).read,
  );
  const [, texa0, texauhd] = odd.tiers;
  assert.equal(texa0!.present, true);
  assert.equal(texa0!.joined, false);
  assert.equal(texa0!.reason, '1 slices, sample_ground_array.texa has 3');
  assert.equal(texauhd!.present, true);
  assert.equal(texauhd!.joined, false);
  assert.match(texauhd!.reason!, /\S/);
  assert.ok(odd.levels.every((l) => l.from === 'sample_ground_array.texa'));
});

test('tierChain: a reader error that is bad input is the tier reason; any other error is the caller’s', async () => {
  const own = parseTextureFile(sampleTexture(), SAMPLE_TEXTURE);
  const capped = await tierChain(SAMPLE_TEXTURE, own, (p) => {
    if (p === TEX0) throw new Arch06Error('TRUNCATED', 'over the entry cap', { file: p });
    return undefined;
  });
  assert.deepEqual([capped.tiers[1]!.present, capped.tiers[1]!.joined], [true, false]);
  assert.match(capped.tiers[1]!.reason!, /over the entry cap/);
  await assert.rejects(
    tierChain(SAMPLE_TEXTURE, own, () => {
      throw new Error('disk on fire');
    }),
    /disk on fire/,
  );
});

test('tierChain: a name outside the tier families (.dds) is its own chain; async readers work too', async () => {
  const dds = writeDds({ width: 8, height: 8, format: 'BC1', mips: bc1QuadrantChain(8, SAMPLE_TEXTURE_PICTURE) });
  const asked: string[] = [];
  const chain = await tierChain('a/b/plain.dds', parseTextureFile(dds, 'a/b/plain.dds'), async (p: string) => (asked.push(p), undefined));
  assert.equal(asked.length, 0, 'no siblings to look for');
  assert.deepEqual(
    chain.tiers.map((t) => [t.file, t.own]),
    [['plain.dds', true]],
  );
  assert.deepEqual(
    chain.levels.map((l) => l.width),
    [8, 4, 2, 1],
  );
  const upper = await tierChain('X/Y_D.TEX', parseTextureFile(sampleTexture(), 'X/Y_D.TEX'), async (p: string) => (asked.push(p), undefined));
  assert.deepEqual(asked, ['X/Y_D.tex0', 'X/Y_D.texuhd'], 'the stem as spelled, the tier extensions in lower case');
  assert.equal(upper.tiers[0]!.file, 'Y_D.TEX');
});

/** The sample's 256x256 .tex with another name field and dimension pair. */
function texNaming(name: string, width: number, height: number): Uint8Array {
  const dds = writeDds({ width: 256, height: 256, format: 'BC1', mips: bc1QuadrantChain(256, SAMPLE_TEXTURE_PICTURE) });
  return writeTexr({ path: name, width, height, dds });
}

test('tierChain: the header names the .tex0 and its 512x512; with the .tex0 missing, the shortfall says so and what is shown instead', async () => {
  const own = parseTextureFile(sampleTexture(), SAMPLE_TEXTURE);
  const chain = await tierChain(SAMPLE_TEXTURE, own, () => undefined, { source: { name: 'Base.arch06', kind: 'archive' } });
  assert.deepEqual(chain.header, { width: 512, height: 512, nameField: TEX0, names: 'tex0' });
  assert.deepEqual(
    chain.tiers.map((t) => [t.ext, t.own, t.named, t.present, t.source?.name ?? null]),
    [
      ['tex', true, false, true, 'Base.arch06'],
      ['tex0', false, true, false, null],
      ['texuhd', false, false, false, null],
    ],
  );
  assert.deepEqual([chain.levels[0]!.width, chain.levels[0]!.from], [256, 'sample_banner_d.tex'], 'the largest present level is the .tex’s own');
  assert.equal(chain.shortfall?.tier, chain.tiers[1]);
  assert.equal(
    chain.shortfall?.message,
    '512×512 per header; the .tex0 tier (textures\\sample\\sample_banner_d.tex0) is not in the mount: showing 256×256 from sample_banner_d.tex',
  );
  // One source's own view: the sentence names it.
  const scoped = await tierChain(SAMPLE_TEXTURE, own, () => undefined, { scope: 'Base.arch06' });
  assert.match(scoped.shortfall!.message, /is not in Base\.arch06: showing 256×256/);
});

test('tierChain: with the .tex0 present and larger, it is the top level, with the source that served it, and nothing is short', async () => {
  const own = parseTextureFile(sampleTexture(), SAMPLE_TEXTURE);
  const chain = await tierChain(SAMPLE_TEXTURE, own, (p) =>
    p === TEX0 ? { bytes: sampleTextureTier0(), source: { name: 'Patch_01.arch06', kind: 'archive' } } : undefined,
  );
  assert.deepEqual(chain.tiers[1]!.source, { name: 'Patch_01.arch06', kind: 'archive' });
  assert.deepEqual([chain.tiers[1]!.named, chain.tiers[1]!.present, chain.tiers[1]!.joined], [true, true, true]);
  assert.deepEqual([chain.levels[0]!.width, chain.levels[0]!.height, chain.levels[0]!.from, chain.levels[0]!.mip], [512, 512, 'sample_banner_d.tex0', 0]);
  assert.equal(chain.shortfall, undefined);
  // Opened from the .tex0 (whose name field names the .tex): the .tex is the named tier; no shortfall.
  const up = await tierChain(TEX0, parseTextureFile(sampleTextureTier0(), TEX0), (p) => (p === SAMPLE_TEXTURE ? sampleTexture() : undefined));
  assert.deepEqual(
    up.tiers.map((t) => [t.ext, t.named]),
    [
      ['tex', true],
      ['tex0', false],
      ['texuhd', false],
    ],
  );
  assert.equal(up.shortfall, undefined);
});

test('tierChain: the fellbeast case (4096x2048 per header, the named .tex0 missing); a named tier that does not join; tiers short of the header', async () => {
  const path = 'characters\\modelcharacters\\fellbeast\\body\\fellbeast_body_d.tex';
  const own = parseTextureFile(texNaming(`${path}0`, 4096, 2048), path);
  const missing = await tierChain(path, own, () => undefined);
  assert.equal(
    missing.shortfall?.message,
    '4096×2048 per header; the .tex0 tier (characters\\modelcharacters\\fellbeast\\body\\fellbeast_body_d.tex0) is not in the mount: showing 256×256 from fellbeast_body_d.tex',
  );
  assert.deepEqual([missing.shortfall?.width, missing.shortfall?.height], [4096, 2048]);
  // The .tex0 there but not a texture: named, present, not joined, and the sentence says why.
  const broken = await tierChain(path, own, (p) => (p.endsWith('.tex0') ? new Uint8Array(16) : undefined));
  assert.equal(broken.shortfall?.tier?.ext, 'tex0');
  assert.match(
    broken.shortfall!.message,
    /^4096×2048 per header; the \.tex0 tier \(.*\.tex0\) is in the mount but does not join the chain \(.+\): showing 256×256/,
  );
  // The .tex0 joins but is itself short of the header (seed 004: tiers do not always agree); the .texuhd is missing.
  const short = await tierChain(path, own, (p) => (p.endsWith('.tex0') ? sampleTextureTier0() : undefined));
  assert.equal(short.levels[0]!.from, 'fellbeast_body_d.tex0');
  assert.equal(short.shortfall?.tier?.ext, 'texuhd');
  assert.match(
    short.shortfall!.message,
    /no tier in the mount holds it \(\.texuhd \(.*fellbeast_body_d\.texuhd\) not in the mount\): showing 512×512 from fellbeast_body_d\.tex0$/,
  );
});

test('tierChain: a name field of another stem, an empty one, or a header with no size names no tier; a view prefix on the path still matches', async () => {
  const other = await tierChain(SAMPLE_TEXTURE, parseTextureFile(texNaming('textures\\other\\x_d.tex0', 256, 256), SAMPLE_TEXTURE), () => undefined);
  assert.equal(other.header?.names, undefined);
  assert.ok(other.tiers.every((t) => !t.named));
  assert.equal(other.shortfall, undefined, 'the header size is what the .tex has');
  const empty = await tierChain(SAMPLE_TEXTURE, parseTextureFile(texNaming('', 0, 0), SAMPLE_TEXTURE), () => undefined);
  assert.equal(empty.header, undefined);
  assert.equal(empty.shortfall, undefined);
  // A disk path (or a URI path) ending in the stored stem matches it, case-insensitively.
  const disk = '/home/me/extract/Textures/Sample/SAMPLE_BANNER_D.tex';
  const onDisk = await tierChain(disk, parseTextureFile(sampleTexture(), disk), () => undefined);
  assert.equal(onDisk.header?.names, 'tex0');
  assert.match(onDisk.shortfall!.message, /the \.tex0 tier \(\/home\/me\/extract\/Textures\/Sample\/SAMPLE_BANNER_D\.tex0\) is not in the mount/);
});
