/**
 * A script's problems, as the language server and `arch06 scripts` report them: its syntax errors,
 * bindings that name what it does not define or carry another script's hash (seed 001: never in
 * the shipped game, so always a broken mod), and a bound name defined twice (a table constructor
 * keeps the last value).
 */
import { type Diagnostic, type ScriptSymbol, type Span, flattenOutline, lineNumbers } from '../havokScript';
import type { AnalysedScript } from './analysis';
import { type ScriptIndex, siteObjectList } from './scriptIndex';

/** The problems of `script` (the index's problems for its path among them). */
export function scriptDiagnostics(index: ScriptIndex | undefined, script: AnalysedScript): Diagnostic[] {
  const out: Diagnostic[] = [...script.chunk.diagnostics];
  if (!index) return out;
  // Problems not tied to a definition sit on the first section table (or the file's start).
  const table = script.symbols.find((s) => s.kind === 'table');
  const anchor: Span = table ? table.selection : { start: 0, end: 0 };
  // The index checked the served copy; `script` may be an edited one, so a bound name counts as
  // missing by this text's definitions, not the served copy's.
  for (const p of index.problems) {
    if (p.script.toLowerCase() !== script.path.toLowerCase() || p.kind === 'missing-function') continue;
    out.push({ ...anchor, message: `${p.registry.path}: ${p.message}`, severity: 'error' });
  }
  for (const [name, sites] of index.bindingsOf(script.path, 12)) {
    if (script.bindable.has(name)) continue;
    const objects = siteObjectList(sites, index.boundByCount(script.path, name));
    out.push({
      ...anchor,
      message: `${sites[0].registry.path}: ${sites[0].function} is bound (${objects}) but the script does not define it`,
      severity: 'error',
    });
  }
  const seen = new Map<string, ScriptSymbol>();
  for (const s of flattenOutline(script.symbols)) {
    if (!s.bindable) continue;
    const k = s.name.toLowerCase();
    const first = seen.get(k);
    if (!first) {
      seen.set(k, s);
      continue;
    }
    const bound = index.boundByCount(script.path, s.name);
    if (bound === 0) continue;
    const line = lineNumbers(script.text)(first.selection.start);
    out.push({
      ...s.selection,
      message: `${s.name} is bound (${bound} object${bound === 1 ? '' : 's'}) and defined twice: line ${line} defines it first, and a table keeps the last value`,
      severity: 'warning',
    });
  }
  return out.sort((a, b) => a.start - b.start);
}
