// `npm run fuzz [target ...] [--seconds N] [--seed S] [--cases N] [--case N] [--list]`: compile
// (tsc, as npm test does), then run the fuzz harness (fuzz/cli.ts; every option is described there).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
const r = spawnSync(process.execPath, [path.join(root, 'out/fuzz/cli.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
