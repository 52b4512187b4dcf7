/** Child process: memory the mount and its merged index hold (run with --expose-gc). */
import { Mount } from '../core/archive';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
gc();
const before = process.memoryUsage();
const m = Mount.open({ root: process.argv[2] });
const ix = m.index();
gc();
const after = process.memoryUsage();
const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
process.stdout.write(
  JSON.stringify({
    paths: ix.size,
    heapMB: mb(after.heapUsed - before.heapUsed),
    buffersMB: mb(after.arrayBuffers - before.arrayBuffers + (after.external - before.external)) / 2,
    rssMB: mb(after.rss - before.rss),
  }),
);
m.close();
