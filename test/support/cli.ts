// The bundled CLI (dist/cli.js) as a user runs it, for the CLI tests.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './shared';

export const CLI = path.join(repoRoot(), 'dist', 'cli.js');

/** Run `arch06 …args`: exit code, stdout and stderr as text. */
export function runCli(...args: string[]): { code: number; stdout: string; stderr: string } {
  // The warm-mount cache of every test install goes to one temp folder, not the user's cache.
  const env = { ...process.env, ARCH06_CACHE_DIR: path.join(os.tmpdir(), 'arch06-test-cache') };
  const r = spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 64 << 20, env });
  return { code: r.status ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** Run `arch06 …args --json`, which must succeed, and parse its output. */
export function cliJson(...args: string[]): any {
  const r = runCli(...args, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}
