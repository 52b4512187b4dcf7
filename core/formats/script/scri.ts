/**
 * SCRI scripts (`.scripts`): a world part's Havok Script. formats-public §10 (S2 `scripts.hexpat`):
 *
 *   0x00  "SCRI" | u32 version | u8 (S2: "stringCount", first "unknown") | u32 payload size @0x09 (unaligned)
 *   0x0D  payload, exactly `size` bytes to the end of the file
 *
 * Checked on the four real scripts of `../shared/samples/real/Patch_00.arch06` (13-164 KB, see
 * formats-public "Checked on a retail archive"): version 1, the u8 is 1 in all four (kept raw,
 * meaning unknown), the size is the payload's length and the payload ends the file. The payload
 * is plain-text Havok Script source (ASCII, read as UTF-8) ending in one NUL byte, not bytecode.
 *
 * A payload starting `1B 4C 75 61 51 0E` ("\x1bLua", 0x51, format 14) would be compiled Havok
 * Script; no sample exists, so only its 14-byte header is read (S8 `ReadHeader`: signature,
 * version, format, endianness, int / size_t / instruction / number sizes, number type, flags,
 * one unknown byte) and the result says so ('uncertain').
 *
 * A file without the SCRI header is accepted as a bare payload (loose `.hks` sources, the sample
 * install's older scripts): bytecode when it starts with the Lua signature, else source text,
 * which must hold no NUL byte before its end (otherwise it is binary and refused as not a script).
 */
import { Arch06Error, hexBytes } from '../../errors';
import { Confidence } from '../../io/confidence';
import { FieldReader, ParseOptions } from '../../io/fieldReader';
import { expectMagicVersion, startsWithTag } from '../../io/magic';

export const SCRI_VERSION = 1;
/** Magic, version, the u8 and the size word. */
export const SCRI_HEADER_SIZE = 0x0d;
/** "\x1bLua": the signature of compiled Lua and Havok Script. */
export const LUA_SIGNATURE = [0x1b, 0x4c, 0x75, 0x61] as const;
export const HKS_VERSION_BYTE = 0x51;
export const HKS_FORMAT_BYTE = 0x0e;
export const HKS_HEADER_SIZE = 14;

export interface ScriptHeader {
  version: number;
  /** The u8 @0x08: 1 in every sample; S2 calls it "stringCount" (UNCERTAIN). */
  flag: number;
  /** u32 @0x09: the payload's length. */
  size: number;
}

/** The compiled Havok Script header (S8), as read; no sample exists (UNCERTAIN). */
export interface BytecodeHeader {
  version: number;
  format: number;
  /** 0 big-endian, 1 little-endian in Lua 5.1. */
  endianness: number;
  intSize: number;
  sizeTSize: number;
  instructionSize: number;
  numberSize: number;
  /** Lua 5.1's integral flag (0 = floating-point numbers). */
  numberType: number;
  flags: number;
  unknown: number;
}

