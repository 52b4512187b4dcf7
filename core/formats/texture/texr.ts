/**
 * TEXR v8 texture (`.tex`, `.tex0`, `.texuhd`): a header, then a verbatim DDS file.
 * Layout from formats-public §4 (S2 `tex.hexpat`, one sample: fellbeast_body_d.tex) and seed 004
 * "Textures (TEXR v8)" / "Tiers":
 *
 *   0x00  "TEXR" ("RXET" = big-endian console file, S3: refused)
 *   0x04  u32 version = 8 (the loader accepts TEXR 8 and SLVT 4: seed 004)
 *   0x08  u32 unk1        UNCERTAIN (sample 0C 0B 00 0D: 12 = DDS mips, 13 = high-res mips? guess)
 *   0x0C  u32 unk2        UNCERTAIN (sample 01 02 00 00)
 *   0x10  u16 pathLen
 *   0x12  char[pathLen]   the tier name field, not NUL-terminated. Seed 004: a .tex names its
 *                         .tex0 (the sample: "...fellbeast_body_d.tex0") or itself, a .tex0/.texuhd
 *                         names its .tex, world textures leave it empty
 *   P     u8 unk3         UNCERTAIN (sample 3)          P = 0x12 + pathLen
 *   P+1   u16 width, u16 height: S2's "higherResolution" (sample 4096x2048 = 2x the DDS)
 *   P+5   unknown bytes up to the DDS: UNCERTAIN, kept raw (sample: 18 bytes; a guess reads a
 *         u32 DXGI format 77 = BC3_UNORM at P+9)
 *   P+23  "DDS " + header + levels, to the end of the file (the documented position; found by
 *         searching forward from P+5, bounded by TEXR_DDS_SEARCH_LIMIT)
 *
 * Seed 004: the stored DXGI format is always UNORM; an sRGB flag elsewhere marks colour
 * textures (its position is not known, so it is not decoded here). Normal maps keep X in green
 * and Y in alpha.
 *
 * SLVT v4 (seed 004: "a small header that wraps a TEXR"; no layout is documented): "SLVT",
 * u32 version 4, then the TEXR is found by searching for "TEXR" within SLVT_TEXR_SEARCH_LIMIT
 * bytes; the TEXR is taken to run to the end of the file (UNCERTAIN).
 */
import { Arch06Error, hexBytes } from '../../errors';
import { DDS_MAGIC, DdsFile, parseDds } from './dds';
import { TEXA_MAGIC, TexaFile, parseTexa } from './texa';
import { Confidence } from '../../io/confidence';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion, startsWithTag } from '../../io/magic';

export const TEXR_MAGIC = 0x52584554; // "TEXR" little-endian
export const TEXR_VERSION = 8;
export const SLVT_MAGIC = 0x54564c53; // "SLVT"
export const SLVT_VERSION = 4;
/** Offset of pathLen in a TEXR header. */
export const TEXR_PATH_LENGTH_OFFSET = 0x10;
/** The DDS follows P + 23 in the one sample (formats-public §4). */
const TEXR_DDS_DOCUMENTED_DELTA = 23;
/** The first byte searched for "DDS ": after the dimension pair, P + 5. */
const TEXR_DDS_SEARCH_DELTA = 5;
/** How far past P + 5 the "DDS " search looks. */
const TEXR_DDS_SEARCH_LIMIT = 256;
/** How far into an SLVT the "TEXR" search looks. */
const SLVT_TEXR_SEARCH_LIMIT = 4096;

/** One header field with its raw value and how sure its meaning is. */
export interface TexrField {
  name: string;
  offset: number;
  length: number;
  /** Hex of the raw bytes. */
  raw: string;
  value?: number | string;
  certainty: Confidence;
  note?: string;
}

export type TexrTier = 'tex' | 'tex0' | 'texuhd' | 'texa' | 'other' | 'empty';

export interface TexrFile {
  file: string;
  size: number;
  /** Whether the file was a bare TEXR or an SLVT wrapping one. */
  container: 'TEXR' | 'SLVT';
  slvt?: { version: number; texrOffset: number; headerBytes: string; certainty: Confidence };
  /** Absolute offset of "TEXR". */
  texrOffset: number;
  version: number;
  /** UNCERTAIN raw words at +0x08 and +0x0C. */
  unk1: number;
  unk2: number;
  /** The name field (latin1) and the tier its extension names. */
  path: string;
  tierName: { path: string; tier: TexrTier };
  unk3: number;
  /** The dimension pair after the path (S2: "higherResolution"). */
  width: number;
  height: number;
  /** UNCERTAIN bytes between the dimension pair and the DDS, raw. */
  unk4: Uint8Array;
  /** Absolute offset of "DDS ". */
  ddsOffset: number;
  dds: DdsFile;
  /** Every header field, raw, with its certainty. */
  fields: TexrField[];
  confidence: Confidence;
  notes: string[];
}

const td = new TextDecoder('latin1');

