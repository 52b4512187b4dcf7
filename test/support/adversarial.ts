/**
 * The adversarial suite's tools (issue 10): run the bundled CLI as a user would, but bounded (a
 * V8 heap limit and a watchdog that kills a hang), with the work it did counted (its peak
 * resident memory, the reads it made and the bytes they returned: nothing here reads a clock),
 * snapshot folder trees without following links (so a test can prove nothing outside its output
 * folder changed and the install is byte- and mtime-identical), and craft archives whose names a
 * well-behaved writer refuses to produce.
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
  /** Exit code, or null when killed (the watchdog). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** The watchdog killed it: a hang, since the watchdog is far above any honest run. */
  timedOut: boolean;
  /** What the child counted (from the probe), or undefined if it never exited normally. */
  maxRssKb?: number;
  /** File reads the child made (`fs.readSync`, `fs.read`, `fs.readFileSync`) and the bytes they returned. */
  reads?: number;
  readBytes?: number;
}

export interface BoundedRunOptions {
  /** The watchdog: kill the child after this long (default 180 s, far above any honest run; only a hang reaches it). */
  timeoutMs?: number;
  /** V8 old-space limit in MiB (default 256). */
  heapMb?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Send stdout to this file (e.g. /dev/full) instead of a pipe. */
  stdoutTo?: string;
  cwd?: string;
}

/**
 * The probe `--require`d into the child: counts every file read (the CLI's bundle reads through
 * node:fs's live exports, so the wrapped functions are the ones it calls) and writes the counts
 * and its peak RSS to ARCH06_TEST_PROBE_FILE at exit.
 */
function probeScript(): string {
  const p = path.join(tempDir('arch06-probe-'), 'workProbe.js');
  fs.writeFileSync(
    p,
    `'use strict';
const fs = require('fs');
const count = { reads: 0, readBytes: 0 };
const readSync = fs.readSync;
fs.readSync = function (...a) { const n = readSync.apply(this, a); count.reads++; count.readBytes += n; return n; };
const read = fs.read;
fs.read = function (...a) {
  const cb = a[a.length - 1];
  if (typeof cb === 'function') a[a.length - 1] = (err, n, buf) => { if (!err) { count.reads++; count.readBytes += n; } cb(err, n, buf); };
  return read.apply(this, a);
};
const readFileSync = fs.readFileSync;
// Node's module loader reads the CLI's own bundle through readFileSync: scripts are not counted.
const isModule = (p) => typeof p === 'string' && /\\.(c|m)?js(on)?$/.test(p);
fs.readFileSync = function (...a) { const r = readFileSync.apply(this, a); if (!isModule(a[0])) { count.reads++; count.readBytes += r.length; } return r; };
const f = process.env.ARCH06_TEST_PROBE_FILE;
if (f) process.on('exit', () => { try { writeFile(f); } catch {} });
function writeFile(f) { require('fs').writeFileSync(f, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, ...count })); }
`,
  );
  return p;
}
let probe: string | undefined;

/** Run `arch06 …args` in a child with a heap limit and a watchdog, counting its work. */
export function runBounded(args: string[], options: BoundedRunOptions = {}): BoundedRun {
  probe ??= probeScript();
  const probeFile = path.join(path.dirname(probe), `work-${crypto.randomBytes(6).toString('hex')}`);
  const stdoutFd = options.stdoutTo !== undefined ? fs.openSync(options.stdoutTo, 'w') : undefined;
  try {
    // ARCH06_TEST_CLI: run another build (e.g. an older commit's, to see these tests fail there).
    const cli = process.env.ARCH06_TEST_CLI ?? CLI;
    const r = spawnSync(process.execPath, [`--max-old-space-size=${options.heapMb ?? 256}`, '--require', probe, cli, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, ARCH06_TEST_PROBE_FILE: probeFile },
      stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 180_000,
      killSignal: 'SIGKILL',
      maxBuffer: 256 << 20,
    });
    let counted: Pick<BoundedRun, 'maxRssKb' | 'reads' | 'readBytes'> = {};
    try {
      counted = JSON.parse(fs.readFileSync(probeFile, 'utf8'));
    } catch {
      counted = {};
    }
    return {
      code: r.status,
      signal: r.signal,
      stdout: r.stdout ?? Buffer.alloc(0),
      stderr: r.stderr?.toString() ?? '',
      timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
      ...counted,
    };
  } finally {
    if (stdoutFd !== undefined) fs.closeSync(stdoutFd);
    fs.rmSync(probeFile, { force: true });
  }
}

/** Non-empty stderr lines. */
export const stderrLines = (r: BoundedRun): string[] => r.stderr.split('\n').filter((l) => l.length > 0);

export interface ContractExpectation {
  code: number | number[];
  /** Exactly this many stderr lines. */
  lines?: number;
  /** Bounded work, counted: at most this many file reads, at most this many bytes read, a peak RSS below this many MiB. */
  maxReads?: number;
  maxReadBytes?: number;
  maxRssMb?: number;
}

/**
 * The contract every adversarial run keeps: not killed by the watchdog, the expected exit code,
 * (when `lines` is given) exactly that many stderr lines, none of them a stack frame and none
 * holding a raw control character, and the work bounds the case states.
 */
export function assertContract(r: BoundedRun, expect: ContractExpectation, what = ''): void {
  const work = `${r.reads ?? '?'} reads, ${r.readBytes ?? '?'} bytes read, peak RSS ${r.maxRssKb ?? '?'} KiB`;
  const ctx = `${what}\nexit ${r.code} ${r.signal ?? ''} (${work})\nstderr:\n${r.stderr}`;
  assert.ok(!r.timedOut, `killed by the watchdog (a hang): ${ctx}`);
  if (Array.isArray(expect.code)) assert.ok(r.code !== null && expect.code.includes(r.code), ctx);
  else assert.equal(r.code, expect.code, ctx);
  if (expect.lines !== undefined) assert.equal(stderrLines(r).length, expect.lines, `stderr lines: ${ctx}`);
  assert.doesNotMatch(r.stderr, /^\s+at .+\(.*:\d+:\d+\)$/m, `a stack trace: ${ctx}`);
  assert.doesNotMatch(r.stderr, /^arch06: internal error/m, ctx);

  assert.doesNotMatch(r.stderr.replace(/\n/g, ''), /[\x00-\x1f\x7f-\x9f]/, `a raw control character on stderr: ${ctx}`);
  if (expect.maxReads !== undefined) assert.ok(r.reads !== undefined && r.reads <= expect.maxReads, `reads over ${expect.maxReads}: ${ctx}`);
  if (expect.maxReadBytes !== undefined) {
    assert.ok(r.readBytes !== undefined && r.readBytes <= expect.maxReadBytes, `bytes read over ${expect.maxReadBytes}: ${ctx}`);
  }
  if (expect.maxRssMb !== undefined) assert.ok(r.maxRssKb !== undefined && r.maxRssKb < expect.maxRssMb * 1024, `peak RSS over ${expect.maxRssMb} MiB: ${ctx}`);
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
