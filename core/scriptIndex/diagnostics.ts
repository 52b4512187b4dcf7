/**
 * A script's problems, as the language server and `arch06 scripts` report them: its syntax errors,
 * bindings that name what it does not define or carry another script's hash (seed 001: never in
 * the shipped game, so always a broken mod), and a bound name defined twice (a table constructor
 * keeps the last value).
 *
 * Where a binding's problem sits: on the definition it concerns when the script has one (a
 * foreign hash on a defined function; a missing name on the nearest defined name, which the
 * message suggests: "did you mean …"), else where the script's bindable definitions are (its first
 * section table, else its first bindable definition, else its first statement), never on the file's
 * first character unless the script is empty.
 *
 * Bounded: at most `MAX_SCRIPT_DIAGNOSTICS` are listed, then one more at the file's start that
 * states the true count (a crafted file can hold a million stray tokens, a crafted registry bind
 * a million missing names).
 */
import { type Diagnostic, type ScriptSymbol, type Span, flattenOutline, lineNumbers } from '../havokScript';
import type { AnalysedScript } from './analysis';
import { nearestName } from './nearestName';
import { type ScriptIndex, siteObjectList } from './scriptIndex';

/** Missing names per script that get a suggestion (each costs a pass over the script's names): the rest are reported without one. */
const SUGGESTIONS = 50;

/** Problems listed per script; the rest are counted in a last one. */
export const MAX_SCRIPT_DIAGNOSTICS = 1000;

/** Where the script's bindable definitions are: its first section table, else its first bindable definition, else its first statement. */
function bindingsAnchor(script: AnalysedScript): Span {
  const table = script.symbols.find((s) => s.kind === 'table');
  if (table) return table.selection;
  const first = flattenOutline(script.symbols).find((s) => s.bindable);
  if (first) return first.selection;
  const statement = script.chunk.body[0];
  return statement ? { start: statement.start, end: statement.start } : { start: 0, end: 0 };
}

/** The problems of `script` (the index's problems for its path among them), capped, with the true count stated. */
export function scriptDiagnostics(index: ScriptIndex | undefined, script: AnalysedScript, max = MAX_SCRIPT_DIAGNOSTICS): Diagnostic[] {
  const out: Diagnostic[] = script.chunk.diagnostics.slice(0, max);
  let count = script.chunk.diagnosticCount;
  const add = (d: Diagnostic): void => {
    count++;
    if (out.length < max) out.push(d);
  };
  if (index) {
    const anchor = bindingsAnchor(script);
    let lineOf: ((offset: number) => number) | undefined;
    // The index checked the served copy; `script` may be an edited one, so a bound name counts as
    // missing by this text's definitions, not the served copy's.
    for (const p of index.problems) {
      if (p.script.toLowerCase() !== script.path.toLowerCase() || p.kind === 'missing-function') continue;
      const defined = p.function === undefined ? undefined : script.bindable.get(p.function.toLowerCase());
      add({ ...(defined ? defined.selection : anchor), message: `${p.registry.path}: ${p.message}`, severity: 'error' });
    }
    let suggested = 0;
    let definedNames: string[] | undefined;
    for (const name of index.boundNames(script.path)) {
      if (script.bindable.has(name)) continue;
      if (out.length >= max) {
        count++; // counted without expanding its sites
        continue;
      }
      const sites = index.boundBy(script.path, name, 12);
      definedNames ??= [...script.bindable.values()].map((s) => s.name);
      const near = suggested++ < SUGGESTIONS ? nearestName(sites[0].function, definedNames) : undefined;
      const nearest = near && script.bindable.get(near.name.toLowerCase());
      lineOf ??= lineNumbers(script.text);
      add({
        ...(nearest ? nearest.selection : anchor),
        message:
          `${sites[0].registry.path}: ${sites[0].function} is bound (${siteObjectList(sites, index.boundByCount(script.path, name))}) but the script does not define it` +
          (nearest ? `; did you mean ${nearest.name} (line ${lineOf(nearest.selection.start)})?` : ''),
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
