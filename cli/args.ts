/** A small argument parser: positionals, `--flag`, `--key value` / `--key=value`. */
import { Arch06Error } from '../core/errors';

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** Options that take a value; every other `--name` is a boolean flag. */
const VALUED = new Set(['source', 'cfg', 'arch', 'raw-size', 'out', 'limit', 'png', 'mip', 'slice', 'skel', 'glb', 'table-from']);

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (VALUED.has(name)) {
        if (i + 1 >= argv.length) throw new Arch06Error('BAD_ARGUMENT', `--${name} needs a value`);
        const v = argv[++i];
        // --arch may repeat; keep every value, separated by NUL.
        const prev = flags.get(name);
        flags.set(name, typeof prev === 'string' && name === 'arch' ? `${prev}\0${v}` : v);
      } else flags.set(name, true);
    } else positionals.push(a);
  }
  return { positionals, flags };
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function flagList(args: ParsedArgs, name: string): string[] {
  const v = flagString(args, name);
  return v === undefined ? [] : v.split('\0');
}

export function need(args: ParsedArgs, index: number, what: string): string {
  const v = args.positionals[index];
  if (v === undefined) throw new Arch06Error('BAD_ARGUMENT', `missing ${what}`);
  return v;
}
