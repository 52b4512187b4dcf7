/**
 * Kraken decode throughput: our decoder against ooz-wasm (GPL, devDependency, used only
 * here) on the same inputs, interleaved in one run. Prints a markdown table of output
 * MB/s per vector group and in total.
 * Run: npx tsc -p tsconfig.json && node out/bench/kraken.bench.js [seconds]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeOodleInto } from '../core/oodle';
import { sharedPath } from '../test/support/shared';

interface Vector {
  group: string;
  name: string;
  src: Uint8Array;
  raw: Uint8Array;
}

interface ManifestEntry {
  name: string;
  rawFile: string;
  compressedFile: string;
  rawSize: number;
}

type OozDecompress = (data: Uint8Array, rawSize: number) => Uint8Array;

// ooz-wasm is an ES module with top-level await; tsc's CommonJS output would turn a plain
// import() into require(), so go through a real dynamic import.
const dynamicImport = new Function('s', 'return import(s)') as (s: string) => Promise<{ decompressUnsafe: OozDecompress }>;

function loadVectors(): Vector[] {
  const out: Vector[] = [];
  for (const folder of ['kraken-vectors', 'kraken-real-oodle']) {
    const p = sharedPath(folder);
    if (p.skip) continue;
    const manifest = JSON.parse(fs.readFileSync(path.join(p.path, 'manifest.json'), 'utf8')) as ManifestEntry[];
    for (const m of manifest) {
      out.push({
        group: m.rawFile.replace(/\.raw$/, ''),
        name: m.name,
        src: new Uint8Array(fs.readFileSync(path.join(p.path, m.compressedFile))),
        raw: new Uint8Array(fs.readFileSync(path.join(p.path, m.rawFile))),
      });
    }
  }
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function main(): Promise<void> {
  const shared = sharedPath('kraken-vectors');
  if (shared.skip) {
    console.log(`kraken bench skipped: ${shared.skip}`);
    return;
  }
  const seconds = Number(process.argv[2] ?? process.env.ARCH06_BENCH_SECONDS ?? 8);
  const vectors = loadVectors();
  let ooz: OozDecompress | undefined;
  try {
    ooz = (await dynamicImport('ooz-wasm')).decompressUnsafe;
  } catch (e) {
    console.log(`ooz-wasm not available (${(e as Error).message}); timing our decoder only`);
  }

  const outBuf = new Uint8Array(Math.max(...vectors.map((v) => v.raw.length)));
  // Correctness first, so the timings compare decoders that agree.
  for (const v of vectors) {
    decodeOodleInto(v.src, outBuf, 0, v.raw.length, { file: v.name });
    if (!equal(outBuf.subarray(0, v.raw.length), v.raw)) throw new Error(`our decoder is wrong on ${v.name}`);
    if (ooz && !equal(ooz(v.src, v.raw.length), v.raw)) throw new Error(`ooz-wasm is wrong on ${v.name}`);
  }

  const oursNs = new Map<string, number>();
  const oozNs = new Map<string, number>();
  const bytes = new Map<string, number>();
  const groups: string[] = [];
  for (const v of vectors) if (!groups.includes(v.group)) groups.push(v.group);

  // Each round decodes every vector with both decoders, enough times to reach ~256 KiB
  // of output per vector, alternating which decoder goes first.
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  let rounds = 0;
  while (process.hrtime.bigint() < deadline || rounds < 2) {
    for (const v of vectors) {
      const reps = Math.max(1, Math.round(0x40000 / Math.max(v.raw.length, 256)));
      const runOurs = (): void => {
        const t0 = process.hrtime.bigint();
        for (let r = 0; r < reps; r++) decodeOodleInto(v.src, outBuf, 0, v.raw.length);
        oursNs.set(v.group, (oursNs.get(v.group) ?? 0) + Number(process.hrtime.bigint() - t0));
      };
      const runOoz = (): void => {
        if (!ooz) return;
        const t0 = process.hrtime.bigint();
        for (let r = 0; r < reps; r++) ooz(v.src, v.raw.length);
        oozNs.set(v.group, (oozNs.get(v.group) ?? 0) + Number(process.hrtime.bigint() - t0));
      };
      if (rounds & 1) {
        runOoz();
        runOurs();
      } else {
        runOurs();
        runOoz();
      }
      bytes.set(v.group, (bytes.get(v.group) ?? 0) + reps * v.raw.length);
    }
    rounds++;
  }

  const mbps = (b: number, ns: number): string => (ns > 0 ? (b / 1e6 / (ns / 1e9)).toFixed(1) : '–');
  const ratio = (a: number, b: number): string => (a > 0 && b > 0 ? (b / a).toFixed(2) : '–');
  console.log(`Kraken decode, ${vectors.length} vectors, ${rounds} rounds, output MB/s (node ${process.version})\n`);
  console.log('| group | ours MB/s | ooz-wasm MB/s | ours/ooz |');
  console.log('|---|---:|---:|---:|');
  let tb = 0;
  let to = 0;
  let tz = 0;
  for (const g of groups) {
    const b = bytes.get(g) ?? 0;
    const o = oursNs.get(g) ?? 0;
    const z = oozNs.get(g) ?? 0;
    tb += b;
    to += o;
    tz += z;
    console.log(`| ${g} | ${mbps(b, o)} | ${mbps(b, z)} | ${ratio(o, z)} |`);
  }
  console.log(`| **total** | **${mbps(tb, to)}** | **${mbps(tb, tz)}** | **${ratio(to, tz)}** |`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
