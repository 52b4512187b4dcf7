// `arch06 <command> --help` for every command: exit 0, that command's usage line, the <root>
// options where it takes a root, and an example that runs: each example is run against the sample
// install (those that need a file from elsewhere, an executable or a raw stream, against one made
// here), so no help text names a path or a flag that does not work. `arch06 --version`.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sampleGame } from '../../core/sample';
import { CLI, runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { repoRoot } from '../support/shared';

/** The commands the usage lists (`  name  <…` lines). */
function commands(): string[] {
  const usage = runCli('--help').stdout;
  return [...usage.matchAll(/^ {2}([a-z][a-z-]*) +</gm)].map((m) => m[1]);
}

/** An example's words, as a shell would split them (double quotes group). */
const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

test('arch06 --version prints the package version', () => {
  const r = runCli('--version');
  assert.equal(r.code, 0);
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { version: string };
  assert.equal(r.stdout.trim(), `arch06 ${pkg.version}`);
});

test('every command answers --help with its usage and an example that works', () => {
  const list = commands();
  assert.ok(list.length >= 17, list.join(', '));
  const dir = tempDir('arch06-cli-help-');
  const game = path.join(dir, 'sample-game');
  for (const f of sampleGame()) writeTree(game, { [f.path]: f.bytes });
  // The files the file-based examples name, taken from the sample (cat writes them out).
  for (const [file, gamePath] of [
    ['sample_banner_d.tex', 'textures\\sample\\sample_banner_d.tex'],
    ['sample_sword.mesh', 'characters\\sample\\sample_sword.mesh'],
    ['sample_sword.skel', 'characters\\sample\\sample_sword.skel'],
  ]) {
    const r = spawnSync(process.execPath, [CLI, 'cat', game, gamePath], { maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, String(r.stderr));
    fs.writeFileSync(path.join(dir, file), r.stdout);
  }
  for (const c of list) {
    const r = runCli(c, '--help');
    assert.equal(r.code, 0, `${c} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^usage: arch06 ${c} `), c);
    const example = /\nexample:\n {2}(.+)\n/.exec(r.stdout)?.[1];
    assert.ok(example, `${c} has an example`);
    // install and uninstall edit the install's own lists (default.archcfg, arch06-mods.archcfg): no --cfg.
    if (/<root>/.test(r.stdout.split('\n')[0]) && c !== 'install' && c !== 'uninstall') assert.match(r.stdout, /--cfg FILE/, `${c} lists the <root> options`);
    // Examples that need what no test has (the game's executable, a raw Oodle chunk) are only shown.
    if (c === 'hashtable' || c === 'oodle') continue;
    const [, ...args] = words(example);
    // make-sample writes a new install: in a folder of its own.
    const cwd = c === 'make-sample' ? tempDir('arch06-cli-help-sample-') : dir;
    const run = spawnSync(process.execPath, [CLI, ...args], { cwd, maxBuffer: 64 << 20 });
    assert.equal(run.status, 0, `${example}: ${String(run.stderr)}`);
  }
});
