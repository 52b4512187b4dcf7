/**
 * Find in Files on a pool worker (core/archive/workerPool.ts): a task is a run of mounted files in
 * the search's order, each named by its archive and its entry there; the worker opens the archives
 * itself (no file bytes cross threads), gets each file's searchable text (./fileText.ts) and
 * returns the matches and the counts the calling thread merges in order (`TextSearch.absorb`).
 *
 * The texts are kept between searches (a bounded cache per worker, filled in the order files are
 * first searched): the pool hands a worker the same runs again, so a later search of the same
 * install reads and decodes nothing.
 */
import { isArch06Error } from '../errors';
import type { Source } from '../archive/source';
import type { ArchiveRef, WorkerArchives } from '../archive/workerArchives';
import { backgroundShouldYield } from '../archive/workerPool';
import { type TextView, SNIFF_BYTES, NUL_REASON, planFile, textOf } from './fileText';
import { type TextMatch, eachMatch } from './fileMatch';
import { makeMatcher } from './lineMatch';

export const SEARCH_KIND = 'search';

export interface SearchTask {
  query: string;
  isRegExp: boolean;
  matchCase: boolean;
  decoded: boolean;
  maxFileSize: number;
  /** Matches past this many in the run are not needed (the calling thread's limit). */
  maxMatches: number;
  /**
   * Only decode the texts into the cache (`prepareSearch`): nothing is matched, and the run ends
   * early when a foreground task waits (`backgroundShouldYield`): a search reads what is left.
   */
  warm?: boolean;
  archives: ArchiveRef[];
  /** The files: their paths, and for each its archive (an index into `archives`) and entry number. */
  paths: string[];
  archive: Int32Array;
  file: Int32Array;
}

export interface SearchUnitResult {
  /** Files the include passed (read or planned). */
  included: number;
  searched: number;
  searchedAs: Record<TextView, number>;
  /** Files skipped as binary, by why, in the order first seen. */
  binary: [string, number][];
  skipped: { path: string; reason: string }[];
  /** Every match of the run, file after file, and how many each file had. */
  matches: TextMatch[];
  matchesPerFile: number[];
}

/** A result with nothing searched yet (a run starts from it; a run not searched is it). */
export function nothingSearched(): SearchUnitResult {
  return { included: 0, searched: 0, searchedAs: { text: 0, script: 0, decoded: 0 }, binary: [], skipped: [], matches: [], matchesPerFile: [] };
}

/** A file's searchable text as had once, or why it has none. */
type Had = { text: string; view: TextView } | { binary: string };

/** Characters of text a worker keeps between searches (two bytes each in V8's two-byte strings at worst). */
export const SEARCH_CACHE_CHARS = 32 << 20;

export class SearchWorkerState {
  private readonly texts = new Map<string, Had>();
  private chars = 0;

  constructor(
    private readonly archives: WorkerArchives | undefined,
    private readonly cacheChars = SEARCH_CACHE_CHARS,
    /** Polled before each file of a `warm` run: true ends the run there. */
    private readonly shouldYield: () => boolean = backgroundShouldYield,
  ) {}

  /** Search a run of files; `here` gives the calling thread's own sources instead of opening `task.archives`. */
  run(task: SearchTask, here?: readonly Source[]): SearchUnitResult {
    const matcher = makeMatcher(task.query, task.isRegExp, task.matchCase);
    const out = nothingSearched();
    const binary = new Map<string, number>();
    const opened = task.archives.map((a, k): Source | Error => {
      if (here) return here[k];
      try {
        if (!this.archives) throw new Error('no archives to open on this thread');
        return this.archives.open(a.name, a.diskPath, a.stamp);
      } catch (e) {
        if (!isArch06Error(e)) throw e;
        return e;
      }
    });
    for (let i = 0; i < task.paths.length; i++) {
      if (task.warm && this.shouldYield()) break;
      const path = task.paths[i];
      out.included++;
      const src = opened[task.archive[i]];
      const had = this.textOf(task, path, src, task.archive[i], task.file[i], out);
      if (!had) {
        out.matchesPerFile.push(0);
        continue;
      }
      if ('binary' in had) {
        binary.set(had.binary, (binary.get(had.binary) ?? 0) + 1);
        out.matchesPerFile.push(0);
        continue;
      }
      out.searched++;
      out.searchedAs[had.view]++;
      if (task.warm) {
        out.matchesPerFile.push(0);
        continue;
      }
      let n = 0;
      eachMatch(matcher, had.text, { path, source: task.archives[task.archive[i]].name, view: had.view }, (m) => {
        out.matches.push(m);
        n++;
        return out.matches.length < task.maxMatches;
      });
      out.matchesPerFile.push(n);
      if (out.matches.length >= task.maxMatches) break;
    }
    out.binary = [...binary];
    return out;
  }

  /** The text of one file (cached), or undefined when it was skipped (too large, unreadable: in `out.skipped`). */
  private textOf(task: SearchTask, path: string, src: Source | Error, a: number, file: number, out: SearchUnitResult): Had | undefined {
    if (src instanceof Error) {
      out.skipped.push({ path, reason: src.message });
      return undefined;
    }
    const ref = task.archives[a];
    const plan = planFile(path, task.decoded);
    if (plan.read === 'no') return { binary: plan.binary };
    let had: Had;
    try {
      const entry = src.entryAt(file);
      if (entry.size > task.maxFileSize) {
        out.skipped.push({ path, reason: `larger than ${task.maxFileSize} bytes` });
        return undefined;
      }
      const key = `${ref.diskPath}\0${ref.stamp.mtimeMs}:${ref.stamp.size}\0${file}\0${task.decoded ? 1 : 0}`;
      const cached = this.texts.get(key);
      if (cached) return cached;
      // As on the calling thread: a large file of unknown type is sniffed first.
      if (plan.read === 'text' && entry.size > 8 * SNIFF_BYTES && entry.readSync(0, SNIFF_BYTES).includes(0)) had = { binary: NUL_REASON };
      else had = textOf(path, plan, entry.readSync());
      this.keep(key, had);
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      out.skipped.push({ path, reason: e.message });
      return undefined;
    }
    return had;
  }

  private keep(key: string, had: Had): void {
    const cost = 'text' in had ? had.text.length : 0;
    if (this.chars + cost > this.cacheChars) return;
    this.texts.set(key, had);
    this.chars += cost;
  }
}
