import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Where the project's ground truth lives: `../shared` beside the repository (as on the
 * developers' machines and in CI), or wherever ARCH06_SHARED points. Tests that need it skip
 * with a message naming what is missing; they never pass silently.
 */
function sharedDir(): string | undefined {
  const candidates = [process.env.ARCH06_SHARED, path.resolve(repoRoot(), '..', 'shared')];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  return undefined;
}

/** The repository root, found from this compiled file (out/test/support) or its source. */
export function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'core'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('repository root not found above ' + __dirname);
}

/**
 * Resolve a path inside ../shared, or return a skip reason for `t.skip()` / `{ skip }`.
 * Usage: `const p = sharedPath('kraken-vectors'); test('x', { skip: p.skip }, ...)`.
 */
export function sharedPath(rel: string): { path: string; skip: string | false } {
  const dir = sharedDir();
  const missing = !dir
    ? `../shared is absent (set ARCH06_SHARED): ${rel} not available`
    : !fs.existsSync(path.join(dir, rel))
      ? `${path.join(dir, rel)} is absent`
      : undefined;
  // CI sets ARCH06_REQUIRE_SHARED=1: there a missing sample fails the test file instead of skipping it.
  if (missing && process.env.ARCH06_REQUIRE_SHARED === '1') throw new Error(`ARCH06_REQUIRE_SHARED=1: ${missing}`);
  if (missing) return { path: dir ? path.join(dir, rel) : '', skip: missing };
  return { path: path.join(dir!, rel), skip: false };
}
