/** Which files the script index reads: the served copy of every script and registry of a mount. */
import { type Mount, type ServedFile, ServedFileWalk } from '../archive';

const kindOf = (p: string): 'script' | 'registry' | undefined => (/\.scripts$/i.test(p) ? 'script' : /\.objres$/i.test(p) ? 'registry' : undefined);

/**
 * The served copy of every `.scripts` and `.objres` path, scripts first: a registry's bindings are
 * checked against its script. A path the walk cannot look up is `skipped`, the rest indexed.
 */
export function servedCopies(mount: Mount, skipped: { path: string; reason: string }[]): (ServedFile & { kind: 'script' | 'registry' })[] {
  const walk = new ServedFileWalk(mount, (p) => kindOf(p) !== undefined);
  const found = walk.loose();
  for (const m of walk.manifests) for (const f of walk.members(m)) found.push(f);
  skipped.push(...walk.skipped);
  const files = found.map((f) => ({ ...f, kind: kindOf(f.path)! }));
  return files.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'script' ? -1 : 1));
}
