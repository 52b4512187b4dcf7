/**
 * Reading a whole entry (or a bundle member's range of one) into memory: the one way every front
 * end does it, the CLI, the script index, the name sources and the extension's models alike.
 * The first bytes (at most `HEADER_PREFIX_BYTES`, decoded alone) are checked against the format
 * the path's extension names before anything else is read, then the size against the cap, then
 * the rest. A 512 KiB archive whose `.bndl` decodes to 2 GiB of zeros costs 64 KiB before "not a
 * BNDL"; a valid header in front of 8 GiB is refused by the cap, never allocated.
 */
import { Arch06Error } from '../errors';
import { FieldReader } from '../io/fieldReader';
import { expectMagicVersion, startsWithTag } from '../io/magic';
import { DEFAULT_MAX_ENTRY_BYTES, checkEntrySize } from '../io/node/fileSource';
import { BNDL_MORDOR_VERSION, BNDL_VERSION } from '../formats/bundle/bndl';
import { OBJR_VERSION } from '../formats/registry';
import { SKDB_VERSION } from '../formats/strings';
import { SCRI_VERSION } from '../formats/script';
import { SKEL_VERSION } from '../formats/mesh';
import type { SourceEntry } from './source';

/** How much of an entry is read first, for the header check. */
export const HEADER_PREFIX_BYTES = 64 << 10;

/** A check of an entry's first bytes; throws the typed error the format's reader would. */
export type HeaderCheck = (prefix: Uint8Array, file: string) => void;

export interface EntryReadOptions {
  /** What names the entry in errors (default: source and path). */
  name?: string;
  /** Bytes one entry may hold in memory (default 1 GiB; `Mount.maxEntryBytes` is the mount's). */
  maxBytes?: number;
  /** How a user raises the cap, said when it is hit. */
  raiseHint?: string;
  /** The check of the first bytes (default: `headerCheckFor` the entry's path; null: none). */
  checkHeader?: HeaderCheck | null;
}

const check =
  (tag: string, versions: number[], what: string, optional = false): HeaderCheck =>
  (prefix, file) => {
    if (prefix.length < 8) return; // the whole entry is this short: its reader says why
    const r = new FieldReader(prefix, file);
    if (optional && !startsWithTag(r, tag)) return;
    expectMagicVersion(r, tag, versions, tag, { what });
  };

/** The header checks of the formats read whole, by extension (a script may be a bare payload: SCRI is checked only when present). */
const HEADER_CHECKS: Record<string, HeaderCheck> = {
  bndl: check('BNDL', [BNDL_VERSION, BNDL_MORDOR_VERSION], 'a BNDL file'),
  objres: check('OBJR', [OBJR_VERSION], 'an OBJR object registry'),
  strdb: check('SKDB', [SKDB_VERSION], 'an SKDB string table'),
  scripts: check('SCRI', [SCRI_VERSION], 'a SCRI script', true),
  hks: check('SCRI', [SCRI_VERSION], 'a SCRI script', true),
  skel: check('SKEL', [SKEL_VERSION], 'a SKEL skeleton'),
};

/** The header check of the format a path's extension names, or undefined when none is known. */
export function headerCheckFor(path: string): HeaderCheck | undefined {
  const ext = /\.([^.\\/]+)$/.exec(path)?.[1].toLowerCase();
  return ext === undefined ? undefined : HEADER_CHECKS[ext];
}

function checked(entry: SourceEntry, start: number, end: number, options: EntryReadOptions): { name: string } {
  if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= entry.size))
    throw new Arch06Error('OUT_OF_RANGE', 'read range outside the entry', {
      file: entry.path,
      expected: `within [0, ${entry.size}]`,
      actual: `[${start}, ${end})`,
    });
  const name = options.name ?? `${entry.source.name}:${entry.path}`;
  const headerCheck = options.checkHeader === undefined ? headerCheckFor(entry.path) : options.checkHeader;
  if (headerCheck) headerCheck(entry.readSync(start, Math.min(end, start + HEADER_PREFIX_BYTES)), name);
  checkEntrySize(end - start, name, options.maxBytes ?? DEFAULT_MAX_ENTRY_BYTES, options.raiseHint);
  return { name };
}

/** Bytes [start, end) of an entry (default: all of it), header first and within the cap. */
export function readEntryChecked(entry: SourceEntry, options: EntryReadOptions = {}, start = 0, end = entry.size): Uint8Array {
  checked(entry, start, end, options);
  return entry.readSync(start, end);
}

/** The same, the bulk read without blocking the thread. */
export async function readEntryCheckedAsync(entry: SourceEntry, options: EntryReadOptions = {}, start = 0, end = entry.size): Promise<Uint8Array> {
  checked(entry, start, end, options);
  return entry.read(start, end);
}
