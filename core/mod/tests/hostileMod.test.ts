// Issue 23, acceptance "Hostile input": a mod folder holding links out of it, names with `..`,
// reserved device names, names the engine cannot load, or too many files: refused (or bounded)
// with one clear problem each, and nothing written anywhere (the output folder, the link targets).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ModRefusedError, packMod } from '../pack';
import { openModFolder } from '../modFolder';
import { createMod } from '../copy';
import type { ModProblemCode } from '../problems';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { snapshotTree, treeChanges } from '../../../test/support/adversarial';

function modWith(files: Record<string, string>): { dir: string; mod: string } {
  const dir = tempDir('arch06-hostile-');
  const mod = path.join(dir, 'Mod');
  createMod(mod, 'Hostile');
  writeTree(mod, files);
  return { dir, mod };
}

/** Pack must refuse with exactly these codes (one problem per offending path), writing nothing anywhere under `dir`. */
async function refused(dir: string, mod: string, codes: [ModProblemCode, string][], maxFiles?: number): Promise<void> {
  const before = snapshotTree(dir);
  const out = path.join(dir, 'out', 'x.arch06');
  await assert.rejects(
    () => packMod(mod, { out, maxFiles }),
    (e: unknown) => {
      assert.ok(e instanceof ModRefusedError, String(e));
      const got = e.problems.map((p) => [p.code, p.path ?? ''] as [string, string]).sort();
      assert.deepEqual(got, [...codes].sort(), JSON.stringify(e.problems, null, 1));
      for (const p of e.problems) assert.ok(!p.message.includes('\n') && p.message.length < 400, 'one line each');
      return true;
    },
  );
  assert.deepEqual(treeChanges(before, snapshotTree(dir)), [], 'nothing written, not even the output folder');
}

test('links: out of the folder refused (file and folder links), a folder link inside refused, a file link inside read as that file', async () => {
  const { dir, mod } = modWith({ 'data/real.txt': 'inside\n' });
  const outside = path.join(tempDir('arch06-outside-'), 'secret.txt');
  fs.writeFileSync(outside, 'not the mod\n');
  fs.symlinkSync(outside, path.join(mod, 'data', 'stolen.txt'));
  fs.symlinkSync(path.dirname(outside), path.join(mod, 'outdir'));
  fs.symlinkSync(path.join(mod, 'data'), path.join(mod, 'loop'));
  fs.symlinkSync('/nonexistent/arch06', path.join(mod, 'dangling.txt'));
  await refused(dir, mod, [
    ['LINK_OUTSIDE', 'data\\stolen.txt'],
    ['LINK_OUTSIDE', 'outdir'],
    ['LINK_OUTSIDE', 'dangling.txt'],
    ['LINK_TO_FOLDER', 'loop'],
  ]);
  for (const l of ['data/stolen.txt', 'outdir', 'loop', 'dangling.txt']) fs.rmSync(path.join(mod, l));
  fs.symlinkSync(path.join(mod, 'data', 'real.txt'), path.join(mod, 'data', 'alias.txt'));
  const r = await packMod(mod, { out: path.join(dir, 'ok.arch06') });
  assert.equal(r.files, 2, 'the link inside is read as the file it names');
});

test('names: ".." as a segment, Windows device names, characters Windows or the engine refuse, non-ASCII, reserved names', async () => {
  const { dir, mod } = modWith({
    '..\\evil.txt': 'a backslash in a Linux name makes a ".." segment\n',
    'CON.txt': 'device\n',
    'sound/aux': 'device\n',
    'textures/LPT1.dds': 'device\n',
    'data/what?.txt': 'x',
    'data/trailing.': 'x',
    'data/caf\u00e9.txt': 'x',
    'data/tab\tname.txt': 'x',
    'archivepatchloosefiles.txt': 'the packer writes this\n',
    'arch06/arch06-mod.json': '{}',
    'scripts/a+b.scripts': 'indexed: StringHash of "+" unknown\n',
    'data/a+b.txt': 'not indexed: allowed\n',
  });
  await refused(dir, mod, [
    ['INVALID_GAME_PATH', '..\\evil.txt'],
    ['INVALID_GAME_PATH', 'CON.txt'],
    ['INVALID_GAME_PATH', 'sound\\aux'],
    ['INVALID_GAME_PATH', 'textures\\LPT1.dds'],
    ['INVALID_GAME_PATH', 'data\\what?.txt'],
    ['INVALID_GAME_PATH', 'data\\trailing.'],
    ['INVALID_GAME_PATH', 'data\\caf\u00e9.txt'],
    ['INVALID_GAME_PATH', 'data\\tab\tname.txt'],
    ['RESERVED_NAME', 'archivepatchloosefiles.txt'],
    ['RESERVED_NAME', 'arch06\\arch06-mod.json'],
    ['INVALID_GAME_PATH', 'scripts\\a+b.scripts'],
  ]);
});

test('lengths and case: a path longer than the bound, two paths one only by case, a file and a folder of one name', async () => {
  const long = `${'deep/'.repeat(50)}file.txt`; // 258 characters
  const { dir, mod } = modWith({ [long]: 'x', 'Data/a.txt': 'x', 'data/b.txt': 'x', 'x.txt': 'x', 'X.TXT': 'y', 'thing/inner.txt': 'x', THING: 'x' });
  await refused(dir, mod, [
    ['PATH_TOO_LONG', long.replace(/\//g, '\\')],
    ['CASE_COLLISION', 'data\\b.txt'],
    ['CASE_COLLISION', 'x.txt'],
    ['CASE_COLLISION', 'THING'],
  ]);
});

test('devices, FIFOs and folders too deep are refused; an unreadable folder is named', async (t) => {
  const { dir, mod } = modWith({ 'ok.txt': 'x' });
  const fifo = path.join(mod, 'pipe.txt');
  const mk = spawnSync('mkfifo', [fifo]);
  if (mk.status !== 0) return t.skip('mkfifo is not available');
  let deep = mod;
  for (let i = 0; i < 65; i++) deep = path.join(deep, 'd');
  fs.mkdirSync(deep, { recursive: true });
  const locked = path.join(mod, 'locked');
  fs.mkdirSync(locked);
  fs.chmodSync(locked, 0);
  const canRead = (() => {
    try {
      fs.readdirSync(locked);
      return true;
    } catch {
      return false;
    }
  })();
  try {
    const expected: [ModProblemCode, string][] = [
      ['NOT_REGULAR', 'pipe.txt'],
      ['TOO_DEEP', Array(65).fill('d').join('\\')],
    ];
    if (!canRead) expected.push(['UNREADABLE', 'locked']);
    await refused(dir, mod, expected);
  } finally {
    fs.chmodSync(locked, 0o755);
  }
});

test('too many files: the scan stops at the bound (work bounded by it, not by the folder) and pack refuses with one line', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`many/f${i}.txt`] = '';
  const { dir, mod } = modWith(files);
  const scan = openModFolder(mod, { maxFiles: 100 });
  assert.ok(scan.truncated);
  assert.equal(scan.files.length, 100);
  assert.deepEqual(
    scan.problems.map((p) => p.code),
    ['TOO_MANY_FILES'],
  );
  await refused(dir, mod, [['TOO_MANY_FILES', '']], 100);
});
