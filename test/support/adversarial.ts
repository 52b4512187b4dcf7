/**
 * The adversarial suite's tools (issue 10): run the bundled CLI as a user would, but bounded (a
 * V8 heap limit, a wall-clock timeout, its peak resident memory measured), snapshot folder
 * trees without following links (so a test can prove nothing outside its output folder changed
 * and the install is byte- and mtime-identical), and craft archives whose names a well-behaved
 * writer refuses to produce.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter, WriterEntry, NAME_POOL_START } from '../../core/formats/archive';
import { CLI } from './cli';
import { tempDir } from './fixtures';

// ---- bounded runs ------------------------------------------------------------------------------

export interface BoundedRun {
  /** Exit code, or null when killed (timeout). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  elapsedMs: number;
  timedOut: boolean;
  /** Peak resident set size of the child in KiB (from the probe), or undefined if it never exited normally. */
  maxRssKb?: number;
}

export interface BoundedRunOptions {
  /** Kill the child after this long (default 20 s). */
  timeoutMs?: number;
  /** V8 old-space limit in MiB (default 256). */
  heapMb?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Send stdout to this file (e.g. /dev/full) instead of a pipe. */
  stdoutTo?: string;
  cwd?: string;
}

/** The probe `--require`d into the child: writes its peak RSS to ARCH06_TEST_RSS_FILE at exit. */
function rssProbe(): string {
  const p = path.join(tempDir('arch06-probe-'), 'rssProbe.js');
  fs.writeFileSync(
    p,
    `'use strict';
const f = process.env.ARCH06_TEST_RSS_FILE;
if (f) process.on('exit', () => { try { require('fs').writeFileSync(f, String(process.resourceUsage().maxRSS)); } catch {} });
`,
  );
  return p;
}
let probe: string | undefined;

/** Run `arch06 …args` in a child with a heap limit and a timeout. */
export function runBounded(args: string[], options: BoundedRunOptions = {}): BoundedRun {
  probe ??= rssProbe();
  const rssFile = path.join(path.dirname(probe), `rss-${crypto.randomBytes(6).toString('hex')}`);
  const stdoutFd = options.stdoutTo !== undefined ? fs.openSync(options.stdoutTo, 'w') : undefined;
  const t0 = process.hrtime.bigint();
  try {
    // ARCH06_TEST_CLI: run another build (e.g. an older commit's, to see these tests fail there).
    const cli = process.env.ARCH06_TEST_CLI ?? CLI;
    const r = spawnSync(process.execPath, [`--max-old-space-size=${options.heapMb ?? 256}`, '--require', probe, cli, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, ARCH06_TEST_RSS_FILE: rssFile },
      stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 20_000,
      killSignal: 'SIGKILL',
      maxBuffer: 256 << 20,
    });
    const elapsedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    let maxRssKb: number | undefined;
    try {
      maxRssKb = Number(fs.readFileSync(rssFile, 'utf8'));
    } catch {
      maxRssKb = undefined;
    }
    return {
      code: r.status,
      signal: r.signal,
      stdout: r.stdout ?? Buffer.alloc(0),
      stderr: r.stderr?.toString() ?? '',
      elapsedMs,
      timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
      maxRssKb,
    };
  } finally {
    if (stdoutFd !== undefined) fs.closeSync(stdoutFd);
    fs.rmSync(rssFile, { force: true });
  }
}

/** Non-empty stderr lines. */
export const stderrLines = (r: BoundedRun): string[] => r.stderr.split('\n').filter((l) => l.length > 0);

/**
 * The contract every adversarial run keeps: finished in time (no kill; within `withinMs`,
 * default 15 s), the expected exit code, and (when `lines` is given) exactly that many stderr lines, none of them a stack frame and
 * none holding a raw control character.
 */
export function assertContract(r: BoundedRun, expect: { code: number | number[]; lines?: number; withinMs?: number }, what = ''): void {
  const ctx = `${what}\nexit ${r.code} ${r.signal ?? ''} after ${Math.round(r.elapsedMs)} ms\nstderr:\n${r.stderr}`;
  assert.ok(!r.timedOut, `timed out: ${ctx}`);
  if (Array.isArray(expect.code)) assert.ok(r.code !== null && expect.code.includes(r.code), ctx);
  else assert.equal(r.code, expect.code, ctx);
  const limit = expect.withinMs ?? 15_000;
  assert.ok(r.elapsedMs < limit, `took ${Math.round(r.elapsedMs)} ms (limit ${limit}): ${ctx}`);
  if (expect.lines !== undefined) assert.equal(stderrLines(r).length, expect.lines, `stderr lines: ${ctx}`);
  assert.doesNotMatch(r.stderr, /^\s+at .+\(.*:\d+:\d+\)$/m, `a stack trace: ${ctx}`);
  assert.doesNotMatch(r.stderr, /^arch06: internal error/m, ctx);

  assert.doesNotMatch(r.stderr.replace(/\n/g, ''), /[\x00-\x1f\x7f-\x9f]/, `a raw control character on stderr: ${ctx}`);
}

// ---- tree snapshots ----------------------------------------------------------------------------

