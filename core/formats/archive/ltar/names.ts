/**
 * Where names in an LTAR name pool end, and whether they hold a byte no path segment may hold,
 * in work linear in the tables whatever they claim. A name is scanned from its offset up to the
 * longest path the tool accepts (MAX_GAME_PATH_BYTES): real names end well before, so a real
 * archive costs one look at each name's bytes. Only when some name runs past that bound (a
 * crafted pool: thousands of records pointing into one huge string) is a table of every
 * position's next NUL built, once, so no name is ever scanned twice to its far end.
 */
import { MAX_GAME_PATH_BYTES } from '../../../io/safeName';

/** Separators, the colon and control characters: bytes no name may hold (NUL ends it). */
const isForbidden = (c: number): boolean => c < 0x20 || c === 0x7f || c === 0x2f || c === 0x5c || c === 0x3a;

export class NameEnds {
  private nextNul: Int32Array | undefined;
  /** After `end(s)`: the first forbidden byte's position in that name, or -1. */
  forbiddenAt = -1;

  /** `pool` must hold a NUL after every offset asked about (the reader validates that first). */
  constructor(private readonly pool: Uint8Array) {}

  /** The position of the NUL that ends the name at `s`; sets `forbiddenAt`. */
  end(s: number): number {
    const pool = this.pool;
    this.forbiddenAt = -1;
    const limit = Math.min(pool.length, s + MAX_GAME_PATH_BYTES + 1);
    for (let p = s; p < limit; p++) {
      const c = pool[p]!;
      if (c === 0) return p;
      if (this.forbiddenAt < 0 && isForbidden(c)) this.forbiddenAt = p;
    }
    // Longer than any path: such a name is refused anyway, its exact end comes from the table.
    return this.table()[s]!;
  }

  private table(): Int32Array {
    if (!this.nextNul) {
      const pool = this.pool;
      const t = new Int32Array(pool.length + 1);
      t[pool.length] = pool.length;
      for (let p = pool.length - 1; p >= 0; p--) t[p] = pool[p] === 0 ? p : t[p + 1]!;
      this.nextNul = t;
    }
    return this.nextNul;
  }
}
