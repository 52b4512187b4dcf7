// The mod commands as a user runs them (issue 23 acceptance): new-mod, pack, install, uninstall,
// check and mount --cfg, with --help, --json and the exit codes (0 ok, 1 not found / check found
// problems, 2 bad input); a hostile mod folder refused with one line per reason; the lists byte
// for byte as before after uninstall.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliJson, runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { snapshotTree, treeChanges } from '../support/adversarial';

function sample(): { dir: string; game: string } {
  const dir = tempDir('arch06-modcli-');
  const game = path.join(dir, 'game');
  assert.equal(runCli('make-sample', game).code, 0);
  return { dir, game };
}

/** By content only: a list restored byte for byte has a new mtime, the same bytes. */
const contents = (dir: string): Map<string, string> => new Map([...snapshotTree(dir)].map(([k, v]) => [k, v.replace(/^(file \d+) [\d.]+ /, '$1 ')]));

test('every mod command has --help with its options and an example; the usage lists them', () => {
  for (const [cmd, option] of [
    ['new-mod', '--name NAME'],
    ['pack', '--quiet'],
    ['install', '--position WHERE'],
    ['uninstall', '--list LIST'],
    ['check', '--mod DIR'],
  ]) {
    const r = runCli(cmd, '--help');
    assert.equal(r.code, 0, cmd);
    assert.match(r.stdout, new RegExp(`^usage: arch06 ${cmd} `), cmd);
    assert.ok(r.stdout.includes(option), `${cmd} --help names ${option}`);
    assert.match(r.stdout, /example:\n {2}arch06 /, cmd);
  }
  assert.match(runCli('--help').stdout, /mods \(a folder with arch06-mod\.json/);
});

test('new-mod, pack, install through the separate list, mount --cfg shows it first, uninstall: the lists and the install byte for byte as before', () => {
  const { dir, game } = sample();
  const mod = path.join(dir, 'mymod');
  const created = cliJson('new-mod', mod, '--name', 'My Mod');
  assert.equal(created.manifest.archive, 'My_Mod.arch06');
  writeTree(mod, { 'config/game.cfg': 'Difficulty=Easy\n', 'scripts/quests/q_mod.scripts': '-- new\n' });
  assert.equal(runCli('new-mod', mod, '--name', 'Again').code, 2, 'a folder that is not empty');

  const packed = cliJson('pack', mod, path.join(dir, 'build', 'My_Mod.arch06'));
  assert.equal(packed.files, 2);
  assert.equal(packed.verified, 2);
  assert.equal(packed.indexRows, 1);

  const before = contents(game);
  const inst = cliJson('install', game, packed.archive);
  assert.equal(inst.applied, true);
  assert.equal(inst.list, 'mods');
  assert.equal(inst.launchOption, '-archcfg arch06-mods.archcfg');
  assert.match(inst.diff, /\+\.\.\\My_Mod\.arch06 ; arch06 mod: My Mod/);
  const m = cliJson('mount', game, '--cfg', 'x64/arch06-mods.archcfg');
  assert.equal(m.sources[0].name, 'My_Mod.arch06', 'the separate list puts the mod first');
  assert.equal(cliJson('mount', game).sources[0].name, 'HotChunk.arch06', 'the default list is untouched');
  assert.equal(cliJson('which', game, 'config\\game.cfg', '--cfg', path.join(game, 'x64', 'arch06-mods.archcfg')).winner, 'My_Mod.arch06');

  const un = cliJson('uninstall', game, 'My_Mod');
  assert.equal(un.changes[0].removed, true);
  assert.deepEqual(treeChanges(before, contents(game)), []);
  assert.equal(runCli('uninstall', game, 'My_Mod').code, 1, 'nothing left to uninstall: not found');
});

test('editing default.archcfg needs --yes: without it the diff only (exit 2, nothing written); with it a backup, and uninstall restores it', () => {
  const { dir, game } = sample();
  const mod = path.join(dir, 'm');
  runCli('new-mod', mod, '--name', 'Folder Mod');
  writeTree(mod, { 'config/game.cfg': 'x\n' });
  const cfg = path.join(game, 'x64', 'default.archcfg');
  const original = fs.readFileSync(cfg);
  const before = contents(game);
  const dry = runCli('install', game, mod, '--list', 'default', '--position', 'above HotChunk');
  assert.equal(dry.code, 2);
  assert.match(dry.stdout, /would install Folder Mod as a folder/);
  assert.match(dry.stdout, /\+.*m ; arch06 mod: Folder Mod\n {3}\.\.\\HotChunk\.arch06/);
  assert.equal(dry.stderr.trim().split('\n').length, 1);
  assert.match(dry.stderr, /run again with --yes/);
  assert.deepEqual(treeChanges(before, contents(game)), []);
  assert.equal(runCli('install', game, mod, '--list', 'default', '--dry-run').code, 0);
  assert.deepEqual(treeChanges(before, contents(game)), []);

  const done = runCli('install', game, mod, '--list', 'default', '--position', 'above HotChunk', '--yes');
  assert.equal(done.code, 0, done.stderr);
  assert.deepEqual(fs.readFileSync(cfg + '.bak'), original);
  assert.equal(cliJson('which', game, 'config/game.cfg').winner, mod, 'a folder outside the install is named by its path');
  assert.equal(runCli('uninstall', game, 'Folder Mod').code, 2, 'touches default.archcfg: needs --yes');
  assert.equal(runCli('uninstall', game, 'Folder Mod', '--yes').code, 0);
  assert.deepEqual(fs.readFileSync(cfg), original);
  assert.deepEqual(treeChanges(before, contents(game)), []);
});

test('check: 0 without problems, 1 with (every problem with its code in --json), 2 on bad input, 1 for a missing mod folder', () => {
  const { dir, game } = sample();
  const mod = path.join(dir, 'c');
  runCli('new-mod', mod, '--name', 'C');
  writeTree(mod, { 'config/game.cfg': 'x\n' });
  const clean = runCli('check', game, '--mod', mod);
  assert.equal(clean.code, 0, clean.stdout + clean.stderr);
  assert.match(clean.stdout, /no problems/);
  writeTree(mod, { 'characters/orcs/orc_sample/head.txt': 'a head of another size\n', 'scripts/new.scripts': '-- x\n' });
  const bad = runCli('check', game, '--mod', mod, '--json');
  assert.equal(bad.code, 1);
  const report = JSON.parse(bad.stdout);
  const codes = report.mods[0].problems.map((p: { code: string }) => p.code).sort();
  assert.deepEqual(codes, ['MEMBER_SIZE_MISMATCH', 'SHADOWS_NOTHING', 'UNINDEXED_NEW_FILE']);
  assert.equal(report.problems, 2, 'the note does not count');
  const text = runCli('check', game, '--mod', mod);
  assert.match(text.stdout, /error {3}MEMBER_SIZE_MISMATCH {3}characters\\orcs\\orc_sample\\head\.txt: /);
  assert.equal(runCli('check', game, '--mod', path.join(dir, 'nope')).code, 1);
  assert.equal(runCli('check', game, '--mod').code, 2);
  assert.equal(runCli('check', path.join(dir, 'no-install')).code, 1);
  assert.equal(runCli('install', game, mod, '--as', 'zip').code, 2);
  assert.equal(runCli('install', game, mod, '--position', 'sideways').code, 2);
  assert.equal(runCli('install', game, mod, '--position', 'above Nowhere').code, 1);
});

test('pack refuses a hostile folder with one line per reason and writes nothing; a folder of 100,001 files is refused at the bound', () => {
  const { dir } = sample();
  const mod = path.join(dir, 'h');
  runCli('new-mod', mod, '--name', 'H');
  writeTree(mod, { 'NUL.txt': 'x', 'a/..\\up.txt': 'x', 'ok.txt': 'x' });
  fs.symlinkSync('/etc', path.join(mod, 'etc'));
  const before = snapshotTree(dir);
  const r = runCli('pack', mod, path.join(dir, 'out', 'h.arch06'));
  assert.equal(r.code, 2);
  const lines = r.stderr.trim().split('\n');
  assert.match(lines[0], /^arch06: .*the mod cannot be packed: 3 problems/);
  assert.deepEqual(
    lines
      .slice(1)
      .map((l) => l.replace(/^arch06: {3}(\w+): .*$/, '$1'))
      .sort(),
    ['INVALID_GAME_PATH', 'INVALID_GAME_PATH', 'LINK_OUTSIDE'],
  );
  assert.deepEqual(treeChanges(before, snapshotTree(dir)), []);

  const many = path.join(dir, 'many');
  runCli('new-mod', many, '--name', 'Many');
  for (let d = 0; d < 101; d++) {
    const sub = path.join(many, `d${d}`);
    fs.mkdirSync(sub);
    for (let i = 0; i < 1000 && d * 1000 + i <= 100_000; i++) fs.writeFileSync(path.join(sub, `f${i}`), '');
  }
  // Hashing 100,001 files twice would cost more than the test: the places a write could land are listed instead.
  const listing = (): string[] => [...fs.readdirSync(dir), ...fs.readdirSync(many).map((n) => `many/${n}`)].sort();
  const before2 = listing();
  const big = runCli('pack', many);
  assert.equal(big.code, 2);
  assert.deepEqual(big.stderr.trim().split('\n'), [
    `arch06: ${many}: the mod cannot be packed: 1 problem (the first: more than 100000 files: scan stopped [TOO_MANY_FILES])`,
    'arch06:   TOO_MANY_FILES: more than 100000 files: scan stopped',
  ]);
  assert.deepEqual(listing(), before2);
});
