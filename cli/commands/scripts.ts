/**
 * `scripts <root> <path> [--json] [--jobs N]`: what a script defines and what binds to it, from the same
 * index the language server uses (core/scriptIndex): every top-level function and hmake object
 * with its 1-based line, the objects the registries bind to it (only the registry copy the search
 * order serves counts), and the script's diagnostics (syntax errors, broken bindings).
 *
 * `<path>` is the script's game path (a layer's `.scripts` lives in its bundle's container; the
 * index finds it there) or its place in a bundle folder (`x.bndl [bundle]\<member path>`), as for
 * every command; anything but a script is refused as "not a script".
 */
import { Arch06Error, isArch06Error } from '../../core/errors';
import { WorkerPool, locateAddress, toGamePath } from '../../core/archive';
import { textKindOf } from '../../core/text';
import { flattenOutline, lineNumbers } from '../../core/havokScript';
import { ScriptIndex, buildIndexParallel, scriptDiagnostics } from '../../core/scriptIndex';
import { type ParsedArgs, need } from '../args';
import { MAX_OUTPUT_ITEMS, OutputBudget } from '../output';
import { jobsOption, openMount, poolWorkerFile } from './mountCommands';

/** Objects listed per bound function at most, and in all (the true counts are printed beside them). */
const MAX_SITES_LISTED = 1000;

export async function scriptsCommand(args: ParsedArgs): Promise<number> {
  const extra = args.positionals.slice(2);
  if (extra.length) throw new Arch06Error('BAD_ARGUMENT', `unexpected argument ${JSON.stringify(extra[0])}`);
  const jobs = jobsOption(args);
  const m = openMount(args);
  // The index read across the pool's workers (each opens the archives itself; the same index); 1: this thread alone.
  const pool = jobs > 1 ? new WorkerPool(poolWorkerFile(), jobs) : undefined;
  try {
    const input = need(args, 1, '<path>');
    // The addressing every command shares (core/archive `locateAddress`): a mount path, a bundle
    // folder's member, a world part's script served from its bundle's container.
    let path: string;
    try {
      path = locateAddress(m, input).entry.path;
    } catch (e) {
      if (isArch06Error(e) && e.code === 'NOT_FOUND')
        throw new Arch06Error('NOT_FOUND', 'no mounted source serves this script (loose or in a bundle container)', { file: input });
      throw e;
    }
    if (textKindOf(path) !== 'script') throw new Arch06Error('BAD_ARGUMENT', 'not a script: scripts reads .scripts and .hks files', { actual: input });
    const index = pool ? await buildIndexParallel(m, { pool }) : ScriptIndex.build(m);
    const gamePath = toGamePath(path);
    const script = index.analysed(gamePath);
    if (!script) {
      // Served but left out of the index (over its size limit, unreadable): say why, not that it is missing.
      const same = (p: { path: string }): boolean => p.path.toLowerCase() === gamePath.toLowerCase();
      const skipped = index.skipped.find(same);
      if (skipped) throw new Arch06Error('OUT_OF_RANGE', `this script is served but not indexed: ${skipped.reason}`, { file: input });
      const failed = index.failures.find(same);
      if (failed) throw new Arch06Error('INVALID', `this script is served but could not be read: ${failed.reason}`, { file: input });
      throw new Arch06Error('NOT_FOUND', 'no mounted source serves this script (loose or in a bundle container)', { file: input });
    }
    const lineOf = lineNumbers(script.text);
    let listable = MAX_OUTPUT_ITEMS;
    const functions = flattenOutline(script.symbols)
      .filter((s) => s.bindable)
      .map((s) => {
        const boundBy = index.boundBy(script.path, s.name, Math.min(MAX_SITES_LISTED, listable));
        listable -= boundBy.length;
        return {
          name: s.name,
          line: lineOf(s.selection.start),
          kind: s.kind === 'hmake' ? ('hmake' as const) : ('function' as const),
          boundByCount: index.boundByCount(script.path, s.name),
          boundBy: boundBy.map((b) => ({ object: b.object, class: b.class, event: b.event, registry: b.registry.path, registrySource: b.registry.source })),
        };
      });
    const diagnostics = scriptDiagnostics(index, script).map((d) => ({ line: lineOf(d.start), severity: d.severity, message: d.message }));
    const out = new OutputBudget(script.text.length);
    if (args.flags.has('json')) {
      out.writeJson({ path: script.path, servedFrom: script.from, source: script.source, kind: script.kind, functions, diagnostics });
      return 0;
    }
    out.line(
      `${out.name(script.path)}  (${script.from === 'container' ? `in ${out.name(script.bundle ?? '')}'s container, ${out.name(script.source)}` : out.name(script.source)}; ${script.kind})`,
    );
    for (const f of functions) {
      const bound = f.boundByCount ? `  bound by ${f.boundByCount}${f.boundBy.length < f.boundByCount ? ` (the first ${f.boundBy.length} listed)` : ''}` : '';
      out.line(`  ${String(f.line).padStart(5)}  ${f.kind === 'hmake' ? 'hmake   ' : 'function'}  ${out.name(f.name)}${bound}`);
      for (const b of f.boundBy) {
        if (out.full) break;
        out.line(
          `                   ${out.name(b.object ?? '?')} (${out.name(b.class ?? '?')}) · ${out.name(b.event ?? '?')} · ${out.name(b.registry)} [${out.name(b.registrySource)}]`,
        );
      }
    }
    out.line(diagnostics.length ? `${diagnostics.length} problem(s):` : 'no problems');
    for (const d of diagnostics) out.line(`  line ${d.line}: ${d.severity}: ${out.text(d.message)}`);
    out.writeText();
    return 0;
  } finally {
    await pool?.terminate();
    m.close();
  }
}
