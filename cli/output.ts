/**
 * Writing to stdout safely: large binary output in blocks, a closed pipe ends quietly, a full
 * disk is one error line. Names that come from archives are escaped before they are printed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../core/errors';
import { escapeControls, escapeName } from '../core/io';
import { isInsideReal } from '../core/io/node';

/**
 * A name (or any text holding names from an archive) as one safe line: control characters and
 * bytes from 0x7F up as `\xNN`, the backslash kept. Use it on every archive-provided name printed.
 */
export { escapeName };

/**
 * A whole line that may embed names (error messages, report lines): control characters
 * (C0, DEL, C1) as `\xNN`, other characters as is.
 */
export { escapeControls };

export function writeOut(bytes: Uint8Array | string): void {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  let done = 0;
  while (done < b.length) {
    try {
      done += fs.writeSync(1, b, done, b.length - done);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'EAGAIN') continue; // a non-blocking pipe is full: try again
      if (err.code === 'EPIPE') process.exit(0); // `arch06 cat … | head`: the reader is gone
      // `arch06 cat … > /dev/full`: one line naming standard output (cli/main.ts prints it).
      if (err.path === undefined) err.path = 'standard output';
      throw err;
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
 * arch06, as `extract` already enforces for folders. Real paths are compared (a link to the
 * install, or the install given through a link, is still the install); for a file that does not
 * exist yet, its nearest existing folder. The write primitive checks again when it writes.
 */
export function refuseInsideInstall(out: string | undefined, root: string, flag: string): void {
  if (out && isInsideReal(path.dirname(path.resolve(out)), root)) {
    throw new Arch06Error('BAD_ARGUMENT', `--${flag} ${out} is inside the install; arch06 does not write into the game folder`, {
      field: flag,
      expected: `a file outside ${root}`,
      actual: out,
    });
  }
}
