/**
 * Writes SCRI scripts (./scri.ts) as the retail layers ship them: "SCRI", version 1, the u8 1, the
 * payload size, then the source as UTF-8 ending in one NUL byte. `rewriteScript` writes a script
 * as it was read, its header's fields kept and only the payload (and so its size) new: what saving
 * an edited script and the exact round trip use.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { tagValue } from '../../io/magic';
import { SCRI_HEADER_SIZE, SCRI_VERSION, ScriptFile } from './scri';

export interface ScriWriterOptions {
  version?: number;
  /** The u8 @0x08 (1 in every sample). */
  flag?: number;
  /** End the payload with a NUL byte, as the retail scripts do (default true). */
  nulTerminated?: boolean;
  /** How many NUL bytes end a source payload (overrides `nulTerminated`). */
  trailingNuls?: number;
  /** No SCRI header: the payload alone (a loose `.hks`-style source). */
  bare?: boolean;
}

/** A SCRI file holding `source` (text, or a payload given as bytes, e.g. bytecode). */
export function writeScri(source: string | Uint8Array, options: ScriWriterOptions = {}): Uint8Array {
  let payload: Uint8Array;
  if (typeof source === 'string') {
    if (source.includes('\0')) throw new Arch06Error('BAD_ARGUMENT', 'source text cannot hold NUL', { field: 'source' });
    const nuls = options.trailingNuls ?? (options.nulTerminated === false ? 0 : 1);
    if (!(Number.isSafeInteger(nuls) && nuls >= 0))
      throw new Arch06Error('BAD_ARGUMENT', 'the count of trailing NULs is a whole number', { field: 'trailingNuls', actual: String(nuls) });
    const text = new TextEncoder().encode(source);
    payload = new Uint8Array(text.length + nuls);
    payload.set(text);
  } else payload = source;
  if (options.bare) return Uint8Array.from(payload);
  const version = options.version ?? SCRI_VERSION;
  const flag = options.flag ?? 1;
  if (!(Number.isInteger(version) && version >= 0 && version <= 0xffffffff))
    throw new Arch06Error('BAD_ARGUMENT', 'the SCRI version is a u32', { field: 'version', actual: String(version) });
  if (!(Number.isInteger(flag) && flag >= 0 && flag <= 0xff))
    throw new Arch06Error('BAD_ARGUMENT', 'the SCRI u8 @0x08 is a byte', { field: 'flag', actual: String(flag) });
  if (payload.length > 0xffffffff) throw new Arch06Error('BAD_ARGUMENT', 'the payload size is a u32', { field: 'payload', actual: String(payload.length) });
  const w = new ByteWriter(SCRI_HEADER_SIZE + payload.length);
  w.u32(tagValue('SCRI')).u32(version).u8(flag).u32(payload.length).bytes(payload);
  return w.toBytes();
}

/**
 * `script` (a source script as read) written back with `source` (its own when not given): the
 * SCRI header's fields as read, or none for a bare payload; the payload size recomputed; as many
 * NULs after the source as the file had. Refused for compiled scripts (no source) and, without a
 * new source, for a source that is not valid UTF-8 (its text would not encode back to its bytes).
 */
export function rewriteScript(script: ScriptFile, source?: string): Uint8Array {
  if (script.kind !== 'source' || script.source === undefined)
    throw new Arch06Error('UNSUPPORTED_FORM', 'a compiled Havok Script has no source to write', { file: script.file, field: 'payload' });
  if (source === undefined && script.validUtf8 === false)
    throw new Arch06Error('UNSUPPORTED_FORM', 'the source is not valid UTF-8: its text would not write back to the same bytes', {
      file: script.file,
      field: 'payload',
    });
  return writeScri(source ?? script.source, {
    version: script.header?.version,
    flag: script.header?.flag,
    trailingNuls: script.trailingNuls ?? (script.nulTerminated ? 1 : 0),
    bare: script.header === undefined,
  });
}
