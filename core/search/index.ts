/** core/search, the public face: Go to File (fuzzy matching over every path) and Find in Files (text search over the mount, files chosen by globs). */
export { FuzzyIndex } from './fuzzy';
export type { FuzzyMatch } from './fuzzy';
export { describeSearch, searchText } from './textSearch';
export { SearchPreparation, prepareSearch, searchTextStreaming } from './streamSearch';
export type { StreamingOptions } from './streamSearch';
export type { TextMatch, TextSearchOptions, TextSearchResult, TextView } from './textSearch';
export { planFile } from './fileText';
export type { FilePlan } from './fileText';
export { memberRowsAt, pathList, pathListKey } from './pathList';
export type { PathList } from './pathList';
