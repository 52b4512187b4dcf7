/**
 * Fuzzy path filtering for "Go to File" over every path of a mount (431,226 in the game): the
 * query's characters must appear in order; matches are ranked by where and how they match,
 * roughly as VS Code's Quick Open does (a match in the file name beats one in the folders,
 * contiguous runs and word starts beat scattered letters, shorter paths break ties).
 *
 * Speed: a query that extends the previous one only re-filters the previous matches, and the
 * first pass is a cheap in-order character scan; only survivors are scored.
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

  /** Indices whose path contains the query's characters in order (spaces in the query are ignored). */
  private candidates(q: string): Int32Array {
    const from = this.lastHits && this.lastQuery && q.startsWith(this.lastQuery) ? this.lastHits : undefined;
    const n = from ? from.length : this.lower.length;
    const out = new Int32Array(n);
    let count = 0;
    for (let k = 0; k < n; k++) {
      const i = from ? from[k] : k;
      const s = this.lower[i];
      let at = 0;
      let ok = true;
      for (let j = 0; j < q.length; j++) {
        at = s.indexOf(q[j], at);
        if (at < 0) {
          ok = false;
          break;
        }
        at++;
      }
      if (ok) out[count++] = i;
    }
    this.lastQuery = q;
    this.lastHits = out.subarray(0, count);
    return this.lastHits;
  }

  /** The best `limit` matches for `query`, best first. */
  match(query: string, limit = 200): FuzzyMatch[] {
    const q = query.toLowerCase().replace(/\//g, '\\').replace(/\s+/g, '');
    if (!q) {
      this.lastQuery = '';
      this.lastHits = undefined;
      return [];
    }
    const hits = this.candidates(q);
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
    // Scores are banded: a path in a higher band always ranks above one in a lower band. Bands
    // are filled best first, and once `limit` paths are in, the lower bands need no scoring.
    // Every candidate lands in exactly one band (band 1 always matches: it is the candidate test).
    const band = new Uint8Array(hits.length);
    for (let b = 4; b >= 1 && best.length < limit; b--) {
      for (let k = 0; k < hits.length; k++) {
        if (band[k]) continue;
        const i = hits[k];
        const score = scoreInBand(b, this.lower[i], this.nameStart[i], q);
        if (score < 0) continue;
        band[k] = b;
        consider(i, score);
      }
    }
    for (const m of best) m.positions = matchPositions(this.lower[m.index], q);
    return best;
  }
}

/**
 * Score one path, as the best band it falls in: 4 = the query whole inside the file name,
 * 3 = its characters in order inside the file name, 2 = the query whole anywhere in the path,
 * 1 = its characters in order anywhere. Within a band, contiguous runs and word starts score
 * higher and shorter paths break ties. `s` is lower-cased with backslashes; `nameStart` is
 * where its file name begins.
 */
export function scorePath(s: string, nameStart: number, q: string): number {
  for (let b = 4; b >= 1; b--) {
    const score = scoreInBand(b, s, nameStart, q);
    if (score >= 0) return score;
  }
  return -1;
}

/** The score of `s` in band `b`, or -1 when it does not belong there. */
function scoreInBand(b: number, s: string, nameStart: number, q: string): number {
  const lengthPenalty = Math.min(s.length, 999);
  switch (b) {
    case 4:
    case 2: {
      const from = b === 4 ? nameStart : 0;
      const at = s.indexOf(q, from);
      if (at < 0) return -1;
      const before = at === from ? BACKSLASH : s.charCodeAt(at - 1);
      const wordStart = before === BACKSLASH || before === UNDERSCORE || before === DOT || before === DASH;
      return b * BAND + (q.length * 8 + (wordStart ? 3 : 0) + (at === from ? 3 : 0)) * 4 - lengthPenalty;
    }
    default: {
      const span = scoreSpan(s, b === 3 ? nameStart : 0, q);
      return span > 0 ? b * BAND + span * 4 - lengthPenalty : -1;
    }
  }
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
    if (p === prev + 1) score += 5; // contiguous
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
export function matchPositions(path: string, q: string): number[] {
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
