/**
 * The script index, cached between server starts: a snapshot (core/scriptIndex `toSnapshot`) kept
 * in the extension's storage folder under a key made of what the index was read from: the cfg
 * file, and the size and modification time of every mounted archive and of every script,
 * registry and bundle file in a mounted folder. Any change gives another key, so a stale snapshot
 * is never used; a snapshot that does not read back is rebuilt. A snapshot is a file like any
 * other: read only when it is a regular file (a FIFO would block the start, a link to /dev/zero
 * never end), under a size cap, and checked field by field before use (core/scriptIndex
 * snapshotShape.ts). Written through the engine's one write primitive (a temp file, then a
 * rename), never inside the install.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Mount, WorkerPool } from '../core/archive';
import { readFileBytes, writeFileAtomic } from '../core/io/node';
import { CrossScriptIndex, type CrossSnapshot, type IndexSnapshot, ScriptIndex, type ScriptIndexOptions, buildIndexParallel } from '../core/scriptIndex';

/** Where a mount's snapshots are kept: the cache folder and the key of what they were read from. */
export interface SnapshotPlace {
  folder: string;
  key: string;
  /** Places no write may touch (the install). */
  forbid: string[];
}

/** What a cache answer says, for the log. */
export interface CachedIndex {
  index: ScriptIndex;
  from: 'cache' | 'built';
  ms: number;
  /** Where this mount's snapshots live (absent without a cache folder): the cross-script facts go beside the index. */
  place?: SnapshotPlace;
}

/** Files of a mounted folder that the index reads. */
const INDEXED = /\.(scripts|objres|bndl|embb)$/i;

/** The key of everything the index of `mount` was read from. */
export function indexKey(mount: Mount): string {
  const h = createHash('sha256');
  const stat = (p: string): string => {
    try {
      const s = fs.statSync(p);
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return 'missing';
    }
  };
  h.update(`cfg ${mount.cfgPath} ${stat(mount.cfgPath)}\n`);
  for (const source of mount.sources) {
    h.update(`${source.kind} ${source.name} ${source.diskPath} ${stat(source.diskPath)}\n`);
    if (source.kind !== 'directory') continue;
    for (const p of source.allPaths()) if (INDEXED.test(p)) h.update(`  ${p} ${stat(path.join(source.diskPath, ...p.split('\\')))}\n`);
  }
  return h.digest('hex');
}

/** A snapshot file of one kind (`index`, `cross`) for a place. */
const snapshotFile = (place: SnapshotPlace, kind: string): string => path.join(place.folder, `${kind}-${place.key.slice(0, 32)}.json`);

/**
 * The largest snapshot read back or written. A snapshot is JSON of names and small numbers: far
 * larger is a lie (a 300 MB string ends V8), and a larger index is rebuilt at each start instead.
 */
export const MAX_SNAPSHOT_BYTES = 128 << 20;

/**
 * A snapshot read back, or undefined when there is none, it is no regular file, it is over the cap
 * or it does not parse (then said in the log). Its shape is checked by the reader it goes to.
 */
function readSnapshot(file: string, log: (line: string) => void): unknown {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(readFileBytes(file, MAX_SNAPSHOT_BYTES)));
  } catch (e) {
    log(`cache ${file} not used (${e instanceof Error ? e.message : String(e)}); rebuilding`);
    return undefined;
  }
}

