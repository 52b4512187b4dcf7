/** `extract <root> <path|folder> <outdir> [--source NAME]`: copy files out of the mount onto disk. */
import * as path from 'node:path';
import { collectEntries, extractEntries } from '../../core/archive/extract';
import { ParsedArgs, flagString, need } from '../args';
import { openMount } from './mountCommands';
import { printJson, writeOut } from '../output';

export async function extractCommand(args: ParsedArgs): Promise<number> {
  const m = openMount(args);
  try {
    const entries = collectEntries(m, need(args, 1, '<path|folder>'), flagString(args, 'source'));
    const outDir = path.resolve(need(args, 2, '<outdir>'));
    const r = await extractEntries(m, entries, outDir);
    for (const f of r.failures) process.stderr.write(`arch06: ${f.message}\n`);
    if (args.flags.has('json')) printJson({ files: r.files, bytes: r.bytes, outDir, failures: r.failures });
    else writeOut(`extracted ${r.files} files (${r.bytes} bytes) to ${outDir}${r.failures.length ? `; ${r.failures.length} failed` : ''}\n`);
    return r.failures.length ? 2 : 0;
  } finally {
    m.close();
  }
}
