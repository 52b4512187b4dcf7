/**
 * `verify`: decode every entry of every mounted source and report each failure; never stops at
 * the first. Large entries are read in bounded ranges so memory stays flat. Also reports the
 * table rules the engine's lookups rely on (sorted folders and leaves) and path-index problems.
 */
import { isArch06Error } from '../errors';
import { canDecode, identifyCodec } from '../oodle';
import { compareFolderBytes, compareLeafBytes } from '../formats/ltar/order';
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
  /** Rule findings that do not stop reading (table order, path index rows). */
  warnings: { source: string; message: string }[];
}

export interface VerifyOptions {
  /** Called after each entry. */
  onProgress?: (done: number, total: number, current: string) => void;
  isCancelled?: () => boolean;
  /** Largest range decoded at once (default 16 MiB). */
  blockSize?: number;
}

export function verifyMount(mount: Mount, options: VerifyOptions = {}): VerifyReport {
  const report: VerifyReport = { sources: mount.sources.length, entries: 0, bytes: 0, failures: [], unsupportedChunks: {}, warnings: [] };
  const total = mount.sources.reduce((n, s) => n + s.fileCount, 0);
  const block = options.blockSize ?? 16 << 20;
  let done = 0;
  for (const s of mount.sources) {
    if (s instanceof LtarSource) checkOrder(s, report);
    for (let i = 0; i < s.fileCount; i++) {
      if (options.isCancelled?.()) return report;
      const path = s.pathAt(i);
      let entry: SourceEntry | undefined;
      try {
        entry = s.entryAt(i);
        for (let at = 0; at < entry.size; at += block) {
          entry.readSync(at, Math.min(entry.size, at + block));
        }
        report.bytes += entry.size;
      } catch (e) {
        report.failures.push({ source: s.name, path, code: isArch06Error(e) ? e.code : 'ERROR', message: (e as Error).message });
        if (isArch06Error(e) && e.code === 'UNSUPPORTED_CODEC' && entry instanceof LtarEntry) countUnsupported(entry, report);
      }
      report.entries++;
      options.onProgress?.(++done, total, `${s.name}:${path}`);
    }
  }
  const table = mount.pathTable();
  for (const { archive, problem } of table.problems) report.warnings.push({ source: archive, message: `path index row ${problem.row}: ${problem.message}` });
  for (const { archive, error } of table.errors) report.failures.push({ source: archive, path: 'archivepatchloosefiles.txt', code: error.code, message: error.message });
  return report;
}

/** Count every chunk of the entry whose codec is not decodable (the entry's other chunks may be fine). */
function countUnsupported(entry: LtarEntry, report: VerifyReport): void {
  try {
    const cs = entry.chunkStream();
    const n = cs.indexAll();
    for (let c = 0; c < n; c++) {
      const ch = cs.chunk(c);
      if (ch.stored) continue;
      const head = entry.source.bytes.readSync(entry.record.dataOffset + ch.headerOffset + 8, Math.min(2, ch.storedLen));
      const codec = identifyCodec(head);
      if (!canDecode(codec)) report.unsupportedChunks[codec] = (report.unsupportedChunks[codec] ?? 0) + 1;
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
      report.warnings.push({ source: s.name, message: `folder records out of order at ${f} (${a.folderPath(f - 1)} / ${a.folderPath(f)}): the engine's folder search can miss folders` });
    }
  }
  for (let f = 0; f < a.folderCount; f++) {
    const [first, end] = a.folderFiles(f);
    for (let i = first + 1; i < end; i++) {
      const [ps, pe] = a.leafSpan(i - 1);
      const [cs, ce] = a.leafSpan(i);
      if (compareLeafBytes(pool, ps, pe, pool, cs, ce) >= 0) {
        report.warnings.push({ source: s.name, message: `leaf names out of order in folder "${a.folderPath(f)}" at ${a.leafName(i)}: the engine's lookup can miss files` });
        break;
      }
    }
  }
}
