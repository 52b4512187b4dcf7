/**
 * "Find in Files" over a mount, the one search the extension and `arch06 search` run: every
 * winning file whose path matches a glob, then the bundle members only a container serves, each
 * searched in the text it has (./fileText.ts: plain text, a script's source after its SCRI header,
 * a decoded text view when asked) for a literal string or a regular expression (./lineMatch.ts).
 *
 * The search runs in slices (`TextSearch.step`), so a caller can stream matches as they are found
 * and keep its thread responsive (`searchTextStreaming` pauses between slices); `searchText` runs
 * it to the end. Files of a binary type are skipped unread, and every skip is counted by why.
 */
import { isArch06Error } from '../errors';
import { MessageList } from '../io/bounded';
import type { Mount } from '../archive/mount';
import type { MemberRow } from '../archive/memberCatalog';
import { type ResolvedBundle, readBundleMember, resolveBundle } from '../archive/bundles';
import { globToRegExp } from './glob';
import type { SearchUnitResult } from './searchWorker';
import { type FilePlan, SNIFF_BYTES, type TextView, planFile, textOf, NUL_REASON } from './fileText';
import { type Matcher, makeMatcher } from './lineMatch';
import { type TextMatch, eachMatch } from './fileMatch';

export type { TextMatch } from './fileMatch';

export type { TextView } from './fileText';

export interface TextSearchOptions {
  query: string;
  isRegExp?: boolean;
  matchCase?: boolean;
  /** Files to include (glob); default every file. */
  include?: string;
  /** Search the decoded text views of binary formats (registries, string tables, bundles, skeletons) too. */
  decoded?: boolean;
  /** Files larger than this are skipped (default 16 MiB). */
  maxFileSize?: number;
  /** Stop after this many matches (default 10,000). */
  maxMatches?: number;
  /** Keep the matches in the result (default true); a caller streaming through `onMatch` may say no. */
  keepMatches?: boolean;
  isCancelled?: () => boolean;
  onProgress?: (filesSearched: number, filesTotal: number) => void;
  /** Each match as it is found. */
  onMatch?: (match: TextMatch) => void;
  /**
   * Bundle members to search too (a MemberCatalog's rows): those only a container serves, whose
   * paths match `include` (a member a loose entry serves is searched as that entry).
   */
  members?: readonly MemberRow[];
  /** The mount's distinct paths in index order (`mount.distinctPaths()`), when the caller holds them already. */
  paths?: readonly string[];
}

export interface TextSearchResult {
  matches: TextMatch[];
  /** Every match found (also when not kept). */
  matchCount: number;
  filesMatched: number;
  filesSearched: number;
  /** Files searched, by the text they were searched in. */
  searchedAs: Record<TextView, number>;
  /** Files skipped as binary, by why (a binary file type, a NUL byte, compiled script, …). */
  binary: Record<string, number>;
  /** Files that could not be read or were too large (the first 500; `skippedCount` counts all). */
  filesSkipped: { path: string; reason: string }[];
  skippedCount: number;
  /** Files whose paths matched the include (distinct paths and container-only members) so far. */
  filesIncluded: number;
  /** Distinct paths and container-only members the search goes through (before the include). */
  filesTotal: number;
  limitHit: boolean;
  cancelled: boolean;
}

const DEFAULT_MAX_FILE = 16 << 20;

/** One search, run in slices: `step()` until `done`. */
export class TextSearch {
  readonly result: TextSearchResult;
  private readonly matcher: Matcher;
  /** The include glob, or undefined for every file (431,226 paths need no test then). */
  private readonly include: RegExp | undefined;
  private readonly maxSize: number;
  private readonly maxMatches: number;
  private readonly paths: readonly string[];
  private memberTargets: MemberRow[] = [];
  /** The next distinct path to consider (index order), and the next member. */
  private next = 0;
  private nextMember = 0;
  private resolved: { manifest: string; bundle: ResolvedBundle | Error } | undefined;
  private readonly skipped = new MessageList();
  /** Skips as binary by reason (the reasons are the plans' own strings, so a count costs one map read). */
  private readonly binaryCounts = new Map<string, number>();

  constructor(
    private readonly mount: Mount,
    private readonly options: TextSearchOptions,
  ) {
    this.matcher = makeMatcher(options.query, options.isRegExp ?? false, options.matchCase ?? false);
    this.include = options.include?.trim() ? globToRegExp(options.include) : undefined;
    this.maxSize = options.maxFileSize ?? DEFAULT_MAX_FILE;
    this.maxMatches = options.maxMatches ?? 10_000;
    this.paths = options.paths ?? mount.distinctPaths();
    this.result = {
      matches: [],
      matchCount: 0,
      filesMatched: 0,
      filesSearched: 0,
      searchedAs: { text: 0, script: 0, decoded: 0 },
      binary: {},
      filesSkipped: [],
      skippedCount: 0,
      filesIncluded: 0,
      filesTotal: this.paths.length,
      limitHit: false,
      cancelled: false,
    };
    this.addMembers(options.members ?? []);
  }

