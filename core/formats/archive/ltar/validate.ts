/**
 * Validation of the LTAR name pool and folder/file tables, once at open: the structural checks
 * every lookup depends on (they throw), then the findings that leave the rest of the archive
 * usable: records whose data lies outside the archive, names that can never be paths (hidden),
 * and folder links that loop, share or misname children (cut). Fills the tables' name ends and
 * folder file starts in place, for the reader and the lookups (./lookup.ts).
 */
import { Arch06Error } from '../../../errors';
import { MAX_GAME_PATH_BYTES, badGamePathReason, badSegmentReason } from '../../../io/safeName';
import {
  FILE_DATA_OFFSET,
  FILE_NAME_OFFSET,
  FILE_RECORD_SIZE,
  FILE_SIZE,
  FILE_STORED_SIZE,
  FOLDER_FILE_COUNT,
  FOLDER_FIRST_CHILD,
  FOLDER_NAME_OFFSET,
  FOLDER_NEXT_SIBLING,
  FOLDER_RECORD_SIZE,
  NAME_POOL_START,
  NO_FOLDER,
} from './layout';
import { LtarHeader } from './header';
import { LtarTables } from './lookup';
import { NameEnds } from './names';
import { FOLD } from './order';
import { decodeName, folderLinks, folderPath, folderSpan, isPlain, u64 } from './records';

/** A problem with one record that leaves the rest of the archive usable. */
export interface RecordProblem {
  index: number;
  message: string;
}

/** What validation found, beside the name ends and folder starts it fills into the tables. */
export interface LtarFindings {
  /** Records whose data lies outside the archive. */
  problems: RecordProblem[];
  problemByIndex: Map<number, string>;
  /** Records whose name can never be a path (the why also goes into the tables' `hidden`). */
  hiddenRecords: RecordProblem[];
  /** Folders whose path can never be a path (their files are hidden with them). */
  folderHidden: Uint8Array;
  /** Folder links that loop, share or misname children. */
  structureProblems: string[];
  /** The folder tree as the links declare it, validated: children of f are childList[childStart[f] … +childCount[f]). */
  childStart: Uint32Array;
  childCount: Uint32Array;
  childList: Uint32Array;
}

/** Validate `t` (whose arrays the caller allocated) for the archive `file` of `archiveSize` bytes; throws a typed error on what lookups cannot survive. */
export function validateLtarTables(t: LtarTables, header: LtarHeader, file: string, archiveSize: number): LtarFindings {
  const n = t.folderCount;
  const found: LtarFindings = {
    problems: [],
    problemByIndex: new Map(),
    hiddenRecords: [],
    folderHidden: new Uint8Array(n),
    structureProblems: [],
    childStart: new Uint32Array(n),
    childCount: new Uint32Array(n),
    childList: new Uint32Array(n),
  };
  // Name ends and forbidden bytes, in one look at each name (see names.ts).
  const ends = new NameEnds(t.pool);
  checkTables(t, header, file, archiveSize, ends, found);
  checkNames(t, ends, found);
  buildTree(t, found);
  return found;
}

/** Absolute offset of record `index` of the file or folder table, for messages. */
function tablesOffset(header: LtarHeader, part: 'files' | 'folders', index: number, size: number): number {
  const base = NAME_POOL_START + header.namePoolSize + (part === 'folders' ? header.fileCount * FILE_RECORD_SIZE : 0);
  return base + index * size;
}

