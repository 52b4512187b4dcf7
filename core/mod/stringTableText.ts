/**
 * A string table (SKDB v9, `.strdb`) as text a modder edits and `from-text` / the mod's save write
 * back. The syntax, one item a line:
 *
 *   # arch06 strdb text: …          line 1 names the form (comments start with #)
 *   #! words 0xAAAAAAAA 0xBBBBBBBB   the header's unknown words @0x10 / @0x18, when not 0
 *   0xHASH = "text"  # name          a key and its text (a JSON string), the name where known
 *   Name_Of_Key = "text"             a key by name, hashed with StringHash
 *
 * Keys may be in any order (the file sorts them); a key given twice is an error. The text area is
 * laid out as `writeSkdb` lays it: texts in key order, identical texts stored once. A table read
 * with another layout (not the project's writer's) gets `#! layout offsets`: every key line then
 * carries its text's unit offset (`0xHASH @12 = "…"`), strings no key starts at have lines of
 * their own (`@0 = "…"`, `!no-nul` for a tail without NUL), and the text area is rebuilt from
 * those offsets, so the file comes back exactly; to edit such a table freely, delete that line and
 * the `@` offsets. Errors name the line and the reason; nothing is written. Pure.
 */
import { Arch06Error } from '../errors';
import { formatHash, stringHash } from '../hash';
import { quoteShort } from '../io/bounded';
import { tagValue } from '../io/magic';
import { SKDB_HEADER_SIZE, SKDB_VERSION, StringTableDocument, writeSkdb } from '../formats/strings';

export const STRDB_TEXT_HEADER = '# arch06 strdb text';

