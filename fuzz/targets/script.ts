/**
 * Scripts: SCRI files (the header, the source or bytecode payload, the script view's text and the
 * quick function lister), the Havok Script lexer (pulled token by token as the parser does, its
 * tokens checked to lie in order inside the text) and the parser with what stands on it (outline,
 * names resolved by scope, the bindable definitions). Seeds: the sample layer's script, the four
 * retail scripts of Patch_00, a compiled-header file and snippets of every construct.
 */
import { LUA_SIGNATURE, parseScript, rewriteScript, writeScri } from '../../core/formats/script';
import { fromText, toText } from '../../core/mod';
import { scriptDefinitions } from '../../core/havokScript';
import { flattenOutline, lineNumbers, outline, parseHavokScript, resolveNames } from '../../core/havokScript';
import { Lexer } from '../../core/havokScript/lexer';
import { analyseText } from '../../core/scriptIndex';
import { SAMPLE_LAYER_SOURCE, sampleLayerScript } from '../../core/sample';
import { renderScript } from '../../core/text';
import { mutateText } from '../mutateText';
import type { Seed } from '../mutate';
import { realFilesEnding } from '../samples';
import { FuzzInvariant, type FuzzCase, type FuzzTarget, textSeed, withFields } from '../target';

/** Snippets of every construct the lexer and parser know, some of them broken on purpose. */
const SNIPPETS = [
  'local a, b = 1, "two" -- comment\nfunction T.m:n(x, ...) return x, ... end\n',
  'hstructure P_meta\n  Init : ifunction\n  Count : number\nend\nO = hmake P_meta { Init = f, , Count = 0x1234abcdhi }\n',
  "s = [==[long\n]] still ]==] t = \"esc \\z  \\x41\\065\\u{48}\\\n\" u = '\\'' --[[ block\ncomment ]] v = 0x1p4 + 1e-3 + .5 + 3.\n",
  'while a do repeat b = b + 1 until b > 3 for i = 1, 10, 2 do goto continue end ::continue:: end\n',
  'if a then elseif b then else end return function() end, {1, [2] = 3; x = 4,}, a.b.c:d"s"{t}\n',
  'local t = { 0xFFFFFFFFhl, 0x0hi, -#t ~= 2^-3 % 4 .. "x" and not nil or ... }',
  'function f( x : number, y : table ) : boolean return x == y end',
  'x = = 1 end ) ] } "unterminated\n[[never closed',
];

function scriptSources(): Seed[] {
  const out = [textSeed('sample layer source', SAMPLE_LAYER_SOURCE), ...SNIPPETS.map((s, i) => textSeed(`snippet ${i}`, s))];
  for (const f of realFilesEnding('.scripts')) {
    const s = parseScript(f.bytes, f.name);
    if (s.source !== undefined) out.push(textSeed(`${f.name} (retail)`, s.source));
  }
  return out;
}

const caseText = (c: FuzzCase): string => c.text ?? new TextDecoder().decode(c.bytes);

export const scri: FuzzTarget = {
  name: 'scri',
  covers: 'SCRI scripts: header, payload size, source or compiled payload; the script view text and the function lister',
  seeds: () => {
    const seed = (name: string, bytes: Uint8Array): Seed => withFields(name, bytes, (b, spans) => parseScript(b, name, { spans }));
    const hks = Uint8Array.of(...LUA_SIGNATURE, 0x51, 0x0e, 1, 4, 8, 4, 8, 0, 3, 0, 0xde, 0xad);
    return [
      seed('sample layer script', sampleLayerScript()),
      seed('SCRI around snippets', writeScri(SNIPPETS.join('\n'))),
      seed('SCRI without NUL', writeScri('return 1', { nulTerminated: false })),
      seed('SCRI compiled header', writeScri(hks)),
      seed('bare compiled header', hks),
      seed('bare source', Buffer.from(SNIPPETS[0])),
      ...realFilesEnding('.scripts').map((f) => seed(`${f.name} (retail)`, f.bytes)),
    ];
  },
  run: (c) => {
    const s = parseScript(c.bytes, 'fuzz.scripts');
    const view = renderScript(c.bytes, 'fuzz.scripts');
    const functions = s.source !== undefined ? scriptDefinitions(s.source) : [];
    // The exact round trips (issue 24): a source script with an exact text comes back byte for byte.
    if (s.kind === 'source' && s.validUtf8) {
      const same = (b: Uint8Array): boolean => b.length === c.bytes.length && b.every((x, i) => x === c.bytes[i]);
      if (!same(rewriteScript(s))) throw new FuzzInvariant('rewriteScript does not write the script back exactly');
      if (!same(fromText(toText(c.bytes, 'fuzz.scripts'), 'fuzz.scripts'))) throw new FuzzInvariant('the scripts text form does not compile back exactly');
    }
    return { s, view, functions };
  },
};

export const hksLexer: FuzzTarget = {
  name: 'hks-lexer',
  covers: 'the Havok Script lexer: every token in order inside the text, diagnostics inside it, always an end',
  seeds: scriptSources,
  mutate: mutateText,
  run: (c) => {
    const text = caseText(c);
    const lexer = new Lexer(text);
    let last = 0;
    let count = 0;
    for (;;) {
      const t = lexer.next();
      count++;
      if (!(t.start >= last && t.end >= t.start && t.end <= text.length))
        throw new FuzzInvariant(`token ${count} at [${t.start}, ${t.end}) after ${last} in ${text.length} characters`);
      last = t.end;
      if (t.type === 'eof') break;
      if (count > text.length + 1) throw new FuzzInvariant(`more tokens (${count}) than characters (${text.length})`);
    }
    for (const d of [...lexer.diagnostics, ...lexer.comments]) {
      if (!(d.start >= 0 && d.end >= d.start && d.end <= text.length))
        throw new FuzzInvariant(`a diagnostic or comment at [${d.start}, ${d.end}) in ${text.length} characters`);
    }
    return { count, lexer };
  },
};

export const hksParser: FuzzTarget = {
  name: 'hks-parser',
  covers: 'the Havok Script parser: tree and diagnostics (never a throw), outline, names by scope, bindable definitions',
  seeds: scriptSources,
  mutate: mutateText,
  run: (c) => {
    const text = caseText(c);
    const chunk = parseHavokScript(text);
    const symbols = flattenOutline(outline(chunk, text));
    const names = resolveNames(chunk);
    const lineOf = lineNumbers(text);
    for (const d of chunk.diagnostics) {
      if (!(d.start >= 0 && d.end >= d.start && d.end <= text.length))
        throw new FuzzInvariant(`diagnostic at [${d.start}, ${d.end}) in ${text.length} characters`);
      lineOf(d.start);
    }
    const analysed = analyseText({ path: 'fuzz.scripts', from: 'loose', source: 'fuzz' }, text);
    return { chunk, symbols, names, analysed };
  },
  memoryBasis: (c) => 2 * caseText(c).length,
};
