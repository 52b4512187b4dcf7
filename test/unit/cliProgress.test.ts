// The progress line of `verify` and `extract` (cli/progress.ts): the pure formatter (files, bytes,
// rate, time left by bytes when the total is known, else by files; cut to the terminal's width),
// the line's drawing rules on a stand-in stream (only on a terminal and not --quiet; at the start,
// at most once per interval, at the end; erased last), and the bundled CLI on a pseudo-terminal
// (util-linux `script`): the line appears there and never when stderr is a pipe or with --quiet.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ProgressLine, ProgressStream, formatDuration, formatProgress } from '../../cli/progress';
import { CLI, cliJson, runCli } from '../support/cli';
import { tempDir } from '../support/fixtures';

const MiB = 1 << 20;

test('formatDuration: m:ss under an hour, h:mm:ss from one', () => {
  assert.equal(formatDuration(0), '0:00');
  assert.equal(formatDuration(59_400), '0:59');
  assert.equal(formatDuration(61_000), '1:01');
  assert.equal(formatDuration(3_725_000), '1:02:05');
  assert.equal(formatDuration(-5), '0:00');
});

test('formatProgress: files, share, bytes, rate and the time left by files when the total bytes are unknown', () => {
  // 50 of 200 files in 10 s: 150 more at 0.2 s each is 30 s; 50 MiB in 10 s is 5 MiB/s.
  assert.equal(
    formatProgress({ verb: 'verifying', done: 50, total: 200, bytes: 50 * MiB, elapsedMs: 10_000 }),
    'verifying 50/200 files (25%)  50 MiB  5.0 MiB/s  0:30 left',
  );
  // Thousands separated; the last file: nothing left.
  assert.equal(
    formatProgress({ verb: 'verifying', done: 12_345, total: 12_345, bytes: 2048, elapsedMs: 1000 }),
    'verifying 12,345/12,345 files (100%)  2.0 KiB  2.0 KiB/s  0:00 left',
  );
});

test('formatProgress: with the total bytes known, the time left goes by bytes', () => {
  // Half the files but a quarter of the bytes in 8 s: 3 GiB more at 128 MiB/s is 24 s (by files it would be 8 s).
  assert.equal(
    formatProgress({ verb: 'extracting', done: 10, total: 20, bytes: 1024 * MiB, totalBytes: 4096 * MiB, elapsedMs: 8000 }),
    'extracting 10/20 files (50%)  1.0 GiB of 4.0 GiB  128 MiB/s  0:24 left',
  );
});

test('formatProgress: no rate or time left in the first quarter second; nothing done yet; a narrow terminal', () => {
  assert.equal(formatProgress({ verb: 'verifying', done: 3, total: 10, bytes: 100, elapsedMs: 100 }), 'verifying 3/10 files (30%)  100 B');
  assert.equal(formatProgress({ verb: 'verifying', done: 0, total: 0, bytes: 0, elapsedMs: 0 }), 'verifying 0/0 files  0 B');
  // Cut to columns - 1, so the terminal never wraps it (a wrapped line cannot be redrawn in place).
  const long = { verb: 'extracting', done: 1, total: 3, bytes: 5 * MiB, totalBytes: 9 * MiB, elapsedMs: 2000 };
  const full = formatProgress(long);
  assert.ok(full.length > 30);
  assert.equal(formatProgress(long, 30), full.slice(0, 29));
  assert.equal(formatProgress(long, 200), full);
});

/** A stream that records what is written, a terminal or not, with a clock the test moves. */
function fakeTerminal(isTTY: boolean, columns?: number): ProgressStream & { text: string; writes: number } {
  return {
    isTTY,
    columns,
    text: '',
    writes: 0,
    write(s: string) {
      this.text += s;
      this.writes++;
      return true;
    },
  };
}

test('ProgressLine: nothing at all when the stream is not a terminal, or with quiet', () => {
  for (const [stream, quiet] of [
    [fakeTerminal(false), false],
    [fakeTerminal(true), true],
  ] as const) {
    const p = new ProgressLine(stream, 'verifying', { quiet });
    assert.equal(p.enabled, false);
    p.start(10);
    for (let i = 1; i <= 10; i++) p.update(i, 10, i * 100);
    p.end();
    assert.equal(stream.text, '');
  }
});

test('ProgressLine on a terminal: drawn at the start, at most once per interval, at the last file, then erased', () => {
  const stream = fakeTerminal(true, 120);
  let now = 1_000_000;
  const p = new ProgressLine(stream, 'verifying', { intervalMs: 100, now: () => now });
  assert.equal(p.enabled, true);
  p.start(1000);
  // 1000 files, one per millisecond: one second of work.
  for (let i = 1; i <= 1000; i++) {
    now += 1;
    p.update(i, 1000, i * 1024);
  }
  p.end();
  const frames = stream.text.split('\r\x1b[K');
  assert.equal(frames[0], '', 'every frame starts with a carriage return and an erase');
  assert.equal(frames[frames.length - 1], '', 'the last write erases the line');
  const drawn = frames.slice(1, -1);
  assert.equal(drawn[0], 'verifying 0/1,000 files (0%)  0 B');
  assert.equal(drawn[drawn.length - 1], 'verifying 1,000/1,000 files (100%)  1000 KiB  1000 KiB/s  0:00 left');
  // The start, one per 100 ms of a second's work, and the last file: about 11, never one per file.
  assert.ok(drawn.length >= 10 && drawn.length <= 12, `${drawn.length} frames`);
  for (const f of drawn) assert.ok(f.length < 120);
});

