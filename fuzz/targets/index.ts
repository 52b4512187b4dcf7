/** Every fuzz target, in the order a run takes them. */
import type { FuzzTarget } from '../target';
import { archcfg, ltarChunks, ltarTables, pathIndex } from './archive';
import { kraken, lzb16 } from './oodle';
import { bcn, dds, texa, texr } from './texture';

export const TARGETS: readonly FuzzTarget[] = [ltarTables, ltarChunks, kraken, lzb16, archcfg, pathIndex, dds, texr, texa, bcn];

export function targetByName(name: string): FuzzTarget {
  const t = TARGETS.find((x) => x.name === name);
  if (!t) throw new Error(`no fuzz target ${JSON.stringify(name)}: ${TARGETS.map((x) => x.name).join(', ')}`);
  return t;
}
