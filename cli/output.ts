/** Writing to stdout safely: large binary output in blocks, and a closed pipe ends quietly. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../core/errors';
import { isInside } from '../core/io/node';

export function writeOut(bytes: Uint8Array | string): void {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  let done = 0;
  while (done < b.length) {
    try {
      done += fs.writeSync(1, b, done, b.length - done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue; // a non-blocking pipe is full: try again
      if (code === 'EPIPE') process.exit(0); // `arch06 cat … | head`: the reader is gone
      throw e;
    }
  }
}

export function printJson(value: unknown): void {
  writeOut(JSON.stringify(value, null, 2) + '\n');
}

export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/**
 * Refuse an output file (--png, --glb) inside the install: the game folder is read-only to
 * arch06, as `extract` already enforces for folders.
 */
export function refuseInsideInstall(out: string | undefined, root: string, flag: string): void {
  if (out && isInside(path.resolve(out), root)) {
    throw new Arch06Error('BAD_ARGUMENT', `--${flag} ${out} is inside the install; arch06 does not write into the game folder`, { field: flag, expected: `a file outside ${root}`, actual: out });
  }
}
