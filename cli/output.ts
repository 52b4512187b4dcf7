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

/**
 * JSON text safe for a terminal: JSON.stringify escapes C0 controls; DEL and the C1 range
 * (0x80-0x9F, which some terminals obey as escape sequences) are escaped here too (`\u009b`).
 */
function jsonText(value: unknown, replacer?: (key: string, v: unknown) => unknown, indent: number = 2): string {
  return JSON.stringify(value, replacer, indent).replace(/[\x7f-\x9f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
}

export function printJson(value: unknown): void {
  writeOut(jsonText(value));
}

/** One value as one line of JSON (JSON Lines: a stream a script reads line by line), escaped as `printJson` does. */
export function jsonLine(value: unknown): string {
  return jsonText(value, undefined, 0);
}

/** Strings longer than this are written in full once per output, then cut (see `OutputBudget`). */
const LONG_STRING_CHARS = 256;
/** What a cut repeat keeps. */
const CUT_CHARS = 64;
/** An output's budget: this many characters per byte of the file it shows, plus `OUTPUT_BASE_CHARS`. */
const OUTPUT_CHARS_PER_BYTE = 8;
const OUTPUT_BASE_CHARS = 8 << 20;
/** Items an output lists of one array at most (the true count is printed beside it). */
export const MAX_OUTPUT_ITEMS = 20_000;

/**
 * What `dump` and `scripts` print about one file, bounded by that file (issue 21): a long string
 * (a name, a path, a text) is printed in full once and cut where it repeats, with its length; a
 * list is cut at `MAX_OUTPUT_ITEMS` (`items`), the true count printed beside it; and text output
 * stops at 8 characters per byte of the file plus 8 Mi, with a last line counting what was left
 * out. A crafted file naming one 500 KB string from 20,000 records prints it once.
 */
export class OutputBudget {
  private readonly seen = new Set<string>();
  private readonly lines: string[] = [];
  private chars = 0;
  private omitted = 0;
  readonly budget: number;

  constructor(inputSize: number) {
    this.budget = OUTPUT_CHARS_PER_BYTE * inputSize + OUTPUT_BASE_CHARS;
  }

  /** A long string seen before, cut to its start and length; anything else as is. */
  private cut(s: string): string {
    if (s.length <= LONG_STRING_CHARS) return s;
    if (!this.seen.has(s)) {
      this.seen.add(s);
      return s;
    }
    return `${s.slice(0, CUT_CHARS)}…[same ${s.length}-character text as above]`;
  }

  /** A game name for a text line: cut where it repeats, then escaped (control characters and bytes from 0x7F up as \xNN). */
  name(s: string): string {
    return escapeName(this.cut(s));
  }

  /** A line of text that may embed names: control characters escaped. */
  text(s: string): string {
    return escapeControls(this.cut(s));
  }

  /** The first `MAX_OUTPUT_ITEMS` of a list (the caller prints the true count). */
  items<T>(list: readonly T[]): readonly T[] {
    return list.length > MAX_OUTPUT_ITEMS ? list.slice(0, MAX_OUTPUT_ITEMS) : list;
  }

  /** Whether the text budget is spent. */
  get full(): boolean {
    return this.chars >= this.budget;
  }

  /** Add a line (already escaped) while the budget lasts; after that, count it. */
  line(s: string): void {
    if (this.full) this.omitted++;
    else {
      this.lines.push(s);
      this.chars += s.length + 1;
    }
  }

  /** Count lines not built because the budget was spent or a list was cut. */
  omit(n: number): void {
    this.omitted += n;
  }

  /** Write the text lines, and a last one counting what was left out. */
  writeText(): void {
    if (this.omitted)
      this.lines.push(
        `… ${this.omitted} more lines not shown: this output stops at ${this.budget} characters (${OUTPUT_CHARS_PER_BYTE} per byte of the file + ${OUTPUT_BASE_CHARS})`,
      );
    writeOut(this.lines.join('\n') + '\n');
  }

  /** Print `value` as JSON, each long string in full once and cut where it repeats. */
  writeJson(value: unknown): void {
    writeOut(jsonText(value, (_k, v: unknown) => (typeof v === 'string' ? this.cut(v) : v)));
  }
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
