// One unreadable subfolder of the loose Game folder must not take mount, verify or unhash down:
// it is skipped and verify names it. Permissions do not bind root, so the CLI runs as `nobody`
// (uid 65534) over a copy of the sample install whose Game\locked folder has mode 000.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../support/fixtures';
import { CLI, runCli } from '../support/cli';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
/** Whether `nobody` can run the built CLI at all (the checkout must be readable to it). */
const nobodyRuns = (): boolean => asRoot && spawnSync(process.execPath, [CLI, '--help'], { uid: 65534, gid: 65534 }).status === 0;
const skip = !asRoot
  ? 'needs root to run the CLI as another user (permissions do not bind root itself)'
  : !nobodyRuns()
    ? `user nobody cannot read ${CLI}`
    : false;

test('an unreadable Game subfolder is skipped and reported; mount, verify and unhash still answer', { skip }, () => {
  const top = tempDir('arch06-locked-');
  fs.chmodSync(top, 0o755);
  const game = path.join(top, 'g');
  assert.equal(runCli('make-sample', game).code, 0);
  const locked = path.join(game, 'Game', 'locked');
  fs.mkdirSync(path.join(locked, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(locked, 'sub', 'f.txt'), 'x');
  fs.chmodSync(locked, 0o000);
  const asNobody = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { uid: 65534, gid: 65534, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  try {
    const m = asNobody('mount', game);
    assert.equal(m.code, 0, m.stderr);
    const v = asNobody('verify', game);
    assert.equal(v.code, 0, v.stderr);
    assert.match(v.stdout, /warning Game: folder locked could not be read and is skipped: .*EACCES/);
    // A hash no path has: "not found" (1), not a failure of the whole mount.
    assert.equal(asNobody('unhash', game, '0x12345678').code, 1);
  } finally {
    fs.chmodSync(locked, 0o755);
  }
});
