/**
 * `arch06 hashtable <exe>`: find the StringHash table in the game executable; and
 * `arch06 hash --table-from <exe> <string>`: hash with it. Exit 0 when exactly one table is found,
 * 2 otherwise with one stderr line saying why (none, the closest miss, or the candidates).
 */
import { isArch06Error } from '../../core/errors';
import { SEED_TABLE_RVA, StringHasher, findHashTables, formatHash, knownHashTable, scanError, tableFromExecutable } from '../../core/hash';
import type { HashTable, TableCandidate } from '../../core/hash';
import { readFileBytes } from '../../core/io/node';
import { ParsedArgs, flagString, need } from '../args';
import { escapeControls, escapeName, printJson, writeOut } from '../output';
import { RAISE_CAP_HINT, maxEntryBytes } from '../limits';
import { hashCommand } from './misc';

const hex = (n: number): string => '0x' + n.toString(16).toUpperCase();

export function hashTableCommand(args: ParsedArgs): number {
  const file = need(args, 0, '<exe>');
  const scan = findHashTables(readFileBytes(file, maxEntryBytes(), RAISE_CAP_HINT));
  const one = scan.total === 1 ? scan.candidates[0] : undefined;
  const error = one ? undefined : scanError(scan, file);
  if (args.flags.has('json')) {
    printJson({
      file,
      offset: one ? one.offset : null,
      elementSize: scan.elementSize,
      knownEntries: scan.knownEntries,
      total: scan.total,
      candidates: scan.candidates.map((c) => ({
        offset: c.offset,
        ...(c.image ? { section: c.image.section, rva: c.image.rva, virtualAddress: c.image.virtualAddress } : {}),
        table: c.table,
      })),
      cutAtEnd: scan.cutAtEnd,
      closest: scan.closest ?? null,
      seedRva: SEED_TABLE_RVA,
      error: error ? error.toJSON() : null,
    });
  } else {
    for (const c of scan.candidates) writeOut(candidateLine(c) + '\n');
    if (one) writeOut(tableGrid(one.table));
  }
  if (error) {
    process.stderr.write(`arch06: ${escapeControls(error.message)}\n`);
    return 2;
  }
  return 0;
}

/** `hash <string>`, or with `--table-from <exe>` the hash under the table found in that executable. */
export function hashWithTableCommand(args: ParsedArgs): number {
  const exe = flagString(args, 'table-from');
  if (exe === undefined) return hashCommand(args);
  const name = need(args, 0, '<string>');
  const found = tableFromExecutable(readFileBytes(exe, maxEntryBytes(), RAISE_CAP_HINT), { file: exe });
  if (isArch06Error(found)) throw found;
  const h = formatHash(new StringHasher(found.table).hash(name));
  if (args.flags.has('json')) printJson({ string: name, hash: h, table: { file: exe, offset: found.offset } });
  else writeOut(h + '\n');
  return 0;
}

/** One candidate: file offset and, for a PE, where it loads (compared with seed 000's address). */
function candidateLine(c: TableCandidate): string {
  let s = `StringHash table at file offset ${hex(c.offset)}`;
  if (c.image) {
    const seed = c.image.rva === SEED_TABLE_RVA ? 'as seed 000 says' : `seed 000 says ${hex(SEED_TABLE_RVA)}`;
    s += `: ${escapeName(c.image.section)} rva ${hex(c.image.rva)}, address ${hex(c.image.virtualAddress)} (${seed})`;
  }
  return s;
}

/** The table as 16 rows of 16 values, entries the seeds did not know marked with `*`. */
function tableGrid(table: HashTable): string {
  const known = knownHashTable();
  let out = 'entries (row = high nibble, * = not known from the seeds):\n';
  out +=
    '      ' +
    Array.from({ length: 16 }, (_, i) => `_${i.toString(16).toUpperCase()}`.padStart(4) + ' ')
      .join('')
      .trimEnd() +
    '\n';
  for (let r = 0; r < 16; r++) {
    let line = `  ${r.toString(16).toUpperCase()}_  `;
    for (let c = 0; c < 16; c++) {
      const i = r * 16 + c;
      line += String(table[i] ?? '?').padStart(4) + (known[i] === undefined ? '*' : ' ');
    }
    out += line.trimEnd() + '\n';
  }
  return out;
}
