// Issue 23 item 6: every problem `check` reports, provoked one at a time on the sample install
// with a mod folder overlaid at its position (and the fix the size mismatch offers, applied).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, SAMPLE_STRINGS, SAMPLE_STRING_TABLES, sampleGame } from '../../sample';
import { writeScri } from '../../formats/script/writer';
import { writeSkdb } from '../../formats/strings/writer';
import { stringHash } from '../../hash/stringHash';
import { checkMods } from '../check';
import { WorkerPool } from '../../archive/workerPool';
import { createMod, patchedManifest, writeModFile } from '../copy';
import { openOverlay } from '../overlay';
import { manifestText, parseManifest, parsePosition } from '../manifest';
import type { ModProblem, ModProblemCode } from '../problems';
import { tempDir, writeTree } from '../../../test/support/fixtures';

function sampleRoot(): string {
  const root = tempDir('arch06-check-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return root;
}

function mod(files: Record<string, string | Uint8Array>, position = 'bottom', name = 'Checked'): string {
  const dir = path.join(tempDir('arch06-checkmod-'), 'm');
  createMod(dir, name);
  const file = path.join(dir, 'arch06-mod.json');
  fs.writeFileSync(file, manifestText({ ...parseManifest(fs.readFileSync(file, 'utf8')), position: parsePosition(position) }));
  writeTree(dir, files);
  return dir;
}

async function problems(root: string, dir: string): Promise<ModProblem[]> {
  const r = await checkMods({ root }, { mod: dir });
  assert.equal(r.mods.length, 1);
  return r.mods[0].problems;
}

const codes = (ps: ModProblem[]): string[] => ps.map((p) => `${p.code} ${p.path}`).sort();
const only = (ps: ModProblem[], code: ModProblemCode): ModProblem[] => ps.filter((p) => p.code === code);

test('a mod that replaces a game file cleanly has no problem', async () => {
  const root = sampleRoot();
  assert.deepEqual(codes(await problems(root, mod({ 'config/game.cfg': 'Difficulty=Easy\n' }))), []);
});

test('SHADOWS_NOTHING (with the likely meant path) and UNINDEXED_NEW_FILE', async () => {
  const root = sampleRoot();
  const ps = await problems(
    root,
    mod({ 'config/gmae.cfg': 'typo\n', 'confg/game.cfg': 'typo\n', 'scripts/quests/q_new.scripts': '-- new\n', 'data/new.bin': 'x' }),
  );
  assert.deepEqual(codes(ps), [
    'SHADOWS_NOTHING confg\\game.cfg',
    'SHADOWS_NOTHING config\\gmae.cfg',
    'SHADOWS_NOTHING data\\new.bin',
    'SHADOWS_NOTHING scripts\\quests\\q_new.scripts',
    'UNINDEXED_NEW_FILE scripts\\quests\\q_new.scripts',
  ]);
  assert.ok(ps.every((p) => p.code !== 'SHADOWS_NOTHING' || p.severity === 'info'));
  assert.match(ps.find((p) => p.path === 'config\\gmae.cfg')!.message, /meant config\\game\.cfg\?/);
  assert.match(ps.find((p) => p.path === 'confg\\game.cfg')!.message, /meant config\\game\.cfg\?/);
  assert.equal(only(ps, 'UNINDEXED_NEW_FILE')[0].severity, 'warning');
});

test('MOD_COPY_SHADOWED: a mod placed above HotChunk does not win what HotChunk holds', async () => {
  const root = sampleRoot();
  const ps = await problems(root, mod({ 'database/string/enus/string.txt': 'mine\n' }, 'above HotChunk'));
  assert.deepEqual(codes(ps), ['MOD_COPY_SHADOWED database\\string\\enus\\string.txt']);
  assert.match(ps[0].message, /HotChunk\.arch06/);
});

test("MEMBER_SIZE_MISMATCH, and its fix: the winning manifest patched to the copy's size, every other byte kept", async () => {
  const root = sampleRoot();
  const member = 'characters\\orcs\\orc_sample\\head.txt';
  const dir = mod({ 'characters/orcs/orc_sample/head.txt': 'a longer head than the container holds\n' });
  const ps = await problems(root, dir);
  assert.deepEqual(codes(ps), [`MEMBER_SIZE_MISMATCH ${member}`]);
  const fix = ps[0].fix;
  assert.ok(fix && fix.kind === 'patch-manifest');
  assert.equal(fix.manifest, 'bundles\\characters\\orc_sample.bndl');
  assert.equal(fix.size, 39);
  const { mount } = openOverlay({ root }, [{ folder: dir, name: 'Checked', position: { kind: 'bottom' } }]);
  const patched = patchedManifest(mount, fix.manifest, fix.member, fix.size)!;
  const original = Buffer.from(mount.entry(fix.manifest).readSync());
  mount.close();
  assert.equal(patched.bytes.length, original.length);
  const differing = [...patched.bytes].map((b, i) => (b !== original[i] ? i : -1)).filter((i) => i >= 0);
  assert.ok(differing.length > 0 && differing.length <= 4, 'only the one size word changed');
  writeModFile(dir, patched.path, patched.bytes);
  assert.deepEqual(codes(await problems(root, dir)), [], 'with the patched manifest the sizes agree');
});

test('MEMBER_BELOW_CONTAINER: a member overridden from a source ranked below its container is unverified', async () => {
  const root = sampleRoot();
  const body = 'orc_sample body: served from the container in Base\n';
  const ps = await problems(root, mod({ 'characters/orcs/orc_sample/body.txt': body.toUpperCase() }, 'above Base'));
  assert.deepEqual(codes(ps), ['MEMBER_BELOW_CONTAINER characters\\orcs\\orc_sample\\body.txt']);
  assert.match(ps[0].message, /unverified/);
});

test('UNREACHABLE_PATH: a path the mod folder makes longer than Windows lets a directory source reach', async () => {
  const root = sampleRoot();
  const rel = `config/${'a'.repeat(120)}/${'b'.repeat(110)}/game.cfg`; // 247 characters: a valid game path
  const dir = mod({ [rel]: 'x' });
  assert.ok(dir.length + 1 + rel.length > 259);
  const ps = await problems(root, dir);
  assert.deepEqual(
    only(ps, 'UNREACHABLE_PATH').map((p) => p.path),
    [rel.replace(/\//g, '\\')],
  );
});

test('STRING_KEYS_DIFFER: a key the mod adds to one language and not the other, and one it drops', async () => {
  const root = sampleRoot();
  const enus = { ...SAMPLE_STRINGS.enus, UI_Mod_NewLine: 'A new line' } as Record<string, string>;
  delete enus.UI_Sample_GateHint;
  const table = writeSkdb(Object.entries(enus).map(([key, text]) => ({ hash: stringHash(key), text })));
  const ps = await problems(root, mod({ [SAMPLE_STRING_TABLES.enus.replace(/\\/g, '/')]: table }));
  const keys = only(ps, 'STRING_KEYS_DIFFER');
  assert.equal(keys.length, 2);
  assert.match(keys[0].message, new RegExp(`adds in enus is not in frfr .*0x${stringHash('UI_Mod_NewLine').toString(16).toUpperCase().padStart(8, '0')}`));
  assert.match(
    keys[1].message,
    new RegExp(`drops from enus is still in frfr .*0x${stringHash('UI_Sample_GateHint').toString(16).toUpperCase().padStart(8, '0')}`),
  );
});

test("BOUND_FUNCTION_LOST: the mod's copy of a script loses a function a registry binding needs", async () => {
  const root = sampleRoot();
  const source = SAMPLE_LAYER_SOURCE.replace(/_gatecontroller_SC_Script_2f4e8a10/g, '_gatecontroller_SC_Script_renamed');
  const ps = await problems(root, mod({ [SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/')]: writeScri(source) }));
  const lost = only(ps, 'BOUND_FUNCTION_LOST');
  assert.equal(lost.length, 1, JSON.stringify(ps));
  assert.equal(lost[0].path, SAMPLE_LAYER_SCRIPT);
  assert.match(lost[0].message, /_gatecontroller_SC_Script_2f4e8a10/);
  // The index read on 2 workers: the same problems.
  const pool = new WorkerPool(path.join(__dirname, '..', '..', 'workers', 'poolWorker.js'), 2);
  try {
    const dir = mod({ [SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/')]: writeScri(source) });
    const one = await checkMods({ root }, { mod: dir });
    assert.deepEqual(await checkMods({ root }, { mod: dir, pool }), one);
    assert.ok(pool.started > 0, 'the workers read the index');
  } finally {
    await pool.terminate();
  }
});

test("the folder's own problems come through check too, and MODS_LIST_STALE when the default list changed under the separate one", async () => {
  const root = sampleRoot();
  const ps = await problems(root, mod({ 'AUX.txt': 'x', 'a.txt': 'x', 'A.TXT': 'x' }));
  assert.ok(only(ps, 'INVALID_GAME_PATH').length === 1 && only(ps, 'CASE_COLLISION').length === 1);
  const x64 = path.join(root, 'x64');
  fs.writeFileSync(path.join(x64, 'arch06-mods.archcfg'), fs.readFileSync(path.join(x64, 'default.archcfg'), 'latin1') + 'C:\\m ; arch06 mod: M\n');
  assert.deepEqual((await checkMods({ root })).install, []);
  fs.appendFileSync(path.join(x64, 'default.archcfg'), '..\\Patch_99.arch06\n');
  assert.deepEqual(
    (await checkMods({ root })).install.map((p) => p.code),
    ['MODS_LIST_STALE'],
  );
});
