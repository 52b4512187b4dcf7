/**
 * `verify`: decode every entry of every mounted source and report each failure; never stops at
 * the first. Large entries are read in bounded ranges so memory stays flat. Also reports the
 * table rules the engine's lookups rely on (sorted folders and leaves) and path-index problems.
 */
import { isArch06Error } from '../errors';
import { canDecode, decodeOodle, identifyCodec } from '../oodle';
import { compareFolderBytes, compareLeafBytes } from '../formats/archive/ltar/order';
import { DirectorySource } from './directorySource';
import { LtarEntry, LtarSource } from './ltarSource';
import { Mount } from './mount';
import { SourceEntry } from './source';

export interface VerifyFailure {
  source: string;
  path: string;
  code: string;
  message: string;
}

export interface VerifyReport {
  sources: number;
  entries: number;
  /** Decoded bytes checked. */
  bytes: number;
  failures: VerifyFailure[];
  /** Chunks whose codec this build cannot decode, by codec name (e.g. lzb16), counted apart. */
  unsupportedChunks: Record<string, number>;
  /** Chunks of a decoded codec that use a form no real sample exercises (UNSUPPORTED_FORM), by codec, counted apart. */
  unsupportedForms: Record<string, number>;
  /** Chunks of fully read archive entries, by codec name ('stored' for stored chunks). */
  chunksByCodec: Record<string, number>;
  /** Rule findings that do not stop reading (table order, path index rows). */
  warnings: { source: string; message: string }[];
  /**
   * Sources whose file changed on disk during the run (replaced, truncated, deleted…): reading
   * stopped there, and `unchecked` of their entries were not checked.
   */
  changed: { source: string; detail: string; unchecked: number }[];
}

export interface VerifyOptions {
  /** Called after each entry; `bytes`: the decoded bytes checked so far. */
  onProgress?: (done: number, total: number, current: string, bytes: number) => void;
  isCancelled?: () => boolean;
  /** Largest range decoded at once (default 16 MiB). */
  blockSize?: number;
}

export function verifyMount(mount: Mount, options: VerifyOptions = {}): VerifyReport {
  const report: VerifyReport = {
    sources: mount.sources.length,
    entries: 0,
    bytes: 0,
    failures: [],
    unsupportedChunks: {},
    unsupportedForms: {},
    chunksByCodec: {},
    warnings: [],
    changed: [],
  };
  const total = mount.sources.reduce((n, s) => n + s.fileCount, 0);
  const block = options.blockSize ?? 16 << 20;
  let done = 0;
  // A cfg line naming a file that is not an archive: the mount is incomplete.
  for (const b of mount.broken) report.failures.push({ source: b.text, path: '', code: b.code, message: `broken source (cfg line ${b.line}): ${b.reason}` });
  const duplicates = mount.index().duplicates;
  for (const d of duplicates) {
    const src = mount.sources[d.source];
    report.warnings.push({
      source: src.name,
      message: `${d.path} is held ${d.files.length} times (records ${d.files.join(', ')}); lookups get record ${d.served}, the others are never served`,
    });
  }
  for (const s of mount.sources) {
    if (s instanceof LtarSource) {
      checkOrder(s, report);
      for (const p of s.archive.structureProblems) report.failures.push({ source: s.name, path: '', code: 'INVALID', message: p });
    }
    for (let i = 0; i < s.fileCount; i++) {
      if (options.isCancelled?.()) return report;
      const hidden = s.hidden(i);
      if (hidden !== undefined) {
        // A name that cannot be a path: reported, never decoded or written (and never built in full: it may be huge).
        const label = s instanceof LtarSource ? s.archive.shortPath(i) : s.pathAt(i);
        report.failures.push({ source: s.name, path: label, code: 'UNSAFE_NAME', message: `file[${i}] name ${hidden}` });
        report.entries++;
        options.onProgress?.(++done, total, `${s.name}:${label}`, report.bytes);
        continue;
      }
      const path = s.pathAt(i);
      let entry: SourceEntry | undefined;
      try {
        entry = s.entryAt(i);
        for (let at = 0; at < entry.size; at += block) {
          entry.readSync(at, Math.min(entry.size, at + block));
        }
        report.bytes += entry.size;
        if (entry instanceof LtarEntry && entry.storage === 'chunked') countChunks(entry, report);
      } catch (e) {
        const change = isArch06Error(e) && e.code === 'CHANGED_ON_DISK' ? s.changedOnDisk() : undefined;
        if (change) {
          // The archive is not the one mounted any more: its tables say nothing about the new file.
          const unchecked = s.fileCount - i;
          report.changed.push({ source: s.name, detail: change.detail, unchecked });
          report.failures.push({
            source: s.name,
            path: '',
            code: 'CHANGED_ON_DISK',
            message: `changed on disk during verify (${change.detail}): ${unchecked} of its ${s.fileCount} entries not checked; run verify again`,
          });
          done += unchecked;
          options.onProgress?.(done, total, `${s.name}:${path}`, report.bytes);
          break;
        }
        report.failures.push({ source: s.name, path, code: isArch06Error(e) ? e.code : 'ERROR', message: (e as Error).message });
        if (isArch06Error(e) && e.code === 'UNSUPPORTED_CODEC' && entry instanceof LtarEntry) countUnsupported(entry, report);
        if (isArch06Error(e) && e.code === 'UNSUPPORTED_FORM' && entry instanceof LtarEntry) countUnsupportedForms(entry, report);
      }
      report.entries++;
      options.onProgress?.(++done, total, `${s.name}:${path}`, report.bytes);
    }
    // After its files were listed: the subfolders a loose folder could not read.
    if (s instanceof DirectorySource)
      for (const u of s.unreadable)
        report.warnings.push({ source: s.name, message: `folder ${u.path || '(top)'} could not be read and is skipped: ${u.reason}` });
  }
  const table = mount.pathTable();
  for (const { archive, problem } of table.problems) report.warnings.push({ source: archive, message: `path index row ${problem.row}: ${problem.message}` });
  for (const { archive, error } of table.errors)
    report.failures.push({ source: archive, path: 'archivepatchloosefiles.txt', code: error.code, message: error.message });
  return report;
}

