/**
 * Packing a mod (core/mod/pack.ts) of 10,000 files and 1 GB, beside copying the same bytes, in
 * one run (issue 23: target ≤ 1.5× the copy). The mod is generated under the system's temp folder
 * with random bytes (incompressible, as textures and sounds are; the packer stores every chunk
 * anyway) in sizes from 4 KB to ~200 KB, spread over 100 folders. Each step runs in a child
 * process, so its peak memory (maxRSS) is its own:
 *
 * - pack: `packMod` (tables, stored chunks streamed a block at a time, the archive read back and
 *   compared file by file, then renamed into place);
 * - copy: every file copied into another folder (`fs.copyFileSync`, which the kernel may do
 *   without reading into user space: the fastest way to write the same bytes again);
 * - cat: every file read and appended to one output file (what the packer must do at least:
 *   read the bytes once and write them once into one file), with a 1 MiB buffer.
 *
 * The packer reads each file twice (once to write, once to verify the archive against the
 * folder); the ratio says what that and the tables cost. `ARCH06_BENCH_PACK_MB` scales the mod.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMod, packMod } from '../core/mod';
import { prng } from './prng';

const FILES = 10_000;
const TOTAL_MB = Number(process.env.ARCH06_BENCH_PACK_MB ?? 1024);

/** File sizes summing to TOTAL_MB: a skewed spread, as a mod's textures and scripts are. */
function sizes(): number[] {
  const rnd = prng(0x9ac4);
  const raw = Array.from({ length: FILES }, () => 0.02 + rnd() * rnd());
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => Math.max(1, Math.round((r / sum) * TOTAL_MB * 1048576)));
}

function generate(root: string): { files: string[]; bytes: number } {
  createMod(root, 'BenchPack', { archive: 'BenchPack.arch06' });
  const block = Buffer.alloc(1 << 20);
  const rnd = prng(0x51a7);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((rnd() * 2 ** 32) >>> 0, i);
  const files: string[] = [];
  let bytes = 0;
  sizes().forEach((size, i) => {
    const rel = path.join('bench', `folder${String(i % 100).padStart(2, '0')}`, `file${String(i).padStart(5, '0')}.dat`);
    fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
    // Each file starts at another offset of the random block, so no two files are equal.
    const start = (i * 4099) % (block.length - 1);
    const out = Buffer.allocUnsafe(size);
    for (let o = 0; o < size;) {
      const from = (start + o) % block.length;
      const n = Math.min(size - o, block.length - from);
      block.copy(out, o, from, from + n);
      o += n;
    }
    fs.writeFileSync(path.join(root, rel), out);
    files.push(rel);
    bytes += size;
  });
  return { files, bytes };
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else if (e.name.endsWith('.dat')) out.push(r);
    }
  };
  walk('bench');
  return out.sort();
}

/** The child's work: one step, then its time and peak memory as JSON on stdout. */
async function child(step: string, mod: string, out: string): Promise<void> {
  const t0 = process.hrtime.bigint();
  if (step === 'pack') {
    const r = await packMod(mod, { out });
    if (r.verified !== FILES && r.files < FILES) throw new Error(`packed ${r.files} files`);
  } else if (step === 'copy') {
    for (const rel of listFiles(mod)) {
      fs.mkdirSync(path.join(out, path.dirname(rel)), { recursive: true });
      fs.copyFileSync(path.join(mod, rel), path.join(out, rel));
    }
  } else {
    const buf = Buffer.allocUnsafe(1 << 20);
    const fd = fs.openSync(out, 'w');
    for (const rel of listFiles(mod)) {
      const src = fs.openSync(path.join(mod, rel), 'r');
      for (let n; (n = fs.readSync(src, buf, 0, buf.length, null)) > 0;) fs.writeSync(fd, buf, 0, n);
      fs.closeSync(src);
    }
    fs.closeSync(fd);
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(JSON.stringify({ ms, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

function runStep(step: string, mod: string, out: string): { ms: number; maxRssMB: number } {
  const r = spawnSync(process.execPath, [__filename, '--child', step, mod, out], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${step} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { ms: number; maxRssMB: number };
}

function main(): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arch06-bench-pack-'));
  try {
    const mod = path.join(work, 'mod');
    const { bytes } = generate(mod);
    const mb = bytes / 1048576;
    console.log(`\nmod packing: ${FILES.toLocaleString('en')} files, ${mb.toFixed(0)} MiB of random bytes (seeded), each step in its own process`);
    // Warm the page cache the same way for every step: the first step must not pay for it alone.
    runStep('cat', mod, path.join(work, 'warm.bin'));
    fs.rmSync(path.join(work, 'warm.bin'));
    const rows: [string, { ms: number; maxRssMB: number }][] = [];
    for (let round = 0; round < 2; round++) {
      for (const step of ['pack', 'copy', 'cat']) {
        const out = path.join(work, step === 'pack' ? 'BenchPack.arch06' : step === 'copy' ? 'copy' : 'cat.bin');
        const r = runStep(step, mod, out);
        fs.rmSync(out, { recursive: true, force: true });
        if (round === 1) rows.push([step, r]);
      }
    }
    const byStep = Object.fromEntries(rows);
    console.log('| step | time | MiB/s | peak memory (maxRSS) | pack ÷ step |');
    console.log('|---|---|---|---|---|');
    for (const [step, r] of rows)
      console.log(
        `| ${step} | ${(r.ms / 1000).toFixed(2)} s | ${(mb / (r.ms / 1000)).toFixed(0)} | ${r.maxRssMB} MB | ${(byStep.pack.ms / r.ms).toFixed(2)}× |`,
      );
    const ratio = byStep.pack.ms / byStep.copy.ms;
    console.log(`pack ÷ copy = ${ratio.toFixed(2)}× (target ≤ 1.5×): ${ratio <= 1.5 ? 'met' : 'NOT met'}; second of two rounds, steps interleaved`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3], process.argv[4], process.argv[5]).catch((e: unknown) => {
    process.stderr.write(String(e instanceof Error ? e.stack : e));
    process.exit(1);
  });
} else main();
