/**
 * `verify`: decode every entry of every mounted source and report each failure; never stops at
 * the first. Large entries are read in bounded ranges so memory stays flat. Also reports the
 * table rules the engine's lookups rely on (sorted folders and leaves) and path-index problems.
 */
import { compareFolderBytes, compareLeafBytes } from '../formats/archive/ltar/order';
import { DirectorySource } from './directorySource';
import { LtarSource } from './ltarSource';
import { Mount } from './mount';
import { Source } from './source';
import { type UnitResult, UnitMerger, planUnits, runUnit } from './verifyUnits';
import type { VerifyReport } from './verifyReport';

export type { VerifyFailure, VerifyReport } from './verifyReport';

/** Largest range decoded at once, by default. */
export const DEFAULT_BLOCK = 16 << 20;

export interface VerifyOptions {
  /** Called after each entry; `bytes`: the decoded bytes checked so far. */
  onProgress?: (done: number, total: number, current: string, bytes: number) => void;
  isCancelled?: () => boolean;
  /** Largest range decoded at once (default 16 MiB). */
  blockSize?: number;
  /** Decoded bytes per unit of work (default UNIT_BYTES, core/archive/verifyUnits.ts). */
  unitBytes?: number;
}

/** A report with the mount-wide findings that come before any entry (broken sources, duplicates). */
export function startReport(mount: Mount): VerifyReport {
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
  // A cfg line naming a file that is not an archive: the mount is incomplete.
  for (const b of mount.broken) report.failures.push({ source: b.text, path: '', code: b.code, message: `broken source (cfg line ${b.line}): ${b.reason}` });
  for (const d of mount.index().duplicates) {
    const src = mount.sources[d.source];
    report.warnings.push({
      source: src.name,
      message: `${d.path} is held ${d.files.length} times (records ${d.files.join(', ')}); lookups get record ${d.served}, the others are never served`,
    });
  }
  return report;
}

/** A source's table findings, said before its entries. */
export function beginSource(s: Source, report: VerifyReport): void {
  if (!(s instanceof LtarSource)) return;
  checkOrder(s, report);
  for (const p of s.archive.structureProblems) report.failures.push({ source: s.name, path: '', code: 'INVALID', message: p });
}

/** After a source's entries: the subfolders a loose folder could not read. */
export function endSource(s: Source, report: VerifyReport): void {
  if (s instanceof DirectorySource)
    for (const u of s.unreadable)
      report.warnings.push({ source: s.name, message: `folder ${u.path || '(top)'} could not be read and is skipped: ${u.reason}` });
}

/** The path-index findings, after every entry. */
export function finishReport(mount: Mount, report: VerifyReport): VerifyReport {
  const table = mount.pathTable();
  for (const { archive, problem } of table.problems) report.warnings.push({ source: archive, message: `path index row ${problem.row}: ${problem.message}` });
  for (const { archive, error } of table.errors)
    report.failures.push({ source: archive, path: 'archivepatchloosefiles.txt', code: error.code, message: error.message });
  return report;
}

/** Verify on the calling thread, unit after unit (core/archive/node/verifyPool.ts spreads the same units over threads). */
export function verifyMount(mount: Mount, options: VerifyOptions = {}): VerifyReport {
  const report = startReport(mount);
  const total = mount.sources.reduce((n, s) => n + s.fileCount, 0);
  const block = options.blockSize ?? DEFAULT_BLOCK;
  const merger = new UnitMerger(mount, report);
  const units = planUnits(mount, block, options.unitBytes);
  let u = 0;
  for (let si = 0; si < mount.sources.length; si++) {
    const s = mount.sources[si];
    beginSource(s, report);
    for (; u < units.length && units[u].source === si; u++) {
      if (merger.skips(units[u])) continue;
      // Progress after each entry, not each unit: a unit holds up to ~32 MiB of decoding.
      const onEntry =
        options.onProgress && ((soFar: UnitResult) => options.onProgress!(merger.done + soFar.entries, total, soFar.last, report.bytes + soFar.bytes));
      const r = runUnit(s, units[u], block, options.isCancelled, onEntry);
      if (options.isCancelled?.()) return report;
      merger.add(units[u], r);
      options.onProgress?.(merger.done, total, r.last, report.bytes);
    }
    endSource(s, report);
  }
  return finishReport(mount, report);
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
