/**
 * A string table (SKDB v9, `.strdb`) as text a modder edits and the packer writes back: one key a
 * line, `0xHASH = "text"`, the text a JSON string (escapes for line breaks and quotes), an
 * optional `# name` comment after it naming the key where the hash dictionary knows it. Lines
 * starting with `#` and blank lines are comments. Keys may be added (a hash, or a name in the form
 * `name = "text"`, hashed with StringHash) and removed; the table is written with its keys sorted,
 * as the format requires. Pure.
 */
import { Arch06Error } from '../errors';
import { formatHash, stringHash } from '../hash';
import { parseSkdb, writeSkdb } from '../formats/strings';

export function stringTableText(bytes: Uint8Array, file: string, nameOf: (hash: number) => string | undefined = () => undefined): string {
  const table = parseSkdb(bytes, file);
  const lines = [
    `# ${file}: ${table.entries.length} keys. One key a line: 0xHASH = "text" (a JSON string). Saving writes the .strdb.`,
    '# A new key: name = "text" (hashed with StringHash) or 0xHASH = "text". Delete a line to drop a key.',
  ];
  for (const e of table.entries) {
    const name = nameOf(e.hash);
    lines.push(`${formatHash(e.hash)} = ${JSON.stringify(e.text)}${name ? ` # ${name}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

const LINE = /^\s*(0x[0-9A-Fa-f]{1,8}|[A-Za-z0-9_.\- \\/]+?)\s*=\s*("(?:[^"\\]|\\.)*")\s*(?:#.*)?$/;

/** The text back as a string table; a line that does not read is an INVALID error naming it. */
export function stringTableFromText(text: string, file = 'string table'): Uint8Array {
  const entries = new Map<number, { text: string; line: number }>();
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const t = raw.trim();
    if (!t || t.startsWith('#')) return;
    const m = LINE.exec(t);
    if (!m) throw new Arch06Error('INVALID', `line ${i + 1} is not 0xHASH = "text"`, { file, field: `line ${i + 1}`, actual: raw.slice(0, 120) });
    const hash = /^0x/i.test(m[1]) ? parseInt(m[1].slice(2), 16) >>> 0 : stringHash(m[1]);
    let value: string;
    try {
      value = JSON.parse(m[2]) as string;
    } catch (e) {
      throw new Arch06Error('INVALID', `line ${i + 1}: the text is not a JSON string (${(e as Error).message})`, { file, field: `line ${i + 1}` });
    }
    const had = entries.get(hash);
    if (had) throw new Arch06Error('INVALID', `line ${i + 1} repeats the key ${formatHash(hash)} of line ${had.line}`, { file, field: `line ${i + 1}` });
    entries.set(hash, { text: value, line: i + 1 });
  });
  return writeSkdb([...entries].sort((a, b) => a[0] - b[0]).map(([hash, e]) => ({ hash, text: e.text })));
}