/** Structural checks that every lookup depends on. Per-record data ranges only mark the record. */
function checkTables(t: LtarTables, header: LtarHeader, file: string, archiveSize: number, ends: NameEnds, found: LtarFindings): void {
  const { fileCount, folderCount, namePoolSize } = header;
  const { pool, files, folders } = t;
  const fail = (message: string, offset: number, field: string, expected?: string, actual?: string): never => {
    throw new Arch06Error('INVALID', message, { file, offset, field, expected, actual });
  };
  // Any name offset before the pool's last NUL is terminated inside the pool.
  const lastNul = pool.lastIndexOf(0);
  const checkName = (off: number, at: number, field: string): void => {
    if (off > lastNul) fail('name offset outside the name pool (or unterminated name)', at, field, `< ${lastNul + 1} (pool size ${namePoolSize})`, String(off));
  };

  let total = 0;
  for (let i = 0; i < folderCount; i++) {
    const rec = i * FOLDER_RECORD_SIZE;
    const at = tablesOffset(header, 'folders', i, FOLDER_RECORD_SIZE);
    const nameOff = folders.getUint32(rec + FOLDER_NAME_OFFSET, true);
    checkName(nameOff, at, `folder[${i}].nameOffset`);
    t.folderNameEnd[i] = ends.end(nameOff);
    for (const [fieldOff, field] of [
      [FOLDER_FIRST_CHILD, 'firstChild'],
      [FOLDER_NEXT_SIBLING, 'nextSibling'],
    ] as const) {
      const link = folders.getUint32(rec + fieldOff, true);
      if (link !== NO_FOLDER && link >= folderCount)
        fail('folder link out of range', at + fieldOff, `folder[${i}].${field}`, `< ${folderCount} or 0xFFFFFFFF`, String(link));
    }
    t.folderFirstFile[i] = total;
    total += folders.getUint32(rec + FOLDER_FILE_COUNT, true);
    if (total > fileCount)
      fail('folder file counts exceed the file count', at + FOLDER_FILE_COUNT, `folder[${i}].fileCount`, `a total of ${fileCount}`, `${total} so far`);
  }
  t.folderFirstFile[folderCount] = total;
  if (total !== fileCount) fail('folder file counts do not add up to the file count', 0x10, 'header.fileCount', String(total), String(fileCount));
  if (t.folderNameEnd[0] !== folders.getUint32(FOLDER_NAME_OFFSET, true)) {
    fail(
      'folder record 0 is not the root (its name is not empty)',
      tablesOffset(header, 'folders', 0, FOLDER_RECORD_SIZE),
      'folder[0].nameOffset',
      '""',
      JSON.stringify(folderPath(t, 0)),
    );
  }

  for (let i = 0; i < fileCount; i++) {
    const rec = i * FILE_RECORD_SIZE;
    checkName(files.getUint32(rec + FILE_NAME_OFFSET, true), tablesOffset(header, 'files', i, FILE_RECORD_SIZE), `file[${i}].nameOffset`);
    const dataOffset = u64(files, rec + FILE_DATA_OFFSET);
    const storedSize = u64(files, rec + FILE_STORED_SIZE);
    const size = u64(files, rec + FILE_SIZE);
    if (storedSize === 0) continue; // empty or absent: nothing is read
    const plain = isPlain(files, rec, storedSize, size);
    const extent = plain ? size : storedSize;
    if (!(dataOffset >= 0 && extent >= 0 && dataOffset + extent <= archiveSize)) {
      addProblem(found, i, `data [${dataOffset}, +${extent}) lies outside the archive (${archiveSize} bytes)`);
    } else if (!plain && size === -1) {
      addProblem(found, i, 'decoded size does not fit in 53 bits');
    }
  }
}

function addProblem(found: LtarFindings, index: number, message: string): void {
  found.problems.push({ index, message });
  found.problemByIndex.set(index, message);
}

function hide(t: LtarTables, found: LtarFindings, index: number, message: string): void {
  found.hiddenRecords.push({ index, message: `name of file[${index}] ${message}: hidden from listings and lookups` });
  t.hidden.set(index, message);
}

/**
 * Names are data: find every folder and leaf whose name cannot be a path. Checked on the bytes,
 * never decoding a name (names.ts: one look at each name, bounded by the longest path accepted),
 * so the work stays linear in the tables however long the names are or however many records
 * point into one.
 */
