/**
 * Fuzzy path filtering for "Go to File" over every path of a mount (431,226 in the game): the
 * query's characters must appear in order; matches are ranked by where and how they match,
 * roughly as VS Code's Quick Open does (a match in the file name beats one in the folders,
 * contiguous runs and word starts beat scattered letters, shorter paths break ties).
 *
 * Speed: a query that extends the previous one only re-filters the previous matches; each
 * candidate is scored in the same pass that tests it, cheapest tests first.
 */

export interface FuzzyMatch {
  /** Index into the path list. */
  index: number;
  score: number;
  /** Matched character positions in the path (for highlights). */
  positions: number[];
}

export class FuzzyIndex {
  private readonly lower: string[];
  /** Where each path's file name starts (after its last backslash). */
  private readonly nameStart: Int32Array;
  private lastQuery = '';
  private lastHits: Int32Array | undefined;

  constructor(readonly paths: readonly string[]) {
    this.lower = new Array(paths.length);
    this.nameStart = new Int32Array(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const l = paths[i].toLowerCase().replace(/\//g, '\\');
      this.lower[i] = l;
      this.nameStart[i] = l.lastIndexOf('\\') + 1;
    }
  }

  get size(): number {
    return this.paths.length;
  }

  /** The best `limit` matches for `query`, best first. */
  match(query: string, limit = 200): FuzzyMatch[] {
    const q = query.toLowerCase().replace(/\//g, '\\').replace(/\s+/g, '');
    if (!q) {
      this.lastQuery = '';
      this.lastHits = undefined;
      return [];
    }
    const best: FuzzyMatch[] = [];
    const consider = (index: number, score: number): void => {
      if (best.length === limit && score <= best[best.length - 1].score) return;
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (best[mid].score >= score) lo = mid + 1;
        else hi = mid;
      }
      best.splice(lo, 0, { index, score, positions: [] });
      if (best.length > limit) best.pop();
    };
    // One pass over the candidates (every path, or the previous query's matches when this query
    // extends it), scoring each while its string is in cache: touching 431,226 strings is the cost
    // that matters, so each is touched once per keystroke.
    const from = this.lastHits && this.lastQuery && q.startsWith(this.lastQuery) ? this.lastHits : undefined;
    const n = from ? from.length : this.lower.length;
    const hits = new Int32Array(n);
    let h = 0;
    for (let k = 0; k < n; k++) {
      const i = from ? from[k] : k;
      const score = scorePath(this.lower[i], this.nameStart[i], q);
      if (score < 0) continue;
      hits[h++] = i;
      consider(i, score);
    }
    this.lastQuery = q;
    this.lastHits = hits.subarray(0, h);
    for (const m of best) m.positions = matchPositions(this.lower[m.index], q);
    return best;
  }
}

/**
 * Score one path, as the best band it falls in: 4 = the query whole inside the file name,
 * 3 = its characters in order inside the file name, 2 = the query whole anywhere in the path,
 * 1 = its characters in order anywhere (-1: no match). Within bands 2-4, contiguous runs and
 * word starts score higher and shorter paths break ties; band 1 ranks by length alone. `s` is lower-cased with backslashes;
 * `nameStart` is where its file name begins. `FuzzyIndex.match` computes the same scores in
 * fewer steps; this is the definition.
 */
function scorePath(s: string, nameStart: number, q: string): number {
  const inName = s.indexOf(q, nameStart);
  if (inName >= 0) return scoreWhole(4, s, nameStart, inName, q.length);
  const span = scoreSpan(s, nameStart, q);
  if (span > 0) return 3 * BAND + span * 4 - Math.min(s.length, 999);
  const whole = s.indexOf(q);
  if (whole >= 0) return scoreWhole(2, s, 0, whole, q.length);
  return inOrder(s, 0, q) ? BAND - Math.min(s.length, 999) : -1;
}

/** The score of the query found whole at `at` (band 4: in the file name, from `from`; band 2: in the path). */
function scoreWhole(band: number, s: string, from: number, at: number, length: number): number {
  const before = at === from ? BACKSLASH : s.charCodeAt(at - 1);
  const wordStart = before === BACKSLASH || before === UNDERSCORE || before === DOT || before === DASH;
  return band * BAND + (length * 8 + (wordStart ? 3 : 0) + (at === from ? 3 : 0)) * 4 - Math.min(s.length, 999);
}

/** Whether `q`'s characters occur in `s` in order from `from`. */
function inOrder(s: string, from: number, q: string): boolean {
  let at = from;
  for (let j = 0; j < q.length; j++) {
    at = s.indexOf(q[j], at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** Larger than any in-band score, so bands never overlap. */
const BAND = 1_000_000;

const BACKSLASH = 92;
const UNDERSCORE = 95;
const DOT = 46;
const DASH = 45;

/** Greedy in-order match of `q` in `s` from `from`, with bonuses; 0 when it does not match. */
function scoreSpan(s: string, from: number, q: string): number {
  let score = 0;
  let at = from;
  let prev = -2;
  for (let j = 0; j < q.length; j++) {
    const p = s.indexOf(q[j], at);
    if (p < 0) return 0;
    score += 1;
    if (p === prev + 1)
      score += 5; // contiguous
    else {
      const b = p === 0 ? BACKSLASH : s.charCodeAt(p - 1);
      if (b === BACKSLASH || b === UNDERSCORE || b === DOT || b === DASH) score += 3; // word start
    }
    prev = p;
    at = p + 1;
  }
  return score;
}

/** Positions for highlighting: in the file name when it matches there, else over the path. */
function matchPositions(path: string, q: string): number[] {
  const cut = path.lastIndexOf('\\') + 1;
  const tryFrom = (start: number): number[] | undefined => {
    const sub = path.slice(start);
    const exact = sub.indexOf(q);
    if (exact >= 0) return [...q].map((_, j) => start + exact + j);
    const out: number[] = [];
    let at = start;
    for (const c of q) {
      const p = path.indexOf(c, at);
      if (p < 0) return undefined;
      out.push(p);
      at = p + 1;
    }
    return out;
  };
  return tryFrom(cut) ?? tryFrom(0) ?? [];
}
