// `npm run test:e2e`: install what E2E needs (cached in .cache/), package the extension, then run
// the *.e2e.test files with ARCH06_E2E=1, so missing setup fails instead of skipping.
// Usage: node scripts/e2e/run.mjs [filter-substring ...]   (default: every .e2e. test)
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { packageExtension, repoRoot, setupOrExit } from './setup.mjs';

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

setupOrExit();
console.log('[e2e] npm run package');
try {
  packageExtension();
} catch (e) {
  console.error(`[e2e] FAILED: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const filters = process.argv.slice(2);
console.log(`[e2e] packaged after ${elapsed()}; running the E2E tests (screenshots and logs: test-artifacts/e2e/)`);
const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'test.mjs'), ...(filters.length ? filters : ['.e2e.'])], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, ARCH06_E2E: '1' },
});
console.log(`[e2e] done in ${elapsed()}`);
process.exit(r.status ?? 1);
