/**
 * A manifest with some declared sizes changed and every other byte kept: what a patch ships when
 * it replaces a member with a copy of another size (seed 004 "Standalone against embedded": the
 * winning desert.bndl declares exactly the size of the loose desert.objres the game uses). The
 * v6 manifest keeps its sizes as u32[count] at 0x14 (./bndl.ts), so the patch is those words only.
 */
import { Arch06Error } from '../../errors';
import { BNDL_MANIFEST_HEADER_SIZE, parseBndl } from './bndl';

/** `bytes` (a v6 manifest) with the declared size of each member path in `sizes` (case-insensitive) replaced. */
export function patchDeclaredSizes(
  bytes: Uint8Array,
  file: string,
  sizes: ReadonlyMap<string, number>,
): { bytes: Uint8Array; changed: { path: string; from: number; to: number }[] } {
  const manifest = parseBndl(bytes, file);
  if (manifest.variant !== 'manifest') throw new Arch06Error('UNSUPPORTED_FORM', 'not a v6 manifest: its sizes cannot be patched', { file });
  const wanted = new Map([...sizes].map(([p, s]) => [p.replace(/\//g, '\\').toLowerCase(), s]));
  const out = new Uint8Array(bytes);
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const changed: { path: string; from: number; to: number }[] = [];
  manifest.members.forEach((m, i) => {
    const to = wanted.get(m.path.toLowerCase());
    if (to === undefined || to === m.declaredSize) return;
    if (!(Number.isInteger(to) && to >= 0 && to <= 0xffffffff))
      throw new Arch06Error('BAD_ARGUMENT', 'declared sizes are u32', { file, field: `member[${i}].size`, actual: String(to) });
    dv.setUint32(BNDL_MANIFEST_HEADER_SIZE + 4 * i, to, true);
    changed.push({ path: m.path, from: m.declaredSize, to });
  });
  return { bytes: out, changed };
}
