/**
 * Kraken decode throughput: arch06's dispatch (`decodeOodleInto`: the WebAssembly engine where
 * it runs) against ooz-wasm (GPL, devDependency, used only here) and arch06's TypeScript
 * reference engine, on the same inputs, interleaved in one run. Three sample groups: the
 * project's shared vectors, the genuine-Oodle silesia blocks, and the real game Kraken chunks of
 * Patch_00.arch06. Each sample is decoded about 256 KiB worth per round; its time is its best
 * round (other work on a shared machine only adds time, so the fastest round is the one it
 * disturbed least), and a group's MB/s is its output bytes over the sum of its samples' times. Prints the group table (with each group's share of the
 * samples and of the output bytes), then the vector groups in detail.
 * Run: npm run bench -- kraken   (or node out/bench/kraken.bench.js [seconds])
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeOodleInto, krakenEngine, setKrakenEngine } from '../core/oodle';
import { sharedPath } from '../test/support/shared';
import { realChunks } from '../test/support/realChunks';

interface Sample {
  group: 'vectors' | 'genuine Oodle' | 'real chunks';
  /** Finer grouping for the detail table (the raw file a vector compresses). */
  detail: string;
  name: string;
  src: Uint8Array;
  raw: Uint8Array;
  /** Decodes per round (about 256 KiB of output). */
  reps: number;
  times: Record<Engine, number[]>;
}

type Engine = 'arch06' | 'ooz' | 'reference';
const ENGINES: Engine[] = ['arch06', 'ooz', 'reference'];

interface ManifestEntry {
  name: string;
  rawFile: string;
  compressedFile: string;
}

type OozDecompress = (data: Uint8Array, rawSize: number) => Uint8Array;

// ooz-wasm is an ES module with top-level await; tsc's CommonJS output would turn a plain
// import() into require(), so go through a real dynamic import.
const dynamicImport = new Function('s', 'return import(s)') as (s: string) => Promise<{ decompressUnsafe: OozDecompress }>;

function sample(group: Sample['group'], detail: string, name: string, src: Uint8Array, raw: Uint8Array): Sample {
  const reps = Math.max(1, Math.round(0x40000 / Math.max(raw.length, 256)));
  return { group, detail, name, src, raw, reps, times: { arch06: [], ooz: [], reference: [] } };
}

