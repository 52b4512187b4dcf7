/**
 * A string table (`.strdb`, SKDB v9) as decoded text (syntax: ./syntax.ts): the header, then one
 * key per line in file order (ascending hash): the hash, its key name where one of the given
 * names hashes to it, and the text.
 */
import { defaultHasher, formatHash } from '../hash';
import { parseSkdb } from '../formats/strings';
import { TextDoc } from './syntax';

export interface StringsTextOptions {
  /** Candidate key names (e.g. the string literals of the mounted scripts): those whose StringHash is a key name it. */
  names?: Iterable<string>;
}

/** Render the bytes of a string table. Throws the reader's typed errors. */
export function renderStringTable(bytes: Uint8Array, path: string, options: StringsTextOptions = {}): string {
  const t = parseSkdb(bytes, path);
  const names = new Map<number, string>();
  for (const n of options.names ?? []) {
    const h = defaultHasher.tryHash(n);
    if (h.ok && !names.has(h.hash)) names.set(h.hash, n);
  }
  const d = new TextDoc({ inputSize: bytes.length });
  d.comment(`arch06 decoded text · string table (SKDB) · ${path}`);
  d.comment('syntax: [section] headers, "key = value" fields, one record per line ("id key=value …")');
  d.section('table');
  d.field('version', t.version);
  d.field('keys', t.keyCount);
  d.field('texts', t.distinctTexts);
  d.field('units', t.textUnits);
  d.field('confidence', t.confidence);
  d.section('entries', [
    ['count', t.entries.length],
    ['named', t.entries.filter((e) => names.has(e.hash)).length],
  ]);
  d.comment('key hash (StringHash of the key name)  key name where known  text');
  d.each(t.entries, t.entries.length, (e) =>
    d.record(formatHash(e.hash), [
      ['name', names.get(e.hash)],
      ['text', e.text],
    ]),
  );
  if (t.notes.length) {
    d.section('notes', [['count', t.notes.length]]);
    for (const n of t.notes) d.record(n);
  }
  return d.toString();
}
