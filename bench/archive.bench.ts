/**
 * Archive engine benchmarks on the full-scale synthetic install (bench/synthInstall.ts). Every
 * figure is measured in this run, and each is printed beside its baseline measured the same way
 * (cold process against cold process, in-process against in-process), never as a bare time.
 */
import * as os from 'node:os';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, LtarSource } from '../core/archive';
import { BIG_ENTRY, WIDE_FOLDER, writeInstall } from './synthInstall';
import { readTableFloor } from './ioFloor';

const repo = path.resolve(__dirname, '..', '..');
const dataDir = path.join(repo, 'bench-data', 'full');
const VERSION = 'synth-v2'; // v2: scripts are SCRI files of retail-style source

function ensureInstall(): void {
  const marker = path.join(dataDir, '.version');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === VERSION) return;
  fs.rmSync(dataDir, { recursive: true, force: true });
  const t = performance.now();
  process.stderr.write('generating the full-scale synthetic install (once)…\n');
  writeInstall(dataDir);
  fs.writeFileSync(marker, VERSION);
  process.stderr.write(`generated in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';

function timeProcess(args: string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
    times.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  }
  return median(times);
}

function timeIt(runs: number, f: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return median(times);
}

function main(): void {
  ensureInstall();
  const rows: string[][] = [];
  const cli = path.join(repo, 'dist', 'cli.js');
  const probe = Mount.open({ root: dataDir });
  const archives = probe.sources.filter((s): s is LtarSource => s instanceof LtarSource).map((s) => s.diskPath);
  const entries = probe.sources.reduce((n, s) => n + s.fileCount, 0);
  const ix = probe.index();
  probe.close();

  // Warm the page cache so both sides read from memory.
  timeProcess([path.join(__dirname, 'ioFloor.js'), ...archives], 1);
  const floorCold = timeProcess([path.join(__dirname, 'ioFloor.js'), ...archives], 7);
  const mountCold = timeProcess([cli, 'mount', dataDir, '--json'], 7);
  const nodeStart = timeProcess(['-e', '0'], 7);
  rows.push([
    'mount, cold process (`arch06 mount --json`, incl. distinct-path index)',
    ms(mountCold),
    `I/O floor process ${ms(floorCold)}`,
    (mountCold / floorCold).toFixed(2) + '×',
  ]);
  rows.push([
    '  same, less node start-up (' + ms(nodeStart) + ')',
    ms(mountCold - nodeStart),
    `floor ${ms(floorCold - nodeStart)}`,
    ((mountCold - nodeStart) / Math.max(0.01, floorCold - nodeStart)).toFixed(2) + '×',
  ]);

  const floorIn = timeIt(7, () => {
    readTableFloor(archives);
  });
  const mountIn = timeIt(7, () => Mount.open({ root: dataDir }).close());
  const indexIn = timeIt(5, () => {
    const m = Mount.open({ root: dataDir });
    m.index();
    m.close();
  });
  rows.push(['mount, in process (open + validate every record)', ms(mountIn), `plain reads ${ms(floorIn)}`, (mountIn / floorIn).toFixed(2) + '×']);
  rows.push(['mount + merged distinct-path index, in process', ms(indexIn), `plain reads ${ms(floorIn)}`, (indexIn / floorIn).toFixed(2) + '×']);

  const mem = JSON.parse(spawnSync(process.execPath, ['--expose-gc', path.join(__dirname, 'memoryProbe.js'), dataDir]).stdout.toString());
  rows.push(['index memory (heap + buffers after GC)', `${(mem.heapMB + mem.buffersMB).toFixed(0)} MB`, `rss +${mem.rssMB} MB`, '']);

  // which: winners of random distinct paths, plus absent paths.
  const m = Mount.open({ root: dataDir });
  const idx = m.index();
  let seed = 12345;
  const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const queries: string[] = [];
  for (let i = 0; i < 5000; i++) queries.push(m.indexPath((rnd() * idx.size) | 0));
  for (let i = 0; i < 500; i++) queries.push(`worlds\\retail\\nowhere\\missing_${i}.tex`);
  for (let i = 0; i < 200; i++) m.which(queries[i]); // warm-up
  const lat: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    m.which(q);
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
  rows.push([
    `which (all ${m.sources.length} sources searched), mean / p99 over ${lat.length}`,
    `${(mean * 1000).toFixed(0)} µs`,
    `p99 ${(lat[Math.floor(lat.length * 0.99)] * 1000).toFixed(0)} µs`,
    '',
  ]);

  const rootList = timeIt(5, () => m.list(''));
  const wide = timeIt(5, () => m.list(WIDE_FOLDER.path));
  const wideCount = m.list(WIDE_FOLDER.path)!.files.length;
  rows.push(['list the merged root folder', ms(rootList), '', '']);
  rows.push([`list a ${wideCount.toLocaleString('en')}-entry folder (merged view)`, ms(wide), '', '']);

  // A 100 MB range of a 256 MiB chunked entry, against reading the same stored span with fs.
  const big = m.entry(BIG_ENTRY.path);
  const start = 50 * 1048576 + 12345;
  const end = start + 100 * 1000 * 1000;
  let check = 0;
  const rangeT = timeIt(3, () => {
    const b = big.readSync(start, end);
    check = b[0] | (b[1] << 8);
  });
  const s = big.source as LtarSource;
  const rec = s.archive.fileRecord(s.archive.find(BIG_ENTRY.path));
  const perChunk = (0x10000 + 8) / 0x10000;
  const floorRange = timeIt(3, () => {
    const fd = fs.openSync(s.diskPath, 'r');
    const n = Math.ceil((end - start) * perChunk);
    fs.readSync(fd, Buffer.allocUnsafe(n), 0, n, rec.dataOffset + Math.floor(start * perChunk));
    fs.closeSync(fd);
  });
  if (check !== ((start - (start % 4)) & 0xffff) && check !== 0) void 0;
  rows.push([`read a 100 MB range of a 256 MiB chunked entry`, ms(rangeT), `plain read of the span ${ms(floorRange)}`, (rangeT / floorRange).toFixed(2) + '×']);
  m.close();

  const out = [
    `### Archive engine on the full-scale synthetic install`,
    ``,
    `${archives.length} mounted archives, ${entries.toLocaleString('en')} mounted entries, ${ix.size.toLocaleString('en')} distinct paths, up to ${ix.maxCopies()} copies (node ${process.version}, ${os.cpus().length} cores)`,
    ``,
    `| measure | arch06 | baseline (same run) | ratio |`,
    `|---|---|---|---|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    ``,
  ];
  process.stdout.write(out.join('\n') + '\n');
}

main();
