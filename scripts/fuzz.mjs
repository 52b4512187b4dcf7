// Long fuzz run of the Oodle decoder: `npm run fuzz [seconds]` (default 120). Sets the
// budget the fuzz test reads and runs the test runner on files matching "fuzz".
// Set ARCH06_FUZZ_SEED to replay a reported seed.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = process.argv[2] ?? process.env.ARCH06_FUZZ_SECONDS ?? '120';
if (!(Number(seconds) > 0)) {
  console.error(`usage: node scripts/fuzz.mjs [seconds]  (got ${seconds})`);
  process.exit(2);
}
const r = spawnSync(process.execPath, [path.join(root, 'scripts/test.mjs'), 'fuzz'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ARCH06_FUZZ_SECONDS: String(seconds) },
});
process.exit(r.status ?? 1);
