/** core/search, the public face: Go to File (fuzzy matching over every path) and Find in Files (text search over the mount, files chosen by globs). */
export { FuzzyIndex } from './fuzzy';
export type { FuzzyMatch } from './fuzzy';
export { searchText } from './textSearch';
export type { TextMatch, TextSearchOptions, TextSearchResult } from './textSearch';
