/**
 * SKDB v9 string tables (`.strdb`). Layout from seed 004 "String tables (SKDB v9, .strdb)",
 * measured on 140 of 140 shipped tables; formats-public §7 (S2 `strdb.hexpat`, S3) agrees on the
 * core layout:
 *
 *   0x00  "SKDB" | u32 9 | u32 header size 0x1C | u32 key count | u32 0 | u32 text units | u32 0
 *   0x1C  key count x {u32 key hash, u32 text offset}, strictly ascending by hash
 *   then  UTF-16LE text: NUL-terminated strings, exactly `text units` code units to the end of the file
 *
 * A key is StringHash of its key name; an offset counts UTF-16 units from the start of the text;
 * several keys may share one string. S2 and S3 read u32 @0x08 as the (absolute) offset of the
 * key table; seed 004 found it to be 0x1C in every shipped table, which is where the keys begin,
 * so the two readings agree and any other value is refused rather than followed.
 *
 * No real table is among the samples (`../shared/samples/real`): the layout is the seed's, checked
 * here by its own rules (version, header size, ascending keys, offsets in range, every string
 * terminated, text ending exactly at the file's end). The two zero words are kept raw; a nonzero
 * one is reported and drops the confidence.
 */
import { Arch06Error } from '../../errors';
import { Confidence } from '../../io/confidence';
import { FieldReader, ParseOptions, hex32 } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';

export const SKDB_VERSION = 9;
export const SKDB_HEADER_SIZE = 0x1c;
export const SKDB_KEY_SIZE = 8;

export interface StringTableEntry {
  /** StringHash of the key name. */
  hash: number;
  /** Offset of the text in UTF-16 code units from the start of the text area. */
  textOffset: number;
  text: string;
}

export interface StringTable {
  file: string;
  size: number;
  version: number;
  /** Raw u32 @0x08: the header size and the key table's offset (0x1C). */
  headerSize: number;
  keyCount: number;
  /** Raw u32 @0x14: the text area's length in UTF-16 code units. */
  textUnits: number;
  /** The raw words @0x10 and @0x18 (0 in every shipped table). */
  zeroWords: [number, number];
  /** File offset of the text area. */
  textOffset: number;
  /** In file order, i.e. ascending by hash. */
  entries: StringTableEntry[];
  /** How many distinct strings the keys reference (several keys may share one). */
  distinctTexts: number;
  confidence: Confidence;
  notes: string[];
}

const utf16 = new TextDecoder('utf-16le');

/**
 * Read and validate a string table. Throws a typed `Arch06Error` naming file, offset and field
 * when a rule of the format does not hold; the key count is checked against the file before
 * anything is allocated for it.
 */
export function parseSkdb(bytes: Uint8Array, file: string, options: ParseOptions = {}): StringTable {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'SKDB', [SKDB_VERSION], 'SKDB', { what: 'an SKDB string table', headerSize: SKDB_HEADER_SIZE });
  const headerSize = r.u32('header.headerSize');
  if (headerSize !== SKDB_HEADER_SIZE) {
    throw new Arch06Error('INVALID', 'the key table does not start right after the 0x1C-byte header (seed 004: 140 of 140 tables)', {
      file,
      offset: 8,
      field: 'header.headerSize',
      expected: hex32(SKDB_HEADER_SIZE),
      actual: hex32(headerSize),
    });
  }
  const countAt = r.pos;
  const keyCount = r.u32('header.keyCount');
  const zero0 = r.u32('header.zero10');
  const unitsAt = r.pos;
  const textUnits = r.u32('header.textUnits');
  const zero1 = r.u32('header.zero18');
  r.fits(keyCount, SKDB_KEY_SIZE, 'header.keyCount', countAt);
  const textOffset = SKDB_HEADER_SIZE + SKDB_KEY_SIZE * keyCount;
  const expectedSize = textOffset + 2 * textUnits;
  if (expectedSize !== bytes.length) {
    throw new Arch06Error(
      expectedSize > bytes.length ? 'TRUNCATED' : 'INVALID',
      'the text does not end exactly at the end of the file (0x1C + 8 x keys + 2 x text units)',
      {
        file,
        offset: unitsAt,
        field: 'header.textUnits',
        expected: `${expectedSize} bytes of file`,
        actual: `${bytes.length}`,
      },
    );
  }
  const notes: string[] = [];
  let confidence: Confidence = 'confirmed';
  if (zero0 !== 0 || zero1 !== 0) {
    notes.push(`header words @0x10 / @0x18 are ${hex32(zero0)} / ${hex32(zero1)}; 0 in every shipped table (meaning unknown)`);
    confidence = 'uncertain';
  }
  // The keys: one checked range, read through the view.
  const keysAt = r.pos;
  r.record('keys', keysAt, SKDB_KEY_SIZE * keyCount);
  const v = r.view;
  // One decode of the whole area: UTF-16 units map 1:1 to string indices (a lone surrogate decodes
  // to one U+FFFD), so unit offsets index the decoded text directly.
  const text = utf16.decode(bytes.subarray(textOffset));
  const entries: StringTableEntry[] = new Array(keyCount);
  const byOffset = new Map<number, string>();
  let previous = -1;
  for (let i = 0; i < keyCount; i++) {
    const at = keysAt + SKDB_KEY_SIZE * i;
    const hash = v.getUint32(at, true);
    const off = v.getUint32(at + 4, true);
    if (hash <= previous) {
      throw new Arch06Error('INVALID', 'keys are not strictly ascending by hash', {
        file,
        offset: at,
        field: `keys[${i}].hash`,
        expected: `> ${hex32(previous)}`,
        actual: hex32(hash),
      });
    }
    previous = hash;
    if (off >= textUnits) {
      throw new Arch06Error('OUT_OF_RANGE', 'text offset outside the text area', {
        file,
        offset: at + 4,
        field: `keys[${i}].textOffset`,
        expected: `< ${textUnits} (UTF-16 units)`,
        actual: String(off),
      });
    }
    let s = byOffset.get(off);
    if (s === undefined) {
      const end = text.indexOf('\0', off);
      if (end < 0) {
        throw new Arch06Error('INVALID', 'the string is not NUL-terminated before the end of the file', {
          file,
          offset: textOffset + 2 * off,
          field: `keys[${i}].text`,
          expected: 'a NUL code unit',
          actual: `${textUnits - off} units without one`,
        });
      }
      s = text.slice(off, end);
      byOffset.set(off, s);
    }
    entries[i] = { hash, textOffset: off, text: s };
  }
  r.record('text', textOffset, 2 * textUnits);
  return {
    file,
    size: bytes.length,
    version,
    headerSize,
    keyCount,
    textUnits,
    zeroWords: [zero0, zero1],
    textOffset,
    entries,
    distinctTexts: byOffset.size,
    confidence,
    notes,
  };
}

/** The entry of a key hash, by binary search (keys are ascending). */
export function findString(table: StringTable, hash: number): StringTableEntry | undefined {
  const e = table.entries;
  let lo = 0;
  let hi = e.length - 1;
  const h = hash >>> 0;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const x = e[mid].hash;
    if (x === h) return e[mid];
    if (x < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