  /** Bundle members to search after the mounted paths (those only a container serves). */
  addMembers(rows: readonly MemberRow[]): void {
    const picked = rows.filter((m) => m.servedFrom === 'container');
    this.memberTargets = this.memberTargets.length ? [...this.memberTargets, ...picked] : picked;
    this.result.filesTotal += picked.length;
  }

  get done(): boolean {
    const r = this.result;
    return r.cancelled || r.limitHit || (this.next >= this.paths.length && this.nextMember >= this.memberTargets.length);
  }

  /** Search files until `deadline` (a `performance.now()` time; default: to the end) or the end. */
  step(deadline = Infinity): void {
    const r = this.result;
    const ix = this.mount.index();
    const { isCancelled, onProgress } = this.options;
    for (let n = 1; !this.done; n++) {
      // Cancel, progress and the clock every 256 paths, and after every file read (the costly ones).
      let read: boolean;
      if (this.next < this.paths.length) {
        const d = this.next++;
        const path = this.paths[d];
        read = this.include === undefined || this.include.test(path) ? this.searchEntry(path, ix.winnerSource[d], ix.winnerFile[d]) : false;
      } else {
        const row = this.memberTargets[this.nextMember++];
        read = this.include === undefined || this.include.test(row.path) ? this.searchMember(row) : false;
      }
      if (!read && (n & 255) !== 0) continue;
      if (isCancelled?.()) r.cancelled = true;
      if ((n & 4095) === 0) onProgress?.(this.next + this.nextMember, r.filesTotal);
      if (performance.now() >= deadline) break;
    }
    onProgress?.(this.next + this.nextMember, r.filesTotal);
    r.filesSkipped = this.skippedList();
    r.binary = Object.fromEntries(this.binaryCounts);
  }

  private skippedList(): { path: string; reason: string }[] {
    return this.skipped.list().map((line) => {
      const cut = line.indexOf('\0');
      return cut < 0 ? { path: '', reason: line } : { path: line.slice(0, cut), reason: line.slice(cut + 1) };
    });
  }

  private skip(path: string, reason: string): void {
    this.result.skippedCount++;
    this.skipped.add(() => `${path}\0${reason}`);
  }

  /** Count a file skipped as binary; false (nothing was read). */
  private binary(reason: string): false {
    this.binaryCounts.set(reason, (this.binaryCounts.get(reason) ?? 0) + 1);
    return false;
  }

  /** Search one mounted file; whether its bytes were read. */
  private searchEntry(path: string, sourceIndex: number, file: number): boolean {
    this.result.filesIncluded++;
    const plan = planFile(path, this.options.decoded ?? false);
    if (plan.read === 'no') return this.binary(plan.binary);
    try {
      const entry = this.mount.sources[sourceIndex].entryAt(file);
      if (entry.size > this.maxSize) {
        this.skip(path, `larger than ${this.maxSize} bytes`);
        return false;
      }
      // A large file of unknown type is sniffed first: a binary one costs its first bytes only.
      if (plan.read === 'text' && entry.size > 8 * SNIFF_BYTES && entry.readSync(0, SNIFF_BYTES).includes(0)) this.binary(NUL_REASON);
      else this.searchBytes(path, entry.source.name, undefined, plan, entry.readSync());
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      this.skip(path, e.message);
    }
    return true;
  }

  /** Search one member only a container serves; whether its bytes were read. */
  private searchMember(row: MemberRow): boolean {
    this.result.filesIncluded++;
    const shown = `${row.bundle} [${row.path}]`;
    const plan = planFile(row.path, this.options.decoded ?? false);
    if (plan.read === 'no') return this.binary(plan.binary);
    if ((row.size ?? 0) > this.maxSize) {
      this.skip(shown, `larger than ${this.maxSize} bytes`);
      return false;
    }
    try {
      // Rows of one manifest are adjacent in a catalog: one resolved bundle at a time.
      if (this.resolved?.manifest !== row.bundle) {
        let bundle: ResolvedBundle | Error;
        try {
          bundle = resolveBundle(this.mount, row.bundle);
        } catch (e) {
          bundle = e instanceof Error ? e : new Error(String(e));
        }
        this.resolved = { manifest: row.bundle, bundle };
      }
      if (this.resolved.bundle instanceof Error) throw this.resolved.bundle;
      this.searchBytes(row.path, row.source ?? '', row.bundle, plan, readBundleMember(this.mount, this.resolved.bundle, row.path));
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      this.skip(shown, e.message);
    }
    return true;
  }