/**
 * Every entry under `dir` (relative path → description), links recorded as links and never
 * followed: `dir`, `link -> <target>`, `file <size> <mtimeMs> <sha256>`, or `other`.
 */
export type TreeSnapshot = Map<string, string>;

export function snapshotTree(dir: string): TreeSnapshot {
  const out: TreeSnapshot = new Map();
  const walk = (abs: string, rel: string): void => {
    for (const name of fs.readdirSync(abs)) {
      const p = path.join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) out.set(r, `link -> ${fs.readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(r, 'dir');
        walk(p, r);
      } else if (st.isFile()) out.set(r, `file ${st.size} ${st.mtimeMs} ${crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`);
      else out.set(r, 'other');
    }
  };
  walk(dir, '');
  return out;
}

/** Paths added, removed or changed between two snapshots. */
export function treeChanges(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const changed: string[] = [];
  for (const [k, v] of after) if (before.get(k) !== v) changed.push(before.has(k) ? `changed ${k}` : `added ${k}`);
  for (const k of before.keys()) if (!after.has(k)) changed.push(`removed ${k}`);
  return changed.sort();
}

/**
 * A test's playground: `root/game` (the sample install, written by the CLI's own make-sample),
 * and whatever the test adds beside it. `check()` proves that since the arena was sealed,
 * nothing changed except under the allowed relative folders (the test's output folders).
 */
export class Arena {
  readonly root: string;
  readonly game: string;
  private sealed?: TreeSnapshot;

  constructor() {
    this.root = tempDir('arch06-arena-');
    this.game = path.join(this.root, 'game');
    const r = runBounded(['make-sample', this.game]);
    assertContract(r, { code: 0, lines: 0 }, 'make-sample');
  }

  /** A path inside the arena. */
  at(...rel: string[]): string {
    return path.join(this.root, ...rel);
  }

  /** Take the "before" snapshot (after the test set up its traps). */
  seal(): void {
    this.sealed = snapshotTree(this.root);
  }

  /**
   * Nothing changed outside `allowed` (relative folders, `/`-separated; their contents may
   * change, not the folder entries' link targets) and the install is byte- and mtime-identical.
   */
  check(allowed: string[] = []): void {
    assert.ok(this.sealed, 'seal() first');
    const changes = treeChanges(this.sealed, snapshotTree(this.root));
    const outside = changes.filter((c) => {
      const p = c.slice(c.indexOf(' ') + 1);
      return !allowed.some((a) => p === a || p.startsWith(a + '/'));
    });
    assert.deepEqual(outside, [], 'changes outside the output folder');
    assert.ok(!changes.some((c) => c.slice(c.indexOf(' ') + 1).startsWith('game/')), `the install changed: ${changes.join(', ')}`);
  }
}

// ---- crafted archives --------------------------------------------------------------------------

/**
 * An LTAR built by the project's writer with placeholder names, then patched byte for byte in
 * the name pool (`patches`: placeholder → hostile name of the same length in latin1), so every
 * offset stays valid while the names become what no writer should write.
 */
export function craftArchive(files: Record<string, WriterEntry | Uint8Array | string>, patches: Record<string, string> = {}): Uint8Array {
  const w = new LtarWriter();
  for (const [p, e] of Object.entries(files)) {
    if (typeof e === 'string') w.addBytes(p, Buffer.from(e, 'latin1'));
    else if (e instanceof Uint8Array) w.addBytes(p, e);
    else w.add(p, e);
  }
  const bytes = w.toBytes();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const poolSize = dv.getUint32(8, true);
  const pool = Buffer.from(bytes.buffer, bytes.byteOffset + NAME_POOL_START, poolSize);
  for (const [from, to] of Object.entries(patches)) {
    assert.equal(Buffer.byteLength(from, 'latin1'), Buffer.byteLength(to, 'latin1'), `placeholder ${from} and ${JSON.stringify(to)} differ in length`);
    const a = Buffer.from(from, 'latin1');
    let hits = 0;
    for (let at = pool.indexOf(a); at >= 0; at = pool.indexOf(a, at + 1)) {
      pool.write(to, at, 'latin1');
      hits++;
    }
    assert.ok(hits > 0, `placeholder ${from} is not in the name pool`);
  }
  return bytes;
}

/** A placeholder of `name`'s length (letters only, unique per `tag`). */
export function placeholder(name: string, tag: string): string {
  const n = Buffer.byteLength(name, 'latin1');
  assert.ok(n >= tag.length, `"${tag}" is longer than the name`);
  return (tag + 'Q'.repeat(n)).slice(0, n);
}

/** A Kraken memset stream (one byte of fill for any raw size): a tiny payload that decodes to a full chunk. */
const KRAKEN_MEMSET_ZERO = Uint8Array.from([0x8c, 0x06, 0x07, 0xff, 0xff, 0x00]);

/** A chunk-stream entry of `chunks` memset chunks of 64 KiB each, after optional leading stored bytes. */
export function memsetEntry(chunks: number, lead?: Uint8Array): WriterEntry {
  const list = [];
  if (lead) list.push({ payload: lead, rawLen: lead.length });
  for (let i = 0; i < chunks; i++) list.push({ payload: KRAKEN_MEMSET_ZERO, rawLen: 0x10000 });
  return { storage: 'chunks', chunks: list };
}
