/**
 * `search <root> <text> [--regex] [--match-case] [--include GLOB] [--decoded] [--json]`: the
 * search Find in Files runs (core/search), for scripted checks and CI. Every winning file of the
 * merged view and every bundle member only a container serves, each in the text it has (plain
 * text, a script's source after its SCRI header, with --decoded the decoded text views of binary
 * formats). Hits stream to stdout as they are found: `path:line:column: text` (1-based, as
 * editors and grep count; a member as `path:line:column [in x.bndl]: text`), or with --json one
 * JSON object per line: `{path, source, bundle?, view, line, column, text}`. The result line
 * (what was searched, what was skipped as binary and why) goes to stderr. Exit 0 with hits, 1
 * without (as grep), 2 for a bad query.
 */
import { Arch06Error } from '../../core/errors';
import { MemberCatalog, WorkerPool } from '../../core/archive';
import { type TextMatch, describeSearch, searchTextStreaming } from '../../core/search';
import { type ParsedArgs, flagString, need } from '../args';
import { escapeControls, escapeName, jsonLine, writeOut } from '../output';
import { jobsOption, openMount, poolWorkerFile } from './mountCommands';
import { cliMountCache } from '../cache';

export async function searchCommand(args: ParsedArgs): Promise<number> {
  const extra = args.positionals.slice(2);
  if (extra.length) throw new Arch06Error('BAD_ARGUMENT', `unexpected argument ${JSON.stringify(extra[0])} (quote a text holding spaces)`);
  const jobs = jobsOption(args);
  const m = openMount(args, { cached: true });
  const cache = cliMountCache(m);
  // The mounted files across the pool's workers (each opens the archives itself); 1: this thread alone.
  const pool = jobs > 1 ? new WorkerPool(poolWorkerFile(), jobs) : undefined;
  try {
    const query = need(args, 1, '<text>');
    const json = args.flags.has('json');
    let pending: string[] = [];
    const flush = (): void => {
      if (pending.length) writeOut(pending.join(''));
      pending = [];
    };
    const line = (x: TextMatch): string => {
      const column = x.start + 1;
      if (json)
        return jsonLine({
          path: x.path,
          source: x.source,
          ...(x.bundle ? { bundle: x.bundle } : {}),
          view: x.view,
          line: x.line + 1,
          column,
          text: x.preview,
        });
      const bundle = x.bundle ? ` [in ${escapeName(x.bundle)}]` : '';
      // Tabs stay tabs (a terminal only moves the cursor); other control characters are escaped.
      return `${escapeName(x.path)}:${x.line + 1}:${column}${bundle}: ${x.preview.split('\t').map(escapeControls).join('\t')}\n`;
    };
    const result = await searchTextStreaming(m, {
      query,
      isRegExp: args.flags.has('regex'),
      matchCase: args.flags.has('match-case'),
      include: flagString(args, 'include'),
      decoded: args.flags.has('decoded'),
      keepMatches: false,
      maxMatches: Infinity,
      onMatch: (x) => pending.push(line(x)),
      pause: async () => flush(),
      // On the pool, results arrive a run of files at a time: each run's hits go out as it is merged.
      onProgress: () => flush(),
      ...(pool ? { pool } : {}),
      // The mounted paths first, then the members of every bundle, listed once they are reached.
      laterMembers: async () => (cache ? (await cache.catalog(() => MemberCatalog.build(m))).catalog : await MemberCatalog.build(m)).rows,
    });
    flush();
    process.stderr.write(`arch06: ${escapeControls(describeSearch(result, query))}\n`);
    return result.matchCount > 0 ? 0 : 1;
  } finally {
    await pool?.terminate();
    m.close();
  }
}
