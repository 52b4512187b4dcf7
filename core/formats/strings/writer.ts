/**
 * Writes SKDB v9 string tables (./skdb.ts) as seed 004 gives them: keys sorted by hash, identical
 * texts stored once (several keys may share one string, as in the shipped tables), the text area
 * ending exactly at the end of the file. For tests, the sample install and the benchmark.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { hex32 } from '../../io/fieldReader';
import { tagValue } from '../../io/magic';
import { SKDB_HEADER_SIZE, SKDB_KEY_SIZE, SKDB_VERSION } from './skdb';

export interface SkdbWriterEntry {
  /** StringHash of the key name (`stringHash` from core/hash). */
  hash: number;
  text: string;
}

/** A table holding `entries` in any order; refuses duplicate hashes and texts holding NUL. */
export function writeSkdb(entries: SkdbWriterEntry[]): Uint8Array {
  const sorted = entries.map((e, i) => ({ ...e, i })).sort((a, b) => (a.hash >>> 0) - (b.hash >>> 0));
  const offsets = new Map<string, number>();
  const texts: string[] = [];
  let units = 0;
  sorted.forEach((e, k) => {
    if (!(Number.isInteger(e.hash) && e.hash >= 0 && e.hash <= 0xffffffff))
      throw new Arch06Error('BAD_ARGUMENT', 'key hashes are u32', { field: `entries[${e.i}].hash`, actual: String(e.hash) });
    if (k > 0 && sorted[k - 1].hash === e.hash)
      throw new Arch06Error('BAD_ARGUMENT', `key ${hex32(e.hash)} given twice (keys are strictly ascending)`, { field: `entries[${e.i}].hash` });
    if (e.text.includes('\0')) throw new Arch06Error('BAD_ARGUMENT', 'texts are NUL-terminated and cannot hold NUL', { field: `entries[${e.i}].text` });
    if (!offsets.has(e.text)) {
      offsets.set(e.text, units);
      texts.push(e.text);
      units += e.text.length + 1;
    }
  });
  const w = new ByteWriter(SKDB_HEADER_SIZE + SKDB_KEY_SIZE * sorted.length + 2 * units);
  w.u32(tagValue('SKDB')).u32(SKDB_VERSION).u32(SKDB_HEADER_SIZE).u32(sorted.length).u32(0).u32(units).u32(0);
  for (const e of sorted) w.u32(e.hash).u32(offsets.get(e.text)!);
  for (const t of texts) {
    for (let i = 0; i < t.length; i++) w.u16(t.charCodeAt(i));
    w.u16(0);
  }
  return w.toBytes();
}