/** The tier a name field's extension names (seed 004 "Tiers"). */
export function tierOf(path: string): TexrTier {
  if (path.length === 0) return 'empty';
  const leaf = path.slice(Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1).toLowerCase();
  const dot = leaf.lastIndexOf('.');
  const ext = dot < 0 ? '' : leaf.slice(dot + 1);
  return ext === 'tex' || ext === 'tex0' || ext === 'texuhd' || ext === 'texa' ? ext : 'other';
}

/**
 * Parse a TEXR v8 texture, or an SLVT v4 wrapping one, held in memory. Throws `Arch06Error`
 * (TRUNCATED, BAD_MAGIC, UNSUPPORTED_VERSION, INVALID, OUT_OF_RANGE) naming the file, offset
 * and field; the embedded DDS is parsed and its whole level table checked.
 */
export function parseTexr(bytes: Uint8Array, file: string, options: ParseOptions = {}): TexrFile {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  return bytes.length > 0 && startsWithTag(r, 'SLVT') ? parseSlvt(r) : parseTexrAt(r, 0);
}

function parseSlvt(r: FieldReader): TexrFile {
  const { bytes, file } = r;
  const version = expectMagicVersion(r, 'SLVT', [SLVT_VERSION], 'SLVT', { magicField: 'magic', versionField: 'slvt.version' });
  const at = r.findU32(TEXR_MAGIC, 8, 8 + SLVT_TEXR_SEARCH_LIMIT);
  if (at < 0) {
    throw new Arch06Error('INVALID', `no "TEXR" inside the SLVT within ${SLVT_TEXR_SEARCH_LIMIT} bytes`, {
      file,
      offset: 8,
      field: 'slvt.texr',
      expected: '"TEXR"',
      actual: `none in bytes 8..${Math.min(bytes.length, 8 + SLVT_TEXR_SEARCH_LIMIT + 4)}`,
    });
  }
  r.skip(at - r.pos, 'slvt.header');
  const t = parseTexrAt(r, at);
  t.container = 'SLVT';
  t.slvt = { version, texrOffset: at, headerBytes: hexBytes(bytes.subarray(0, at), 64), certainty: 'uncertain' };
  t.confidence = 'uncertain';
  t.notes.unshift(
    `SLVT v4 wrapper: its ${at}-byte header is undocumented; the TEXR was found by searching and is taken to run to the end of the file (UNCERTAIN)`,
  );
  return t;
}

