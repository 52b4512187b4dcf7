/** Every fuzz target, in the order a run takes them. */
import type { FuzzTarget } from '../target';
import { kraken, lzb16 } from './oodle';

export const TARGETS: readonly FuzzTarget[] = [kraken, lzb16];

export function targetByName(name: string): FuzzTarget {
  const t = TARGETS.find((x) => x.name === name);
  if (!t) throw new Error(`no fuzz target ${JSON.stringify(name)}: ${TARGETS.map((x) => x.name).join(', ')}`);
  return t;
}
