/**
 * The string-table family's public face: SKDB v9 (`.strdb`, seed 004), read and validated (keys
 * strictly ascending, text ending at the file's end) and written.
 */
export { SKDB_HEADER_SIZE, SKDB_VERSION, findString, parseSkdb } from './skdb';
export type { StringTable, StringTableEntry } from './skdb';
export { writeSkdb } from './writer';
export type { SkdbWriterEntry } from './writer';
