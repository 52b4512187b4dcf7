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
 */
import { type Diagnostic, type ScriptSymbol, type Span, flattenOutline, lineNumbers } from '../havokScript';
import type { AnalysedScript } from './analysis';
import { nearestName } from './nearestName';
import { type ScriptIndex, siteObjectList } from './scriptIndex';

/** Missing names per script that get a suggestion (each costs a pass over the script's names): the rest are reported without one. */
const SUGGESTIONS = 50;

/** Where the script's bindable definitions are: its first section table, else its first bindable definition, else its first statement. */
function bindingsAnchor(script: AnalysedScript): Span {
  const table = script.symbols.find((s) => s.kind === 'table');
  if (table) return table.selection;
  const first = flattenOutline(script.symbols).find((s) => s.bindable);
  if (first) return first.selection;
  const statement = script.chunk.body[0];
  return statement ? { start: statement.start, end: statement.start } : { start: 0, end: 0 };
}

/** The problems of `script` (the index's problems for its path among them). */
export function scriptDiagnostics(index: ScriptIndex | undefined, script: AnalysedScript): Diagnostic[] {
  const out: Diagnostic[] = [...script.chunk.diagnostics];
  if (!index) return out;
  const anchor = bindingsAnchor(script);
  const lineOf = lineNumbers(script.text);
  // The index checked the served copy; `script` may be an edited one, so a bound name counts as
  // missing by this text's definitions, not the served copy's.
  for (const p of index.problems) {
    if (p.script.toLowerCase() !== script.path.toLowerCase() || p.kind === 'missing-function') continue;
    const defined = p.function === undefined ? undefined : script.bindable.get(p.function.toLowerCase());
    out.push({ ...(defined ? defined.selection : anchor), message: `${p.registry.path}: ${p.message}`, severity: 'error' });
  }
  let suggested = 0;
  const definedNames = [...script.bindable.values()].map((s) => s.name);
  for (const [name, sites] of index.bindingsOf(script.path, 12)) {
    if (script.bindable.has(name)) continue;
    const objects = siteObjectList(sites, index.boundByCount(script.path, name));
    const near = suggested++ < SUGGESTIONS ? nearestName(sites[0].function, definedNames) : undefined;
    const nearest = near && script.bindable.get(near.name.toLowerCase());
    out.push({
      ...(nearest ? nearest.selection : anchor),
      message:
        `${sites[0].registry.path}: ${sites[0].function} is bound (${objects}) but the script does not define it` +
        (nearest ? `; did you mean ${nearest.name} (line ${lineOf(nearest.selection.start)})?` : ''),
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
    const line = lineOf(first.selection.start);
    out.push({
      ...s.selection,
      message: `${s.name} is bound (${bound} object${bound === 1 ? '' : 's'}) and defined twice: line ${line} defines it first, and a table keeps the last value`,
      severity: 'warning',
    });
  }
  return out.sort((a, b) => a.start - b.start);
}
