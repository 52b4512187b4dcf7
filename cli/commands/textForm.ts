/**
 * `to-text` and `from-text`: a binary file on disk as its editable text and back (core/mod's text
 * forms: string tables, scripts; the form chosen by the file's magic or by the text's first line).
 * Nothing is written when the input does not read: the whole output is built first, then written
 * through the one write primitive (atomic, an existing target kept as `<target>.bak`). `from-text`
 * refuses an output inside a game install unless `--into-install` is given.
 */
import { Arch06Error } from '../../core/errors';
import { readFileBytes, writeFileAtomic } from '../../core/io/node';
import { fromText, installAbove, toText } from '../../core/mod';
import { ParsedArgs, flagString, need } from '../args';
import { writeOut } from '../output';
import { RAISE_CAP_HINT, maxEntryBytes } from '../limits';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function toTextCommand(args: ParsedArgs): number {
  const input = need(args, 0, '<file>');
  const bytes = readFileBytes(input, maxEntryBytes(), RAISE_CAP_HINT);
  const text = toText(bytes, input);
  const out = flagString(args, 'out');
  if (out) writeFileAtomic(out, Buffer.from(text, 'utf8'), { backup: true });
  else writeOut(text);
  return 0;
}

export function fromTextCommand(args: ParsedArgs): number {
  const input = need(args, 0, '<text>');
  const out = flagString(args, 'out');
  if (!out) throw new Arch06Error('BAD_ARGUMENT', '-o <file> (where to write the binary file) is required', { field: 'out' });
  // The install is read-only (issue 24 item 6): a mod folder is where an edited game file goes.
  const install = installAbove(out);
  if (install !== undefined && !args.flags.has('into-install'))
    throw new Arch06Error('BAD_ARGUMENT', `${out} is inside the game install ${install}: write into a mod folder instead, or pass --into-install`, {
      file: out,
      field: 'out',
    });
  const raw = readFileBytes(input, maxEntryBytes(), RAISE_CAP_HINT);
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw new Arch06Error('INVALID', 'the text is not UTF-8', { file: input });
  }
  const bytes = fromText(text, input);
  writeFileAtomic(out, bytes, { backup: true });
  return 0;
}