/** Store a snapshot (atomically, never inside the install) and drop the same kind's older keys: one per install is enough. */
function writeSnapshot(place: SnapshotPlace, kind: string, data: unknown, log: (line: string) => void): void {
  const file = snapshotFile(place, kind);
  try {
    const bytes = Buffer.from(JSON.stringify(data));
    if (bytes.length > MAX_SNAPSHOT_BYTES) {
      log(`cache not written to ${file}: ${bytes.length} bytes, over the ${MAX_SNAPSHOT_BYTES}-byte cap of a snapshot read back`);
      return;
    }
    writeFileAtomic(file, bytes, { forbid: place.forbid });
    const stale = new RegExp(`^${kind}-[0-9a-f]{32}\\.json$`);
    for (const f of fs.readdirSync(place.folder))
      if (stale.test(f) && path.join(place.folder, f) !== file) fs.rmSync(path.join(place.folder, f), { force: true });
  } catch (e) {
    log(`cache not written to ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The index of `mount`: from the cache folder when a snapshot with its key is there, else built and stored. */
export function cachedIndex(
  mount: Mount,
  cacheFolder: string | undefined,
  options: ScriptIndexOptions = {},
  log: (line: string) => void = () => undefined,
): CachedIndex {
  const started = performance.now();
  const cached = fromCache(mount, cacheFolder, log);
  if (cached.index) return { index: cached.index, from: 'cache', ms: performance.now() - started, place: cached.place };
  return stored(ScriptIndex.build(mount, options), cached.place, started, log);
}

/**
 * The same, the build (when there is no snapshot) on the worker pool when one is given
 * (core/scriptIndex `buildIndexParallel`: the same index); cancelled by `signal`, the index says
 * `cancelled` and is not stored.
 */
export async function cachedIndexAsync(
  mount: Mount,
  cacheFolder: string | undefined,
  options: ScriptIndexOptions & { pool?: WorkerPool; signal?: AbortSignal } = {},
  log: (line: string) => void = () => undefined,
): Promise<CachedIndex> {
  const started = performance.now();
  const cached = fromCache(mount, cacheFolder, log);
  if (cached.index) return { index: cached.index, from: 'cache', ms: performance.now() - started, place: cached.place };
  const { pool, ...rest } = options;
  const index = pool ? await buildIndexParallel(mount, { ...rest, pool }) : ScriptIndex.build(mount, rest);
  return stored(index, cached.place, started, log);
}

/** Where `mount`'s snapshots live, and the index read back from there when it is current. */
function fromCache(mount: Mount, cacheFolder: string | undefined, log: (line: string) => void): { place?: SnapshotPlace; index?: ScriptIndex } {
  const place = cacheFolder ? { folder: cacheFolder, key: indexKey(mount), forbid: mount.readOnlyPlaces() } : undefined;
  const snap = place && readSnapshot(snapshotFile(place, 'index'), log);
  if (snap !== undefined) {
    try {
      return { place, index: ScriptIndex.fromSnapshot(mount, snap as IndexSnapshot) };
    } catch (e) {
      log(`index cache not used (${e instanceof Error ? e.message : String(e)}); rebuilding`);
    }
  }
  return place ? { place } : {};
}

/** A built index, stored for the next start when it is whole (not cancelled, nothing left out). */
function stored(index: ScriptIndex, place: SnapshotPlace | undefined, started: number, log: (line: string) => void): CachedIndex {
  if (place && !index.cancelled && !index.degraded) writeSnapshot(place, 'index', index.toSnapshot(), log);
  return { index, from: 'built', ms: performance.now() - started, ...(place ? { place } : {}) };
}

/**
 * The cross-script facts of an index: from the snapshot beside the index's (same key: the same
 * scripts) when there is one, else the pass is run (`build`) and its facts stored.
 */
export function cachedCross(
  place: SnapshotPlace | undefined,
  build: () => CrossScriptIndex,
  log: (line: string) => void = () => undefined,
): { cross: CrossScriptIndex; from: 'cache' | 'built' } {
  const snap = place && readSnapshot(snapshotFile(place, 'cross'), log);
  if (snap !== undefined) {
    try {
      return { cross: CrossScriptIndex.fromSnapshot(snap as CrossSnapshot), from: 'cache' };
    } catch (e) {
      log(`cross-script cache not used (${e instanceof Error ? e.message : String(e)}); rebuilding`);
    }
  }
  const cross = build();
  if (place) writeSnapshot(place, 'cross', cross.toSnapshot(), log);
  return { cross, from: 'built' };
}
