// The command line as a user runs it: the bundled dist/cli.js against the generated sample install.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/shared';
import { tempDir, treeDigest } from '../support/fixtures';
import { stringHash } from '../../core/hash';
import { sampleGame } from '../../core/sample';
import { RawLtarRecord, SAMPLE_SEARCH_ORDER, rawLtarRecords, rawSampleServed, rawSampleSources, rawU32 } from '../support/rawLtar';

const cli = path.join(repoRoot(), 'dist', 'cli.js');

function run(...args: string[]): { code: number; stdout: Buffer; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { maxBuffer: 64 << 20 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString() };
}
const json = (...args: string[]): any => {
  const r = run(...args, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout.toString());
};

const root = tempDir('arch06-sample-');
const made = run('make-sample', root);
const before = treeDigest(root);

test('make-sample writes an install', () => {
  assert.equal(made.code, 0, made.stderr);
  assert.ok(fs.existsSync(path.join(root, 'x64', 'default.archcfg')));
});

test('mount --json: sources in search order, skipped lines, path count', () => {
  const m = json('mount', root);
  assert.deepEqual(
    m.sources.map((s: any) => s.name),
    ['HotChunk.arch06', 'Patch_02.arch06', 'Patch_01.arch06', 'Patch_00_LC.arch06', 'Base.arch06', 'Game'],
  );
  assert.deepEqual(
    m.sources.map((s: any) => s.kind),
    ['archive', 'archive', 'archive', 'archive', 'archive', 'directory'],
  );
  assert.equal(m.sources.find((s: any) => s.name === 'Patch_00_LC.arch06').files, 0);
  assert.deepEqual(
    m.skipped.map((s: any) => s.text),
    ['..\\GameDev', '..\\Great_Hall.arch06'],
  );
  assert.deepEqual(m.unlisted, ['Blade.arch06']);
  // Distinct paths over every mounted source, from sampleGame()'s bytes read by hand (any case, either separator).
  const distinct = new Set(rawMounted().flatMap((s) => [...s.files.keys()]));
  assert.equal(m.paths, distinct.size);
});

test("--cfg mounts another config list (the engine's -archcfg); --arch adds an archive below it", () => {
  // A list of our own, outside the install, naming two of the sample's archives by absolute path.
  const dir = tempDir();
  const cfg = path.join(dir, 'mine.archcfg');
  fs.writeFileSync(cfg, `; only two sources\r\n${path.join(root, 'Base.arch06')}\r\n${path.join(root, 'Patch_01.arch06')}\r\n`);
  const m = json('mount', root, '--cfg', cfg);
  assert.equal(m.cfg, cfg);
  assert.deepEqual(
    m.sources.map((s: any) => s.name),
    ['Patch_01.arch06', 'Base.arch06'],
  );
  // The winner follows the list: Patch_01's copy, since Patch_02 is not in it.
  assert.match(run('cat', root, 'config\\game.cfg', '--cfg', cfg).stdout.toString(), /Patch_01 copy/);
  // -arch archives rank below every line of the list.
  const withArch = json('mount', root, '--cfg', cfg, '--arch', path.join(root, 'Patch_02.arch06'));
  assert.deepEqual(
    withArch.sources.map((s: any) => s.name),
    ['Patch_01.arch06', 'Base.arch06', 'Patch_02.arch06'],
  );
  assert.match(run('cat', root, 'config\\game.cfg', '--cfg', cfg, '--arch', path.join(root, 'Patch_02.arch06')).stdout.toString(), /Patch_01 copy/);
});

/** Distinct paths below the root, counted through `ls` of every folder (an independent walk). */

/** An archive of sampleGame() (what make-sample writes), its records read by hand (test/support/rawLtar.ts). */
const sampleFiles = sampleGame();
const sampleRecords = (archive: string): RawLtarRecord[] => rawLtarRecords(sampleFiles.find((f) => f.path === archive)!.bytes);
const MOUNTED = SAMPLE_SEARCH_ORDER.filter((s) => s !== 'Game');
/** The sample's sources and served bytes read by hand from sampleGame() (test/support/rawLtar.ts). */
function rawMounted(): ReturnType<typeof rawSampleSources> {
  return rawSampleSources(sampleFiles);
}
function rawServed(rel: string): Buffer {
  return rawSampleServed(sampleFiles, rel);
}

