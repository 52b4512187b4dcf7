/**
 * The CLI's warm mount (core/archive/mountCache.ts): each install's merged index and member
 * catalogue kept in the user's cache folder, `$XDG_CACHE_HOME/arch06` or `~/.cache/arch06`
 * (`ARCH06_CACHE_DIR` names another; `ARCH06_NO_CACHE=1` keeps nothing). Never inside the install.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { type Mount, MountCache } from '../core/archive';
import { escapeControls } from '../core/io';

/** The folder the CLI keeps its caches in, or undefined when caching is off. */
export function cliCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.ARCH06_NO_CACHE === '1') return undefined;
  if (env.ARCH06_CACHE_DIR) return path.resolve(env.ARCH06_CACHE_DIR);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'arch06');
}

/** `mount`'s cache with its index adopted (or built and stored), or undefined when caching is off. */
export function cliMountCache(mount: Mount): MountCache | undefined {
  const folder = cliCacheFolder();
  if (!folder) return undefined;
  const cache = new MountCache(mount, folder, (line) => process.stderr.write(`arch06: ${escapeControls(line)}\n`));
  cache.index();
  return cache;
}
