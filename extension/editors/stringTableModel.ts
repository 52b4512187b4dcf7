/**
 * The string-table editor's model (no vscode, unit-tested in plain node): several languages of one
 * table (each a parsed SKDB v9 table, seed 004, with its language folder's name) aligned by key
 * hash, key names from a hash dictionary, search as you type and windows of rows, and the CSV and
 * JSON exports.
 *
 * Rows are the union of every language's keys in ascending hash order (the tables' own order); a
 * language without a key shows it as missing (`null`), never as an empty text.
 *
 * Search: a query `0x…` matches hashes whose 8-digit form starts with it; any other query is a
 * case-insensitive substring of the key name or of a shown language's text. The lower-cased
 * haystacks are computed once per language, when it is first shown, and a query
 * that extends the previous one (same mode, same languages) filters only the previous result, so
 * typing a word costs one full scan and then ever smaller ones. The webview never holds more than
 * the windows it asks for (`rows(start, count)`), so 68,547 keys never cross the channel at once.
 */
import { Arch06Error } from '../../core/errors';
import { type HashDictionary, type NameOrigin, formatHash } from '../../core/hash';
import type { StringTable } from '../../core/formats/strings';
import type { StringRowView } from '../../media/strings/protocol';

/** One language of the table: its folder name (enus, frfr…) and the parsed table. */
export interface LanguageTable {
  language: string;
  table: StringTable;
}

/** Rows one `rows()` call returns at most (the webview asks for what is in view). */
export const MAX_WINDOW = 1000;
/** Characters of one text a row carries to the webview at most (a longer one is cut, with its length). */
export const MAX_CELL_CHARS = 4096;
/** An export holds at most this many characters per character of the tables' texts, plus `EXPORT_BASE_CHARS`. */
const EXPORT_CHARS_PER_CHAR = 4;
const EXPORT_BASE_CHARS = 16 << 20;
/** Texts at least this long are searched once per query, however many keys share them. */
const SHARED_TEXT_CHARS = 256;

const HASH_QUERY = /^0x[0-9a-f]{0,8}$/i;

interface SearchCache {
  mode: 'hash' | 'text';
  /** The lower-cased query (hash mode: the upper-case digits after 0x). */
  query: string;
  languages: string;
  result: Uint32Array;
}

export class StringTableModel {
  readonly languages: string[];
  /** Every key hash, ascending. */
  readonly hashes: Uint32Array;
  /** texts[l][row]: the text of row `row` in language `l`, undefined when that language lacks the key. */
  private readonly texts: (string | undefined)[][];
  /**
   * Lower-cased texts per language: the search's haystacks, built once per language when it is
   * first shown (with the model for those shown at first), so a keystroke never pays for them and
   * languages never shown (the game has 14) cost no memory.
   */
  private readonly lowered: ((string | undefined)[] | undefined)[];
  private keys: (string | undefined)[] = [];
  private origins: (NameOrigin | undefined)[] = [];
  private loweredKeys: string[] = [];
  private named = 0;
  /** The languages shown (indexes into `languages`), in column order. */
  private shownLanguages: number[];
  /** The tables' text, in characters: what an export's size is held against. */
  private readonly textChars: number;
  private query = '';
  /** The filtered rows (indexes into `hashes`); undefined: every row. */
  private filtered: Uint32Array | undefined;
  private cache: SearchCache | undefined;

  /** `shown`: the languages shown at first (default: all). */
  constructor(tables: LanguageTable[], dictionary?: HashDictionary, shown?: readonly string[]) {
    this.languages = tables.map((t) => t.language);
    this.hashes = unionOfKeys(tables.map((t) => t.table));
    const n = this.hashes.length;
    this.texts = tables.map(({ table }) => {
      const col: (string | undefined)[] = new Array(n).fill(undefined);
      // Both lists ascend: one merge walk places every entry.
      let row = 0;
      for (const e of table.entries) {
        while (row < n && this.hashes[row] !== e.hash) row++;
        if (row < n) col[row] = e.text;
      }
      return col;
    });
    this.lowered = this.texts.map(() => undefined);
    this.textChars = tables.reduce((n, t) => n + t.table.textUnits + 16 * t.table.keyCount, 0);
    this.shownLanguages = this.pick(shown ?? []);
    this.lowerShown();
    this.setDictionary(dictionary);
  }

  /** Key names from `dictionary` (none without one); the current search is run again. */
  setDictionary(dictionary: HashDictionary | undefined): void {
    const n = this.hashes.length;
    this.keys = new Array(n);
    this.origins = new Array(n);
    this.loweredKeys = new Array(n);
    this.named = 0;
    for (let i = 0; i < n; i++) {
      const e = dictionary?.entry(this.hashes[i]);
      this.keys[i] = e?.name;
      this.origins[i] = e?.origin;
      this.loweredKeys[i] = e ? e.name.toLowerCase() : '';
      if (e) this.named++;
    }
    this.cache = undefined;
    this.refilter();
  }

