/**
 * The fuzz harness's randomness: one small seedable generator (mulberry32) and the helpers the
 * mutators draw from. Case `i` of target `t` under seed `s` draws from `caseRng(s, t, i)` alone, so
 * any case replays exactly from (seed, target, index), whatever ran before it.
 */

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
}

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, chance: (p) => next() < p, pick: (list) => list[int(list.length)] };
}

/** FNV-1a of a name, so each target draws its own stream from one run seed. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The generator of case `index` of `target` under the run seed `seed`. */
export function caseRng(seed: number, target: string, index: number): Rng {
  return rng((seed ^ nameHash(target) ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0);
}

/** A seed for a run nobody asked to replay: from the clock and the process. */
export function freshSeed(): number {
  return (Date.now() ^ (process.pid << 16) ^ Math.floor(Math.random() * 0x10000)) >>> 0;
}
