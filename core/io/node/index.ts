/**
 * core/io/node, the node-only face: the only file-system access in the engine (read-only file
 * sources, what a path is, listings, errno summaries, and `OutputFolder`, the one write
 * primitive). Webviews never import it (test/unit/tidy.test.ts).
 */
export { DEFAULT_MAX_ENTRY_BYTES, MAX_ENTRY_BYTES_LIMIT, checkEntrySize, readFileBytes, readTextFile } from './fileSource';
export { isInside, isInsideReal, realPathOf } from './disk';
export { errnoSummary, isErrnoException } from './errno';
export { OutputFolder, writeFileAtomic } from './outputFolder';
export type { NameOrigin, OutputFolderOptions } from './outputFolder';