test('which --json: winner and copies in search order, any case and separator', () => {
  const copies = ['Patch_02.arch06', 'Patch_01.arch06', 'Base.arch06'];
  // Every copy as sampleGame()'s archive bytes record it, not as the CLI reports it.
  const details = copies.map((source) => {
    const r = sampleRecords(source).find((x) => x.path.toLowerCase() === 'config\\game.cfg')!;
    return { source, kind: 'archive', size: r.size, storedSize: r.storedSize, storage: r.storage };
  });
  assert.deepEqual(json('which', root, 'CONFIG/Game.cfg'), { path: 'config\\game.cfg', winner: 'Patch_02.arch06', size: details[0].size, copies, details });
  assert.equal(details[0].size, run('cat', root, 'config\\game.cfg').stdout.length);
  const w = json('which', root, 'scripts\\common\\startup.scripts');
  assert.deepEqual(w.copies, ['Base.arch06', 'Game']);
});

test('cat: winning copy, a named copy, a multi-chunk entry', () => {
  assert.match(run('cat', root, 'config\\game.cfg').stdout.toString(), /Patch_02 copy/);
  assert.match(run('cat', root, 'config\\game.cfg', '--source', 'Base.arch06').stdout.toString(), /Base copy/);
  const big = run('cat', root, 'data/big_stored.bin');
  assert.equal(big.code, 0);
  assert.equal(big.stdout.length, 200_000);
  assert.ok(big.stdout.equals(rawServed('data/big_stored.bin')), 'the bytes the sample archive stores');
});

test('extract a folder: bytes on disk equal the winning copy in the sample archives, read by hand', () => {
  const out = tempDir('arch06-out-');
  const r = json('extract', root, 'data', out);
  assert.equal(r.files, 3);
  for (const rel of ['data/big_stored.bin', 'data/patched.bin', 'data/empty.bin']) {
    const onDisk = fs.readFileSync(path.join(out, rel));
    assert.deepEqual(onDisk, rawServed(rel), rel);
  }
  assert.equal(rawServed('data/big_stored.bin').length, 200_000);
  // Never into the install.
  const inside = run('extract', root, 'data', path.join(root, 'out'));
  assert.equal(inside.code, 2);
  assert.match(inside.stderr, /read-only/);
});

test('hash and unhash', () => {
  assert.equal(run('hash', 'UI_1Sword_Starting_N').stdout.toString().trim(), '0xDCDB4713');
  const h = '0x' + stringHash('config\\game.cfg').toString(16);
  assert.deepEqual(json('unhash', root, h).names, [{ name: 'config\\game.cfg', origin: 'path' }]);
  assert.equal(run('unhash', root, '0x00000001').code, 1);
  assert.equal(run('hash', 'bad(char').code, 2);
});

test('verify --json: every entry decodes', () => {
  const v = json('verify', root);
  assert.equal(v.failures.length, 0);
  // Every file of every mounted source (the sources `mount --json` lists above): archive file
  // counts read from sampleGame()'s bytes (u32 at 0x10), plus the loose files under Game/.
  const loose = sampleFiles.filter((f) => f.path.startsWith('Game/')).length;
  assert.equal(v.entries, MOUNTED.reduce((n, a) => n + rawU32(sampleFiles.find((f) => f.path === a)!.bytes, 0x10), 0) + loose);
  assert.deepEqual(v.warnings, []);
});

