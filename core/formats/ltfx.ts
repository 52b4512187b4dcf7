/**
 * LTFX effect (`.fxp`): the header only. formats-public §9 (S2 `fxp.hexpat`, one sample:
 * `landmine_curse.fxp`) gives no more than this:
 *
 *   0x00  "LTFX" | u32 version (8 in the sample)
 *   0x08  an embedded GADB database: "GADB" | u32 version (0x11 in the sample) | nine u32 words
 *         that S2's `gamedb.hexpat` names stringTableSize, recordCount, three unknowns,
 *         blockCount, two unknowns, stringTableOffset (a 44-byte header)
 *
 * Confidence: the two magics and the LTFX version are what the one sample and S2 agree on. The
 * GADB words are kept raw with S2's labels, UNCERTAIN (S2 gives them for `.gamedb` files; its
 * `.fxp` pattern renames them and adds a u16). Nothing after the GADB header is read.
 */
import { Arch06Error, hexBytes } from '../errors';
import { u32 } from '../io/littleEndian';

export const LTFX_MAGIC = 0x5846544c; // "LTFX" read as a little-endian u32
export const LTFX_VERSION = 8;
export const GADB_MAGIC = 0x42444147; // "GADB"
/** The GADB database starts right after the LTFX magic and version (S2). */
export const LTFX_GADB_OFFSET = 8;
/** S2 `gamedb.hexpat`: a 44-byte GADB header. */
export const GADB_HEADER_SIZE = 44;
/** S2's names for the GADB header words after magic and version (UNCERTAIN). */
export const GADB_WORD_LABELS = [
  'stringTableSize', 'recordCount', 'unknown', 'unknown', 'unknown', 'blockCount', 'unknown', 'unknown', 'stringTableOffset',
] as const;

export interface LtfxHeader {
  file: string;
  size: number;
  version: number;
  gadb: {
    /** Absolute offset of "GADB". */
    offset: number;
    version: number;
    /** The nine u32 words after magic and version, raw, with S2's labels. */
    words: { offset: number; label: string; value: number }[];
  };
  /** 'uncertain': one sample; only the header is read. */
  confidence: 'uncertain';
  notes: string[];
}

/** Read the LTFX and embedded GADB headers. Throws TRUNCATED, BAD_MAGIC or UNSUPPORTED_VERSION. */
export function parseLtfxHeader(bytes: Uint8Array, file: string): LtfxHeader {
  const need = (end: number, field: string): void => {
    if (bytes.length < end) {
      throw new Arch06Error('TRUNCATED', `file ends inside ${field}`, { file, offset: bytes.length, field, expected: `${end} bytes`, actual: `${bytes.length} bytes` });
    }
  };
  need(4, 'header.magic');
  if (u32(bytes, 0) !== LTFX_MAGIC) {
    throw new Arch06Error('BAD_MAGIC', 'not an LTFX effect', { file, offset: 0, field: 'header.magic', expected: '"LTFX"', actual: hexBytes(bytes.subarray(0, 4)) });
  }
  need(8, 'header.version');
  const version = u32(bytes, 4);
  if (version !== LTFX_VERSION) {
    throw new Arch06Error('UNSUPPORTED_VERSION', `unsupported LTFX version ${version}`, { file, offset: 4, field: 'header.version', expected: String(LTFX_VERSION), actual: String(version) });
  }
  const g = LTFX_GADB_OFFSET;
  need(g + 4, 'gadb.magic');
  if (u32(bytes, g) !== GADB_MAGIC) {
    throw new Arch06Error('BAD_MAGIC', 'no GADB database after the LTFX header', { file, offset: g, field: 'gadb.magic', expected: '"GADB"', actual: hexBytes(bytes.subarray(g, g + 4)) });
  }
  need(g + GADB_HEADER_SIZE, 'gadb.header');
  const words = GADB_WORD_LABELS.map((label, i) => ({ offset: g + 8 + 4 * i, label, value: u32(bytes, g + 8 + 4 * i) }));
  return {
    file,
    size: bytes.length,
    version,
    gadb: { offset: g, version: u32(bytes, g + 4), words },
    confidence: 'uncertain',
    notes: [
      'only the LTFX and GADB headers are read (formats-public §9: one sample, S2 labels); the GADB words are UNCERTAIN',
    ],
  };
}
