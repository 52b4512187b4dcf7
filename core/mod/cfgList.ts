/**
 * Editing an archive config list so that it can be undone byte for byte: a mod's line is one
 * whole line, added with the list's own line ending and carrying a marker comment
 * (`; arch06 mod: NAME`, a comment to the engine: seed 004, `;` starts one) by which uninstall
 * finds it again; taking it out removes exactly what was added. The text is latin1 (every byte
 * one character), so what is not touched stays as it was, byte for byte. Pure.
 */
import { Arch06Error } from '../errors';
import { parseArchcfg } from '../archive';
import type { ModPosition } from './manifest';

/** The separate list a mod can be installed through (`-archcfg`), beside `default.archcfg`. */
export const MODS_LIST = 'arch06-mods.archcfg';
const MARKER = '; arch06 mod: ';
const MARKER_RULE = /;\s*arch06 mod:\s*(.+?)\s*$/;
const BOM = '\xEF\xBB\xBF';

/** One line of a list as it is written: its text (terminator excluded) and its terminator. */
interface RawLine {
  text: string;
  eol: string;
}

function rawLines(text: string): RawLine[] {
  const out: RawLine[] = [];
  const re = /([^\r\n]*)(\r\n|\n|\r)|([^\r\n]+)$/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === '') break;
    out.push(m[3] !== undefined ? { text: m[3], eol: '' } : { text: m[1], eol: m[2] });
  }
  return out;
}

const joinLines = (lines: RawLine[]): string => lines.map((l) => l.text + l.eol).join('');

/** The list's line ending: its first one, else CRLF (the game's lists are Windows text). */
function eolOf(lines: RawLine[]): string {
  return lines.find((l) => l.eol)?.eol ?? '\r\n';
}

/** A mod's line: what it names (a folder, or an archive relative to the list's folder), then its marker. */
export function modLine(target: string, modName: string): string {
  if (/[\r\n;]/.test(target)) throw new Arch06Error('BAD_ARGUMENT', 'a list line cannot hold a line break or ";"', { actual: JSON.stringify(target) });
  return `${target} ${MARKER}${modName}`;
}

export interface ModLine {
  /** 1-based line number. */
  line: number;
  /** What the line names (comment removed). */
  target: string;
  mod: string;
}

/** The mods' lines of a list, found by their marker. */
export function findModLines(text: string): ModLine[] {
  const out: ModLine[] = [];
  rawLines(stripBom(text)).forEach((l, i) => {
    const m = MARKER_RULE.exec(l.text);
    if (!m) return;
    const cut = l.text.indexOf(';');
    out.push({ line: i + 1, target: l.text.slice(0, cut).trim(), mod: m[1] });
  });
  return out;
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/** The last segment of what a line names (`..\Patch_02.arch06` names `Patch_02.arch06`). */
export function lineTargetName(target: string): string {
  const parts = target.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/** Whether a line naming `target` is the one `name` means (`Patch_02` or `Patch_02.arch06`, any case, or the line as written). */
export function lineMatches(target: string, name: string): boolean {
  const n = name.toLowerCase();
  const leaf = lineTargetName(target).toLowerCase();
  return target.toLowerCase() === n || leaf === n || leaf === `${n}.arch06`;
}

/** `text` with `line` added at `position`; its line number in the result. Throws NOT_FOUND when `above NAME` names no line. */
export function insertLine(text: string, line: string, position: ModPosition, listName = 'the list'): { text: string; line: number } {
  const bom = text.startsWith(BOM) ? BOM : '';
  const lines = rawLines(text.slice(bom.length));
  const eol = eolOf(lines);
  let at = lines.length;
  if (position.kind === 'above') {
    const cfg = parseArchcfg(text);
    const hit = cfg.filter((l) => lineMatches(l.text, position.name));
    if (!hit.length) throw new Arch06Error('NOT_FOUND', `no line of ${listName} names ${position.name}`, { file: listName, field: 'position' });
    at = hit[hit.length - 1].line - 1; // the lowest such line: the copy the engine consults first
  }
  if (at === lines.length && lines.length && !lines[lines.length - 1].eol) {
    // A last line without a terminator gets one before ours, and ours has none: taken out again, both go.
    lines[lines.length - 1] = { ...lines[lines.length - 1], eol };
    lines.push({ text: line, eol: '' });
  } else lines.splice(at, 0, { text: line, eol });
  return { text: bom + joinLines(lines), line: at + 1 };
}

/**
 * `text` without the lines of mod `modName` (by marker, any case): each taken out with its
 * terminator, or, when it is the last line and has none, with the terminator before it, which is
 * exactly what `insertLine` added.
 */
export function removeModLines(text: string, modName: string): { text: string; removed: ModLine[] } {
  const bom = text.startsWith(BOM) ? BOM : '';
  const lines = rawLines(text.slice(bom.length));
  const removed = findModLines(text).filter((m) => m.mod.toLowerCase() === modName.toLowerCase());
  for (const r of [...removed].reverse()) {
    const i = r.line - 1;
    if (!lines[i].eol && i > 0) lines[i - 1] = { ...lines[i - 1], eol: '' };
    lines.splice(i, 1);
  }
  return { text: bom + joinLines(lines), removed };
}

/**
 * A unified diff of two lists (two lines of context), for showing a change before it is applied.
 * Lists are short (the game's has about a hundred lines); past 2,000 lines a side the diff is the
 * whole file out and in.
 */
export function lineDiff(before: string, after: string, nameBefore: string, nameAfter = nameBefore): string {
  const a = rawLines(before).map((l) => l.text);
  const b = rawLines(after).map((l) => l.text);
  const ops: { op: ' ' | '-' | '+'; text: string }[] = [];
  if (a.length > 2000 || b.length > 2000) {
    for (const t of a) ops.push({ op: '-', text: t });
    for (const t of b) ops.push({ op: '+', text: t });
  } else {
    // Longest common subsequence, then walk it.
    const n = a.length;
    const m = b.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) {
        ops.push({ op: ' ', text: a[i] });
        i++;
        j++;
      } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) ops.push({ op: '+', text: b[j++] });
      else ops.push({ op: '-', text: a[i++] });
    }
  }
  if (!ops.some((o) => o.op !== ' ')) return '';
  const out = [`--- ${nameBefore}`, `+++ ${nameAfter}`];
  const context = 2;
  const changed = ops.map((o) => o.op !== ' ');
  let k = 0;
  while (k < ops.length) {
    if (!changed[k]) {
      k++;
      continue;
    }
    let start = Math.max(0, k - context);
    let end = k;
    // Extend the hunk while changes are within 2 x context of each other.
    while (end < ops.length) {
      let next = end;
      while (next < ops.length && !changed[next]) next++;
      if (next >= ops.length || next - end > 2 * context) break;
      end = next + 1;
    }
    end = Math.min(ops.length, end + context);
    start = Math.max(0, start);
    const aStart = ops.slice(0, start).filter((o) => o.op !== '+').length;
    const bStart = ops.slice(0, start).filter((o) => o.op !== '-').length;
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o.op !== '+').length;
    const bLen = hunk.filter((o) => o.op !== '-').length;
    out.push(`@@ -${aStart + (aLen ? 1 : 0)},${aLen} +${bStart + (bLen ? 1 : 0)},${bLen} @@`);
    for (const o of hunk) out.push(o.op + o.text);
    k = end;
  }
  return out.join('\n') + '\n';
}