test('exit codes: 1 not found, 2 bad input, one line on stderr', () => {
  const nf = run('which', root, 'no/such/file.txt');
  assert.equal(nf.code, 1);
  assert.equal(nf.stderr.trim().split('\n').length, 1);
  assert.equal(run('which', root).code, 2);
  assert.equal(run('frobnicate').code, 2);
  assert.equal(run('which', '/no/such/root', 'x').code, 1);
  const bad = tempDir();
  fs.mkdirSync(path.join(bad, 'x64'));
  fs.writeFileSync(path.join(bad, 'x64', 'default.archcfg'), 'Bad.arch06\n');
  fs.writeFileSync(path.join(bad, 'x64', 'Bad.arch06'), 'not an archive at all');
  // A broken source is loud: listed with its reason in --json, one stderr line, exit 2.
  const r = run('mount', bad, '--json');
  assert.equal(r.code, 2);
  const m = JSON.parse(r.stdout.toString());
  assert.deepEqual(m.skipped, []);
  assert.equal(m.broken.length, 1);
  assert.equal(m.broken[0].line, 1);
  assert.equal(m.broken[0].path, path.join(bad, 'x64', 'Bad.arch06'));
  assert.match(m.broken[0].reason, /not an LTAR archive/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /broken source \(cfg line 1\).*Bad\.arch06/);
  assert.equal(run('oodle', path.join(bad, 'x64', 'Bad.arch06')).code, 2);
  // verify counts the broken source as a failure and says so on stderr, in one line.
  const v = run('verify', bad);
  assert.equal(v.code, 2);
  assert.match(v.stdout.toString(), /FAIL .*Bad\.arch06: broken source \(cfg line 1\)/);
  assert.deepEqual(v.stderr.toString().trim().split('\n'), ['arch06: verify: 1 failure in 0 entries of 0 sources']);
});

test('ls of a bundle folder: the members as the extension shows them, each served from container, loose or missing', () => {
  // core/sample/sampleGame.ts: the orc bundle's manifest is patched in Patch_02 above its container in
  // Base; body, head and weapon come from the container, banner ships loose in Patch_02, voice nowhere.
  const bundle = 'bundles\\characters\\orc_sample.bndl [bundle]';
  const top = json('ls', root, bundle);
  assert.deepEqual([top.folders, top.files], [[{ name: 'characters' }], []]);
  assert.deepEqual(top.bundle, {
    manifest: { path: 'bundles\\characters\\orc_sample.bndl', source: 'Patch_02.arch06' },
    container: { path: 'bundles\\characters\\orc_sample.embb', source: 'Base.arch06' },
  });
  // Any case, either separator, deeper folders inside the bundle folder.
  const leaf = json('ls', root, 'Bundles/Characters/ORC_SAMPLE.BNDL [bundle]/characters/orcs/orc_sample');
  const served = leaf.files.map((f: any) => [f.name, f.servedFrom, f.source ?? null]);
  assert.deepEqual(served, [
    ['body.txt', 'container', 'Base.arch06'],
    ['head.txt', 'container', 'Base.arch06'],
    ['weapon.txt', 'container', 'Base.arch06'],
    ['banner.txt', 'loose', 'Patch_02.arch06'],
    ['voice.txt', 'missing', null],
  ]);
  const by = new Map(leaf.files.map((f: any) => [f.name, f]));
  // Sizes are the bytes served: the loose copy as `which` reports it, the container's payload as its text.
  assert.equal((by.get('banner.txt') as any).size, json('which', root, 'characters\\orcs\\orc_sample\\banner.txt').size);
  assert.equal((by.get('body.txt') as any).size, Buffer.byteLength('orc_sample body: served from the container in Base\n'));
  assert.equal((by.get('voice.txt') as any).size, undefined);
  // The text form: one line per folder and member, with where it is served from.
  const text = run('ls', root, `${bundle}\\characters\\orcs\\orc_sample`);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.toString().trim().split('\n');
  assert.equal(lines.length, 5);
  assert.match(lines[0], /^body\.txt\s+\d+ B {2}container Base\.arch06$/);
  assert.match(lines[3], /^banner\.txt\s+\d+ B {2}loose Patch_02\.arch06/);
  assert.match(lines[4], /^voice\.txt\s+- {2}missing/);
  assert.deepEqual(run('ls', root, bundle).stdout.toString(), 'characters\\\n');
  // Not a folder of the bundle: not found; a bundle that does not exist: not found; `..`: bad input.
  assert.equal(run('ls', root, `${bundle}\\characters\\nothing`).code, 1);
  assert.equal(run('ls', root, `${bundle}\\characters\\orcs\\orc_sample\\body.txt`).code, 1);
  assert.equal(run('ls', root, 'bundles\\nothing.bndl [bundle]').code, 1);
  assert.equal(run('ls', root, `${bundle}\\..\\x`).code, 2);
});

test('the sample install is byte-identical after every command above', () => {
  assert.deepEqual(treeDigest(root), before);
});
