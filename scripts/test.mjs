// The README's test command: type-check and compile everything (tsc, strict), lint, then run every
// compiled *.test.js with node's own test runner, whose summary lines CI reads, and print a
// coverage report per production module (node's --experimental-test-coverage, mapped back to the
// TypeScript by scripts/coverageReporter.mjs). E2E runs (ARCH06_E2E=1) skip the coverage report:
// their code runs in code-server, not here.
// Usage: node scripts/test.mjs [filter-substring ...]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

fs.rmSync(path.join(root, 'out'), { recursive: true, force: true });
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.webview.json']);
// Lint and format: eslint errors and unformatted files fail the run (`npm run lint` alone;
// `npx prettier --write .` formats).
run(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings=0', '.']);
run(process.execPath, [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level=warn', '.']);
// The CLI tests run the bundled CLI, as a user would.
run(process.execPath, [path.join(root, 'scripts/build.mjs')]);

const coverage = process.env.ARCH06_E2E !== '1';
if (coverage) {
  // Node 20's coverage fails on tsc's and esbuild's source maps (nodejs/node#54240): keep the
  // .map files for the reporter, but drop the comments through which node would load them.
  const unlinkMaps = (dir, deep) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (deep) unlinkMaps(p, deep);
      } else if (e.name.endsWith('.js')) {
        const text = fs.readFileSync(p, 'utf8');
        const stripped = text.replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '\n');
        if (stripped !== text) fs.writeFileSync(p, stripped);
      }
    }
  };
  unlinkMaps(path.join(root, 'out'), true);
  unlinkMaps(path.join(root, 'dist'), false);
}

const filters = process.argv.slice(2);
const files = [];
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.test.js') && (filters.length === 0 || filters.some((f) => p.includes(f)))) files.push(p);
  }
};
walk(path.join(root, 'out'));
files.sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// One file at a time: the E2E tests each drive a browser and a code-server, and timing-sensitive
// UI steps should not compete with the CPU-heavy fuzz and CLI tests.
const reporter = coverage
  ? ['--experimental-test-coverage', `--test-reporter=${path.join(root, 'scripts', 'coverageReporter.mjs')}`, '--test-reporter-destination=stdout']
  : ['--test-reporter=spec'];
// A full run (no filter) regenerates the README's table of modules only E2E reaches from its coverage.
const env = coverage && filters.length === 0 ? { ...process.env, ARCH06_COVERAGE_README: path.join(root, 'README.md') } : process.env;
run(process.execPath, ['--test', '--test-concurrency=1', ...reporter, ...files], { env });
