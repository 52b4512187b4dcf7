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
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';

const LTFX_VERSION = 8;
/** The GADB database starts right after the LTFX magic and version (S2). */
export const LTFX_GADB_OFFSET = 8;
/** S2 `gamedb.hexpat`: a 44-byte GADB header. */
export const GADB_HEADER_SIZE = 44;
/** S2's names for the GADB header words after magic and version (UNCERTAIN). */
const GADB_WORD_LABELS = ['stringTableSize', 'recordCount', 'unknown', 'unknown', 'unknown', 'blockCount', 'unknown', 'unknown', 'stringTableOffset'] as const;

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
export function parseLtfxHeader(bytes: Uint8Array, file: string, options: ParseOptions = {}): LtfxHeader {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'LTFX', [LTFX_VERSION], 'LTFX', { what: 'an LTFX effect' });
  const g = LTFX_GADB_OFFSET;
  expectMagicVersion(r, 'GADB', null, 'GADB', { what: 'a GADB database (one follows the LTFX header)', magicField: 'gadb.magic' });
  r.need(GADB_HEADER_SIZE - 4, 'gadb.header');
  const gadbVersion = r.u32('gadb.version');
  const words = GADB_WORD_LABELS.map((label) => ({ offset: r.pos, label, value: r.u32(`gadb.${label}`) }));
  return {
    file,
    size: bytes.length,
    version,
    gadb: { offset: g, version: gadbVersion, words },
    confidence: 'uncertain',
    notes: ['only the LTFX and GADB headers are read (formats-public §9: one sample, S2 labels); the GADB words are UNCERTAIN'],
  };
}
