/**
 * Writes EMBB v5 containers with the retail path table (./pathPool.ts) and payloads back to back,
 * as ./embb.ts reads them: for tests and the embedded sample install.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { EMBB_HEADER_SIZE, EMBB_MAGIC, EMBB_VERSION } from './embb';
import { PathPoolOptions, buildPathPool } from './pathPool';

export interface EmbbWriterMember {
  path: string;
  bytes: Uint8Array;
}

/** A v5 container holding `members` in order, with the retail path table (`options.sharePaths`: see `PathPoolOptions`). */
export function writeEmbb(members: EmbbWriterMember[], options: PathPoolOptions = {}): Uint8Array {
  const { pool, offsets } = buildPathPool(
    members.map((m) => m.path),
    options,
  );
  members.forEach((m, i) => {
    if (m.bytes.length > 0xffffffff)
      throw new Arch06Error('BAD_ARGUMENT', 'a member holds at most 0xFFFFFFFF bytes (u32 size word)', {
        field: `member[${i}].bytes`,
        actual: String(m.bytes.length),
      });
  });
  const size = EMBB_HEADER_SIZE + pool.length + 4 * members.length + members.reduce((n, m) => n + 4 + m.bytes.length, 0);
  const w = new ByteWriter(size).u32(EMBB_MAGIC).u32(EMBB_VERSION).u32(pool.length).u32(members.length).bytes(pool);
  for (const o of offsets) w.u32(o);
  for (const m of members) w.u32(m.bytes.length).bytes(m.bytes); // no padding between payloads (seed 004)
  return w.toBytes();
}
