/**
 * A BNDL manifest against its EMBB container (./bndl.ts has the layout and the identity as the
 * retail files show it): whether the manifest mirrors the container, members declared with size 0
 * left out as retail containers leave them out.
 */
import { BndlManifest } from './bndl';
import { EmbbContainer } from './embb';
import { cutSlots } from './pathPool';

export interface MirrorCheck {
  /**
   * Path area, offsets, sizes and length all agree, the members declared with size 0 left out as
   * the retail containers leave them out (seed 004's 186,478 of 190,407 pairs; the four retail
   * layers of Patch_00.arch06).
   */
  mirrors: boolean;
  /** The container-size identity over the stored members (./bndl.ts) holds. */
  identityHolds: boolean;
  /** Members declared with size 0, which a mirrored container does not store. */
  notStored: number;
  /** Why `mirrors` is false, in words. */
  differences: string[];
}

/** The path area as a mirrored container's pool holds it (the not-stored slots cut out), and where each stored offset lands. */
function storedPathArea(manifest: BndlManifest): { pool: Uint8Array; offsetOf: (pathOffset: number) => number } {
  const slots = cutSlots(
    manifest.members.map((m) => m.pathOffset),
    manifest.notStored,
    manifest.pathAreaSize,
  );
  if (slots.length === 0) return { pool: manifest.pathArea, offsetOf: (o) => o };
  const area = manifest.pathArea; // shorter than pathAreaSize only in a cut file: pieces are clamped to it
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const s of slots) {
    pieces.push(area.subarray(Math.min(from, area.length), Math.min(s.start, area.length)));
    from = s.end;
  }
  pieces.push(area.subarray(Math.min(from, area.length)));
  const pool = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let to = 0;
  for (const p of pieces) {
    pool.set(p, to);
    to += p.length;
  }
  // Bytes cut before each slot's end, for a binary search: a crafted manifest may cut 50,000 slots.
  const cutBefore: number[] = [];
  let total = 0;
  for (const s of slots) cutBefore.push((total += s.end - s.start));
  const offsetOf = (o: number): number => {
    let lo = 0;
    let hi = slots.length; // the first slot not ending at or before o
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (slots[mid].end <= o) lo = mid + 1;
      else hi = mid;
    }
    return o - (lo ? cutBefore[lo - 1] : 0);
  };
  return { pool, offsetOf };
}

/**
 * Compare a manifest with a (single-block) container, as seed 004 does for every pair, with the
 * retail rule that a member declared with size 0 is not stored (its path slot, offset and size
 * word absent): the container's members are then the manifest's other members, in order.
 */
export function checkMirror(manifest: BndlManifest, container: EmbbContainer): MirrorCheck {
  const differences: string[] = [];
  const identityHolds = manifest.predictedContainerSize === container.size;
  if (!identityHolds) differences.push(`predicted container size ${manifest.predictedContainerSize}, actual ${container.size}`);
  if (container.blocks.length !== 1) differences.push(`container has ${container.blocks.length} blocks`);
  const block = container.blocks[0];
  const notStored = new Set(manifest.notStored);
  const stored = manifest.members.filter((_, i) => !notStored.has(i));
  if (stored.length !== container.members.length) {
    const empty = notStored.size ? ` (${notStored.size} of them declared with 0 bytes, which a container does not store)` : '';
    differences.push(`manifest declares ${manifest.members.length} members${empty}, container holds ${container.members.length}`);
  }
  const expected = storedPathArea(manifest);
  if (block && !bytesEqual(expected.pool, block.pathPool))
    differences.push(
      notStored.size
        ? "path area (less the paths of the 0-byte members) differs from the container's path pool"
        : "path area differs from the container's path pool",
    );
  const n = Math.min(stored.length, container.members.length);
  let offsets = 0;
  let sizes = 0;
  for (let i = 0; i < n; i++) {
    if (expected.offsetOf(stored[i].pathOffset) !== container.members[i].pathOffset) offsets++;
    if (stored[i].declaredSize !== container.members[i].size) sizes++;
  }
  if (offsets) differences.push(`${offsets} path offsets differ`);
  if (sizes) differences.push(`${sizes} declared sizes differ from the payload sizes`);
  return { mirrors: differences.length === 0, identityHolds, notStored: notStored.size, differences };
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
