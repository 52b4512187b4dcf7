/**
 * `verify`'s work in units (issue 25 item 3): one source's run of entries, or a byte range of one
 * large entry, each about `UNIT_BYTES` of decoded data, so the whole game splits across threads
 * by archive and chunk range (core/archive/node/verifyPool.ts). A unit runs wherever the source
 * is open (the calling thread, or a worker that opened the archive itself) and gives a plain
 * result; results are merged in unit order, so the report is the one a single thread makes.
 */
import { isArch06Error } from '../errors';
import { canDecode, decodeOodle, identifyCodec } from '../oodle';
import { LtarEntry, LtarSource } from './ltarSource';
import type { Mount } from './mount';
import type { Source, SourceEntry } from './source';
import type { VerifyReport } from './verifyReport';

/** Decoded bytes a unit aims at: small enough to balance two to sixteen threads, large enough that a message costs nothing beside it. */
export const UNIT_BYTES = 32 << 20;

export interface VerifyUnit {
  /** Index of the source in search order. */
  source: number;
  /** Entries [first, end) of the source. */
  first: number;
  end: number;
  /** A byte range of entry `first` alone (a large entry split at block boundaries); `part` 0 counts the entry. */
  range?: { start: number; end: number; part: number };
}

/** What one unit found: the report's counting fields, for its entries alone. */
export interface UnitResult extends Pick<VerifyReport, 'entries' | 'bytes' | 'failures' | 'unsupportedChunks' | 'unsupportedForms' | 'chunksByCodec'> {
  /** The source's file changed on disk: reading stopped at entry `at`. */
  changed?: { at: number; detail: string };
  /** The last entry checked, for the progress line. */
  last: string;
}

/** Every source's entries as units, in order (a directory's as one unit: its listing lives in the thread that made it). */
export function planUnits(mount: Mount, block: number, unitBytes = UNIT_BYTES): VerifyUnit[] {
  const units: VerifyUnit[] = [];
  mount.sources.forEach((s, source) => {
    if (!(s instanceof LtarSource)) {
      if (s.fileCount) units.push({ source, first: 0, end: s.fileCount });
      return;
    }
    const a = s.archive;
    let first = 0;
    let bytes = 0;
    for (let i = 0; i < s.fileCount; i++) {
      const size = a.hiddenReason(i) === undefined && !a.problemOf(i) ? a.fileRecord(i).size : 0;
      if (size > unitBytes) {
        if (i > first) units.push({ source, first, end: i });
        const step = Math.max(block, Math.floor(unitBytes / block) * block);
        for (let at = 0, part = 0; at < size; at += step, part++)
          units.push({ source, first: i, end: i + 1, range: { start: at, end: Math.min(size, at + step), part } });
        first = i + 1;
        bytes = 0;
        continue;
      }
      bytes += size + 64; // each entry costs something, empty or not
      if (bytes >= unitBytes) {
        units.push({ source, first, end: i + 1 });
        first = i + 1;
        bytes = 0;
      }
    }
    if (s.fileCount > first) units.push({ source, first, end: s.fileCount });
  });
  return units;
}

const bump = (counts: Record<string, number>, key: string, n = 1): void => {
  counts[key] = (counts[key] ?? 0) + n;
};

/** Check the unit's entries of `s` (its bytes read in `block`-sized ranges); never throws for what it reads. */
export function runUnit(
  s: Source,
  unit: VerifyUnit,
  block: number,
  isCancelled?: () => boolean,
  /** After each entry (the calling thread's progress line): the unit's result so far. */
  onEntry?: (soFar: UnitResult) => void,
): UnitResult {
  const r: UnitResult = { entries: 0, bytes: 0, failures: [], unsupportedChunks: {}, unsupportedForms: {}, chunksByCodec: {}, last: '' };
  for (let i = unit.first; i < unit.end; i++) {
    if (isCancelled?.()) return r;
    const hidden = s.hidden(i);
    if (hidden !== undefined) {
      // A name that cannot be a path: reported, never decoded or written (and never built in full: it may be huge).
      const label = s instanceof LtarSource ? s.archive.shortPath(i) : s.pathAt(i);
      r.failures.push({ source: s.name, path: label, code: 'UNSAFE_NAME', message: `file[${i}] name ${hidden}` });
      r.entries++;
      r.last = `${s.name}:${label}`;
      continue;
    }
    const path = s.pathAt(i);
    r.last = `${s.name}:${path}`;
    let entry: SourceEntry | undefined;
    try {
      entry = s.entryAt(i);
      const from = unit.range?.start ?? 0;
      const to = unit.range?.end ?? entry.size;
      for (let at = from; at < to; at += block) entry.readSync(at, Math.min(to, at + block));
      r.bytes += to - from;
      if (entry instanceof LtarEntry && entry.storage === 'chunked' && (unit.range?.part ?? 0) === 0) countChunks(entry, r);
    } catch (e) {
      const change = isArch06Error(e) && e.code === 'CHANGED_ON_DISK' ? s.changedOnDisk() : undefined;
      if (change) {
        r.changed = { at: i, detail: change.detail };
        return r;
      }
      r.failures.push({ source: s.name, path, code: isArch06Error(e) ? e.code : 'ERROR', message: (e as Error).message });
      if (isArch06Error(e) && e.code === 'UNSUPPORTED_CODEC' && entry instanceof LtarEntry) countUnsupported(entry, r);
      if (isArch06Error(e) && e.code === 'UNSUPPORTED_FORM' && entry instanceof LtarEntry) countUnsupportedForms(entry, r);
    }
    if ((unit.range?.part ?? 0) === 0) r.entries++;
    onEntry?.(r);
  }
  return r;
}

