/**
 * "Did you mean …": the defined name nearest to a bound name the script lacks, by edit distance
 * (Levenshtein, case-insensitive, as bindings are looked up), within a bound that grows with the
 * name: max(2, a quarter of its length), at most 12. A banded computation: a pair costs at most its
 * length times (2 × bound + 1) cells, and a pair whose lengths differ by more than the bound costs
 * nothing.
 */

/** Edits allowed for a name of `length` characters. */
export const maxEdits = (length: number): number => Math.min(12, Math.max(2, Math.floor(length / 4)));

/** The edit distance of `a` and `b` when it is at most `max`, else undefined. */
export function boundedDistance(a: string, b: string, max: number): number | undefined {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > max) return undefined;
  const far = max + 1;
  let prev = new Int32Array(n + 2).fill(far);
  let cur = new Int32Array(n + 2).fill(far);
  for (let j = 0; j <= Math.min(n, max); j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(n, i + max);
    // The cells just outside the band read as "too far" (the row before may have left values there).
    cur[lo - 1] = lo === 1 ? i : far;
    cur[hi + 1] = far;
    let best = cur[lo - 1];
    const c = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const v = Math.min(prev[j - 1] + (c === b.charCodeAt(j - 1) ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return undefined;
    [prev, cur] = [cur, prev];
  }
  return prev[n] <= max ? prev[n] : undefined;
}

/** The candidate nearest to `name` within `maxEdits(name.length)` edits (the first of equals), if any. */
export function nearestName(name: string, candidates: Iterable<string>): { name: string; distance: number } | undefined {
  const want = name.toLowerCase();
  let found: { name: string; distance: number } | undefined;
  let max = maxEdits(name.length);
  for (const c of candidates) {
    const d = boundedDistance(want, c.toLowerCase(), max);
    if (d === undefined || (found && d >= found.distance)) continue;
    found = { name: c, distance: d };
    max = d; // only a nearer one can replace it
  }
  return found;
}
