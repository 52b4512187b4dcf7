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
  /** Which characters each path holds (charMask), so most paths a query cannot match are passed over without a string scan. */
  private readonly masks: Int32Array;
  private lastQuery = '';
  private lastHits: Int32Array | undefined;
  /**
   * For each of `lastHits`: where the leftmost in-order match of `lastQuery` ends (just past its
   * last character; low 24 bits) and the bands still possible for a longer query (high 8 bits).
   */
  private lastEnds: Int32Array | undefined;
  /** Hits and ends of two keystrokes (allocated once, at the path count): `lastHits`/`lastEnds` view one pair. */
  private readonly buffers: (Int32Array | undefined)[] = [undefined, undefined, undefined, undefined];
  private flip = false;

  constructor(readonly paths: readonly string[]) {
    this.lower = new Array(paths.length);
    this.nameStart = new Int32Array(paths.length);
    this.masks = new Int32Array(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const l = paths[i].toLowerCase().replace(/\//g, '\\');
      this.lower[i] = l;
      this.nameStart[i] = l.lastIndexOf('\\') + 1;
      this.masks[i] = charMask(l);
    }
  }

  get size(): number {
    return this.paths.length;
  }

  /**
   * The best `limit` matches for `query`, best first. Words separated by spaces are matched each on
   * its own: the last is the file's name (scored as a one-word query), the others must stand in the
   * path too and count most where they stand whole in its folders (`volcano fagameplay.scripts`).
   */
  match(query: string, limit = 200): FuzzyMatch[] {
    const words = query.toLowerCase().replace(/\//g, '\\').split(/\s+/).filter(Boolean);
    if (words.length > 1) return this.matchWords(words, limit);
    const q = words[0] ?? '';
    if (!q) {
      this.lastQuery = '';
      this.lastHits = undefined;
      this.lastEnds = undefined;
      return [];
    }
    // The best `limit` so far, in a heap whose root is the worst (lowest score; among equal
    // scores the later path): a better candidate replaces the root in log(limit) steps.
    const best = new TopList(limit);
    // One pass over the candidates (every path, or the previous query's matches when this query
    // extends it), scoring each while its string is in cache: touching 431,226 strings is the cost
    // that matters, so each is touched once per keystroke. A previous hit is extended from where
    // its leftmost in-order match ended (leftmost is optimal: if any in-order match of the longer
    // query exists, one starts with the leftmost match of its prefix), so a keystroke costs one
    // search per appended character rather than a scan of the whole query.
    const extending = this.lastHits && this.lastEnds && this.lastQuery && q.startsWith(this.lastQuery);
    const from = extending ? this.lastHits : undefined;
    const fromEnds = extending ? this.lastEnds : undefined;
    const added = extending ? q.slice(this.lastQuery.length) : q;
    const n = from ? from.length : this.lower.length;
    // Two pairs of buffers, used in turn: this keystroke's hits are written while the last one's are read.
    this.flip = !this.flip;
    const pair = this.flip ? 0 : 2;
    const size = this.lower.length;
    const hits = (this.buffers[pair] ??= new Int32Array(size));
    const ends = (this.buffers[pair + 1] ??= new Int32Array(size));
    const need = charMask(q);
    const masks = this.masks;
    let h = 0;
    for (let k = 0; k < n; k++) {
      const i = from ? from[k] : k;
      if ((masks[i] & need) !== need) continue;
      const s = this.lower[i];
      // A hit is any path holding the query's characters in order (the next keystroke filters
      // these); it is scored only when its band can still beat the worst of a full list.
      const before = fromEnds ? fromEnds[k] : ALL_BANDS << 24;
      const end = inOrderEnd(s, before & 0xffffff, added);
      if (end < 0) continue;
      const floor = best.floor();
      const score = scoreAbove(s, this.nameStart[i], q, floor, before >>> 24);
      hits[h] = i;
      ends[h++] = end | (bandsLeft << 24);
      if (score > floor) best.add(i, score);
    }
    this.lastQuery = q;
    this.lastHits = hits.subarray(0, h);
    this.lastEnds = ends.subarray(0, h);
    return best.sorted().map(({ index, score }) => ({ index, score, positions: matchPositions(this.lower[index], q) }));
  }

  /**
   * Several words: a hit holds every word's characters in order (each word on its own), so a query
   * that extends the last one (a word typed on, a word added) filters its hits. Scored as the last
   * word alone, plus `folderBonus` for the others: within the last word's band, a folder named by a
   * word beats a path that merely holds its letters.
   */
  private matchWords(words: string[], limit: number): FuzzyMatch[] {
    const key = words.join(' ');
    const name = words[words.length - 1];
    const folders = words.slice(0, -1);
    const extending = this.lastQuery !== '' && this.lastHits && extendsWords(this.lastQuery.split(' '), words);
    const from = extending ? this.lastHits : undefined;
    const n = from ? from.length : this.lower.length;
    this.flip = !this.flip;
    const pair = this.flip ? 0 : 2;
    const hits = (this.buffers[pair] ??= new Int32Array(this.lower.length));
    const best = new TopList(limit);
    const need = charMask(words.join(''));
    let h = 0;
    for (let k = 0; k < n; k++) {
      const i = from ? from[k] : k;
      if ((this.masks[i] & need) !== need) continue;
      const s = this.lower[i];
      if (!words.every((w) => inOrderEnd(s, 0, w) >= 0)) continue;
      hits[h++] = i;
      const score = scoreAbove(s, this.nameStart[i], name, -1, ALL_BANDS) + folderBonus(s, this.nameStart[i], folders);
      if (score > best.floor()) best.add(i, score);
    }
    this.lastQuery = key;
    this.lastHits = hits.subarray(0, h);
    // The one-word ends do not apply to these hits: a one-word query after this one starts afresh.
    this.lastEnds = undefined;
    return best.sorted().map(({ index, score }) => ({ index, score, positions: matchPositions(this.lower[index], name) }));
  }
}

/** Whether the words `now` narrow the words `before`: each earlier word extended in place, the last one typed on or words added. */
function extendsWords(before: string[], now: string[]): boolean {
  if (now.length < before.length) return false;
  for (let i = 0; i < before.length; i++) if (!now[i].startsWith(before[i]) || (i < before.length - 1 && now[i] !== before[i])) return false;
  return true;
}

/**
 * What the folder words add to a path's score (below BAND / 4, so the file name's band still
 * decides first): a word standing whole in the folders counts 400 plus 8 per character, 100 more
 * at a folder's start and 100 more when it is the whole folder name; a word whose letters are only
 * in order in the folders counts 20; a word found only in the file name counts nothing.
 */
function folderBonus(s: string, nameStart: number, words: readonly string[]): number {
  let bonus = 0;
  const folders = s.slice(0, nameStart);
  for (const w of words) {
    const at = folders.indexOf(w);
    if (at >= 0) {
      const start = at === 0 || folders.charCodeAt(at - 1) === BACKSLASH;
      const whole = start && folders.charCodeAt(at + w.length) === BACKSLASH;
      bonus += 400 + 8 * Math.min(w.length, 100) + (start ? 100 : 0) + (whole ? 100 : 0);
    } else if (inOrderEnd(folders, 0, w) >= 0) bonus += 20;
  }
  return Math.min(bonus, BAND / 4);
}

/** The `limit` best (index, score) pairs seen, kept in a binary heap with the worst at its root. */
class TopList {
  private readonly indexes: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(private readonly limit: number) {
    this.indexes = new Int32Array(limit);
    this.scores = new Float64Array(limit);
  }

  /** The score a candidate must beat: the worst kept once full, else -1 (every match scores higher). */
  floor(): number {
    return this.size === this.limit && this.limit > 0 ? this.scores[0] : this.limit > 0 ? -1 : Infinity;
  }

  /** `a` is worse than `b`: a lower score, or an equal score on a later path. */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a];
    const sb = this.scores[b];
    return sa < sb || (sa === sb && this.indexes[a] > this.indexes[b]);
  }

  private swap(a: number, b: number): void {
    const i = this.indexes[a];
    this.indexes[a] = this.indexes[b];
    this.indexes[b] = i;
    const s = this.scores[a];
    this.scores[a] = this.scores[b];
    this.scores[b] = s;
  }

  /** Keep (index, score) when it beats the floor (the caller has checked `score > floor()`). */
  add(index: number, score: number): void {
    if (this.size < this.limit) {
      let at = this.size++;
      this.indexes[at] = index;
      this.scores[at] = score;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.worse(at, parent)) break;
        this.swap(at, parent);
        at = parent;
      }
      return;
    }
    this.indexes[0] = index;
    this.scores[0] = score;
    for (let at = 0; ;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let worst = at;
      if (l < this.size && this.worse(l, worst)) worst = l;
      if (r < this.size && this.worse(r, worst)) worst = r;
      if (worst === at) break;
      this.swap(at, worst);
      at = worst;
    }
  }

  /** Best first: higher score, then the earlier path. */
  sorted(): { index: number; score: number }[] {
    const out: { index: number; score: number }[] = [];
    for (let k = 0; k < this.size; k++) out.push({ index: this.indexes[k], score: this.scores[k] });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}

