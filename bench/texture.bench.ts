/**
 * Texture decoding in Node, on the sizes the texture issue names: a 2048² BC7 level and a
 * 4096×2048 BC3 level (random blocks: every BC7 mode occurs, every BC3 block takes its full path),
 * plus the real 2048×1024 BC3 sample when ../shared is present. Median of 5 after a warm-up.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeDdsLevel, decodeLevel } from '../core/image';
import { parseTexr } from '../core/formats/texture';
import { randomBlocks } from './randomBlocks';

function median(f: () => void): number {
  f();
  const t: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  return t.sort((a, b) => a - b)[2];
}

const rows: string[] = [];
const mp = (w: number, h: number, ms: number): string => `${((w * h) / 1e6 / (ms / 1000)).toFixed(0)} Mpixel/s`;
const bc7 = randomBlocks((2048 / 4) * (2048 / 4) * 16, 7);
const t7 = median(() => decodeLevel('BC7', bc7, 0, 2048, 2048));
rows.push(`| BC7 2048×2048 (random blocks) | ${t7.toFixed(0)} ms | ${mp(2048, 2048, t7)} | ≤ 150 ms |`);
const bc3 = randomBlocks((4096 / 4) * (2048 / 4) * 16, 3);
const t3 = median(() => decodeLevel('BC3', bc3, 0, 4096, 2048));
rows.push(`| BC3 4096×2048 (random blocks) | ${t3.toFixed(0)} ms | ${mp(4096, 2048, t3)} | ≤ 150 ms |`);
const shared = [process.env.ARCH06_SHARED, path.resolve(__dirname, '..', '..', '..', 'shared')].find(
  (d) => d && fs.existsSync(path.join(d, 'samples/real/fellbeast_body_d.tex')),
);
if (shared) {
  const bytes = fs.readFileSync(path.join(shared, 'samples/real/fellbeast_body_d.tex'));
  const t = median(() => {
    const tex = parseTexr(bytes, 'fellbeast_body_d.tex');
    decodeDdsLevel(tex.dds, bytes, 0, 0);
  });
  rows.push(`| real fellbeast_body_d.tex: parse + BC3 2048×1024 top mip | ${t.toFixed(0)} ms | ${mp(2048, 1024, t)} | |`);
}
process.stdout.write(['### Texture decoding (Node, main thread)', '', '| what | time | rate | target |', '|---|---|---|---|', ...rows, ''].join('\n') + '\n');
