/**
 * Which level of a texture a preview shows: the largest that fits the box, so no resampling is
 * needed and the decode stays small (hover thumbnails, material maps).
 */
import type { DdsFile, DdsLevel } from '../formats/texture/dds';

/**
 * The largest level of `slice` whose longer side is at most `maxSide` pixels, so a preview or a
 * material map needs no resampling; undefined when even the smallest is larger (a .tex0 or
 * .texuhd tier can hold only its top mips) or the slice has no levels.
 */
export function largestLevelWithin(dds: DdsFile, maxSide: number, slice = 0): DdsLevel | undefined {
  let best: DdsLevel | undefined;
  for (const l of dds.levels) {
    if (l.slice !== slice || Math.max(l.width, l.height) > maxSide) continue;
    if (!best || l.width * l.height > best.width * best.height) best = l;
  }
  return best;
}
