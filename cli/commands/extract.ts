/**
 * `extract <root> <path|folder> <outdir> [--source NAME]`: copy files out of the mount onto disk.
 * One summary line on stdout (files written, bytes, how many failed). Failed files (an unsafe
 * name, a link leading out of the folder, a file-system error, an undecodable entry) do not stop
 * the rest: up to MAX_LISTED of them are listed on stderr, one line each, then "… and N more";
 * `--json` lists every one. Exit 2 when any failed. A source whose file changed on disk during the
 * run (replaced, truncated, deleted) is given up at its first failed read and named on stderr. On
 * a terminal, a progress line on stderr (cli/progress.ts) while it copies; `--quiet` turns it off.
 */
import * as path from 'node:path';
import { WorkerPool, collectAddress, extractEntries, extractEntriesParallel } from '../../core/archive';
import { ParsedArgs, flagString, need } from '../args';
import { jobsOption, openMount, poolWorkerFile } from './mountCommands';
import { escapeControls, escapeName, printJson, writeOut } from '../output';
import { ProgressLine } from '../progress';

/** Failures listed on stderr before "… and N more". */
const MAX_LISTED = 20;

export async function extractCommand(args: ParsedArgs): Promise<number> {
  const jobs = jobsOption(args);
  const m = openMount(args);
  // Many files across the pool's workers (each opens the archives and the folder itself); one file or --jobs 1: this thread.
  let pool: WorkerPool | undefined;
  try {
    // A file or folder of the mount, a bundle folder (or a member or folder in it), a world part's file served from its container.
    const entries = collectAddress(m, need(args, 1, '<path|folder>'), flagString(args, 'source'));
    const outDir = path.resolve(need(args, 2, '<outdir>'));
    const progress = new ProgressLine(process.stderr, 'extracting', { quiet: args.flags.has('quiet') });
    let r;
    try {
      const totalBytes = entries.reduce((n, e) => n + e.size, 0);
      progress.start(entries.length, totalBytes);
      const onProgress = progress.enabled ? (done: number, total: number, bytes: number) => progress.update(done, total, bytes) : undefined;
      if (jobs > 1 && entries.length > 1) {
        pool = new WorkerPool(poolWorkerFile(), jobs);
        r = await extractEntriesParallel(m, entries, outDir, { pool, onProgress });
      } else r = await extractEntries(m, entries, outDir, { onProgress });
    } finally {
      progress.end();
    }
    const failed = r.failures.length;
    if (args.flags.has('json')) {
      printJson({ files: r.files, bytes: r.bytes, outDir, failed, failures: r.failures, changed: r.changed });
      if (failed) process.stderr.write(`arch06: ${failed} of ${entries.length} files failed (listed under "failures")\n`);
    } else {
      writeOut(`extracted ${r.files} files (${r.bytes} bytes) to ${escapeControls(outDir)}${failed ? `; ${failed} failed` : ''}\n`);
      const lines = r.failures.slice(0, MAX_LISTED).map((f) => `arch06: failed: ${escapeName(f.source)}:${escapeName(f.path)}: ${escapeControls(f.message)}`);
      if (failed > MAX_LISTED) lines.push(`arch06: … and ${failed - MAX_LISTED} more failed (--json lists all)`);
      if (lines.length) process.stderr.write(lines.join('\n') + '\n');
    }
    // The disk changed under the run: say so apart from the failures, with what to do.
    for (const c of r.changed)
      process.stderr.write(
        `arch06: extract: ${escapeName(c.source)} changed on disk during the run (${escapeControls(c.detail)}); ${c.files} of its files were not extracted: run extract again\n`,
      );
    return failed ? 2 : 0;
  } finally {
    await pool?.terminate();
    m.close();
  }
}
