/**
 * The warm mount (issue 25 item 4) on the full-scale synthetic install (bench-data/full, written by
 * archive.bench): opening the install with its merged index and member catalogue built (cold) and
 * read from the mount cache (warm, archives' tables deferred: core/archive/mountCache.ts), beside
 * two I/O floors, all in this run, with plain `fs` calls and no parsing: what an eager mount reads
 * (every archive's header and tables) plus the cache file, the floor the issue set; and the least
 * a warm mount must do (stat every archive for the key, read the cache file). Then the cost the
 * warm mount moved: the first use of every archive (its tables read, validated, checked against
 * the cache). In process (the extension's and the server's case) and as a process (`arch06 mount
 * --json`, the CLI's case).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LtarSource, MemberCatalog, Mount, MountCache, mountCacheFile } from '../core/archive';
import { readTableFloor, statFloor } from './ioFloor';

const repo = path.resolve(__dirname, '..', '..');
const dataDir = path.join(repo, 'bench-data', 'full');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';

async function timeAsync(runs: number, f: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return median(times);
}

function timeProcess(args: string[], env: NodeJS.ProcessEnv, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
    times.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  }
  return median(times);
}

/** The plain reads a warm mount cannot avoid: each archive's header and tables, then the cache file. */
function floorReads(archives: string[], cacheFile: string | undefined): void {
  readTableFloor(archives);
  if (cacheFile) fs.readFileSync(cacheFile);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(dataDir, '.version'))) {
    process.stdout.write('warm mount bench: run archive.bench first (it generates bench-data/full)\n');
    return;
  }
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arch06-bench-mcache-'));
  const probe = Mount.open({ root: dataDir });
  const archives = probe.sources.filter((s): s is LtarSource => s instanceof LtarSource).map((s) => s.diskPath);
  const cacheFile = mountCacheFile(cacheDir, probe);
  probe.close();
  let rows = 0;
  let manifests = 0;
  const cold = async (): Promise<void> => {
    const m = Mount.open({ root: dataDir });
    m.index();
    const c = await MemberCatalog.build(m);
    rows = c.rows.length;
    manifests = c.manifests;
    m.close();
  };
  let warmFrom = '';
  let tablesRead = 0;
  /** The mount as the extension and `arch06 mount` make it: tables deferred, the index from the cache. */
  const warmMount = (): { m: Mount; cache: MountCache } => {
    const m = Mount.open({ root: dataDir, deferTables: true });
    const cache = new MountCache(m, cacheDir);
    warmFrom = cache.index().from;
    tablesRead = m.sources.filter((s) => s instanceof LtarSource && s.tablesOpen).length;
    return { m, cache };
  };
  const warm = async (): Promise<void> => warmMount().m.close();
  // The extension's next step: the member catalogue, read from the cache too.
  const warmWithCatalog = async (): Promise<void> => {
    const { m, cache } = warmMount();
    const c = await cache.catalog(() => MemberCatalog.build(m));
    warmFrom += `/${c.from}`;
    m.close();
  };
  // The warm mount, then one lookup in every archive: each archive's tables read, validated and checked.
  const warmThenUse = async (): Promise<void> => {
    const { m } = warmMount();
    m.which(m.indexPath(0)); // a lookup in every source
    m.close();
  };
  await warmWithCatalog(); // writes the cache file
  const cacheBytes = fs.statSync(cacheFile).size;
  // Warm the page cache, then interleave: the machine's other work lands on every side alike.
  floorReads(archives, cacheFile);
  const t = {
    floor: [] as number[],
    floorTables: [] as number[],
    floorStat: [] as number[],
    cold: [] as number[],
    warm: [] as number[],
    catalog: [] as number[],
    use: [] as number[],
  };
  let warmTables = -1;
  for (let round = 0; round < 9; round++) {
    t.floor.push(await timeAsync(1, async () => floorReads(archives, cacheFile)));
    t.floorTables.push(await timeAsync(1, async () => floorReads(archives, undefined)));
    t.floorStat.push(await timeAsync(1, async () => void statFloor(archives, cacheFile)));
    t.warm.push(await timeAsync(1, warm));
    warmTables = Math.max(warmTables, tablesRead);
    t.catalog.push(await timeAsync(1, warmWithCatalog));
    t.use.push(await timeAsync(1, warmThenUse));
    if (round < 3) t.cold.push(await timeAsync(1, cold)); // resolving every manifest is slow: three rounds
  }
  const [floor, floorTables, floorStat, coldMs, warmMs, catalogMs, useMs] = [t.floor, t.floorTables, t.floorStat, t.cold, t.warm, t.catalog, t.use].map(median);

  const cli = path.join(repo, 'dist', 'cli.js');
  const args = [cli, 'mount', dataDir, '--json'];
  const floorProc = timeProcess([path.join(__dirname, 'ioFloor.js'), ...archives], {}, 7);
  const statProc = timeProcess([path.join(__dirname, 'ioFloor.js'), '--stat', cacheFile, ...archives], {}, 7);
  const coldProc = timeProcess(args, { ARCH06_NO_CACHE: '1' }, 7);
  const warmProc = timeProcess(args, { ARCH06_CACHE_DIR: cacheDir }, 7);
  fs.rmSync(cacheDir, { recursive: true, force: true });

  const r = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
  const out = [
    `### Warm mount (merged index and member catalogue from the mount cache)`,
    ``,
    `${archives.length} archives; cache file ${(cacheBytes / 1048576).toFixed(1)} MiB (${rows.toLocaleString('en')} member rows of ${manifests.toLocaleString('en')} manifests; warm runs took index/catalogue from ${warmFrom}, archives whose tables the warm mount read: ${warmTables}); median of 9 interleaved rounds (the cold mount: 3) (node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`,
    ``,
    `| measure | time | I/O floor (same run) | ratio |`,
    `|---|---|---|---|`,
    `| cold mount in process: open + build the index + resolve every manifest | ${ms(coldMs)} | tables ${ms(floorTables)} | ${r(coldMs, floorTables)} |`,
    `| warm mount in process (the extension's mount, \`arch06 mount\`'s): open (headers only) + index from the cache | ${ms(warmMs)} | tables + cache file ${ms(floor)} | **${r(warmMs, floor)}** |`,
    `| the same warm mount | | stat every archive + cache file ${ms(floorStat)} | ${r(warmMs, floorStat)} |`,
    `| warm mount + the member catalogue from the cache (the extension's next step) | ${ms(catalogMs)} | tables + cache file ${ms(floor)} | ${r(catalogMs, floor)} |`,
    `| the same | | stat every archive + cache file ${ms(floorStat)} | ${r(catalogMs, floorStat)} |`,
    `| warm mount, then a lookup in every archive (each one's tables read, validated, checked against the cache) | ${ms(useMs)} | tables + cache file ${ms(floor)} | ${r(useMs, floor)} |`,
    `| warm / cold | | | ${r(warmMs, coldMs)} |`,
    `| \`arch06 mount --json\`, cold process, no cache | ${ms(coldProc)} | I/O floor process (tables) ${ms(floorProc)} | ${r(coldProc, floorProc)} |`,
    `| \`arch06 mount --json\`, cold process, warm cache | ${ms(warmProc)} | I/O floor process (tables) ${ms(floorProc)} | **${r(warmProc, floorProc)}** |`,
    `| the same | | floor process (stat + cache file) ${ms(statProc)} | ${r(warmProc, statProc)} |`,
    ``,
  ];
  process.stdout.write(out.join('\n') + '\n');
}

void main();