function parseTexrAt(r: FieldReader, base: number): TexrFile {
  const { bytes, file } = r;
  r.pos = base;
  const version = expectMagicVersion(r, 'TEXR', [TEXR_VERSION], 'TEXR', {
    what: 'a TEXR texture',
    magicField: 'magic',
    versionField: 'version',
    bigEndian: 'TEXR textures',
  });
  const unk1 = r.u32('unk1');
  const unk2 = r.u32('unk2');
  const lenAt = r.pos;
  const pathLength = r.u16('pathLength');
  const pathAt = r.pos;
  const pathBytes = r.bytesOf(pathLength, 'path');
  const path = td.decode(pathBytes);
  const P = r.pos;
  const unk3 = r.u8('unk3');
  const width = r.u16('width');
  const height = r.u16('height');

  const searchFrom = P + TEXR_DDS_SEARCH_DELTA;
  r.need(4, 'dds.magic');
  const ddsOffset = r.findU32(DDS_MAGIC, searchFrom, searchFrom + TEXR_DDS_SEARCH_LIMIT);
  if (ddsOffset < 0 && bytes.length < P + TEXR_DDS_DOCUMENTED_DELTA + 4) {
    throw new Arch06Error('TRUNCATED', 'file ends before the DDS (documented at P + 23)', {
      file,
      offset: searchFrom,
      field: 'dds.magic',
      expected: `"DDS " at 0x${(P + TEXR_DDS_DOCUMENTED_DELTA).toString(16)}`,
      actual: `${bytes.length - searchFrom} bytes after the dimension pair`,
    });
  }
  if (ddsOffset < 0) {
    throw new Arch06Error('INVALID', `no "DDS " within ${TEXR_DDS_SEARCH_LIMIT} bytes after the dimension pair`, {
      file,
      offset: searchFrom,
      field: 'dds.magic',
      expected: `"DDS " at 0x${(P + TEXR_DDS_DOCUMENTED_DELTA).toString(16)} (P + 23) or soon after`,
      actual: `bytes ${hexBytes(bytes.subarray(searchFrom, searchFrom + 24), 24)}`,
    });
  }
  const unk4 = Uint8Array.from(r.bytesOf(ddsOffset - searchFrom, 'unk4'));
  const dds = parseDds(bytes, file, ddsOffset, { spans: r.spans });

  const notes: string[] = [];
  let confidence: Confidence = 'confirmed';
  if (ddsOffset !== P + TEXR_DDS_DOCUMENTED_DELTA) {
    confidence = 'uncertain';
    notes.push(`"DDS " at P + ${ddsOffset - P}, not at the documented P + 23 (the unknown block is ${unk4.length} bytes, not 18)`);
  }
  if (pathLength > 0 && pathBytes.includes(0)) {
    confidence = 'uncertain';
    notes.push('the name field holds a NUL byte (the one sample has none)');
  }
  const tier = tierOf(path);
  if (tier === 'other') notes.push(`the name field ${JSON.stringify(path)} names no texture tier (.tex, .tex0, .texuhd)`);
  notes.push('unk1, unk2, unk3 and the bytes between the dimension pair and the DDS are UNCERTAIN (one sample, formats-public §4); they are kept raw');
  if (width && height && dds.width && (width % dds.width !== 0 || height % dds.height !== 0 || width / dds.width !== height / dds.height)) {
    notes.push(`the dimension pair ${width}x${height} is not a power-of-two multiple of the DDS ${dds.width}x${dds.height} (the sample has 2x)`);
  }
  // The guess of formats-public §4 for the unknown block, reported next to the raw bytes.
  let guess = '';
  if (unk4.length >= 8) {
    const g = r.u32At(searchFrom + 4, 'unk4.guess.dxgi');
    guess = `guess (formats-public §4): u16 ${r.u16At(searchFrom, 'unk4.guess.depth')} (depth/array?), u8 ${unk4[2]} (high-res mip count?), u8 ${unk4[3]}, u32 ${g} (DXGI format?${dds.dx10 || dds.format.dxgi !== undefined ? `; the DDS is ${dds.format.dxgi ?? '?'} ${dds.format.name}` : ''})`;
  }

  const raw = (o: number, n: number): string => hexBytes(bytes.subarray(o, o + n), 64);
  const fields: TexrField[] = [
    { name: 'magic', offset: base, length: 4, raw: raw(base, 4), value: 'TEXR', certainty: 'confirmed' },
    { name: 'version', offset: base + 4, length: 4, raw: raw(base + 4, 4), value: version, certainty: 'confirmed' },
    {
      name: 'unk1',
      offset: base + 8,
      length: 4,
      raw: raw(base + 8, 4),
      value: unk1,
      certainty: 'uncertain',
      note: `bytes ${bytes[base + 8]}, ${bytes[base + 9]}, ${bytes[base + 10]}, ${bytes[base + 11]}; guess: byte 0 = DDS mip count (${dds.mipCount}), byte 3 = high-res mip count`,
    },
    { name: 'unk2', offset: base + 12, length: 4, raw: raw(base + 12, 4), value: unk2, certainty: 'uncertain' },
    { name: 'pathLength', offset: lenAt, length: 2, raw: raw(lenAt, 2), value: pathLength, certainty: 'confirmed' },
    {
      name: 'path',
      offset: pathAt,
      length: pathLength,
      raw: raw(pathAt, pathLength),
      value: path,
      certainty: 'confirmed',
      note: 'tier name field (seed 004): a .tex names its .tex0 or itself; .tex0/.texuhd name their .tex; empty under worlds\\',
    },
    { name: 'unk3', offset: P, length: 1, raw: raw(P, 1), value: unk3, certainty: 'uncertain' },
    {
      name: 'width',
      offset: P + 1,
      length: 2,
      raw: raw(P + 1, 2),
      value: width,
      certainty: 'confirmed',
      note: 'S2 "higherResolution": 2x the DDS in the sample',
    },
    { name: 'height', offset: P + 3, length: 2, raw: raw(P + 3, 2), value: height, certainty: 'confirmed' },
    { name: 'unk4', offset: searchFrom, length: unk4.length, raw: raw(searchFrom, unk4.length), certainty: 'uncertain', note: guess || undefined },
    { name: 'dds', offset: ddsOffset, length: bytes.length - ddsOffset, raw: raw(ddsOffset, 4), value: 'DDS ', certainty: 'confirmed' },
  ];
  return {
    file,
    size: bytes.length,
    container: 'TEXR',
    texrOffset: base,
    version,
    unk1,
    unk2,
    path,
    tierName: { path, tier },
    unk3,
    width,
    height,
    unk4,
    ddsOffset,
    dds,
    fields,
    confidence,
    notes,
  };
}

/** A texture held in memory: a TEXR / SLVT (`texr` set) or a bare DDS. */
export interface TextureFile {
  texr?: TexrFile;
  texa?: TexaFile;
  dds: DdsFile;
  /** The input: the bytes `dds`'s offsets (levels, dataOffset) refer to. */
  bytes: Uint8Array;
  /** The DDS file's own bytes (for a TEXR, the embedded DDS: a view into `bytes`). */
  ddsBytes: Uint8Array;
}

/** Parse a .tex / .tex0 / .texuhd (TEXR or SLVT), a .texa* (TEXA) or a .dds, chosen by the magic. */
export function parseTextureFile(bytes: Uint8Array, file: string): TextureFile {
  const magic = new FieldReader(bytes, file).peekU32(0);
  if (magic === DDS_MAGIC) {
    const dds = parseDds(bytes, file, 0);
    return { dds, bytes, ddsBytes: bytes };
  }
  if (magic === TEXA_MAGIC) {
    const texa = parseTexa(bytes, file);
    return { texa, dds: texa.dds, bytes, ddsBytes: bytes.subarray(texa.ddsOffset) };
  }
  const texr = parseTexr(bytes, file);
  return { texr, dds: texr.dds, bytes, ddsBytes: bytes.subarray(texr.ddsOffset) };
}
