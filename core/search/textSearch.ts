/**
 * "Find in Files" over a mount: every winning file whose path matches a glob is read and
 * searched for a literal string or a regular expression, line by line. Binary-looking files
 * (a NUL in the first 8 KiB) are skipped, as editors do; huge files are skipped above a limit.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { Mount } from '../archive/mount';
import type { MemberRow } from '../archive/memberCatalog';
import { type ResolvedBundle, readBundleMember, resolveBundle } from '../archive/bundles';
import { globToRegExp } from './glob';

export interface TextSearchOptions {
  query: string;
  isRegExp?: boolean;
  matchCase?: boolean;
  /** Files to include (glob); default every file. */
  include?: string;
  /** Files larger than this are skipped (default 16 MiB). */
  maxFileSize?: number;
  /** Stop after this many matches (default 10,000). */
  maxMatches?: number;
  isCancelled?: () => boolean;
  onProgress?: (filesSearched: number, filesTotal: number) => void;
  /**
   * Bundle members to search too (a MemberCatalog's rows): those only a container serves, whose
   * paths match `include` (a member a loose entry serves is searched as that entry).
   */
  members?: readonly MemberRow[];
}

export interface TextMatch {
  path: string;
  source: string;
  /** For a bundle member: its manifest's game path (open it in the bundle's folder). */
  bundle?: string;
  /** 0-based line and character range of the match. */
  line: number;
  start: number;
  end: number;
  /** The line's text (trimmed to 400 characters around the match). */
  preview: string;
}

export interface TextSearchResult {
  matches: TextMatch[];
  filesSearched: number;
  filesSkipped: { path: string; reason: string }[];
  limitHit: boolean;
  cancelled: boolean;
}

export function searchText(mount: Mount, options: TextSearchOptions): TextSearchResult {
  const flags = options.matchCase ? 'g' : 'gi';
  let re: RegExp;
  try {
    re = new RegExp(options.isRegExp ? options.query : options.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  } catch (e) {
    throw new Arch06Error('BAD_ARGUMENT', `invalid regular expression: ${(e as Error).message}`);
  }
  if (!options.query) throw new Arch06Error('BAD_ARGUMENT', 'empty search text');
  const include = globToRegExp(options.include ?? '');
  const maxSize = options.maxFileSize ?? 16 << 20;
  const maxMatches = options.maxMatches ?? 10_000;
  const result: TextSearchResult = { matches: [], filesSearched: 0, filesSkipped: [], limitHit: false, cancelled: false };

  const ix = mount.index();
  // One pass builds every path (per folder, not per entry); the glob picks from those.
  const paths = mount.distinctPaths();
  const targets: number[] = [];
  for (let d = 0; d < ix.size; d++) if (include.test(paths[d])) targets.push(d);
  const memberTargets = (options.members ?? []).filter((m) => m.servedFrom === 'container' && include.test(m.path));
  const total = targets.length + memberTargets.length;
  const td = new TextDecoder('utf-8');
  /** Search one file's bytes; false once the match limit is hit. */
  const searchBytes = (path: string, source: string, bundle: string | undefined, bytes: Uint8Array): void => {
    if (bytes.subarray(0, 8192).includes(0)) return; // binary
    result.filesSearched++;
    const lines = td.decode(bytes).split(/\r?\n/);
    for (let l = 0; l < lines.length && !result.limitHit; l++) {
      const text = lines[l];
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const from = Math.max(0, m.index - 200);
        result.matches.push({
          path,
          source,
          ...(bundle ? { bundle } : {}),
          line: l,
          start: m.index,
          end: m.index + m[0].length,
          preview: text.slice(from, from + 400),
        });
        if (result.matches.length >= maxMatches) {
          result.limitHit = true;
          break;
        }
        if (m[0].length === 0) re.lastIndex++; // an empty match must still advance
      }
    }
  };
  const stop = (): boolean => {
    if (options.isCancelled?.()) result.cancelled = true;
    return result.cancelled || result.limitHit;
  };
  for (const d of targets) {
    if (stop()) break;
    const source = mount.sources[ix.winnerSource[d]];
    const path = paths[d];
    try {
      const entry = source.entryAt(ix.winnerFile[d]);
      if (entry.size > maxSize) result.filesSkipped.push({ path, reason: `larger than ${maxSize} bytes` });
      else searchBytes(path, source.name, undefined, entry.readSync());
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      result.filesSkipped.push({ path, reason: e.message });
    }
    options.onProgress?.(result.filesSearched, total);
  }
  // Members, one resolved bundle at a time (rows of one manifest are adjacent in a catalog).
  let resolved: { manifest: string; bundle: ResolvedBundle | Error } | undefined;
  for (const row of memberTargets) {
    if (stop()) break;
    const shown = `${row.bundle} [${row.path}]`;
    try {
      if ((row.size ?? 0) > maxSize) {
        result.filesSkipped.push({ path: shown, reason: `larger than ${maxSize} bytes` });
        continue;
      }
      if (resolved?.manifest !== row.bundle) {
        let bundle: ResolvedBundle | Error;
        try {
          bundle = resolveBundle(mount, row.bundle);
        } catch (e) {
          bundle = e instanceof Error ? e : new Error(String(e));
        }
        resolved = { manifest: row.bundle, bundle };
      }
      if (resolved.bundle instanceof Error) throw resolved.bundle;
      searchBytes(row.path, row.source ?? '', row.bundle, readBundleMember(mount, resolved.bundle, row.path));
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      result.filesSkipped.push({ path: shown, reason: e.message });
    }
    options.onProgress?.(result.filesSearched, total);
  }
  return result;
}
