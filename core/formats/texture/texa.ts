/**
 * TEXA v1 texture array (`.texa`, `.texa0`, `.texauhd`). No public byte layout exists
 * (formats-public §11); seed 004 "Texture arrays" says only: "a header, their own path and the
 * source path of each slice, then a DX10 DDS whose array size is the slice count, slices stored
 * one after another with full mip chains".
 *
 * So this reader takes only what that sentence fixes and says how it found the rest:
 *   0x00  "TEXA"
 *   0x04  u32 version = 1
 *   ...   header bytes, kept raw (UNCERTAIN). The paths in them are found by testing two
 *         hypotheses in turn: length-prefixed strings (u16, u32 or u8 lengths) back to back up to the
 *         DDS, else runs of path characters containing a `.`; each path keeps its offset and
 *         the framing seen
 *   D     "DDS " (found by searching, bounded) + a DX10 header whose arraySize is the slice count
 * When the number of paths found is slice count + 1, the first is read as the array's own path
 * and the rest as the slices' sources, in order (the seed's order); otherwise the paths are
 * listed unassigned and a note says so.
 */
import { Arch06Error, hexBytes } from '../../errors';
import { DDS_MAGIC, DdsFile, parseDds } from './dds';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';

export const TEXA_MAGIC = 0x41584554; // "TEXA" little-endian
export const TEXA_VERSION = 1;
/** How far into the file the "DDS " search looks: room for a few hundred slice paths. */
const TEXA_DDS_SEARCH_LIMIT = 64 * 1024;
/** Shortest printable run taken for a path. */
const MIN_PATH_CHARS = 4;

export interface TexaPath {
  /** Absolute offset of the first character. */
  offset: number;
  text: string;
  /** How the run is delimited, as observed: a u16 or u8 length right before it, or a NUL after. */
  framing: 'u8 length' | 'u16 length' | 'u32 length' | 'NUL-terminated' | 'none seen';
}

export interface TexaFile {
  file: string;
  size: number;
  version: number;
  /** Raw header bytes between the version and the DDS (hex, first 256 bytes). */
  headerHex: string;
  headerBytes: number;
  /** Every path-like run found in the header, in file order. */
  paths: TexaPath[];
  /** The array's own path and the slices' source paths, when the count fits the seed's description. */
  ownPath?: string;
  slicePaths?: string[];
  ddsOffset: number;
  dds: DdsFile;
  confidence: 'uncertain';
  notes: string[];
}

const printable = (c: number): boolean => c >= 0x20 && c < 0x7f;

/** Characters a game path is made of; anything else ends a run (a length byte, a flag). */
const pathChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  c === 0x5c ||
  c === 0x2f ||
  c === 0x2e ||
  c === 0x5f ||
  c === 0x2d ||
  c === 0x3a ||
  c === 0x20;
const MAX_FRAMED_PATH = 1024;

const latin1 = new TextDecoder('latin1');

/**
 * Hypothesis 1: the paths are length-prefixed strings (u16, then u32, then u8 length: the first
 * width that fits wins) back to back, the last one ending right where the DDS starts; within a
 * width the earliest start that yields such a chain wins. Linear in the header size: whether a
 * chain from position p reaches the DDS is settled once per p, right to left.
 */
function framedPaths(r: FieldReader, from: number, to: number): TexaPath[] | undefined {
  const { bytes, view } = r;
  const n = to - from;
  // unprintable[i] = unprintable bytes in [from, from + i): "all printable" for any range in O(1).
  const unprintable = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) unprintable[i + 1] = unprintable[i] + (printable(bytes[from + i]) ? 0 : 1);
  for (const width of [2, 4, 1] as const) {
    const framing: TexaPath['framing'] = width === 1 ? 'u8 length' : width === 2 ? 'u16 length' : 'u32 length';
    /** The string's end when a valid string starts at p, else -1. */
    const stringEnd = (p: number): number => {
      if (p + width > to) return -1;
      const len = width === 1 ? bytes[p] : width === 2 ? view.getUint16(p, true) : view.getUint32(p, true);
      const end = p + width + len;
      if (len < MIN_PATH_CHARS || len > MAX_FRAMED_PATH || end > to) return -1;
      return unprintable[end - from] - unprintable[p + width - from] === 0 ? end : -1;
    };
    // reaches[i]: a chain of valid strings starting at from + i ends exactly at `to`.
    const reaches = new Uint8Array(n + 1);
    reaches[n] = 1;
    let first = -1;
    for (let p = to - 1; p >= from; p--) {
      const end = stringEnd(p);
      if (end >= 0 && reaches[end - from]) {
        reaches[p - from] = 1;
        first = p;
      }
    }
    if (first < 0) continue;
    const found: TexaPath[] = [];
    for (let p = first; p < to;) {
      const end = stringEnd(p);
      found.push({ offset: p + width, text: latin1.decode(bytes.subarray(p + width, end)), framing });
      p = end;
    }
    return found;
  }
  return undefined;
}

