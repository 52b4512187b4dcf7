/**
 * The archive family's public face: LTAR v4 archives (the reader, validated once, and the writer,
 * for fixtures, the sample install and the benchmark) and the path index
 * (`archivepatchloosefiles.txt`). Lookups, sort orders and chunk streams stay inside the family.
 */
export { MAX_CHUNK_LEN, NAME_POOL_START, PATH_INDEX_NAME } from './ltar/layout';
export { LtarArchive } from './ltar/reader';
export type { EntryStorage, LtarFileRecord, LtarHeader, RecordProblem } from './ltar/reader';
export { LtarWriter, frameStoredChunk, storedStreamSize } from './ltar/writer';
export type { ArchivePlan, PlannedEntry, WriterChunk, WriterEntry } from './ltar/writer';
export { parsePathIndex, writePathIndex } from './pathIndex';
export type { PathIndex, PathIndexProblem, PathIndexRow } from './pathIndex';
