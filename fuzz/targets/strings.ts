/**
 * String tables (SKDB v9, `.strdb`): parsed, rendered as decoded text, and loaded into the string
 * table editor's model (two languages aligned by key, a search, a window, a CSV export that may be
 * refused with its figures); every table read must write back exactly, through the editing
 * document and through its text form (issue 24). Seeds: the sample install's two tables and crafted tables whose keys
 * share texts, with surrogates and empty texts.
 */
import { Arch06Error } from '../../core/errors';
import { StringTableDocument, findString, parseSkdb, writeSkdb } from '../../core/formats/strings';
import { fromText, toText } from '../../core/mod';
import { stringHash } from '../../core/hash';
import { sampleStringTable } from '../../core/sample';
import { renderText } from '../../core/text';
import { StringTableModel } from '../../extension/editors/stringTableModel';
import { FuzzInvariant, type FuzzTarget, withFields } from '../target';

const seed = (name: string, bytes: Uint8Array) => withFields(name, bytes, (b, spans) => parseSkdb(b, name, { spans }));

export const skdb: FuzzTarget = {
  name: 'skdb',
  covers: 'SKDB v9 string tables: keys, offsets, UTF-16 text; the decoded text and the string-table editor model',
  seeds: () => [
    seed('sample enus', sampleStringTable('enus')),
    seed('sample frfr', sampleStringTable('frfr')),
    seed(
      'crafted: shared, empty and odd texts',
      writeSkdb([
        ...Array.from({ length: 20 }, (_, i) => ({ hash: stringHash(`k${i}`), text: i % 4 ? 'shared text' : '' })),
        { hash: stringHash('emoji'), text: 'a\u{1f600}b\ud800' },
        { hash: stringHash('long'), text: 'L'.repeat(5000) },
      ]),
    ),
    seed(
      'crafted: 5,000 keys, texts of their own',
      writeSkdb(Array.from({ length: 5000 }, (_, i) => ({ hash: stringHash(`key_${i}`), text: `text number ${i} `.repeat(1 + (i % 5)) }))),
    ),
  ],
  run: (c) => {
    const table = parseSkdb(c.bytes, 'fuzz.strdb');
    const text = renderText('strings', c.bytes, 'fuzz.strdb');
    findString(table, table.entries[0]?.hash ?? 0);
    const model = new StringTableModel([
      { language: 'enus', table },
      { language: 'frfr', table: parseSkdb(sampleStringTable('frfr'), 'frfr.strdb') },
    ]);
    const hits = model.search(c.rnd.pick(['', 'a', 'shared', '0x', 'l'.repeat(3)]));
    const rows = model.rows(c.rnd.int(10), 200);
    let csv: string | undefined;
    try {
      csv = model.toCsv();
    } catch (e) {
      if (!(e instanceof Arch06Error)) throw e;
    }
    // The exact round trips: an accepted table comes back byte for byte.
    const same = (b: Uint8Array): boolean => b.length === c.bytes.length && b.every((x, i) => x === c.bytes[i]);
    if (!same(StringTableDocument.read(c.bytes, 'fuzz.strdb').toBytes())) throw new FuzzInvariant('StringTableDocument does not write the table back exactly');
    if (!same(fromText(toText(c.bytes, 'fuzz.strdb'), 'fuzz.strdb'))) throw new FuzzInvariant('the strdb text form does not compile back exactly');
    return { table, text, model, hits, rows, csv };
  },
};