export interface ScriptFile {
  file: string;
  size: number;
  /** The SCRI header, absent for a bare payload. */
  header?: ScriptHeader;
  payloadOffset: number;
  payloadSize: number;
  kind: 'source' | 'bytecode';
  /** The source text (kind 'source'), without the trailing NUL. */
  source?: string;
  /** Whether the source payload ends in a NUL byte (the retail scripts do). */
  nulTerminated?: boolean;
  /** How many NUL bytes end the source payload (1 in the retail scripts). */
  trailingNuls?: number;
  /** Whether the source bytes are valid UTF-8, so that `source` encodes back to them exactly. */
  validUtf8?: boolean;
  /** The bytecode header (kind 'bytecode'); the rest of the payload is not read. */
  bytecode?: BytecodeHeader;
  confidence: Confidence;
  notes: string[];
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true }); // a BOM is source bytes too: kept
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Read a script: a SCRI file or a bare payload. Throws typed `Arch06Error`s naming file, offset and field. */
export function parseScript(bytes: Uint8Array, file: string, options: ParseOptions = {}): ScriptFile {
  const r = new FieldReader(bytes, file, { spans: options.spans });
  const notes: string[] = [];
  let confidence: Confidence = 'confirmed';
  let header: ScriptHeader | undefined;
  if (startsWithTag(r, 'SCRI')) {
    const version = expectMagicVersion(r, 'SCRI', [SCRI_VERSION], 'SCRI', { what: 'a SCRI script', headerSize: SCRI_HEADER_SIZE });
    const flag = r.u8('header.flag');
    const sizeAt = r.pos;
    const size = r.u32('header.size');
    if (SCRI_HEADER_SIZE + size !== bytes.length) {
      throw new Arch06Error(SCRI_HEADER_SIZE + size > bytes.length ? 'TRUNCATED' : 'INVALID', 'the payload does not end exactly at the end of the file', {
        file,
        offset: sizeAt,
        field: 'header.size',
        expected: String(bytes.length - SCRI_HEADER_SIZE),
        actual: String(size),
      });
    }
    if (flag !== 1) {
      notes.push(`the u8 @0x08 is ${flag}; 1 in every sample (meaning unknown)`);
      confidence = 'uncertain';
    }
    header = { version, flag, size };
  } else {
    notes.push('no SCRI header: read as a bare payload');
  }
  const payloadOffset = r.pos;
  const payloadSize = bytes.length - payloadOffset;
  if (isBytecode(bytes, payloadOffset)) {
    const bytecode = readBytecodeHeader(r);
    notes.push('compiled Havok Script: only its header is read (S8; no sample exists, UNCERTAIN)');
    return { file, size: bytes.length, header, payloadOffset, payloadSize, kind: 'bytecode', bytecode, confidence: 'uncertain', notes };
  }
  const payload = r.bytesOf(payloadSize, 'payload');
  let textEnd = payload.length;
  while (textEnd > 0 && payload[textEnd - 1] === 0) textEnd--;
  const nul = payload.indexOf(0);
  if (nul >= 0 && nul < textEnd) {
    throw new Arch06Error(
      header ? 'INVALID' : 'BAD_MAGIC',
      header
        ? 'the source payload holds a NUL byte before its end (neither source text nor Havok Script bytecode)'
        : 'not a SCRI script, Havok Script bytecode or source text (a NUL byte inside)',
      {
        file,
        offset: payloadOffset + nul,
        field: 'payload',
        expected: header ? 'text, or 1B 4C 75 61 51 0E' : '"SCRI", 1B 4C 75 61 51 0E or text',
        actual: hexBytes(payload.subarray(Math.max(0, nul - 4), nul + 4)),
      },
    );
  }
  if (textEnd < payload.length - 1) notes.push(`${payload.length - textEnd} NUL bytes end the source (the retail scripts end with one)`);
  const text = payload.subarray(0, textEnd);
  let source: string;
  let validUtf8 = true;
  try {
    source = strictUtf8.decode(text);
  } catch {
    source = utf8.decode(text);
    validUtf8 = false;
    notes.push('the source is not valid UTF-8 (shown with U+FFFD where it breaks; written back only as bytes)');
  }
  return {
    file,
    size: bytes.length,
    header,
    payloadOffset,
    payloadSize,
    kind: 'source',
    source,
    nulTerminated: textEnd < payload.length,
    trailingNuls: payload.length - textEnd,
    validUtf8,
    confidence,
    notes,
  };
}

/** Whether the bytes at `at` begin the Lua signature (a cut signature counts: the header read then says TRUNCATED). */
function isBytecode(bytes: Uint8Array, at: number): boolean {
  if (at >= bytes.length) return false;
  for (let i = 0; i < LUA_SIGNATURE.length && at + i < bytes.length; i++) if (bytes[at + i] !== LUA_SIGNATURE[i]) return false;
  return true;
}

function readBytecodeHeader(r: FieldReader): BytecodeHeader {
  r.need(HKS_HEADER_SIZE, 'bytecode.header');
  r.skip(4, 'bytecode.signature');
  const vAt = r.pos;
  const version = r.u8('bytecode.version');
  const format = r.u8('bytecode.format');
  if (version !== HKS_VERSION_BYTE || format !== HKS_FORMAT_BYTE) {
    throw new Arch06Error('UNSUPPORTED_VERSION', 'compiled Lua, but not Havok Script (version 0x51, format 0x0E)', {
      file: r.file,
      offset: vAt,
      field: 'bytecode.version',
      expected: '51 0E',
      actual: hexBytes(Uint8Array.of(version, format)),
    });
  }
  return {
    version,
    format,
    endianness: r.u8('bytecode.endianness'),
    intSize: r.u8('bytecode.intSize'),
    sizeTSize: r.u8('bytecode.sizeTSize'),
    instructionSize: r.u8('bytecode.instructionSize'),
    numberSize: r.u8('bytecode.numberSize'),
    numberType: r.u8('bytecode.numberType'),
    flags: r.u8('bytecode.flags'),
    unknown: r.u8('bytecode.unknown'),
  };
}
