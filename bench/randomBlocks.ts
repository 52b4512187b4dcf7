/** Deterministic pseudo-random bytes (xorshift): BCn "blocks" that exercise every decoder path. */
export function randomBlocks(bytes: number, seed: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
