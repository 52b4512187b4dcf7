/**
 * Where a file `dump` reads was served from, and its bytes: shared by dump.ts and the registry's
 * dump (dumpRegistry.ts), which reads the part's script the same way.
 */
import { type Located, type Mount, readEntryChecked } from '../../core/archive';
import type { OutputBudget } from '../output';

/** Where a dumped file's bytes came from. */
export interface Served {
  /** The game path read. */
  path: string;
  servedFrom: 'loose' | 'container' | 'empty';
  source: string;
  /** The bundle whose member it is, when read through one. */
  bundle?: string;
}

/** A located file's bytes, header first and within the mount's cap (core/archive `readEntryChecked`), and where they came from. */
export function readLocated(m: Mount, at: Located): { bytes: Uint8Array; served: Served } {
  const { entry } = at;
  const bytes = readEntryChecked(entry, { name: entry.path, maxBytes: m.maxEntryBytes, raiseHint: m.maxEntryHint });
  const served: Served = { path: entry.path, servedFrom: at.servedFrom, source: entry.source.name };
  if (at.bundle) served.bundle = `${at.bundle.stem}.bndl`;
  return { bytes, served };
}

/** One line naming where a dumped file came from. */
export function servedLine(out: OutputBudget, s: Served): string {
  return `${out.name(s.path)} (${s.servedFrom} from ${out.name(s.source)}${s.bundle ? `, bundle ${out.name(s.bundle)}` : ''})`;
}