  /** Count one match, keep it if asked, hand it on; false once the limit is reached. */
  private take(match: TextMatch): boolean {
    const r = this.result;
    r.matchCount++;
    if (this.options.keepMatches ?? true) r.matches.push(match);
    this.options.onMatch?.(match);
    if (r.matchCount >= this.maxMatches) r.limitHit = true;
    return !r.limitHit;
  }

  /**
   * Merge what a pool worker found in a run of mounted files (./searchWorker.ts), in its turn:
   * counted as if this search had read those files itself.
   */
  absorb(u: SearchUnitResult): void {
    const r = this.result;
    r.filesIncluded += u.included;
    r.filesSearched += u.searched;
    for (const v of ['text', 'script', 'decoded'] as const) r.searchedAs[v] += u.searchedAs[v];
    for (const [reason, n] of u.binary) this.binaryCounts.set(reason, (this.binaryCounts.get(reason) ?? 0) + n);
    for (const sk of u.skipped) this.skip(sk.path, sk.reason);
    for (let f = 0, at = 0; f < u.matchesPerFile.length && !r.limitHit; f++) {
      const n = u.matchesPerFile[f];
      for (let k = 0; k < n && this.take(u.matches[at + k]); k++);
      at += n;
      if (n) r.filesMatched++;
    }
  }

  /** Put the skip list and the binary counts into the result (after the last `absorb`). */
  settle(): void {
    this.result.filesSkipped = this.skippedList();
    this.result.binary = Object.fromEntries(this.binaryCounts);
  }

  private searchBytes(path: string, source: string, bundle: string | undefined, plan: Exclude<FilePlan, { read: 'no' }>, bytes: Uint8Array): void {
    const had = textOf(path, plan, bytes);
    if ('binary' in had) {
      this.binary(had.binary);
      return;
    }
    const r = this.result;
    r.filesSearched++;
    r.searchedAs[had.view]++;
    const before = r.matchCount;
    eachMatch(this.matcher, had.text, { path, source, bundle, view: had.view }, (match) => this.take(match));
    if (r.matchCount > before) r.filesMatched++;
  }
}

/** Run a search to its end. Throws BAD_ARGUMENT for an empty query or a broken regular expression. */
export function searchText(mount: Mount, options: TextSearchOptions): TextSearchResult {
  const s = new TextSearch(mount, options);
  s.step();
  return s.result;
}

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The result line both front ends print: matches, files, what was searched (as text, as script
 * source, as decoded text) and what was skipped as binary and why.
 */
export function describeSearch(r: TextSearchResult, query: string): string {
  const as = [
    r.searchedAs.text ? `${r.searchedAs.text.toLocaleString('en-US')} as text` : '',
    r.searchedAs.script ? `${count(r.searchedAs.script, 'script')} as source` : '',
    r.searchedAs.decoded ? `${r.searchedAs.decoded.toLocaleString('en-US')} as decoded text` : '',
  ].filter(Boolean);
  // Details grouped under their reason ("a binary file type: .tex 60,000, .mesh 40,000"), largest first.
  const groups = new Map<string, { total: number; details: [string, number][] }>();
  for (const [key, n] of Object.entries(r.binary)) {
    const cut = key.indexOf(': ');
    const reason = cut < 0 ? key : key.slice(0, cut);
    const g = groups.get(reason) ?? { total: 0, details: [] };
    g.total += n;
    if (cut >= 0) g.details.push([key.slice(cut + 2), n]);
    groups.set(reason, g);
  }
  const binary = [...groups].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
  const binaryTotal = binary.reduce((n, [, g]) => n + g.total, 0);
  const group = ([reason, g]: [string, { total: number; details: [string, number][] }]): string =>
    `${g.total.toLocaleString('en-US')} ${reason}${
      g.details.length
        ? ` (${g.details
            .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
            .map(([d, n]) => `${d} ${n.toLocaleString('en-US')}`)
            .join(', ')})`
        : ''
    }`;
  const parts = [
    `${count(r.filesSearched, 'file')} searched${as.length ? ` (${as.join(', ')})` : ''}`,
    binaryTotal ? `${binaryTotal.toLocaleString('en-US')} skipped as binary: ${binary.map(group).join('; ')}` : '',
    r.skippedCount ? `${r.skippedCount.toLocaleString('en-US')} unreadable or too large` : '',
    r.limitHit ? 'result limit reached' : '',
    r.cancelled ? 'cancelled' : '',
  ].filter(Boolean);
  return `${count(r.matchCount, 'result')} for "${query}" in ${count(r.filesMatched, 'file')}; ${parts.join('; ')}`;
}