/**
 * Bands a path can still reach, as bits: a query that is not whole in a file name (or in order in
 * it, or whole in the path) cannot be once characters are added to it, so those searches are not
 * made again on the next keystroke.
 */
const WHOLE_IN_NAME = 1;
const IN_ORDER_IN_NAME = 2;
const WHOLE_IN_PATH = 4;
const ALL_BANDS = WHOLE_IN_NAME | IN_ORDER_IN_NAME | WHOLE_IN_PATH;
/** The bands `scoreAbove` left possible for the path it last scored. */
let bandsLeft = ALL_BANDS;

/**
 * Score a path that holds the query's characters in order, as the best band it falls in: 4 = the
 * query whole inside the file name, 3 = its characters in order inside the file name, 2 = the
 * query whole anywhere in the path, 1 = its characters in order anywhere. Within bands 2-4,
 * contiguous runs and word starts score higher and shorter paths break ties; band 1 ranks by
 * length alone. `s` is lower-cased with backslashes; `nameStart` is where its file name begins.
 * Bands that cannot beat `floor` are not computed (a band's scores all lie within
 * [band * BAND - 999, band * BAND + BAND / 2)), so the answer is then at most `floor`; bands not in
 * `possible` are known not to match. Leaves in `bandsLeft` what remains possible.
 */
