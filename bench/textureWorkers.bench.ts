/**
 * Where decoding on a worker thread pays: each level size decoded inline and through
 * `DecodePool` (copy + transfer + decode + transfer back), side by side in one run, plus how long
 * the calling thread is blocked on each path. The extension host decodes inline up to the pool's
 * `inlinePixels` and on the worker above it; this table is the evidence for that threshold.
 */
import * as path from 'node:path';
import { randomBlocks } from './randomBlocks';
import { decodeLevel } from '../core/image';
import { DEFAULT_INLINE_PIXELS as DEFAULT_INLINE, DecodePool } from '../core/image/node';

async function median(f: () => unknown): Promise<number> {
  await f();
  const t: number[] = [];
  for (let i = 0; i < 7; i++) {
    const s = performance.now();
    await f();
    t.push(performance.now() - s);
  }
  return t.sort((a, b) => a - b)[3];
}

async function main(): Promise<void> {
  const pool = new DecodePool({ workerFile: path.join(__dirname, '..', 'core', 'image', 'node', 'nodeDecodeWorker.js'), inlinePixels: 0 });
  const rows: string[] = [];
  let slowerUpTo = 0;
  for (const size of [64, 128, 256, 512, 1024, 2048]) {
    const src = randomBlocks((size / 4) * (size / 4) * 16, size);
    const inline = await median(() => decodeLevel('BC7', src, 0, size, size));
    const worker = await median(() => pool.decodeOnWorker('BC7', src, size, size));
    // The caller's own share of the worker path: copying the level and posting it.
    const sync: number[] = [];
    for (let i = 0; i < 7; i++) {
      const s = performance.now();
      const p = pool.decodeOnWorker('BC7', src, size, size);
      sync.push(performance.now() - s);
      await p;
    }
    const blocked = sync.sort((a, b) => a - b)[3];
    if (worker > inline) slowerUpTo = size;
    rows.push(`| BC7 ${size}×${size} | ${inline.toFixed(2)} ms | ${worker.toFixed(2)} ms | ${(worker / inline).toFixed(2)}× | ${blocked.toFixed(2)} ms |`);
  }
  await pool.dispose();
  process.stdout.write(
    [
      '### Texture decoding: inline vs worker thread (BC7, random blocks)',
      '',
      '| level | inline (caller blocked) | on a worker (round trip) | worker / inline | caller blocked on the worker path |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `In this run the round trip cost more than the decode up to ${slowerUpTo ? `${slowerUpTo}×${slowerUpTo}` : 'no size measured'}. The editor decodes inline up to ${Math.sqrt(DEFAULT_INLINE)}×${Math.sqrt(DEFAULT_INLINE)} (DecodePool's default) and on a worker above it, where the extension host stays free for the whole decode.`,
      '',
    ].join('\n') + '\n',
  );
}

void main();
