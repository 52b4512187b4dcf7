/**
 * The registry's ObjRes.ObjProps block: a GameDB database (seed 001: version 17, root type
 * ObjectPropertyDB, records ObjectRec; an OBJL record's property index selects its record). Only
 * its 44-byte header is read, with S2's labels (formats-public §9: one pattern, UNCERTAIN); the
 * rest of the block stays raw. See ./layout.ts for what the four real headers show.
 */
import { FieldReader } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { GADB_HEADER_SIZE, GADB_LABELS } from './layout';

export interface GadbHeader {
  offset: number;
  size: number;
  version: number;
  /** The nine u32 words after magic and version, raw, with S2's labels. */
  words: { offset: number; label: string; value: number }[];
  confidence: 'uncertain';
}

/** Read the GADB header at r.pos (the block spans to r.end). */
export function readGadbHeader(r: FieldReader, field = 'gadb'): GadbHeader {
  const offset = r.pos;
  expectMagicVersion(r, 'GADB', null, 'GADB', {
    what: 'a GADB database',
    magicField: `${field}.tag`,
    headerSize: GADB_HEADER_SIZE,
    headerField: `${field}.header`,
  });
  const version = r.u32(`${field}.version`);
  const words = GADB_LABELS.map((label, i) => ({ offset: r.pos, label, value: r.u32(`${field}.word[${i}]`) }));
  return { offset, size: r.end - offset, version, words, confidence: 'uncertain' };
}
