/**
 * The script index, cached between server starts: a snapshot (core/scriptIndex `toSnapshot`) kept
 * in the extension's storage folder under a key made of what the index was read from: the cfg
 * file, and the size and modification time of every mounted archive and of every script,
 * registry and bundle file in a mounted folder. Any change gives another key, so a stale snapshot
 * is never used; a snapshot that does not read back is rebuilt. Written through the engine's one
 * write primitive (a temp file, then a rename), never inside the install.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Mount } from '../core/archive';
import { writeFileAtomic } from '../core/io/node';
import { type IndexSnapshot, ScriptIndex, type ScriptIndexOptions } from '../core/scriptIndex';

/** What a cache answer says, for the log. */
export interface CachedIndex {
  index: ScriptIndex;
  from: 'cache' | 'built';
  ms: number;
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

/** The index of `mount`: from the cache folder when a snapshot with its key is there, else built and stored. */
export function cachedIndex(
  mount: Mount,
  cacheFolder: string | undefined,
  options: ScriptIndexOptions = {},
  log: (line: string) => void = () => undefined,
): CachedIndex {
  const started = performance.now();
  const file = cacheFolder ? path.join(cacheFolder, `index-${indexKey(mount).slice(0, 32)}.json`) : undefined;
  if (file && fs.existsSync(file)) {
    try {
      const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as IndexSnapshot;
      return { index: ScriptIndex.fromSnapshot(mount, snap), from: 'cache', ms: performance.now() - started };
    } catch (e) {
      log(`index cache ${file} not used (${e instanceof Error ? e.message : String(e)}); rebuilding`);
    }
  }
  const index = ScriptIndex.build(mount, options);
  if (file && !index.cancelled) {
    try {
      writeFileAtomic(file, Buffer.from(JSON.stringify(index.toSnapshot())), { forbid: mount.readOnlyPlaces() });
      // One snapshot per install is enough: older keys (before a patch, another cfg) go.
      for (const f of fs.readdirSync(cacheFolder!))
        if (/^index-[0-9a-f]{32}\.json$/.test(f) && path.join(cacheFolder!, f) !== file) fs.rmSync(path.join(cacheFolder!, f), { force: true });
    } catch (e) {
      log(`index cache not written to ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { index, from: 'built', ms: performance.now() - started };
}
