/**
 * Matching a query in one file's text, line by line as an editor numbers lines (a line ends at
 * `\n`; a `\r` before it is not part of the line). A literal query is searched in the whole text at
 * once and only its hits are placed on lines, so a file without the word costs one scan; a regular
 * expression runs on each line, so `^`, `$` and lookarounds see one line as in VS Code.
 */
import { Arch06Error } from '../errors';

export interface LineHit {
  /** 0-based line. */
  line: number;
  /** UTF-16 columns of the match in its line. */
  start: number;
  end: number;
  /** The line (without its line break). */
  lineText: string;
}

export interface Matcher {
  /** Calls `hit` for each match in `text`, in order, until it returns false. */
  each(text: string, hit: (h: LineHit) => boolean): void;
}

/** The matcher for a query. Throws BAD_ARGUMENT for an empty query or a broken regular expression. */
export function makeMatcher(query: string, isRegExp: boolean, matchCase: boolean): Matcher {
  if (!query) throw new Arch06Error('BAD_ARGUMENT', 'empty search text');
  let re: RegExp;
  try {
    re = new RegExp(isRegExp ? query : query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), matchCase ? 'g' : 'gi');
  } catch (e) {
    throw new Arch06Error('BAD_ARGUMENT', `invalid regular expression: ${(e as Error).message}`);
  }
  return isRegExp || /[\r\n]/.test(query) ? perLine(re) : wholeText(re);
}

/** The line holding `at`, from a cursor that only moves forward (hits come in order). */
function lineCursor(text: string): (at: number) => { line: number; from: number; to: number } {
  let line = 0;
  let from = 0;
  let to = -1;
  return (at) => {
    if (to < 0 || at > to) {
      // Count the line breaks between the last line's start and the hit.
      for (let nl = text.indexOf('\n', from); nl >= 0 && nl < at; nl = text.indexOf('\n', from)) {
        line++;
        from = nl + 1;
      }
      const next = text.indexOf('\n', from);
      to = next < 0 ? text.length : next;
    }
    return { line, from, to };
  };
}

function wholeText(re: RegExp): Matcher {
  return {
    each(text, hit) {
      re.lastIndex = 0;
      const lineOf = lineCursor(text);
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const { line, from, to } = lineOf(m.index);
        const lineText = text.slice(from, to > from && text.charCodeAt(to - 1) === 13 ? to - 1 : to);
        if (!hit({ line, start: m.index - from, end: m.index - from + m[0].length, lineText })) return;
      }
    },
  };
}

function perLine(re: RegExp): Matcher {
  return {
    each(text, hit) {
      let from = 0;
      for (let line = 0; from <= text.length; line++) {
        const nl = text.indexOf('\n', from);
        const to = nl < 0 ? text.length : nl;
        const lineText = text.slice(from, to > from && text.charCodeAt(to - 1) === 13 ? to - 1 : to);
        re.lastIndex = 0;
        for (let m = re.exec(lineText); m; m = re.exec(lineText)) {
          if (!hit({ line, start: m.index, end: m.index + m[0].length, lineText })) return;
          if (m[0].length === 0) re.lastIndex++; // an empty match must still advance
        }
        if (nl < 0) break;
        from = nl + 1;
      }
    },
  };
}
