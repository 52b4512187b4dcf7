/**
 * Text from game data is data (issue 21 item 3): a name, a doc comment or a message read from a
 * game file is escaped for the sink it reaches, so it can never turn into markup there. One
 * function per sink; test/unit/sinks.test.ts finds every sink and checks it goes through its
 * function. Pure, browser-safe.
 *
 * - markdown (hovers, completion docs): `mdText` for running text, `mdCode` for an inline code
 *   span, `mdFence` for a code block. Inside a span or a block nothing is markup, so only the
 *   fence needs to outgrow the text's own backticks; running text has every markdown and HTML
 *   character escaped (no link, image, `command:` target or tag survives).
 * - notifications (`vscode.window.show*Message`): `noticeText` (VS Code renders `[label](target)`
 *   there as a link, nothing else).
 * - a terminal: `escapeControls` (./safeName.ts). HTML: `esc` (media/shared/html.ts). A file name:
 *   `unsafeNameReason` (./safeName.ts), checked by the write primitive.
 */
import { escapeControls } from './safeName';

/**
 * Characters with a meaning in CommonMark, GFM or their HTML wherever they stand (links, images,
 * tags, entities, emphasis, tables, strikethrough, autolinks' `:`); a `_` inside a word opens
 * nothing, so `FortSentry_09` stays as it is.
 */
const MARKDOWN_SPECIAL = /[\\`*[\]<>&!|~:]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;
/** What opens a block at the start of a line (a heading, a list item, a quote, a numbered item). */
const BLOCK_START = /^(\s*)([#+\-=>]|\d+[.)])/;

/** Line breaks and the controls a terminal or a renderer could obey, as `\xNN`; a newline becomes a space. */
const oneLine = (s: string): string => escapeControls(s.replace(/\r\n|[\r\n]/g, ' '));

/** `s` as running markdown text: every markdown and HTML character backslash-escaped, on one line. */
export function mdText(s: string): string {
  return oneLine(s)
    .replace(MARKDOWN_SPECIAL, '\\$&')
    .replace(BLOCK_START, (_, blank: string, mark: string) => `${blank}${mark.replace(/^(\d*)(.)$/, '$1\\$2')}`)
    .replace(/\b(www)\./gi, '$1\\.');
}

/** The longest run of backticks in `s`. */
function longestBacktickRun(s: string): number {
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/** `s` as an inline code span: fenced by more backticks than it holds, on one line. */
export function mdCode(s: string): string {
  const text = oneLine(s);
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  // A span that starts or ends with a backtick (or is blank) needs a space inside its fence.
  const pad = /^`|`$|^ *$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** `s` as a fenced code block in `language`: the fence longer than any backtick run inside. */
export function mdFence(s: string, language = ''): string {
  const text = s
    .split(/\r\n|[\r\n]/)
    .map((line) => line.replace(/[^\t]+/g, escapeControls))
    .join('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * Several lines of running text (a doc comment) as markdown: each line escaped as `mdText`, the
 * lines kept apart by hard breaks.
 */
export function mdLines(s: string): string {
  return s
    .split(/\r\n|[\r\n]/)
    .map(mdText)
    .join('  \n');
}

/**
 * A notification's text: controls as `\xNN`, and no `[label](target)` left whole (VS Code makes it
 * a link, `command:` targets included).
 */
export function noticeText(s: string): string {
  return escapeControls(s).replace(/\]\(/g, '] (');
}
