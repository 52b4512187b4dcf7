/**
 * `scripts <root> <path> [--json]`: what a script defines and what binds to it, from the same
 * index the language server uses (core/scriptIndex): every top-level function and hmake object
 * with its 1-based line, the objects the registries bind to it (only the registry copy the search
 * order serves counts), and the script's diagnostics (syntax errors, broken bindings).
 *
 * `<path>` is the script's game path (a layer's `.scripts` lives in its bundle's container; the
 * index finds it there).
 */
import { Arch06Error } from '../../core/errors';
import { toGamePath } from '../../core/archive';
import { flattenOutline, lineNumbers } from '../../core/havokScript';
import { ScriptIndex, scriptDiagnostics } from '../../core/scriptIndex';
import { type ParsedArgs, need } from '../args';
import { escapeControls, printJson, writeOut } from '../output';
import { openMount } from './mountCommands';

export function scriptsCommand(args: ParsedArgs): number {
  const extra = args.positionals.slice(2);
  if (extra.length) throw new Arch06Error('BAD_ARGUMENT', `unexpected argument ${JSON.stringify(extra[0])}`);
  const m = openMount(args);
  try {
    const input = need(args, 1, '<path>');
    const index = ScriptIndex.build(m);
    const script = index.analysed(toGamePath(input));
    if (!script) throw new Arch06Error('NOT_FOUND', 'no mounted source serves this script (loose or in a bundle container)', { file: input });
    const lineOf = lineNumbers(script.text);
    const functions = flattenOutline(script.symbols)
      .filter((s) => s.bindable)
      .map((s) => ({
        name: s.name,
        line: lineOf(s.selection.start),
        kind: s.kind === 'hmake' ? ('hmake' as const) : ('function' as const),
        boundBy: index
          .boundBy(script.path, s.name)
          .map((b) => ({ object: b.object, class: b.class, event: b.event, registry: b.registry.path, registrySource: b.registry.source })),
      }));
    const diagnostics = scriptDiagnostics(index, script).map((d) => ({ line: lineOf(d.start), severity: d.severity, message: d.message }));
    if (args.flags.has('json')) {
      printJson({ path: script.path, servedFrom: script.from, source: script.source, kind: script.kind, functions, diagnostics });
      return 0;
    }
    const lines = [
      `${escapeControls(script.path)}  (${script.from === 'container' ? `in ${script.bundle}'s container, ${script.source}` : script.source}; ${script.kind})`,
    ];
    for (const f of functions) {
      lines.push(
        `  ${String(f.line).padStart(5)}  ${f.kind === 'hmake' ? 'hmake   ' : 'function'}  ${escapeControls(f.name)}${f.boundBy.length ? `  bound by ${f.boundBy.length}` : ''}`,
      );
      for (const b of f.boundBy)
        lines.push(
          `                   ${escapeControls(b.object ?? '?')} (${b.class ?? '?'}) · ${b.event ?? '?'} · ${escapeControls(b.registry)} [${b.registrySource}]`,
        );
    }
    lines.push(diagnostics.length ? `${diagnostics.length} problem(s):` : 'no problems');
    for (const d of diagnostics) lines.push(`  line ${d.line}: ${d.severity}: ${escapeControls(d.message)}`);
    writeOut(lines.join('\n') + '\n');
    return 0;
  } finally {
    m.close();
  }
}
