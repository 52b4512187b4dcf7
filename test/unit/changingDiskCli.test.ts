/**
 * The CLI's long commands on a changing disk (issue 21 item 2): `verify` and `extract` run by the
 * built CLI while the test changes a mounted archive under them (replaced, truncated). The change
 * is made once the run is seen under way (the mount's last archive open in /proc/<pid>/fd; the
 * first files written); the archive is large enough that the run is far from over then. Each must
 * stop reading that archive, say so on stderr with what it left, list it in --json, and exit 2.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter } from '../../core/formats/archive';
import { Arena, memsetEntry } from '../support/adversarial';
import { CLI } from '../support/cli';

const skip = process.platform === 'linux' && fs.existsSync('/proc/self/fd') ? false : 'needs /proc to see when the child has opened the archive';

/** `count` entries of two 64 KiB memset chunks each: quick to write, slow enough to read in full. */
function bigArchive(count: number): Uint8Array {
  const w = new LtarWriter();
  for (let i = 0; i < count; i++) w.add(`big\\f${String(i).padStart(5, '0')}.bin`, memsetEntry(2));
  return w.toBytes();
}

/** Whether process `pid` holds `file` open. */
function holdsOpen(pid: number, file: string): boolean {
  const real = fs.realpathSync(file);
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === real;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Run the CLI; once `ready(pid)` holds, call `change`. */
async function runWhileChanging(
  args: string[],
  ready: (pid: number) => boolean,
  change: () => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let changed = false;
  for (let i = 0; i < 60_000 && child.exitCode === null; i++) {
    if (ready(child.pid!)) {
      change();
      changed = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  const code = await exited;
  assert.ok(changed, `the run was never seen under way (exit ${code}): ${stderr}`);
  return { code, stdout, stderr };
}

test('verify: an archive replaced during the run is named on stderr with the entries left unchecked, and listed in --json', { skip }, async () => {
  const arena = new Arena();
  const big = arena.at('mods', 'Big.arch06');
  fs.mkdirSync(path.dirname(big));
  fs.writeFileSync(big, bigArchive(4000));
  // -arch archives are mounted first and the cfg's last line last: once that archive is open,
  // Big.arch06 is mounted, and verify reads it last (it ranks below every cfg line).
  const r = await runWhileChanging(
    ['verify', arena.game, '--arch', big, '--json'],
    (pid) => holdsOpen(pid, arena.at('game', 'HotChunk.arch06')),
    () => {
      fs.writeFileSync(big + '.new', bigArchive(10));
      fs.renameSync(big + '.new', big);
    },
  );
  assert.equal(r.code, 2, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.changed.length, 1);
  const c = report.changed[0];
  assert.equal(c.source, 'Big.arch06');
  assert.match(c.detail, /^replaced by another file \(\d+ bytes\)$/);
  assert.ok(c.unchecked > 0 && c.unchecked <= 4000, String(c.unchecked));
  assert.equal(report.failures.length, 1, 'one failure for the changed archive, none for the sample');
  assert.equal(report.failures.filter((f: { code: string }) => f.code === 'CHANGED_ON_DISK').length, 1);
  assert.match(
    r.stderr,
    new RegExp(
      `^arch06: verify: Big\\.arch06 changed on disk during the run \\(replaced by another file \\(\\d+ bytes\\)\\); ${c.unchecked} of its entries were not checked: run verify again$`,
      'm',
    ),
  );
});

test('extract: an archive truncated during the run is given up, named on stderr with the files not extracted, and listed in --json', { skip }, async () => {
  const arena = new Arena();
  const big = arena.at('mods', 'Big.arch06');
  fs.mkdirSync(path.dirname(big));
  fs.writeFileSync(big, bigArchive(1500));
  const out = arena.at('out');
  // Once the first files are written, the run is under way.
  const started = (): boolean =>
    fs.existsSync(path.join(out, 'big')) && fs.readdirSync(path.join(out, 'big')).filter((n) => !n.startsWith('.arch06-')).length >= 3;
  const r = await runWhileChanging(['extract', arena.game, 'big', out, '--source', 'Big.arch06', '--arch', big, '--json'], started, () =>
    fs.truncateSync(big, 4096),
  );
  assert.equal(r.code, 2, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.files + j.failed, 1500);
  assert.ok(j.files >= 3 && j.failed > 0, `${j.files} extracted, ${j.failed} failed`);
  assert.ok(j.files >= 3 && j.failed > 0, `${j.files} extracted, ${j.failed} failed`);
  assert.equal(j.changed.length, 1);
  assert.equal(j.changed[0].source, 'Big.arch06');
  assert.match(j.changed[0].detail, /^truncated from \d+ to 4096 bytes$/);
  assert.equal(j.changed[0].files, j.failed);
  const written = fs.existsSync(path.join(out, 'big')) ? fs.readdirSync(path.join(out, 'big')) : [];
  assert.equal(written.length, j.files, 'the files extracted before the change, and no temp file');
  assert.match(
    r.stderr,
    new RegExp(
      `^arch06: extract: Big\\.arch06 changed on disk during the run \\(truncated from \\d+ to 4096 bytes\\); ${j.failed} of its files were not extracted: run extract again$`,
      'm',
    ),
  );
});
