/**
 * A script's problems, as the language server and `arch06 scripts` report them: its syntax errors,
 * bindings that name what it does not define or carry another script's hash (seed 001: never in
 * the shipped game, so always a broken mod), and a bound name defined twice (a table constructor
 * keeps the last value).
 *
 * Bounded: at most `MAX_SCRIPT_DIAGNOSTICS` are listed, then one more at the file's start that
 * states the true count (a crafted file can hold a million stray tokens, a crafted registry bind
 * a million missing names).
 */
import { type Diagnostic, type ScriptSymbol, type Span, flattenOutline, lineNumbers } from '../havokScript';
import type { AnalysedScript } from './analysis';
import { type ScriptIndex, siteObjectList } from './scriptIndex';

/** Problems listed per script; the rest are counted in a last one. */
export const MAX_SCRIPT_DIAGNOSTICS = 1000;

/** The problems of `script` (the index's problems for its path among them), capped, with the true count stated. */
export function scriptDiagnostics(index: ScriptIndex | undefined, script: AnalysedScript, max = MAX_SCRIPT_DIAGNOSTICS): Diagnostic[] {
  const out: Diagnostic[] = script.chunk.diagnostics.slice(0, max);
  let count = script.chunk.diagnosticCount;
  const add = (d: Diagnostic): void => {
    count++;
    if (out.length < max) out.push(d);
  };
  if (index) {
    // Problems not tied to a definition sit on the first section table (or the file's start).
    const table = script.symbols.find((s) => s.kind === 'table');
    const anchor: Span = table ? table.selection : { start: 0, end: 0 };
    // The index checked the served copy; `script` may be an edited one, so a bound name counts as
    // missing by this text's definitions, not the served copy's.
    for (const p of index.problems) {
      if (p.script.toLowerCase() !== script.path.toLowerCase() || p.kind === 'missing-function') continue;
      add({ ...anchor, message: `${p.registry.path}: ${p.message}`, severity: 'error' });
    }
    for (const name of index.boundNames(script.path)) {
      if (script.bindable.has(name)) continue;
      if (out.length >= max) {
        count++; // counted without expanding its sites
        continue;
      }
      const sites = index.boundBy(script.path, name, 12);
      add({
        ...anchor,
        message: `${sites[0].registry.path}: ${sites[0].function} is bound (${siteObjectList(sites, index.boundByCount(script.path, name))}) but the script does not define it`,
        severity: 'error',
      });
    }
    duplicates(index, script, add);
  }
  out.sort((a, b) => a.start - b.start);
  if (count > out.length)
    out.push({
      start: 0,
      end: 0,
      message: `${count.toLocaleString('en')} problems in all: the first ${out.length.toLocaleString('en')} are listed`,
      severity: 'warning',
    });
  return out;
}

/** Bound names the script defines twice. */
function duplicates(index: ScriptIndex, script: AnalysedScript, add: (d: Diagnostic) => void): void {
  const seen = new Map<string, ScriptSymbol>();
  let lineOf: ((offset: number) => number) | undefined;
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
    lineOf ??= lineNumbers(script.text);
    add({
      ...s.selection,
      message: `${s.name} is bound (${bound} object${bound === 1 ? '' : 's'}) and defined twice: line ${lineOf(first.selection.start)} defines it first, and a table keeps the last value`,
      severity: 'warning',
    });
  }
}
