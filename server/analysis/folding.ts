/**
 * Folding: every function, table, block statement and hstructure that spans lines, and each run
 * of comment lines (the retail scripts' section banners). The tree is walked without recursion
 * (a thousand nested `if`s cannot overflow the stack) and at most `max` ranges are returned.
 */
import { type Chunk, type Span, forEachNode, lineNumbers } from '../../core/havokScript';
import { type Capped, MAX_FOLDING_RANGES } from './caps';

const FOLDED = new Set(['Function', 'Table', 'HStructure', 'If', 'While', 'Do', 'Repeat', 'NumericFor', 'GenericFor']);

export function foldingSpans(chunk: Chunk, text: string, max = MAX_FOLDING_RANGES): Capped<Span> {
  const items: Span[] = [];
  let total = 0;
  // A newline inside [start, end) is a later line at `end` than at `start` (a binary search each, not a scan).
  const lineOf = lineNumbers(text);
  const multiLine = (s: Span): boolean => lineOf(s.end) > lineOf(s.start);
  const add = (s: Span): void => {
    if (!multiLine(s)) return;
    if (total++ < max) items.push({ start: s.start, end: s.end });
  };
  forEachNode(chunk.body, (n) => {
    if (n.kind !== undefined && FOLDED.has(n.kind)) add(n);
  });
  for (const c of chunk.comments) if (c.long) add(c);
  return { items, total };
}
