/**
 * The text forms: each binary format a modder may edit as text, with the one module that turns it
 * into text and back. `to-text` picks the form by the file's magic, then its extension;
 * `from-text` by the text's first line, `# arch06 <name> text…` (or `-- arch06 <name> text…` where
 * the text is Lua). A new format plugs in with one entry of `TEXT_FORMS`.
 */
import { Arch06Error } from '../errors';
import { quoteShort } from '../io/bounded';
import { registryTextFormat } from '../text';
import { scriptFromText, scriptText } from './scriptText';
import { stringTableFromText, stringTableText } from './stringTableText';

export interface TextFormOptions {
  /** A key's or an object's name where a dictionary knows its hash. */
  nameOf?: (hash: number) => string | undefined;
}

export interface TextForm {
  /** The name in the text's first line and in messages. */
  name: string;
  /** The binary's extensions, lower case with the dot. */
  extensions: readonly string[];
  /** The binary's 4-character magic, when it has one. */
  magic?: string;
  toText(bytes: Uint8Array, file: string, options: TextFormOptions): string;
  fromText(text: string, file: string): Uint8Array;
  /** A text of this form whose first line was dropped (an editor's paste), known by its own header. */
  recognizes?(text: string): boolean;
}

export const TEXT_FORMS: readonly TextForm[] = [
  {
    name: 'strdb',
    extensions: ['.strdb'],
    magic: 'SKDB',
    toText: (bytes, file, o) => stringTableText(bytes, file, o.nameOf),
    fromText: stringTableFromText,
  },
  { name: 'scripts', extensions: ['.scripts'], magic: 'SCRI', toText: (bytes, file) => scriptText(bytes, file), fromText: scriptFromText },
  {
    // core/text/registrySource*.ts: its first line is already `# arch06 registry text · …`.
    name: 'registry',
    extensions: ['.objres'],
    magic: 'OBJR',
    toText: (bytes, file) => registryTextFormat.toText(bytes, file),
    fromText: (text, file) => registryTextFormat.fromText(text, file),
    recognizes: (text) => registryTextFormat.recognizes(text),
  },
];

const HEADER_LINE = /^\uFEFF?(?:#|--) arch06 ([A-Za-z0-9_-]{1,32}) text\b/;

/** The form a binary file has a text for: by its magic, else by its extension. */
export function textFormOfFile(bytes: Uint8Array, file: string): TextForm {
  const magic = bytes.length >= 4 ? String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) : '';
  const lower = file.toLowerCase();
  const form = TEXT_FORMS.find((f) => f.magic === magic) ?? TEXT_FORMS.find((f) => f.extensions.some((e) => lower.endsWith(e)));
  if (!form)
    throw new Arch06Error('UNSUPPORTED_FORM', `no text form for this file (text forms: ${TEXT_FORMS.map((f) => f.extensions.join(' ')).join(', ')})`, {
      file,
      offset: 0,
      actual: quoteShort(magic),
    });
  return form;
}

/** The form a text names on its first line. */
export function textFormOfText(text: string, file: string): TextForm {
  const m = HEADER_LINE.exec(text.slice(0, 200));
  const form = m ? TEXT_FORMS.find((f) => f.name === m[1]) : TEXT_FORMS.find((f) => f.recognizes?.(text));
  if (!form)
    throw new Arch06Error(
      'INVALID',
      m
        ? `line 1: no text form named ${quoteShort(m[1])} (known: ${TEXT_FORMS.map((f) => f.name).join(', ')})`
        : `line 1: not an arch06 text: the first line names the form ("# arch06 <form> text", forms: ${TEXT_FORMS.map((f) => f.name).join(', ')})`,
      { file, field: 'line 1' },
    );
  return form;
}

export function toText(bytes: Uint8Array, file: string, options: TextFormOptions = {}): string {
  return textFormOfFile(bytes, file).toText(bytes, file, options);
}

export function fromText(text: string, file: string): Uint8Array {
  return textFormOfText(text, file).fromText(text.replace(/^\uFEFF/, ''), file);
}