function scoreAbove(s: string, nameStart: number, q: string, floor: number, possible: number): number {
  bandsLeft = possible;
  // The best this path could score (band 4 with every bonus) ties the length term alone: a list
  // already full of better ones passes it over without a search (the common case for short queries).
  if (floor >= 4 * BAND + (q.length * 8 + 6) * 4 - Math.min(s.length, 999)) return -1;
  if (possible & WHOLE_IN_NAME) {
    const inName = s.indexOf(q, nameStart);
    if (inName >= 0) return scoreWhole(4, s, nameStart, inName, q.length);
    bandsLeft &= ~WHOLE_IN_NAME;
  }
  if (floor >= 3 * BAND + BAND / 2) return -1;
  if (possible & IN_ORDER_IN_NAME) {
    const span = scoreSpan(s, nameStart, q);
    if (span > 0) return 3 * BAND + span * 4 - Math.min(s.length, 999);
    bandsLeft &= ~IN_ORDER_IN_NAME;
  }
  if (floor >= 2 * BAND + BAND / 2) return -1;
  if (possible & WHOLE_IN_PATH) {
    const whole = s.indexOf(q);
    if (whole >= 0) return scoreWhole(2, s, 0, whole, q.length);
    bandsLeft &= ~WHOLE_IN_PATH;
  }
  return BAND - Math.min(s.length, 999);
}

/** The score of the query found whole at `at` (band 4: in the file name, from `from`; band 2: in the path). */
function scoreWhole(band: number, s: string, from: number, at: number, length: number): number {
  const before = at === from ? BACKSLASH : s.charCodeAt(at - 1);
  const wordStart = before === BACKSLASH || before === UNDERSCORE || before === DOT || before === DASH;
  return band * BAND + (length * 8 + (wordStart ? 3 : 0) + (at === from ? 3 : 0)) * 4 - Math.min(s.length, 999);
}

/** Where the leftmost in-order match of `q`'s characters in `s` from `from` ends (just past its last character), or -1. */
function inOrderEnd(s: string, from: number, q: string): number {
  let at = from;
  for (let j = 0; j < q.length; j++) {
    at = s.indexOf(q[j], at);
    if (at < 0) return -1;
    at++;
  }
  return at;
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

/**
 * One bit per character class a string holds: a-z one bit each, digits five bits (by value mod
 * 5), anything else one shared bit. A path lacking a bit the query has cannot match it.
 */
function charMask(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    m |= c >= 97 && c <= 122 ? 1 << (c - 97) : c >= 48 && c <= 57 ? 1 << (26 + ((c - 48) % 5)) : 1 << 31;
  }
  return m;
}