export function stringTableText(bytes: Uint8Array, file: string, nameOf: (hash: number) => string | undefined = () => undefined): string {
  const doc = StringTableDocument.read(bytes, file);
  const keys = doc.keys();
  const offsets = doc.textOffsets();
  const area = doc.textArea();
  const lines = [
    `${STRDB_TEXT_HEADER}: ${file}, ${keys.length} keys (SKDB v9). One key a line: 0xHASH = "text" (a JSON string), # its name where known.`,
    '# A new key: Name = "text" (hashed with StringHash) or 0xHASH = "text". Delete a line to drop a key. Saving writes the .strdb.',
  ];
  const [w0, w1] = doc.zeroWords;
  if (w0 !== 0 || w1 !== 0) lines.push(`#! words ${formatHash(w0)} ${formatHash(w1)}`);
  const canonical = isWriterLayout(keys, offsets, area);
  if (!canonical) lines.push('#! layout offsets');
  const startedByKey = new Set(offsets);
  if (!canonical)
    for (const s of area)
      if (!startedByKey.has(s.offset) || !s.terminated) lines.push(`@${s.offset} = ${JSON.stringify(s.text)}${s.terminated ? '' : ' !no-nul'}`);
  keys.forEach((k, i) => {
    const name = nameOf(k.hash);
    lines.push(`${formatHash(k.hash)}${canonical ? '' : ` @${offsets[i]}`} = ${JSON.stringify(k.text)}${name ? ` # ${name.replace(/[\r\n]/g, ' ')}` : ''}`);
  });
  return lines.join('\n') + '\n';
}

/** Whether the text area is exactly what `writeSkdb` makes of these keys: texts in key order, each stored once. */
function isWriterLayout(keys: { text: string }[], offsets: number[], area: { terminated: boolean; text: string }[]): boolean {
  const placed = new Map<string, number>();
  let units = 0;
  for (let i = 0; i < keys.length; i++) {
    let at = placed.get(keys[i].text);
    if (at === undefined) {
      placed.set(keys[i].text, (at = units));
      units += keys[i].text.length + 1;
    }
    if (offsets[i] !== at) return false;
  }
  const total = area.reduce((n, s) => n + s.text.length + (s.terminated ? 1 : 0), 0);
  return total === units;
}

interface KeyLine {
  line: number;
  hash: number;
  name?: string;
  text: string;
  offset?: number;
}

interface AreaLine {
  line: number;
  offset: number;
  text: string;
  terminated: boolean;
}

const fail = (file: string, line: number, reason: string): Arch06Error =>
  new Arch06Error('INVALID', `line ${line}: ${reason}`, { file, field: `line ${line}` });

/** The text back as a string table; a line that does not read is an INVALID error naming it and why. */
export function stringTableFromText(text: string, file = 'string table'): Uint8Array {
  const keys: KeyLine[] = [];
  const orphans: AreaLine[] = [];
  let words: [number, number] = [0, 0];
  let offsetsLayout = false;
  let lineNo = 0;
  let from = 0;
  while (from <= text.length) {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    lineNo++;
    const raw = text.slice(from, end > from && text[end - 1] === '\r' ? end - 1 : end);
    from = end + 1;
    const t = raw.trim();
    if (!t) continue;
    if (t.startsWith('#!')) {
      const d = /^#!\s*(\S+)\s*(.*)$/.exec(t)!;
      if (d[1] === 'words') {
        const m = /^0x([0-9A-Fa-f]{1,8})\s+0x([0-9A-Fa-f]{1,8})$/.exec(d[2]);
        if (!m) throw fail(file, lineNo, '#! words takes two hashes, 0xAAAAAAAA 0xBBBBBBBB (the header words @0x10 and @0x18)');
        words = [parseInt(m[1], 16), parseInt(m[2], 16)];
      } else if (d[1] === 'layout' && d[2] === 'offsets') offsetsLayout = true;
      else throw fail(file, lineNo, `unknown directive ${quoteShort(t)} (known: #! words, #! layout offsets)`);
      continue;
    }
    if (t.startsWith('#')) continue;
    const item = readLine(t, file, lineNo);
    if (item.kind === 'area') orphans.push(item.value);
    else keys.push(item.value);
  }
  const byHash = new Map<number, KeyLine>();
  for (const k of keys) {
    const had = byHash.get(k.hash);
    if (had) {
      const named = (x: KeyLine): string => (x.name !== undefined ? `"${quoteShort(x.name)}" (${formatHash(x.hash)})` : formatHash(x.hash));
      throw fail(file, k.line, `the key ${named(k)} is already the key ${named(had)} of line ${had.line} (each key once)`);
    }
    byHash.set(k.hash, k);
  }
  const sorted = [...byHash.values()].sort((a, b) => a.hash - b.hash);
  if (!offsetsLayout) {
    const first = keys.find((k) => k.offset !== undefined) ?? orphans[0];
    if (first) throw fail(file, first.line, '@offsets are only read under "#! layout offsets" (delete the @offset to let arch06 lay out the text)');
    return withWords(writeSkdb(sorted.map((k) => ({ hash: k.hash, text: k.text }))), words);
  }
  return withWords(tableFromOffsets(sorted, orphans, file), words);
}

function withWords(bytes: Uint8Array, words: [number, number]): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  dv.setUint32(0x10, words[0], true);
  dv.setUint32(0x18, words[1], true);
  return bytes;
}

type ReadItem = { kind: 'key'; value: KeyLine } | { kind: 'area'; value: AreaLine };

