/**
 * Writes BNDL v6 manifests (./bndl.ts) whose path area is the pool `writeEmbb` writes for the
 * same paths (./pathPool.ts), so a manifest mirrors its container: for tests and the sample.
 */
import { Arch06Error } from '../../errors';
import { ByteWriter } from '../../io/byteWriter';
import { BNDL_MAGIC, BNDL_MANIFEST_HEADER_SIZE, BNDL_VERSION, BndlManifest } from './bndl';
import { PathPoolOptions, buildPathPool, checkMemberPath } from './pathPool';

export interface BndlWriterMember {
  path: string;
  /** Declared size: the payload's length in the container. */
  size: number;
}

/**
 * A v6 manifest for `members` (in order) of type `typeString`. Its path area is the pool
 * `writeEmbb` writes for the same paths, with the same offsets, so the manifest mirrors that
 * container: 16 + path area + 4n + sum(4 + size[i]) equals the container's length.
 * A bundle with no members has count 0, as the memberless retail manifests do. `options.sharePaths`
 * lets members share one path string (see `PathPoolOptions`), for crafted files.
 */
export function writeBndl(typeString: string, members: BndlWriterMember[], options: PathPoolOptions = {}): Uint8Array {
  if (typeString.length > 0) checkMemberPath(typeString, 'type');
  const { pool, offsets } = buildPathPool(
    members.map((m) => m.path),
    options,
  );
  members.forEach((m, i) => {
    if (!(Number.isInteger(m.size) && m.size >= 0 && m.size <= 0xffffffff)) {
      throw new Arch06Error('BAD_ARGUMENT', 'declared sizes are u32', { field: `member[${i}].size`, actual: String(m.size) });
    }
  });
  const n = members.length;
  const typeField = Math.ceil((typeString.length + 1) / 4) * 4; // NUL-terminated, NUL-padded to 4
  const poolStart = BNDL_MANIFEST_HEADER_SIZE + 4 * n;
  const typeOffset = pool.length;
  const tableOffset = typeOffset + typeField;
  const w = new ByteWriter(poolStart + tableOffset + 4 * n).u32(BNDL_MAGIC).u32(BNDL_VERSION).u32(typeOffset).u32(tableOffset).u32(n);
  for (const m of members) w.u32(m.size);
  w.bytes(pool)
    .latin1(typeString)
    .zeros(typeField - typeString.length);
  for (const o of offsets) w.u32(o);
  return w.toBytes();
}

/**
 * A manifest as read (`parseBndl`), written back: header words, the declared sizes (which an edit
 * may have changed), the pool and whatever follows the path-offset table verbatim, the offsets as
 * read. An unedited manifest comes back byte for byte.
 */
export function rewriteBndl(manifest: BndlManifest): Uint8Array {
  const n = manifest.members.length;
  const w = new ByteWriter(BNDL_MANIFEST_HEADER_SIZE + 4 * n + manifest.rawPool.length + 4 * n + manifest.rawTail.length)
    .u32(BNDL_MAGIC)
    .u32(manifest.version)
    .u32(manifest.typeOffset)
    .u32(manifest.tableOffset)
    .u32(n);
  manifest.members.forEach((m, i) => {
    if (!(Number.isInteger(m.declaredSize) && m.declaredSize >= 0 && m.declaredSize <= 0xffffffff))
      throw new Arch06Error('BAD_ARGUMENT', 'declared sizes are u32', { file: manifest.file, field: `member[${i}].size`, actual: String(m.declaredSize) });
    w.u32(m.declaredSize);
  });
  w.bytes(manifest.rawPool);
  for (const m of manifest.members) w.u32(m.pathOffset);
  return w.bytes(manifest.rawTail).toBytes();
}
