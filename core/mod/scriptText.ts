/**
 * A script (`.scripts`, SCRI) as text a modder edits and `from-text` writes back: line 1 a Lua
 * comment naming the form and holding the SCRI header's fields, then the source, byte for byte:
 *
 *   -- arch06 scripts text: SCRI version=1 flag=1 nuls=1 (…)
 *   <the source>
 *
 * `bare` instead of `SCRI version=… flag=…` for a payload without the header. The payload size
 * is not a field: it is the source's length plus the NULs, recomputed on write. A compiled script
 * or a source that is not valid UTF-8 has no exact text, and to-text says so. Pure.
 */
import { Arch06Error } from '../errors';
import { parseScript, rewriteScript, writeScri } from '../formats/script';

export const SCRIPT_TEXT_HEADER = '-- arch06 scripts text';
/** The most NULs a text may ask to end the payload with (the retail scripts end with one). */
export const MAX_TRAILING_NULS = 1 << 20;

export function scriptText(bytes: Uint8Array, file: string): string {
  const script = parseScript(bytes, file);
  // rewriteScript refuses what has no exact text (compiled, not UTF-8): checked before a text is made.
  rewriteScript(script);
  const h = script.header;
  const fields = h ? `SCRI version=${h.version} flag=${h.flag}` : 'bare';
  return `${SCRIPT_TEXT_HEADER}: ${fields} nuls=${script.trailingNuls ?? 0} (the .scripts header; the source follows from line 2, saved as is)\n${script.source ?? ''}`;
}

const HEADER = /^-- arch06 scripts text: (?:SCRI version=(\d{1,10}) flag=(\d{1,3})|(bare)) nuls=(\d{1,10})(?: .*)?$/;

/** The text back as a script file; a header line that does not read, or a NUL in the source, is an INVALID error naming the line. */
export function scriptFromText(text: string, file = 'script'): Uint8Array {
  const eol = text.indexOf('\n');
  const first = (eol < 0 ? text : text.slice(0, eol)).replace(/\r$/, '');
  const m = HEADER.exec(first.length > 4096 ? '' : first);
  if (!m)
    throw new Arch06Error('INVALID', 'line 1: expected "-- arch06 scripts text: SCRI version=N flag=N nuls=N" (or "bare nuls=N")', {
      file,
      field: 'line 1',
    });
  const version = m[1] === undefined ? undefined : Number(m[1]);
  const flag = m[2] === undefined ? undefined : Number(m[2]);
  const nuls = Number(m[4]);
  if (version !== undefined && version > 0xffffffff) throw new Arch06Error('INVALID', `line 1: version ${version} is not a u32`, { file, field: 'line 1' });
  if (flag !== undefined && flag > 0xff) throw new Arch06Error('INVALID', `line 1: flag ${flag} is not a byte`, { file, field: 'line 1' });
  if (nuls > MAX_TRAILING_NULS) throw new Arch06Error('INVALID', `line 1: nuls=${nuls} is over ${MAX_TRAILING_NULS}`, { file, field: 'line 1' });
  const source = eol < 0 ? '' : text.slice(eol + 1);
  const nul = source.indexOf('\0');
  if (nul >= 0) {
    const line = 2 + countLines(source, nul);
    throw new Arch06Error('INVALID', `line ${line}: the source holds a NUL character (a source payload ends at its NULs)`, { file, field: `line ${line}` });
  }
  return writeScri(source, { version, flag, trailingNuls: nuls, bare: m[3] !== undefined });
}

function countLines(s: string, upTo: number): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < upTo; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * A mod's script as its editor shows it: the source alone, so its lines are the source's (the
 * header is kept from the file on save, `scriptWithSource`). Refused, as for `scriptText`, when
 * the file has no exact source text.
 */
export function scriptSourceForEditing(bytes: Uint8Array, file: string): string {
  const script = parseScript(bytes, file);
  rewriteScript(script);
  return script.source ?? '';
}

/**
 * The script `current` (the file as it is on disk) with `source` saved into it: the SCRI header's
 * fields and trailing NULs as the file has them, the payload size that of the new source. A NUL in
 * the source is an INVALID error naming its line (1-based, of the source).
 */
export function scriptWithSource(current: Uint8Array, file: string, source: string): Uint8Array {
  const nul = source.indexOf('\0');
  if (nul >= 0) {
    const line = 1 + countLines(source, nul);
    throw new Arch06Error('INVALID', `line ${line}: the source holds a NUL character (a source payload ends at its NULs)`, { file, field: `line ${line}` });
  }
  return rewriteScript(parseScript(current, file), source);
}
