/**
 * A script (`.scripts` / `.hks`) as text: its source exactly as the payload holds it (without the
 * trailing NUL), so line numbers are the source's own, and a one-line summary of the SCRI header
 * for the editor's title, status bar or CodeLens. A compiled payload (`1B 4C 75 61 51 0E`) has no
 * source: its text is the decoded header in the syntax of ./syntax.ts, saying so.
 */
import { parseScript } from '../formats/script';
import { scriptDefinitions } from '../havokScript';
import type { ScriptFile } from '../formats/script';
import { TextDoc, hex6 } from './syntax';

export interface ScriptText {
  /** The source (kind 'source'), or the decoded header (kind 'bytecode'). */
  text: string;
  kind: ScriptFile['kind'];
  /** The language the text is in: Havok Script source, or decoded text. */
  language: 'havokscript' | 'decoded';
  /** The header fields, in file order, for a hover or a details view. */
  fields: { label: string; value: string }[];
  /** One line: the header fields and what the payload is. */
  summary: string;
}

const n = (x: number): string => x.toLocaleString('en');

/** Read a script and give its text view. Throws the reader's typed errors (a binary file that is no script). */
export function renderScript(bytes: Uint8Array, path: string): ScriptText {
  const s = parseScript(bytes, path);
  const fields: ScriptText['fields'] = [];
  if (s.header) {
    fields.push({ label: 'magic', value: 'SCRI' }, { label: 'version', value: String(s.header.version) }, { label: 'u8 @0x08', value: String(s.header.flag) });
    fields.push({ label: 'payload size @0x09', value: `${n(s.header.size)} bytes` });
  } else fields.push({ label: 'header', value: 'none (a bare payload)' });
  fields.push({ label: 'payload', value: `${n(s.payloadSize)} bytes at 0x${s.payloadOffset.toString(16).toUpperCase().padStart(2, '0')}` });
  const head = s.header ? `SCRI v${s.header.version} · u8 ${s.header.flag} · ${n(s.header.size)} bytes` : `no SCRI header · ${n(s.payloadSize)} bytes`;
  if (s.kind === 'bytecode') {
    const b = s.bytecode!;
    fields.push({ label: 'kind', value: 'compiled Havok Script (bytecode)' });
    const d = new TextDoc();
    d.comment(`arch06 decoded text · compiled Havok Script · ${path}`);
    d.comment('the payload is compiled Havok Script (1B 4C 75 61 51 0E): there is no source; only its header is read (UNCERTAIN: no sample exists)');
    d.section('script');
    d.field('header', s.header ? 'SCRI' : null);
    if (s.header) {
      d.field('version', s.header.version);
      d.field('u8_08', s.header.flag);
      d.field('size', s.header.size);
    }
    d.field('payload.offset', hex6(s.payloadOffset));
    d.field('payload.size', s.payloadSize);
    d.field('kind', 'bytecode');
    d.section('bytecode');
    const rows: [string, number][] = [
      ['version', b.version],
      ['format', b.format],
      ['endianness', b.endianness],
      ['int', b.intSize],
      ['size_t', b.sizeTSize],
      ['instruction', b.instructionSize],
      ['number', b.numberSize],
      ['number.type', b.numberType],
      ['flags', b.flags],
      ['unknown', b.unknown],
    ];
    for (const [k, v] of rows) {
      d.field(k, v);
      fields.push({ label: k, value: String(v) });
    }
    if (s.notes.length) {
      d.section('notes', [['count', s.notes.length]]);
      for (const x of s.notes) d.record(x);
    }
    return { text: d.toString(), kind: 'bytecode', language: 'decoded', fields, summary: `${head} · compiled Havok Script (bytecode): no source, header only` };
  }
  const defs = scriptDefinitions(s.source!).filter((d) => d.kind !== 'method');
  fields.push({ label: 'kind', value: 'source' }, { label: 'definitions', value: String(defs.length) });
  return {
    text: s.source!,
    kind: 'source',
    language: 'havokscript',
    fields,
    summary: `${head} · source${s.nulTerminated ? ' + NUL' : ''} · ${defs.length} definitions`,
  };
}