  /** The row of a key, or -1. */
  private rowOf(hash: number): number {
    const h = hash >>> 0;
    let lo = 0;
    let hi = this.hashes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.hashes[mid] === h) return mid;
      if (this.hashes[mid] < h) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The dictionary's name of a key, when the table has the key and the dictionary a name. */
  nameOf(hash: number): string | undefined {
    const row = this.rowOf(hash);
    return row < 0 ? undefined : this.keys[row];
  }

  /**
   * One key's text in language `l` changed by an edit: its cell and haystack, and the search run
   * again (the set of keys is the same, so nothing else is rebuilt). False when no row has the key.
   */
  setText(l: number, hash: number, text: string): boolean {
    const row = this.rowOf(hash);
    if (row < 0 || l < 0 || l >= this.texts.length) return false;
    this.texts[l][row] = text;
    const lowered = this.lowered[l];
    if (lowered) lowered[row] = text.toLowerCase();
    this.cache = undefined;
    this.refilter();
    return true;
  }

  /** Keys in the table (every language together). */
  get total(): number {
    return this.hashes.length;
  }

  /** Keys the current search keeps. */
  get shown(): number {
    return this.filtered ? this.filtered.length : this.hashes.length;
  }

  /** Keys with a name from the dictionary. */
  get namedKeys(): number {
    return this.named;
  }

  /** How many keys each language has. */
  keyCounts(): number[] {
    return this.texts.map((col) => col.reduce((k, t) => (t === undefined ? k : k + 1), 0));
  }

  /** The shown languages, in column order. */
  get shownLanguageNames(): string[] {
    return this.shownLanguages.map((l) => this.languages[l]);
  }

  /** Show these languages (unknown names ignored; none known: all of them), and search again. */
  setShownLanguages(names: readonly string[]): void {
    const next = this.pick(names);
    if (next.join() === this.shownLanguages.join()) return;
    this.shownLanguages = next;
    this.lowerShown();
    this.refilter();
  }

  /** Language indexes of `names` (unknown names dropped, each once); none known: all of them. */
  private pick(names: readonly string[]): number[] {
    const picked = names.map((n) => this.languages.indexOf(n)).filter((l, i, all) => l >= 0 && all.indexOf(l) === i);
    return picked.length ? picked : this.languages.map((_, i) => i);
  }

  private lowerShown(): void {
    // Keys sharing a text share its lower-cased copy (a crafted table may point 60,000 keys at one 250,000-unit string).
    const lowered = new Map<string, string>();
    const lower = (t: string): string => {
      let k = lowered.get(t);
      if (k === undefined) lowered.set(t, (k = t.toLowerCase()));
      return k;
    };
    for (const l of this.shownLanguages) this.lowered[l] ??= this.texts[l].map((t) => (t === undefined ? undefined : lower(t)));
  }

  /** Filter by `query` (see the file comment); returns how many keys it keeps. */
  search(query: string): number {
    this.query = query;
    return this.refilter();
  }

  private refilter(): number {
    const q = this.query.trim();
    if (!q) {
      this.filtered = undefined;
      return this.shown;
    }
    const mode = HASH_QUERY.test(q) ? 'hash' : 'text';
    const needle = mode === 'hash' ? q.slice(2).toUpperCase() : q.toLowerCase();
    const languages = this.shownLanguages.join(',');
    const prev = this.cache;
    // A query extending the previous one can only keep fewer rows: filter those.
    const from = prev && prev.mode === mode && prev.languages === languages && needle.startsWith(prev.query) ? prev.result : undefined;
    const result = mode === 'hash' ? this.matchHash(needle, from) : this.matchText(needle, from);
    this.cache = { mode, query: needle, languages, result };
    this.filtered = result;
    return result.length;
  }

  private matchHash(prefix: string, from: Uint32Array | undefined): Uint32Array {
    // Prefix of the 8-digit form: a range of hashes (rows ascend), found by two binary searches.
    const lo = prefix ? parseInt(prefix, 16) * 16 ** (8 - prefix.length) : 0;
    const hi = prefix ? lo + 16 ** (8 - prefix.length) : 2 ** 32;
    if (from) return from.filter((r) => this.hashes[r] >= lo && this.hashes[r] < hi);
    const first = lowerBound(this.hashes, lo);
    const end = lowerBound(this.hashes, hi);
    const out = new Uint32Array(end - first);
    for (let i = 0; i < out.length; i++) out[i] = first + i;
    return out;
  }

