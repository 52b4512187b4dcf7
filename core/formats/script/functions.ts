/**
 * A cheap lister of a script's top-level definitions, for `arch06 dump` and the registry's
 * binding check: not a parser (the language-server issue brings one).
 *
 * The retail layer scripts (the four of `Patch_00.arch06`) define what SCRB binds as fields of one
 * `local section_<hash> = { … }` table, each starting in column 0:
 *
 *   name = function (self, threadId, scriptId)          a bound function
 *   name = hmake <Type>_meta {                           a script object (a ScriptObject's Script)
 *
 * Members inside an `hmake` body are indented (`\tInit = function ( self )`, `,\tBeSentry = …`)
 * and are not listed. Lua's statement forms `function name(` and `local function name(` in
 * column 0 are listed too (loose `.hks` sources use them).
 */

export interface ScriptFunction {
  name: string;
  /** 1-based line of the definition. */
  line: number;
  kind: 'function' | 'hmake';
  /** The `hmake` type (e.g. `_ambsentry_SO_Script_9dfba427_meta`). */
  type?: string;
}

const ASSIGNED = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(?:(function)\b|hmake[ \t]+([A-Za-z_][A-Za-z0-9_.]*)[ \t]*\{)/;
const STATEMENT = /^(?:local[ \t]+)?function[ \t]+([A-Za-z_][A-Za-z0-9_.:]*)[ \t]*\(/;

/** The top-level definitions of `source`, in line order. Linear in the text's length. */
export function listFunctions(source: string): ScriptFunction[] {
  const out: ScriptFunction[] = [];
  let line = 1;
  let start = 0;
  while (start <= source.length) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    const c = source.charCodeAt(start);
    // Only lines starting with a letter or underscore can hold a top-level definition.
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f) {
      const text = source.slice(start, Math.min(end, start + 512));
      const a = ASSIGNED.exec(text);
      if (a) out.push(a[2] ? { name: a[1], line, kind: 'function' } : { name: a[1], line, kind: 'hmake', type: a[3] });
      else {
        const s = STATEMENT.exec(text);
        if (s) out.push({ name: s[1], line, kind: 'function' });
      }
    }
    start = end + 1;
    line++;
  }
  return out;
}
