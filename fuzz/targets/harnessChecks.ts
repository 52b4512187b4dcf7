/**
 * Targets that misbehave on purpose, to check the harness itself (fuzz/fuzz.test.ts): one case
 * hangs, one exhausts the heap, one throws an untyped error, one kills its worker, one keeps more
 * alive than the figure allows, one breaks an invariant. They are not in the run's target list.
 */
import { Arch06Error } from '../../core/errors';
import { type FuzzTarget, FuzzInvariant } from '../target';

const kept: Uint8Array[] = [];

/** What case `index` of the misbehaving target does (its other cases succeed or end in a typed error). */
function misbehave(index: number): unknown {
  switch (index) {
    case 1:
      throw new TypeError('an untyped error');
    case 2: {
      const grow: unknown[] = [];
      for (;;) grow.push({ a: new Array(1000).fill(index) });
    }
    case 3:
      for (;;);
    case 4:
      throw new FuzzInvariant('a promise broken');
    case 5:
      kept.push(new Uint8Array(48 << 20).fill(1));
      return kept;
    case 6:
      process.exit(3);
      break;
    case 7:
      throw new Arch06Error('INVALID', 'a typed error', { file: 'check' });
  }
  return index;
}

export const HARNESS_CHECKS: readonly FuzzTarget[] = [
  {
    name: 'harness-check',
    covers: 'the harness: one case of each outcome',
    seeds: () => [{ name: 'nothing', bytes: new Uint8Array(16) }],
    mutate: (seed) => ({ bytes: seed.bytes, label: 'as is' }),
    run: (c) => misbehave(c.index),
  },
];