/** One non-comment line: `KEY [@N] = "json" [!no-nul] [# comment]` or `@N = "json" …`. */
function readLine(t: string, file: string, line: number): ReadItem {
  const eq = t.indexOf('=');
  if (eq < 0) throw fail(file, line, 'expected KEY = "text" (no "=")');
  const left = t.slice(0, eq).trim();
  const lm = /^(?:(0x[0-9A-Fa-f]{1,8}|[^\s@"#=]+(?: [^\s@"#=]+)*)\s*)?(?:@(\d{1,10}))?$/.exec(left);
  if (!lm || (lm[1] === undefined && lm[2] === undefined))
    throw fail(file, line, `the key ${quoteShort(left)} is neither 0xHASH (up to 8 hex digits) nor a name, with an optional @offset`);
  let at = eq + 1;
  while (at < t.length && (t[at] === ' ' || t[at] === '\t')) at++;
  if (t[at] !== '"') throw fail(file, line, 'the text must be a JSON string in double quotes');
  const close = closingQuote(t, at + 1);
  if (close < 0) throw fail(file, line, `unterminated string (opened at column ${at + 1})`);
  let value: string;
  try {
    value = JSON.parse(t.slice(at, close + 1)) as string;
  } catch (e) {
    throw fail(file, line, `the text is not a JSON string (${(e as Error).message})`);
  }
  if (value.includes('\0')) throw fail(file, line, 'a text cannot hold NUL (\\u0000): each string ends at its first NUL');
  let rest = t.slice(close + 1).trim();
  let terminated = true;
  if (rest.startsWith('!no-nul')) {
    terminated = false;
    rest = rest.slice(7).trim();
  }
  if (rest && !rest.startsWith('#')) throw fail(file, line, `unexpected ${quoteShort(rest)} after the text (a comment starts with #)`);
  const offset = lm[2] === undefined ? undefined : Number(lm[2]);
  if (offset !== undefined && offset > 0xffffffff) throw fail(file, line, `the offset ${offset} is not a u32`);
  if (lm[1] === undefined) return { kind: 'area', value: { line, offset: offset!, text: value, terminated } };
  if (!terminated) throw fail(file, line, "!no-nul is for a text area's tail, not a key's text");
  const key = lm[1];
  if (/^0x[0-9A-Fa-f]{1,8}$/i.test(key)) return { kind: 'key', value: { line, hash: parseInt(key.slice(2), 16) >>> 0, text: value, offset } };
  if (key.includes('\0')) throw fail(file, line, 'a key name cannot hold NUL');
  if (/^0x[0-9A-Fa-f]*$/i.test(key)) throw fail(file, line, `${quoteShort(key)} is not a hash (0x and 1 to 8 hex digits)`);
  let hash: number;
  try {
    hash = stringHash(key);
  } catch (e) {
    throw fail(file, line, `the key name cannot be hashed: ${(e as Error).message}`);
  }
  return { kind: 'key', value: { line, hash, name: key, text: value, offset } };
}

/** The index of the quote closing a JSON string whose body starts at `from`, or -1. */
function closingQuote(t: string, from: number): number {
  for (let i = from; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}

/** `#! layout offsets`: every string placed at its unit offset; overlaps must agree, and every unit be covered. */
function tableFromOffsets(keys: KeyLine[], orphans: AreaLine[], file: string): Uint8Array {
  const strings: AreaLine[] = [...orphans];
  for (const k of keys) {
    if (k.offset === undefined) throw fail(file, k.line, 'under "#! layout offsets" every key line gives its @offset');
    strings.push({ line: k.line, offset: k.offset, text: k.text, terminated: true });
  }
  // Bound the area by what the lines hold before allocating for it: every unit must be covered.
  const held = strings.reduce((n, s) => n + s.text.length + 1, 0);
  let units = 0;
  for (const s of strings) {
    const end = s.offset + s.text.length + (s.terminated ? 1 : 0);
    if (end > held) throw fail(file, s.line, `the offset ${s.offset} lies beyond the ${held} units the lines' texts can cover`);
    units = Math.max(units, end);
  }
  const area = new Int32Array(units).fill(-1);
  const owner = new Int32Array(units);
  for (const s of strings) {
    const n = s.text.length + (s.terminated ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const u = i < s.text.length ? s.text.charCodeAt(i) : 0;
      const at = s.offset + i;
      if (area[at] >= 0 && area[at] !== u) throw fail(file, s.line, `its text disagrees at unit ${at} with the text of line ${owner[at]}`);
      area[at] = u;
      owner[at] = s.line;
    }
  }
  const gap = area.indexOf(-1);
  if (gap >= 0) throw fail(file, strings[strings.length - 1]?.line ?? 1, `unit ${gap} of the text area is covered by no line (add an @${gap} = "…" line)`);
  for (const s of strings)
    if (!s.terminated && s.offset + s.text.length !== units) throw fail(file, s.line, '!no-nul marks only the text that ends the text area');
  const textAt = SKDB_HEADER_SIZE + 8 * keys.length;
  const out = new Uint8Array(textAt + 2 * units);
  const dv = new DataView(out.buffer);
  const header = [tagValue('SKDB'), SKDB_VERSION, SKDB_HEADER_SIZE, keys.length, 0, units, 0];
  header.forEach((w, k) => dv.setUint32(4 * k, w, true));
  keys.forEach((k, i) => {
    dv.setUint32(SKDB_HEADER_SIZE + 8 * i, k.hash, true);
    dv.setUint32(SKDB_HEADER_SIZE + 8 * i + 4, k.offset!, true);
  });
  for (let i = 0; i < units; i++) dv.setUint16(textAt + 2 * i, area[i], true);
  return out;
}