/** Every chunk of an entry (its index walked in full), with a reader for the first bytes of its payload. */
function* chunksOf(entry: LtarEntry): Generator<{ stored: boolean; rawLen: number; payload: (max?: number) => Uint8Array }> {
  const cs = entry.chunkStream();
  const n = cs.indexAll();
  for (let c = 0; c < n; c++) {
    const ch = cs.chunk(c);
    const at = entry.record.dataOffset + ch.headerOffset + 8;
    yield { stored: ch.stored, rawLen: ch.rawLen, payload: (max = ch.storedLen) => entry.source.bytes.readSync(at, Math.min(max, ch.storedLen)) };
  }
}

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** Count every chunk of the entry whose codec is not decodable (the entry's other chunks may be fine). */
function countUnsupported(entry: LtarEntry, report: VerifyReport): void {
  try {
    for (const ch of chunksOf(entry)) {
      const codec = ch.stored ? undefined : identifyCodec(ch.payload(2));
      if (codec && !canDecode(codec)) bump(report.unsupportedChunks, codec);
    }
  } catch {
    // The decode failure is already reported for this entry.
  }
}

/** Count the chunks of a fully read entry by codec ('stored' for stored chunks). */
function countChunks(entry: LtarEntry, report: VerifyReport): void {
  for (const ch of chunksOf(entry)) bump(report.chunksByCodec, ch.stored ? 'stored' : identifyCodec(ch.payload(2)));
}

/** Count every chunk of the entry that fails with UNSUPPORTED_FORM on its own (reading stops at the first). */
function countUnsupportedForms(entry: LtarEntry, report: VerifyReport): void {
  try {
    for (const ch of chunksOf(entry)) {
      if (ch.stored) continue;
      const payload = ch.payload();
      try {
        decodeOodle(payload, ch.rawLen);
      } catch (e) {
        if (isArch06Error(e) && e.code === 'UNSUPPORTED_FORM') bump(report.unsupportedForms, identifyCodec(payload));
      }
    }
  } catch {
    // The decode failure is already reported for this entry.
  }
}

/** The engine's binary searches need sorted tables; report where they are not. */
function checkOrder(s: LtarSource, report: VerifyReport): void {
  const a = s.archive;
  const pool = a.namePool;
  for (let f = 2; f < a.folderCount; f++) {
    const [ps, pe] = a.folderSpan(f - 1);
    const [cs, ce] = a.folderSpan(f);
    if (compareFolderBytes(pool, ps, pe, pool, cs, ce) >= 0) {
      report.warnings.push({
        source: s.name,
        message: `folder records out of order at ${f} (${a.folderPath(f - 1)} / ${a.folderPath(f)}): the engine's folder search can miss folders`,
      });
    }
  }
  for (let f = 0; f < a.folderCount; f++) {
    const [first, end] = a.folderFiles(f);
    for (let i = first + 1; i < end; i++) {
      const [ps, pe] = a.leafSpan(i - 1);
      const [cs, ce] = a.leafSpan(i);
      if (compareLeafBytes(pool, ps, pe, pool, cs, ce) >= 0) {
        report.warnings.push({
          source: s.name,
          message: `leaf names out of order in folder "${a.folderPath(f)}" at ${a.leafName(i)}: the engine's lookup can miss files`,
        });
        break;
      }
    }
  }
}
