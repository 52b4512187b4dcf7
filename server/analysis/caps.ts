/**
 * The most the server puts in one answer (issue 21: a crafted file can make any list huge). A
 * capped list keeps its first items and the true count, which the answer states: a last entry
 * in lists that have labels (symbols, completion), a lens's title, a log line otherwise.
 */

/** Document symbols, counting children. */
export const MAX_DOCUMENT_SYMBOLS = 5000;
/** Workspace symbols for one query. */
export const MAX_WORKSPACE_SYMBOLS = 2000;
/** Folding ranges (VS Code shows at most 5,000 anyway). */
export const MAX_FOLDING_RANGES = 5000;
/** Semantic tokens of one document. */
export const MAX_SEMANTIC_TOKENS = 100_000;
/** Locations of references or definitions. */
export const MAX_LOCATIONS = 5000;
/** Completion items (the list is then marked incomplete, so the client asks again as the user types). */
export const MAX_COMPLETIONS = 1000;
/** Code lenses of one document. */
export const MAX_CODE_LENSES = 2000;
/** Objects one "bound by N objects" lens carries to its quick pick (the title has the true count). */
export const MAX_LENS_SITES = 200;
/** Inlay hints of one range. */
export const MAX_INLAY_HINTS = 5000;
/** Selection-range positions of one request. */
export const MAX_SELECTION_POSITIONS = 100;

/** A list cut at `max`, with how many there were. */
export interface Capped<T> {
  items: T[];
  total: number;
}

/** The first `max` items of `all` (counted to the end without keeping them). */
export function capped<T>(all: Iterable<T>, max: number): Capped<T> {
  const items: T[] = [];
  let total = 0;
  for (const x of all) if (total++ < max) items.push(x);
  return { items, total };
}

/** `12,345 more` style numbers. */
export const count = (n: number): string => n.toLocaleString('en');
