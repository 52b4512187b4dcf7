// `npm run bench`: build, then run every benchmark (out/bench/*.bench.js) in one run and print
// their tables. Each benchmark measures arch06 side by side with a baseline and prints ratios.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run([path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
run([path.join(root, 'scripts/build.mjs')]);
const filter = process.argv.slice(2);
const benches = fs
  .readdirSync(path.join(root, 'out/bench'))
  .filter((f) => f.endsWith('.bench.js') && (filter.length === 0 || filter.some((x) => f.includes(x))))
  .sort();
for (const b of benches) run(['--max-old-space-size=4096', path.join(root, 'out/bench', b)]);
