// `arch06 texture` as a user runs it: the real .tex inside an archive of a temporary install.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter } from '../../core/formats/archive';
import { SAMPLE_TEXTURE, sampleTexture, sampleTextureTier0 } from '../../core/sample';
import { repoRoot, sharedPath } from '../support/shared';
import { tempDir, writeTree } from '../support/fixtures';

const cli = path.join(repoRoot(), 'dist', 'cli.js');
const TEX = sharedPath('samples/real/fellbeast_body_d.tex');
const ENTRY = 'characters\\modelcharacters\\fellbeast\\body\\fellbeast_body_d.tex';

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { maxBuffer: 16 << 20 });
  return { code: r.status ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** Width and height from a PNG's IHDR, after checking the signature and chunk type. */
function ihdr(file: string): [number, number] {
  const b = fs.readFileSync(file);
  assert.deepEqual([...b.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(b.subarray(12, 16).toString('latin1'), 'IHDR');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function install(): string {
  const root = tempDir('arch06-tex-');
  const w = new LtarWriter();
  w.addBytes(ENTRY, fs.readFileSync(TEX.path));
  writeTree(root, { 'x64/default.archcfg': '..\\Base.arch06\r\n', 'Base.arch06': w.toBytes() });
  return root;
}

test('texture: a level of a mounted .tex as PNG (top and --mip 3)', { skip: TEX.skip }, () => {
  const root = install();
  const out = path.join(tempDir(), 'out.png');
  const r = run('texture', root, ENTRY, '--png', out);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(ihdr(out), [2048, 1024]);
  assert.ok(fs.statSync(out).size > 1000);
  const m3 = path.join(path.dirname(out), 'mip3.png');
  const r3 = run('texture', root, ENTRY.replace(/\\/g, '/'), '--mip', '3', '--png', m3);
  assert.equal(r3.code, 0, r3.stderr);
  assert.deepEqual(ihdr(m3), [256, 128]);
});

test(
  'texture on the real .tex whose named .tex0 is not mounted: 4096x2048 per header, the shortfall says so, --png exports the 2048x1024 it has',
  { skip: TEX.skip },
  () => {
    const root = install();
    const j = run('texture', root, ENTRY, '--json');
    assert.equal(j.code, 0, j.stderr);
    const chain = JSON.parse(j.stdout).tierChain;
    assert.deepEqual(chain.header, { width: 4096, height: 2048, nameField: `${ENTRY}0`, names: 'tex0' });
    assert.deepEqual(
      chain.tiers.map((t: any) => [t.ext, t.named, t.present, t.source?.name ?? null]),
      [
        ['tex', false, true, 'Base.arch06'],
        ['tex0', true, false, null],
        ['texuhd', false, false, null],
      ],
    );
    assert.deepEqual(chain.top, { width: 2048, height: 1024, from: 'fellbeast_body_d.tex', mip: 0 });
    assert.equal(chain.shortfall.message, `4096×2048 per header; the .tex0 tier (${ENTRY}0) is not in the mount: showing 2048×1024 from fellbeast_body_d.tex`);
    const text = run('texture', root, ENTRY);
    assert.match(
      text.stdout,
      /tier fellbeast_body_d\.tex0 \(named by the header\): missing \(looked up characters\\modelcharacters\\fellbeast\\body\\fellbeast_body_d\.tex0\)/,
    );
    assert.match(text.stdout, /missing: 4096×2048 per header; the \.tex0 tier/);
  },
);

test('texture --json and texture-file; bad input and missing paths', { skip: TEX.skip }, () => {
  const root = install();
  const j = run('texture', root, ENTRY, '--json');
  assert.equal(j.code, 0, j.stderr);
  const parsed = JSON.parse(j.stdout);
  assert.equal(parsed.texr.version, 8);
  assert.equal(parsed.texr.tierName.tier, 'tex0');
  assert.equal(parsed.dds.format.name, 'BC3_UNORM');
  assert.equal(parsed.dds.levels.length, 12);
  const f = run('texture-file', TEX.path, '--png=' + path.join(tempDir(), 'f.png'), '--mip', '11');
  assert.equal(f.code, 0, f.stderr);
  assert.match(f.stdout, /1x1/);
  assert.equal(run('texture', root, 'no\\such.tex', '--json').code, 1);
  assert.equal(run('texture', root, ENTRY, '--mip', '12', '--png', path.join(tempDir(), 'x.png')).code, 2);
  const bad = path.join(tempDir(), 'bad.tex');
  fs.writeFileSync(bad, Buffer.from('TEXR\x07\0\0\0'));
  const b = run('texture-file', bad);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /version/);
});

test('texture on the sample install: a TEXA array lists its slices; --slice picks one', () => {
  const root = path.join(tempDir('arch06-texa-'), 'game');
  assert.equal(run('make-sample', root).code, 0);
  const r = run('texture', root, 'textures\\sample\\sample_ground_array.texa');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /TEXA v1/);
  assert.match(r.stdout, /slice 2: textures\\sample\\ground_rock_d\.tex/);
  assert.match(r.stdout, /3 surface\(s\)/);
  const out = path.join(tempDir(), 'rock.png');
  assert.equal(run('texture', root, 'textures/sample/sample_ground_array.texa', '--slice', '2', '--png', out).code, 0);
  assert.deepEqual(ihdr(out), [128, 128], 'the largest present level of slice 2: the .texa0 tier’s (Patch_01)');
  assert.equal(run('texture', root, 'textures/sample/sample_ground_array.texa', '--slice', '2', '--mip', '0', '--png', out).code, 0);
  assert.deepEqual(ihdr(out), [64, 64], 'mip 0 of the .texa itself');
  const bad = run('texture', root, 'textures/sample/sample_ground_array.texa', '--slice', '3', '--png', out);
  assert.equal(bad.code, 2, 'a slice past the array is bad input');
  const json = JSON.parse(run('texture', root, 'textures\\sample\\sample_banner_d.tex', '--json').stdout);
  assert.equal(json.role.kind, 'diffuse');
  assert.equal(json.role.srgbMeasured, '5,128 of 5,203 _d maps');
});

test('texture --json on the sample install: the tier chain (each tier file present or missing, its size; the merged levels)', () => {
  const root = path.join(tempDir('arch06-tiers-'), 'game');
  assert.equal(run('make-sample', root).code, 0);
  const j = run('texture', root, 'textures\\sample\\sample_banner_d.tex', '--json');
  assert.equal(j.code, 0, j.stderr);
  const { tiers, levels } = JSON.parse(j.stdout).tierChain;
  assert.deepEqual(
    tiers.map((t: any) => [t.file, t.own, t.present, t.joined]),
    [
      ['sample_banner_d.tex', true, true, true],
      ['sample_banner_d.tex0', false, true, true],
      ['sample_banner_d.texuhd', false, false, false],
    ],
  );
  assert.ok(tiers[0].size > 0 && tiers[1].size > tiers[0].size, 'the 512x512 .tex0 is larger than the 256x256 .tex');
  assert.equal(tiers[2].size, null);
  // The .tex0's 512 on top, then the .tex's own 256 .. 1: what the editor's mip list shows.
  assert.deepEqual(levels.map((l: any) => `${l.width}×${l.height} · ${l.from}`).slice(0, 2), [
    '512×512 · sample_banner_d.tex0',
    '256×256 · sample_banner_d.tex',
  ]);
  assert.equal(levels.length, 10);
  assert.deepEqual(tiers[1].source, { name: 'Patch_01.arch06', kind: 'archive' });
  // --png without --mip: the .tex0's 512x512 (the largest level the chain offers), not the .tex's 256x256.
  const png = path.join(tempDir(), 'banner.png');
  assert.equal(run('texture', root, 'textures\\sample\\sample_banner_d.tex', '--png', png).code, 0);
  assert.deepEqual(ihdr(png), [512, 512]);
  // texture-file reads one file on disk: no tier chain.
  const cat = spawnSync(process.execPath, [cli, 'cat', root, 'textures\\sample\\sample_banner_d.tex'], { maxBuffer: 16 << 20 }).stdout;
  const file = path.join(tempDir(), 'banner.tex');
  fs.writeFileSync(file, cat);
  assert.equal(JSON.parse(run('texture-file', file, '--json').stdout).tierChain, undefined);
});

/** An install of the sample texture alone in Base.arch06, with `game` (a loose folder, searched after Base) holding `loose`. */
function bannerInstall(loose: Record<string, Uint8Array> = {}): string {
  const root = tempDir('arch06-banner-');
  const w = new LtarWriter();
  w.addBytes(SAMPLE_TEXTURE, sampleTexture());
  const tree: Record<string, string | Uint8Array> = {
    'x64/default.archcfg': '..\\Game\r\n..\\Base.arch06\r\n',
    'Base.arch06': w.toBytes(),
    'Game/readme.txt': 'loose',
  };
  for (const [p, bytes] of Object.entries(loose)) tree[`Game/${p.replace(/\\/g, '/')}`] = bytes;
  writeTree(root, tree);
  return root;
}

test('texture: the .tex0 tier missing from the mount: --json lists it missing with the path looked up and the shortfall; --png is the .tex’s 256x256', () => {
  const root = bannerInstall();
  const j = run('texture', root, SAMPLE_TEXTURE, '--json');
  assert.equal(j.code, 0, j.stderr);
  const chain = JSON.parse(j.stdout).tierChain;
  assert.deepEqual(chain.header, { width: 512, height: 512, nameField: `${SAMPLE_TEXTURE}0`, names: 'tex0' });
  const tex0 = chain.tiers[1];
  assert.deepEqual(
    { file: tex0.file, path: tex0.path, named: tex0.named, present: tex0.present, source: tex0.source, size: tex0.size },
    { file: 'sample_banner_d.tex0', path: `${SAMPLE_TEXTURE}0`, named: true, present: false, source: null, size: null },
  );
  assert.deepEqual(chain.tiers[0].source, { name: 'Base.arch06', kind: 'archive' });
  assert.deepEqual(chain.top, { width: 256, height: 256, from: 'sample_banner_d.tex', mip: 0 });
  assert.deepEqual(chain.shortfall, {
    width: 512,
    height: 512,
    tier: 'sample_banner_d.tex0',
    message: `512×512 per header; the .tex0 tier (${SAMPLE_TEXTURE}0) is not in the mount: showing 256×256 from sample_banner_d.tex`,
  });
  const out = path.join(tempDir(), 'top.png');
  const r = run('texture', root, SAMPLE_TEXTURE, '--png', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(ihdr(out), [256, 256]);
  assert.deepEqual(JSON.parse(r.stdout).png, { file: out, width: 256, height: 256, from: 'sample_banner_d.tex', mip: 0, slice: 0 });
});

test('texture: the .tex0 tier present and larger (a loose folder): it is the top level, named with its source; --png exports its 512x512 unless --mip', () => {
  const root = bannerInstall({ [`${SAMPLE_TEXTURE}0`]: sampleTextureTier0() });
  const j = run('texture', root, SAMPLE_TEXTURE, '--json');
  assert.equal(j.code, 0, j.stderr);
  const chain = JSON.parse(j.stdout).tierChain;
  assert.deepEqual(
    chain.tiers.map((t: any) => [t.file, t.named, t.present, t.joined, t.source]),
    [
      ['sample_banner_d.tex', false, true, true, { name: 'Base.arch06', kind: 'archive' }],
      ['sample_banner_d.tex0', true, true, true, { name: 'Game', kind: 'folder' }],
      ['sample_banner_d.texuhd', false, false, false, null],
    ],
  );
  assert.deepEqual(chain.top, { width: 512, height: 512, from: 'sample_banner_d.tex0', mip: 0 });
  assert.equal(chain.shortfall, null);
  const dir = tempDir();
  const top = run('texture', root, SAMPLE_TEXTURE, '--png', path.join(dir, 'top.png'));
  assert.equal(top.code, 0, top.stderr);
  assert.deepEqual(ihdr(path.join(dir, 'top.png')), [512, 512], 'the largest present level, from the .tex0');
  assert.match(top.stdout, /wrote .*top\.png \(512x512, slice 0, mip 0 of sample_banner_d\.tex0\)/);
  assert.match(top.stdout, /tier sample_banner_d\.tex0 \(named by the header\): \d+ bytes from Game \(folder\)/);
  // --mip names a mip of the file itself.
  assert.equal(run('texture', root, SAMPLE_TEXTURE, '--mip', '0', '--png', path.join(dir, 'mip0.png')).code, 0);
  assert.deepEqual(ihdr(path.join(dir, 'mip0.png')), [256, 256]);
  assert.equal(run('texture', root, SAMPLE_TEXTURE, '--mip', '2', '--png', path.join(dir, 'mip2.png')).code, 0);
  assert.deepEqual(ihdr(path.join(dir, 'mip2.png')), [64, 64]);
  // --source Base: the siblings are looked for in Base alone, where the .tex0 is not.
  const base = JSON.parse(run('texture', root, SAMPLE_TEXTURE, '--source', 'Base.arch06', '--json').stdout).tierChain;
  assert.equal(base.tiers[1].present, false);
  assert.match(base.shortfall.message, /the \.tex0 tier \(.*\) is not in Base\.arch06: showing 256×256 from sample_banner_d\.tex$/);
});