  private matchText(needle: string, from: Uint32Array | undefined): Uint32Array {
    const cols = this.shownLanguages.map((l) => this.lowered[l]!);
    const keys = this.loweredKeys;
    // A long text many keys share is searched once per query.
    const longHits = new Map<string, boolean>();
    const holds = (t: string | undefined): boolean => {
      if (t === undefined) return false;
      if (t.length < SHARED_TEXT_CHARS) return t.includes(needle);
      let h = longHits.get(t);
      if (h === undefined) longHits.set(t, (h = t.includes(needle)));
      return h;
    };
    const hit = (r: number): boolean => {
      if (keys[r].includes(needle)) return true;
      for (const col of cols) if (holds(col[r])) return true;
      return false;
    };
    if (from) return from.filter(hit);
    const out = new Uint32Array(this.hashes.length);
    let k = 0;
    for (let r = 0; r < this.hashes.length; r++) if (hit(r)) out[k++] = r;
    return out.slice(0, k);
  }

  /** The row index (into every key) of filtered position `pos`. */
  private rowAt(pos: number): number {
    return this.filtered ? this.filtered[pos] : pos;
  }

  /** Rows [start, start + count) of the current search, shown languages only; at most MAX_WINDOW. */
  rows(start: number, count: number): StringRowView[] {
    const first = Math.max(0, Math.min(Math.floor(start), this.shown));
    const end = Math.min(this.shown, first + Math.max(0, Math.min(Math.floor(count), MAX_WINDOW)));
    const out: StringRowView[] = [];
    for (let pos = first; pos < end; pos++) out.push(this.rowView(this.rowAt(pos)));
    return out;
  }

  /** A row for the webview: each text cut at `MAX_CELL_CHARS` (an export writes them whole). */
  private rowView(r: number, whole = false): StringRowView {
    const key = this.keys[r];
    const cut = (t: string | undefined): string | null =>
      t === undefined ? null : whole || t.length <= MAX_CELL_CHARS ? t : `${t.slice(0, MAX_CELL_CHARS)}… (${t.length} characters)`;
    return {
      hash: formatHash(this.hashes[r]),
      key: key ?? null,
      origin: this.origins[r] ?? null,
      texts: this.shownLanguages.map((l) => cut(this.texts[l][r])),
    };
  }

  /**
   * Every row of the current search, shown languages only (what an export writes), once its size is
   * known to stay within 4 characters per character of the tables' texts (+16 Mi): keys sharing one
   * long text would otherwise write it once per key (60,000 x 250,000 units), so such an export is
   * refused with the figures.
   */
  private *exportRows(): Generator<StringRowView> {
    const limit = EXPORT_CHARS_PER_CHAR * this.textChars + EXPORT_BASE_CHARS;
    let size = 0;
    for (let pos = 0; pos < this.shown && size <= limit; pos++) {
      const r = this.rowAt(pos);
      size += 32 + (this.keys[r]?.length ?? 0);
      for (const l of this.shownLanguages) size += this.texts[l][r]?.length ?? 0;
    }
    if (size > limit)
      throw new Arch06Error('OUT_OF_RANGE', 'the export would repeat shared texts beyond what an export writes: narrow the search or the languages', {
        expected: `at most ${limit} characters (${EXPORT_CHARS_PER_CHAR} per character of the tables' texts + ${EXPORT_BASE_CHARS})`,
        actual: `more than ${limit} characters for ${this.shown} keys`,
      });
    for (let pos = 0; pos < this.shown; pos++) yield this.rowView(this.rowAt(pos), true);
  }

  /** The current search as CSV (RFC 4180: CRLF lines, fields quoted when they hold a comma, quote or line break). Header: hash,key,<languages>. */
  toCsv(): string {
    const lines = [['hash', 'key', ...this.shownLanguageNames].map(csvField).join(',')];
    for (const r of this.exportRows()) lines.push([r.hash, r.key ?? '', ...r.texts.map((t) => t ?? '')].map(csvField).join(','));
    return lines.join('\r\n') + '\r\n';
  }

  /** The current search as JSON: {keys, languages, entries: [{hash, key, texts: {<language>: text}}]}; a missing text is left out. */
  toJson(): string {
    const languages = this.shownLanguageNames;
    const entries: { hash: string; key: string | null; texts: Record<string, string> }[] = [];
    for (const r of this.exportRows()) {
      const texts: Record<string, string> = {};
      r.texts.forEach((t, i) => {
        if (t !== null) texts[languages[i]] = t;
      });
      entries.push({ hash: r.hash, key: r.key, texts });
    }
    return JSON.stringify({ keys: entries.length, languages, entries }, null, 1) + '\n';
  }
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** The ascending union of the tables' keys: each table's keys ascend strictly (parseSkdb checks it), so one linear merge per table. */
function unionOfKeys(tables: StringTable[]): Uint32Array {
  let acc = new Uint32Array(0);
  for (const t of tables) {
    const b = t.entries;
    const out = new Uint32Array(acc.length + b.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < acc.length || j < b.length) {
      const x = i < acc.length ? acc[i] : Infinity;
      const y = j < b.length ? b[j].hash : Infinity;
      out[k++] = Math.min(x, y);
      if (x <= y) i++;
      if (y <= x) j++;
    }
    acc = out.slice(0, k);
  }
  return acc;
}

/** The first index whose value is ≥ `x`. */
function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