/** Hypothesis 2 (fallback): runs of path characters containing a `.`, with what delimits them. */
function scannedPaths(bytes: Uint8Array, from: number, to: number): TexaPath[] {
  const out: TexaPath[] = [];
  let i = from;
  while (i < to) {
    if (!pathChar(bytes[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < to && pathChar(bytes[j])) j++;
    const text = latin1.decode(bytes.subarray(i, j));
    if (j - i >= MIN_PATH_CHARS && text.includes('.')) out.push({ offset: i, text, framing: j < to && bytes[j] === 0 ? 'NUL-terminated' : 'none seen' });
    i = j;
  }
  return out;
}

/** Parse a TEXA v1 array held in memory. Throws `Arch06Error` naming file, offset and field. */
export function parseTexa(bytes: Uint8Array, file: string, options: ParseOptions = {}): TexaFile {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const version = expectMagicVersion(r, 'TEXA', [TEXA_VERSION], 'TEXA', { what: 'a TEXA texture array', magicField: 'magic', versionField: 'version' });
  const last = Math.min(bytes.length - 4, 8 + TEXA_DDS_SEARCH_LIMIT);
  const ddsOffset = r.findU32(DDS_MAGIC, 8, 8 + TEXA_DDS_SEARCH_LIMIT);
  if (ddsOffset < 0) {
    throw new Arch06Error('INVALID', `no "DDS " within ${TEXA_DDS_SEARCH_LIMIT} bytes of the TEXA header`, {
      file,
      offset: 8,
      field: 'dds.magic',
      expected: '"DDS " after the header and paths',
      actual: `none in bytes 8..${last + 4}`,
    });
  }
  r.skip(ddsOffset - 8, 'header');
  const dds = parseDds(bytes, file, ddsOffset, { spans: r.spans });
  const framed = framedPaths(r, 8, ddsOffset);
  const paths = framed ?? scannedPaths(bytes, 8, ddsOffset);
  const notes = [
    framed
      ? `TEXA v1 has no documented header layout (formats-public §11): the bytes before the DDS are kept raw; the paths read as ${framed[0].framing}-prefixed strings ending where the DDS starts (a hypothesis that fits this file; UNCERTAIN)`
      : 'TEXA v1 has no documented header layout (formats-public §11): the bytes before the DDS are kept raw and the paths were found by scanning for runs of path characters (UNCERTAIN)',
  ];
  if (!dds.dx10) notes.push('the DDS has no DX10 header; seed 004 says texture arrays carry one');
  let ownPath: string | undefined;
  let slicePaths: string[] | undefined;
  if (paths.length === dds.arraySize + 1) {
    ownPath = paths[0].text;
    slicePaths = paths.slice(1).map((p) => p.text);
    notes.push(`${paths.length} paths for ${dds.arraySize} slices: read as the array's own path, then one source per slice (seed 004's order)`);
  } else {
    notes.push(
      `${paths.length} path-like runs for ${dds.arraySize} slices: not the own path + one per slice the seed describes, so they are listed unassigned`,
    );
  }
  return {
    file,
    size: bytes.length,
    version,
    headerHex: hexBytes(bytes.subarray(8, ddsOffset), 256),
    headerBytes: ddsOffset - 8,
    paths,
    ownPath,
    slicePaths,
    ddsOffset,
    dds,
    confidence: 'uncertain',
    notes,
  };
}
