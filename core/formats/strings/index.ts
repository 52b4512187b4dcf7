/**
 * The string-table family's public face: SKDB v9 (`.strdb`, seed 004), read and validated (keys
 * strictly ascending, text ending at the file's end) and written; `StringTableDocument`
 * holds one for editing and writes it back exactly.
 */
export { SKDB_HEADER_SIZE, SKDB_VERSION, findString, parseSkdb } from './skdb';
export type { StringTable, StringTableEntry } from './skdb';
export { writeSkdb } from './writer';
export { StringTableDocument } from './document';
export type { StringTableKey, TextAreaString } from './document';
export type { SkdbWriterEntry } from './writer';
