/**
 * Command-line arguments, read by Node's own `util.parseArgs` against the command's option table
 * (`cli/options.ts`): positionals, `--name value` / `--name=value` for options that take a value,
 * `--name` for switches, `--` ends the options. An option the table does not declare, a missing
 * value or a value given to a switch is a BAD_ARGUMENT (exit 2) naming the option and the command.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { Arch06Error } from '../core/errors';
import type { OptionTable } from './options';

export interface ParsedArgs {
  /** The command these arguments were parsed for (as typed: `verify`, `texture-file`, …). */
  command: string;
  positionals: string[];
  /** Switches are `true`; options with a value their value; `multiple` options every value, in order. */
  flags: Map<string, string | true | string[]>;
}

type NodeOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

export function parseArgs(argv: string[], command: string, table: OptionTable): ParsedArgs {
  const options: NodeOptions = {};
  for (const [name, o] of Object.entries(table)) {
    // parseArgs validates every key it is given: only the ones set.
    options[name] = { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) };
  }
  // Not strict: the tokens are checked here, so each error names its option and the command
  // without reading Node's messages. A value may start with "-" (`--source -mod.arch06`).
  const { tokens } = parseNodeArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const positionals: string[] = [];
  const flags = new Map<string, string | true | string[]>();
  const help = `arch06 ${command} --help lists its options`;
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    else if (t.kind === 'option') {
      const spec = Object.hasOwn(table, t.name) ? table[t.name] : undefined;
      if (!spec) throw new Arch06Error('BAD_ARGUMENT', `${command}: unknown option ${t.rawName} (${help})`);
      if (spec.type === 'boolean') {
        if (t.value !== undefined) throw new Arch06Error('BAD_ARGUMENT', `${command}: ${t.rawName} takes no value (${help})`);
        flags.set(t.name, true);
      } else if (t.value === undefined) {
        throw new Arch06Error('BAD_ARGUMENT', `${command}: --${t.name} needs a value (${help})`);
      } else if (spec.multiple) {
        const prev = flags.get(t.name);
        flags.set(t.name, Array.isArray(prev) ? [...prev, t.value] : [t.value]);
      } else flags.set(t.name, t.value); // given twice: the last one counts
    }
    // 'option-terminator' (`--`): what follows is already positionals.
  }
  return { command, positionals, flags };
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (Array.isArray(v)) return v[v.length - 1];
  return typeof v === 'string' ? v : undefined;
}

export function flagList(args: ParsedArgs, name: string): string[] {
  const v = args.flags.get(name);
  if (Array.isArray(v)) return v;
  return typeof v === 'string' ? [v] : [];
}

export function need(args: ParsedArgs, index: number, what: string): string {
  const v = args.positionals[index];
  if (v === undefined) throw new Arch06Error('BAD_ARGUMENT', `missing ${what}`);
  return v;
}