test('ProgressLine: a run shorter than the interval still shows its start and its end', () => {
  const stream = fakeTerminal(true);
  let now = 0;
  const p = new ProgressLine(stream, 'extracting', { now: () => now });
  p.start(2, 300);
  now += 5;
  p.update(1, 2, 100);
  now += 5;
  p.update(2, 2, 300);
  p.end();
  const drawn = stream.text.split('\r\x1b[K').slice(1, -1);
  assert.deepEqual(drawn, ['extracting 0/2 files (0%)  0 B of 300 B', 'extracting 2/2 files (100%)  300 B of 300 B']);
});

// ---- the bundled CLI on a pseudo-terminal ----------------------------------------------------

/** util-linux script(1), which runs a command on a pseudo-terminal and copies what it prints. */
const SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' });
const noScript =
  SCRIPT.error || SCRIPT.status !== 0 || !/util-linux/.test(SCRIPT.stdout)
    ? 'util-linux `script` is not installed: no pseudo-terminal to run the CLI on (apt-get install util-linux / bsdutils)'
    : false;

const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `arch06 …args` with stdin, stdout and stderr on one pseudo-terminal: everything it drew, control sequences and all. */
function onTerminal(...args: string[]): { code: number; text: string } {
  const command = [process.execPath, CLI, ...args].map(sh).join(' ');
  const r = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, COLUMNS: '200' } });
  return { code: r.status ?? -1, text: r.stdout };
}

const root = path.join(tempDir('arch06-cli-progress-'), 'game');
const made = runCli('make-sample', root);

test('verify draws its progress line on a terminal, erases it before the report; piped or --quiet, none', { skip: noScript }, () => {
  assert.equal(made.code, 0, made.stderr);
  const report = cliJson('verify', root);
  const r = onTerminal('verify', root);
  assert.equal(r.code, 0, r.text);
  const n = report.entries;
  assert.ok(n > 0);
  assert.ok(r.text.startsWith(`\r\x1b[Kverifying 0/${n} files (0%)  0 B`), JSON.stringify(r.text.slice(0, 200)));
  assert.match(r.text, new RegExp(`\\r\\x1b\\[Kverifying ${n}/${n} files \\(100%\\)`));
  // Erased, then the report on a clean line.
  const report1 = `${report.sources} sources, ${report.entries} entries`;
  assert.ok(r.text.includes(`\r\x1b[K${report1}`), JSON.stringify(r.text.slice(-400)));
  // --quiet on the same terminal: the report alone.
  const quiet = onTerminal('verify', root, '--quiet');
  assert.equal(quiet.code, 0, quiet.text);
  assert.ok(!quiet.text.includes('verifying'), quiet.text);
  assert.ok(quiet.text.startsWith(report1), quiet.text);
  // stderr a pipe: nothing on it.
  const piped = runCli('verify', root);
  assert.equal(piped.code, 0);
  assert.equal(piped.stderr, '');
  assert.ok(piped.stdout.startsWith(report1));
});

test('extract draws files, bytes of the total and the end on a terminal; piped, stderr stays empty', { skip: noScript }, () => {
  assert.equal(made.code, 0, made.stderr);
  const dir = tempDir('arch06-cli-progress-out-');
  const r = onTerminal('extract', root, 'config', path.join(dir, 'tty'));
  assert.equal(r.code, 0, r.text);
  const written = /extracted (\d+) files \((\d+) bytes\)/.exec(r.text);
  assert.ok(written, r.text);
  const files = Number(written[1]);
  assert.ok(files > 0);
  assert.ok(r.text.startsWith(`\r\x1b[Kextracting 0/${files} files (0%)  0 B of `), JSON.stringify(r.text.slice(0, 200)));
  assert.match(r.text, new RegExp(`\\r\\x1b\\[Kextracting ${files}/${files} files \\(100%\\)`));
  assert.ok(r.text.includes('\r\x1b[Kextracted '), 'the line is erased before the summary');
  assert.ok(fs.existsSync(path.join(dir, 'tty', 'config')));
  const piped = runCli('extract', root, 'config', path.join(dir, 'piped'));
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stderr, '');
  assert.match(piped.stdout, new RegExp(`^extracted ${files} files`));
  const quiet = onTerminal('extract', root, 'config', path.join(dir, 'quiet'), '-q');
  assert.equal(quiet.code, 0, quiet.text);
  assert.ok(!quiet.text.includes('extracting'), quiet.text);
});
