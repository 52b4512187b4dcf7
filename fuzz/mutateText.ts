/**
 * Mutations of text inputs (Havok Script sources, cfg lists, documents for the language server):
 * tokens of the language inserted, lines repeated or dropped, deep nesting, unterminated strings,
 * comments and long brackets, stray bytes, and the blind byte mutations on the UTF-8 form.
 */
import { mutateBytes, type Mutated, type Seed } from './mutate';
import type { Rng } from './random';

/** Pieces of the languages the text targets read (Havok Script and cfg lists). */
const TOKENS = [
  'function',
  'end',
  'local',
  'if',
  'then',
  'else',
  'elseif',
  'while',
  'do',
  'for',
  'in',
  'repeat',
  'until',
  'return',
  'break',
  'hmake',
  'hstructure',
  'nil',
  'true',
  '...',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '[[',
  ']]',
  '[==[',
  ']==]',
  '--[[',
  '--',
  '"',
  "'",
  '\\',
  ':',
  '::',
  '.',
  '..',
  ',',
  ';',
  '=',
  '==',
  '~=',
  '#',
  '0x',
  '0xFFFFFFFFhi',
  '0x1234abcdhl',
  '1e309',
  '.5e',
  'self:',
  'self.',
  ': number',
  ': ifunction',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u0000',
  '\u00ff',
  '\ud800',
  '\u{1f600}',
  '..\\',
  '\\\\?\\',
  'C:\\',
  '\\\\server\\share',
  '; comment',
  'x'.repeat(300),
];

/** Openers for deep nesting (each needs its closer to be valid, and often does not get it). */
const NESTERS = [
  ['if x then ', ' end'],
  ['(', ')'],
  ['{', '}'],
  ['function f() ', ' end'],
  ['while 1 do ', ' end'],
  ['a.', ''],
  ['a[', ']'],
  ['-', ''],
  ['not ', ''],
  ['f(', ')'],
] as const;

/** One text mutation; returns the text and what was done. */
function textStep(text: string, rnd: Rng, others: readonly Seed[]): { text: string; label: string } {
  const n = text.length;
  const at = rnd.int(n + 1);
  switch (rnd.int(9)) {
    case 0: {
      const k = 1 + rnd.int(rnd.chance(0.1) ? 500 : 6);
      const pieces = Array.from({ length: k }, () => rnd.pick(TOKENS)).join(rnd.chance(0.5) ? ' ' : '');
      return { text: text.slice(0, at) + pieces + text.slice(at), label: `${k} tokens inserted at ${at}` };
    }
    case 1: {
      const len = rnd.int(Math.min(n - at, 400) + 1);
      return { text: text.slice(0, at) + text.slice(at + len), label: `${len} characters deleted at ${at}` };
    }
    case 2: {
      // A range repeated: many stray tokens, many identifiers, many definitions of one name.
      const len = 1 + rnd.int(Math.min(n - at, 200) + 1);
      const times = rnd.chance(0.05) ? 2000 + rnd.int(8000) : 1 + rnd.int(20);
      return { text: text.slice(0, at) + text.slice(at, at + len).repeat(times) + text.slice(at), label: `${len} characters at ${at} repeated ${times}x` };
    }
    case 3: {
      const [open, close] = rnd.pick(NESTERS);
      const depth = rnd.chance(0.3) ? 900 + rnd.int(2200) : 1 + rnd.int(60);
      const closed = rnd.chance(0.5);
      const body = open.repeat(depth) + 'x' + (closed ? close.repeat(depth) : '');
      return { text: text.slice(0, at) + body + text.slice(at), label: `${depth}-deep ${JSON.stringify(open)}${closed ? '' : ' unclosed'} at ${at}` };
    }
    case 4: {
      const opener = rnd.pick(['"', "'", '[[', '[=[', '--[[', '--[==[', '"\\', '0x', '\\u{']);
      return { text: text.slice(0, at) + opener, label: `cut at ${at} after ${JSON.stringify(opener)}` };
    }
    case 5: {
      const lines = text.split('\n');
      const i = rnd.int(lines.length);
      const j = rnd.int(lines.length);
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return { text: lines.join('\n'), label: `lines ${i} and ${j} swapped` };
    }
    case 6: {
      const other = rnd.pick(others);
      const o = new TextDecoder().decode(other.bytes);
      const from = rnd.int(o.length + 1);
      return { text: text.slice(0, at) + o.slice(from, from + rnd.int(2000)), label: `cut at ${at}, then ${other.name} from ${from}` };
    }
    case 7: {
      const ch = String.fromCharCode(rnd.chance(0.5) ? rnd.int(32) : rnd.int(0x10000));
      return { text: text.slice(0, at) + ch + text.slice(at), label: `U+${ch.charCodeAt(0).toString(16).padStart(4, '0')} at ${at}` };
    }
    default:
      return { text: text.slice(0, at), label: `cut at ${at}` };
  }
}

/** Mutate a text seed: text steps mostly, blind byte mutations of its UTF-8 form sometimes. */
export function mutateText(seed: Seed, rnd: Rng, others: readonly Seed[]): Mutated {
  if (rnd.chance(0.2)) return mutateBytes(seed, rnd, others);
  let text = new TextDecoder().decode(seed.bytes);
  const labels: string[] = [];
  const steps = rnd.chance(0.3) ? 2 + rnd.int(3) : 1;
  for (let i = 0; i < steps; i++) {
    const m = textStep(text, rnd, others);
    text = m.text;
    labels.push(m.label);
  }
  return { bytes: Buffer.from(text, 'utf8'), text, label: `${labels.join(' + ')} of ${seed.name}` };
}
