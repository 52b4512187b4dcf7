/**
 * What a fuzz target is: the seeds it starts from (the project's writers and the real samples,
 * each parsed once with `spans` so mutations know its fields), how a seed is mutated, and what a
 * case runs (the reader and what stands on it: models, texts, decoded levels). A case is built
 * from (run seed, target, index) alone, so it replays exactly.
 */
import { Arch06Error } from '../core/errors';
import type { FieldSpan } from '../core/io';
import { mutateBytes, type Mutated, type Seed } from './mutate';
import { caseRng, type Rng } from './random';

export type { Seed };

export interface FuzzCase {
  target: string;
  index: number;
  seed: Seed;
  bytes: Uint8Array;
  /** Text targets: the mutated text (it may hold lone surrogates, which its UTF-8 `bytes` cannot). */
  text?: string;
  label: string;
  /** Draws for choices made while running (offsets a request asks at, a raw size). */
  rnd: Rng;
  /** Target-specific choices made with the mutation. */
  param?: unknown;
}

export interface FuzzTarget {
  name: string;
  /** One line: what the target reads and what it runs on top. */
  covers: string;
  /** The seeds, built once per worker. */
  seeds(): Seed[] | Promise<Seed[]>;
  /** Mutate one seed (default: `mutateBytes`, field lies first). */
  mutate?(seed: Seed, rnd: Rng, seeds: readonly Seed[]): Mutated & { param?: unknown };
  /** Run the case; return what it built, so the memory measure sees it alive. */
  run(c: FuzzCase): unknown;
  /** The input size the memory figure is held to (default: the case's byte length). */
  memoryBasis?(c: FuzzCase): number;
}

/** A broken promise that is no exception: engines that disagree, writes outside a range. */
export class FuzzInvariant extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FuzzInvariant';
  }
}

/** A target's seeds, each held in a plain array of its own (a Buffer's `slice` shares memory, and seeds must stay as built). */
export async function loadSeeds(target: FuzzTarget): Promise<Seed[]> {
  const seeds = await target.seeds();
  for (const s of seeds) s.bytes = new Uint8Array(s.bytes);
  return seeds;
}

/** Case `index` of `target` under run seed `runSeed`. */
export function makeCase(target: FuzzTarget, seeds: readonly Seed[], runSeed: number, index: number): FuzzCase {
  const rnd = caseRng(runSeed, target.name, index);
  const seed = rnd.pick(seeds);
  // One seed in 50 runs unmutated: the valid input must keep succeeding.
  const m: Mutated & { param?: unknown } =
    rnd.chance(0.02) && !target.mutate ? { bytes: seed.bytes, label: `${seed.name} unchanged` } : (target.mutate ?? mutateBytes)(seed, rnd, seeds);
  return { target: target.name, index, seed, bytes: m.bytes, text: m.text, label: m.label, rnd, param: m.param };
}

/**
 * A seed with the fields its reader records: `parse` runs with a span list; a reader that fails on
 * the seed (it should not) still leaves the fields it read.
 */
export function withFields(name: string, bytes: Uint8Array, parse: (bytes: Uint8Array, spans: FieldSpan[]) => unknown): Seed {
  const spans: FieldSpan[] = [];
  try {
    parse(bytes, spans);
  } catch (e) {
    if (!(e instanceof Arch06Error)) throw e;
  }
  return { name, bytes, fields: spans };
}

/** A text seed (no fields: text mutations know the language instead). */
export const textSeed = (name: string, text: string): Seed => ({ name, bytes: Buffer.from(text, 'utf8') });