function loadSamples(): Sample[] {
  const out: Sample[] = [];
  for (const [folder, group] of [
    ['kraken-vectors', 'vectors'],
    ['kraken-real-oodle', 'genuine Oodle'],
  ] as const) {
    const p = sharedPath(folder);
    if (p.skip) continue;
    const manifest = JSON.parse(fs.readFileSync(path.join(p.path, 'manifest.json'), 'utf8')) as ManifestEntry[];
    for (const m of manifest) {
      const src = new Uint8Array(fs.readFileSync(path.join(p.path, m.compressedFile)));
      const raw = new Uint8Array(fs.readFileSync(path.join(p.path, m.rawFile)));
      out.push(sample(group, m.rawFile.replace(/\.raw$/, ''), m.name, src, raw));
    }
  }
  const patch = sharedPath('samples/real/Patch_00.arch06');
  if (!patch.skip) {
    for (const c of realChunks(patch.path)) {
      if (c.codec !== 'kraken') continue;
      // The expected bytes come from the reference engine (the archive holds no raw copy).
      setKrakenEngine('typescript');
      const raw = new Uint8Array(c.rawSize);
      decodeOodleInto(c.src, raw, 0, c.rawSize, { file: c.name });
      setKrakenEngine('auto');
      out.push(sample('real chunks', 'Patch_00.arch06', c.name, c.src, raw));
    }
  }
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The fastest round: other work on the machine only ever slows a round down. */
function best(xs: number[]): number {
  return xs.length === 0 ? 0 : Math.min(...xs);
}

/** Output bytes and summed best time per engine over `samples`. */
function totals(samples: Sample[]): { bytes: number; ns: Record<Engine, number> } {
  const ns: Record<Engine, number> = { arch06: 0, ooz: 0, reference: 0 };
  let bytes = 0;
  for (const s of samples) {
    bytes += s.reps * s.raw.length;
    for (const e of ENGINES) ns[e] += best(s.times[e]);
  }
  return { bytes, ns };
}

const mbps = (b: number, ns: number): string => (ns > 0 ? (b / 1e6 / (ns / 1e9)).toFixed(1) : '–');
const ratio = (ours: number, theirs: number): string => (ours > 0 && theirs > 0 ? (theirs / ours).toFixed(2) : '–');
const pct = (a: number, b: number): string => `${((100 * a) / b).toFixed(1)}%`;

async function main(): Promise<void> {
  const shared = sharedPath('kraken-vectors');
  if (shared.skip) {
    console.log(`kraken bench skipped: ${shared.skip}`);
    return;
  }
  const seconds = Number(process.argv[2] ?? process.env.ARCH06_BENCH_SECONDS ?? 12);
  const samples = loadSamples();
  let ooz: OozDecompress | undefined;
  try {
    ooz = (await dynamicImport('ooz-wasm')).decompressUnsafe;
  } catch (e) {
    console.log(`ooz-wasm not available (${(e as Error).message}); timing arch06 only`);
  }

  const outBuf = new Uint8Array(Math.max(...samples.map((v) => v.raw.length)));
  const run: Record<Engine, (s: Sample) => void> = {
    arch06: (s) => decodeOodleInto(s.src, outBuf, 0, s.raw.length),
    reference: (s) => {
      setKrakenEngine('typescript');
      try {
        decodeOodleInto(s.src, outBuf, 0, s.raw.length);
      } finally {
        setKrakenEngine('auto');
      }
    },
    ooz: (s) => void ooz?.(s.src, s.raw.length),
  };
  // Correctness first, so the timings compare decoders that agree.
  for (const s of samples) {
    for (const e of ['arch06', 'reference'] as const) {
      run[e](s);
      if (!equal(outBuf.subarray(0, s.raw.length), s.raw)) throw new Error(`arch06 (${e}) is wrong on ${s.name}`);
    }
    if (ooz && !equal(ooz(s.src, s.raw.length), s.raw)) throw new Error(`ooz-wasm is wrong on ${s.name}`);
  }

  // Each round decodes every sample with every engine, in an order that rotates per round.
  const engines = ooz ? ENGINES : ENGINES.filter((e) => e !== 'ooz');
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  let rounds = 0;
  while (process.hrtime.bigint() < deadline || rounds < 3) {
    for (const s of samples) {
      for (let k = 0; k < engines.length; k++) {
        const e = engines[(k + rounds) % engines.length];
        const t0 = process.hrtime.bigint();
        for (let r = 0; r < s.reps; r++) run[e](s);
        s.times[e].push(Number(process.hrtime.bigint() - t0));
      }
    }
    rounds++;
  }

  const all = totals(samples);
  console.log(`Kraken decode, ${samples.length} samples, ${rounds} rounds, output MB/s, arch06 engine: ${krakenEngine()} (node ${process.version})\n`);
  console.log('| group | samples | share of samples | share of output | arch06 MB/s | ooz-wasm MB/s | arch06/ooz | TS reference MB/s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const g of ['vectors', 'genuine Oodle', 'real chunks'] as const) {
    const members = samples.filter((s) => s.group === g);
    if (members.length === 0) continue;
    const t = totals(members);
    const rawBytes = members.reduce((n, s) => n + s.raw.length, 0);
    const allRaw = samples.reduce((n, s) => n + s.raw.length, 0);
    console.log(
      `| ${g} | ${members.length} | ${pct(members.length, samples.length)} | ${pct(rawBytes, allRaw)} | ${mbps(t.bytes, t.ns.arch06)} | ${mbps(t.bytes, t.ns.ooz)} | **${ratio(t.ns.arch06, t.ns.ooz)}** | ${mbps(t.bytes, t.ns.reference)} |`,
    );
  }
  console.log(
    `| **all** | ${samples.length} | 100% | 100% | ${mbps(all.bytes, all.ns.arch06)} | ${mbps(all.bytes, all.ns.ooz)} | **${ratio(all.ns.arch06, all.ns.ooz)}** | ${mbps(all.bytes, all.ns.reference)} |`,
  );

  console.log('\n| sample group (detail) | arch06 MB/s | ooz-wasm MB/s | arch06/ooz |');
  console.log('|---|---:|---:|---:|');
  const details = [...new Set(samples.map((s) => s.detail))];
  for (const d of details) {
    const t = totals(samples.filter((s) => s.detail === d));
    console.log(`| ${d} | ${mbps(t.bytes, t.ns.arch06)} | ${mbps(t.bytes, t.ns.ooz)} | ${ratio(t.ns.arch06, t.ns.ooz)} |`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