function checkNames(t: LtarTables, ends: NameEnds, found: LtarFindings): void {
  const { folderCount, pool, files } = t;
  for (let f = 0; f < folderCount; f++) {
    const [fs, fe] = folderSpan(t, f);
    if (fe === fs) continue;
    const reason = fe - fs > MAX_GAME_PATH_BYTES ? `longer than ${MAX_GAME_PATH_BYTES} bytes (${fe - fs})` : badGamePathReason(folderPath(t, f));
    if (reason) {
      found.folderHidden[f] = 1;
      found.structureProblems.push(`folder[${f}] path ${reason}: the folder and its files are hidden`);
    }
  }
  for (let f = 0; f < folderCount; f++) {
    const [fs, fe] = folderSpan(t, f);
    const prefix = fe > fs ? fe - fs + 1 : 0;
    for (let i = t.folderFirstFile[f]; i < t.folderFirstFile[f + 1]; i++) {
      const s = files.getUint32(i * FILE_RECORD_SIZE + FILE_NAME_OFFSET, true);
      const end = ends.end(s);
      const stop = ends.forbiddenAt >= 0 ? ends.forbiddenAt : end;
      t.leafEnd[i] = end;
      if (found.folderHidden[f]) hide(t, found, i, 'lies in a hidden folder');
      else if (prefix + end - s > MAX_GAME_PATH_BYTES) hide(t, found, i, `makes a path longer than ${MAX_GAME_PATH_BYTES} bytes (${prefix + end - s})`);
      else {
        // Checked on the bytes, without decoding the name: empty, "." / "..", a forbidden byte.
        const dots = (end - s === 1 || end - s === 2) && pool[s] === 0x2e && pool[end - 1] === 0x2e;
        const reason =
          stop < end
            ? `holds byte 0x${pool[stop]!.toString(16).padStart(2, '0')} (a separator, colon or control character)`
            : end === s || dots
              ? badSegmentReason(decodeName(pool, s, end))
              : undefined;
        if (reason) hide(t, found, i, reason);
      }
    }
  }
}

/**
 * The folder tree from the links, visiting each record at most once (iterative, so no depth or
 * cycle in the tables can hang or overflow the stack). A child must be a direct child of its
 * parent by path; links that loop, reach a folder twice or misname a child are cut and reported.
 */
function buildTree(t: LtarTables, found: LtarFindings): void {
  const n = t.folderCount;
  const visited = new Uint8Array(n);
  visited[0] = 1;
  const queue = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  let listed = 0;
  queue[tail++] = 0;
  const quoted = (f: number): string => JSON.stringify(folderPath(t, f).slice(0, 80));
  while (head < tail) {
    const f = queue[head++];
    found.childStart[f] = listed;
    for (let c = folderLinks(t.folders, f).firstChild; c >= 0; c = folderLinks(t.folders, c).nextSibling) {
      if (visited[c]) {
        found.structureProblems.push(`folder[${f}]'s child links reach folder[${c}] a second time (a loop or a shared child): cut there`);
        break;
      }
      visited[c] = 1;
      if (!isDirectChild(t, f, c)) {
        found.structureProblems.push(
          `folder[${c}] (${quoted(c)}) is linked under folder[${f}] (${quoted(f)}) but is not its direct child by path: not listed there`,
        );
        continue;
      }
      if (found.folderHidden[c]) continue;
      found.childList[listed++] = c;
      found.childCount[f]++;
      queue[tail++] = c;
    }
  }
  for (let f = 1; f < n; f++) {
    if (!visited[f] && t.folderFirstFile[f + 1] > t.folderFirstFile[f]) {
      found.structureProblems.push(`folder[${f}] (${quoted(f)}) is not linked from the root: its files are found by lookup but not listed`);
    }
  }
}

/** Whether folder c's path is folder f's path plus one segment (compared as the engine does, case-insensitively). */
function isDirectChild(t: LtarTables, f: number, c: number): boolean {
  const [ps, pe] = folderSpan(t, f);
  const [cs, ce] = folderSpan(t, c);
  const pool = t.pool;
  const segStart = pe > ps ? cs + (pe - ps) + 1 : cs;
  if (segStart >= ce) return false;
  if (pe > ps) {
    for (let k = 0; k < pe - ps; k++) if (FOLD[pool[ps + k]] !== FOLD[pool[cs + k]]) return false;
    if (pool[cs + (pe - ps)] !== 0x5c) return false;
  }
  for (let p = segStart; p < ce; p++) if (pool[p] === 0x5c) return false;
  return true;
}
