/**
 * A bounded scan of a folder the user hands over as input to be packed (a mod folder): every
 * regular file with its size, and one refusal per thing that cannot be taken as it is. Unlike
 * `walkFiles` (the mount's view of a loose folder) it follows no folder link and reports every
 * link: a link whose target lies outside the folder is refused (a mod cannot smuggle in
 * `/etc/passwd` or another mod's files), a link to a file inside is read as that file, a link to a
 * folder is refused (it would list a subtree twice or loop). Work is bounded by `maxFiles` and
 * `maxEntries`: the scan stops at the first file past the limit and says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errnoSummary, isErrnoException } from './errno';
import { isInside } from './disk';

export interface ScannedFile {
  /** Path segments under the scanned folder, as spelled on disk. */
  segments: string[];
  /** Absolute disk path (for a link to a file inside the folder: the link's target). */
  diskPath: string;
  size: number;
  /** Set when the file was reached through a symbolic link inside the folder. */
  viaLink?: true;
}

export type ScanRefusalCode = 'LINK_OUTSIDE' | 'LINK_TO_FOLDER' | 'NOT_REGULAR' | 'UNREADABLE' | 'TOO_DEEP' | 'TOO_MANY_FILES';

export interface ScanRefusal {
  /** Path segments under the scanned folder (empty for the folder itself). */
  segments: string[];
  code: ScanRefusalCode;
  reason: string;
}

export interface TreeScan {
  files: ScannedFile[];
  refusals: ScanRefusal[];
  /** The scan stopped early (too many files or entries): `files` is not the whole folder. */
  truncated: boolean;
  /** Directory entries looked at (files, folders, links, others). */
  entriesSeen: number;
}

export interface TreeScanOptions {
  /** Files accepted at most; one more stops the scan with TOO_MANY_FILES. */
  maxFiles: number;
  /** Directory entries looked at, at most (empty folders cost too); default 4 x maxFiles + 1,000. */
  maxEntries?: number;
  /** Folder depth, at most (default 64). */
  maxDepth?: number;
  /** Names left out at the top level only (the mod's own manifest). */
  skipTopLevel?: ReadonlySet<string>;
}

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

export function scanTree(dir: string, options: TreeScanOptions): TreeScan {
  const root = path.resolve(dir);
  const realRoot = fs.realpathSync.native(root);
  const maxEntries = options.maxEntries ?? options.maxFiles * 4 + 1000;
  const maxDepth = options.maxDepth ?? 64;
  const out: TreeScan = { files: [], refusals: [], truncated: false, entriesSeen: 0 };
  const stop = (segments: string[], code: ScanRefusalCode, reason: string): void => {
    out.truncated = true;
    out.refusals.push({ segments, code, reason });
  };
  // Iterative depth-first walk; each stack item is a folder reached without any link.
  const stack: string[][] = [[]];
  while (stack.length && !out.truncated) {
    const segs = stack.pop()!;
    const abs = path.join(root, ...segs);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      if (segs.length === 0 || !isErrnoException(e)) throw e;
      out.refusals.push({ segments: segs, code: 'UNREADABLE', reason: `cannot list: ${errnoSummary(e)}` });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)); // popped in name order
    for (const d of entries) {
      if (++out.entriesSeen > maxEntries) {
        stop([], 'TOO_MANY_FILES', `more than ${maxEntries} entries (files and folders): scan stopped`);
        break;
      }
      if (segs.length === 0 && options.skipTopLevel?.has(d.name)) continue;
      const s = [...segs, d.name];
      const p = path.join(abs, d.name);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(p);
      } catch (e) {
        if (!isErrnoException(e)) throw e;
        out.refusals.push({ segments: s, code: 'UNREADABLE', reason: errnoSummary(e) });
        continue;
      }
      let viaLink = false;
      let target = p;
      if (st.isSymbolicLink()) {
        try {
          target = fs.realpathSync.native(p);
          st = fs.statSync(target);
        } catch (e) {
          if (!isErrnoException(e)) throw e;
          out.refusals.push({ segments: s, code: 'LINK_OUTSIDE', reason: `a symbolic link that leads nowhere readable (${errnoSummary(e)})` });
          continue;
        }
        if (!isInside(target, realRoot)) {
          out.refusals.push({ segments: s, code: 'LINK_OUTSIDE', reason: `a symbolic link out of the folder (to ${target})` });
          continue;
        }
        if (st.isDirectory()) {
          out.refusals.push({ segments: s, code: 'LINK_TO_FOLDER', reason: 'a symbolic link to a folder: not followed (it would list files twice or loop)' });
          continue;
        }
        viaLink = true;
      }
      if (st.isDirectory()) {
        if (s.length > maxDepth) out.refusals.push({ segments: s, code: 'TOO_DEEP', reason: `deeper than ${maxDepth} folders: not scanned` });
        else stack.push(s);
        continue;
      }
      if (!st.isFile()) {
        out.refusals.push({ segments: s, code: 'NOT_REGULAR', reason: `${kindOf(st)}, not a regular file` });
        continue;
      }
      if (out.files.length >= options.maxFiles) {
        stop([], 'TOO_MANY_FILES', `more than ${options.maxFiles} files: scan stopped`);
        break;
      }
      out.files.push({ segments: s, diskPath: target, size: st.size, ...(viaLink ? { viaLink: true as const } : {}) });
    }
  }
  return out;
}