/** Merges unit results into a report in unit order: a changed source's later units and a split entry's repeated failures are dropped. */
export class UnitMerger {
  private stoppedSource = -1;
  private failedEntry = '';
  done = 0;

  constructor(
    private readonly mount: Mount,
    private readonly report: VerifyReport,
  ) {}

  /** Whether the unit's source stopped (changed on disk) before it: its result is not wanted. */
  skips(unit: VerifyUnit): boolean {
    return unit.source === this.stoppedSource;
  }

  add(unit: VerifyUnit, r: UnitResult): void {
    if (this.skips(unit)) return;
    const rep = this.report;
    const s = this.mount.sources[unit.source];
    rep.entries += r.entries;
    rep.bytes += r.bytes;
    this.done += r.entries;
    for (const f of r.failures) {
      // A split entry fails once, at its first failing range, as a single read would.
      const id = `${unit.source}|${unit.first}`;
      if (unit.range && this.failedEntry === id) continue;
      if (unit.range) this.failedEntry = id;
      rep.failures.push(f);
    }
    for (const [k, v] of Object.entries(r.chunksByCodec)) bump(rep.chunksByCodec, k, v);
    for (const [k, v] of Object.entries(r.unsupportedChunks)) bump(rep.unsupportedChunks, k, v);
    for (const [k, v] of Object.entries(r.unsupportedForms)) bump(rep.unsupportedForms, k, v);
    if (r.changed) {
      // The archive is not the one mounted any more: its tables say nothing about the new file.
      const unchecked = s.fileCount - r.changed.at;
      this.stoppedSource = unit.source;
      rep.changed.push({ source: s.name, detail: r.changed.detail, unchecked });
      rep.failures.push({
        source: s.name,
        path: '',
        code: 'CHANGED_ON_DISK',
        message: `changed on disk during verify (${r.changed.detail}): ${unchecked} of its ${s.fileCount} entries not checked; run verify again`,
      });
      this.done += unchecked;
    }
  }
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

/** Count every chunk of the entry whose codec is not decodable (the entry's other chunks may be fine). */
function countUnsupported(entry: LtarEntry, r: UnitResult): void {
  try {
    for (const ch of chunksOf(entry)) {
      const codec = ch.stored ? undefined : identifyCodec(ch.payload(2));
      if (codec && !canDecode(codec)) bump(r.unsupportedChunks, codec);
    }
  } catch {
    // The decode failure is already reported for this entry.
  }
}

/** Count the chunks of a fully read entry by codec ('stored' for stored chunks). */
function countChunks(entry: LtarEntry, r: UnitResult): void {
  for (const ch of chunksOf(entry)) bump(r.chunksByCodec, ch.stored ? 'stored' : identifyCodec(ch.payload(2)));
}

/** Count every chunk of the entry that fails with UNSUPPORTED_FORM on its own (reading stops at the first). */
function countUnsupportedForms(entry: LtarEntry, r: UnitResult): void {
  try {
    for (const ch of chunksOf(entry)) {
      if (ch.stored) continue;
      const payload = ch.payload();
      try {
        decodeOodle(payload, ch.rawLen);
      } catch (e) {
        if (isArch06Error(e) && e.code === 'UNSUPPORTED_FORM') bump(r.unsupportedForms, identifyCodec(payload));
      }
    }
  } catch {
    // The decode failure is already reported for this entry.
  }
}
