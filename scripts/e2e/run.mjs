// `npm run test:e2e`: install what E2E needs (cached in .cache/), package the extension, then run
// the *.e2e.test files with ARCH06_E2E=1, so missing setup fails instead of skipping. A file that
// fails runs once more on its own (see below); the log names every file that passed only then.
// Usage: node scripts/e2e/run.mjs [filter-substring ...]   (default: every .e2e. test)
import { spawn } from 'node:child_process';
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
const env = { ...process.env, ARCH06_E2E: '1' };

/** Run a node command, echoing its output as it comes; resolves to its exit code and its output. */
function runEchoed(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const first = await runEchoed([path.join(repoRoot, 'scripts', 'test.mjs'), ...(filters.length ? filters : ['.e2e.'])]);
let status = first.code;
// A UI step can miss its timeout on a loaded machine (the workbench busy restoring a window): each
// E2E file that failed runs once more, on its own, and the log says which passed only then. A
// second failure fails the run; a failure outside the E2E files (compile, lint) is not retried.
const failed = [...new Set([...first.out.matchAll(/test at (out[\\/]test[\\/]e2e[\\/]\S+?\.e2e\.test\.js)/g)].map((m) => m[1]))];
if (status !== 0 && failed.length > 0) {
  console.log(`[e2e] ${failed.length} E2E file(s) failed: ${failed.join(', ')}; running each once more`);
  const again = [];
  for (const f of failed) {
    const r = await runEchoed(['--test', '--test-reporter=spec', path.join(repoRoot, f)]);
    again.push({ f, ok: r.code === 0 });
  }
  const passed = again.filter((a) => a.ok).map((a) => a.f);
  const still = again.filter((a) => !a.ok).map((a) => a.f);
  if (passed.length) console.log(`[e2e] passed on the second run (flaky, not green on the first): ${passed.join(', ')}`);
  if (still.length) console.log(`[e2e] failed twice: ${still.join(', ')}`);
  status = still.length === 0 ? 0 : 1;
}
console.log(`[e2e] done in ${elapsed()}`);
process.exit(status);
