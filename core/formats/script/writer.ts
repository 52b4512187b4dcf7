/**
 * Writes SCRI scripts (./scri.ts) as the retail layers ship them: "SCRI", version 1, the u8 1, the
 * payload size, then the source as UTF-8 ending in one NUL byte. For tests and the sample install.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { tagValue } from '../../io/magic';
import { SCRI_HEADER_SIZE, SCRI_VERSION } from './scri';

export interface ScriWriterOptions {
  version?: number;
  /** The u8 @0x08 (1 in every sample). */
  flag?: number;
  /** End the payload with a NUL byte, as the retail scripts do (default true). */
  nulTerminated?: boolean;
}

/** A SCRI file holding `source` (text, or a payload given as bytes, e.g. bytecode). */
export function writeScri(source: string | Uint8Array, options: ScriWriterOptions = {}): Uint8Array {
  let payload: Uint8Array;
  if (typeof source === 'string') {
    if (source.includes('\0')) throw new Arch06Error('BAD_ARGUMENT', 'source text cannot hold NUL', { field: 'source' });
    const text = new TextEncoder().encode(source);
    payload = new Uint8Array(text.length + (options.nulTerminated === false ? 0 : 1));
    payload.set(text);
  } else payload = source;
  const w = new ByteWriter(SCRI_HEADER_SIZE + payload.length);
  w.u32(tagValue('SCRI'))
    .u32(options.version ?? SCRI_VERSION)
    .u8(options.flag ?? 1)
    .u32(payload.length)
    .bytes(payload);
  return w.toBytes();
}
