/**
 * Selection ranges (Expand Selection, Shift+Alt+Right): from the name under the cursor outwards
 * through every node of the syntax tree that holds it (expression, statement, function, table,
 * block), then the whole file.
 */
import type { AnalysedScript } from '../../core/scriptIndex';
import { type Span, forEachNode } from '../../core/havokScript';

/** The spans holding `offset`, innermost first, each strictly larger than the one before. */
export function selectionSpans(script: AnalysedScript, offset: number): Span[] {
  const found: Span[] = [];
  // Only what holds the cursor can hold a node that does: other subtrees are skipped (walked without recursion).
  forEachNode(script.chunk.body, (n) => {
    if (offset < n.start || offset > n.end) return false;
    found.push({ start: n.start, end: n.end });
  });
  found.push({ start: 0, end: script.text.length });
  found.sort((a, b) => a.end - a.start - (b.end - b.start));
  const out: Span[] = [];
  for (const s of found) {
    const last = out[out.length - 1];
    if (!last || (s.start <= last.start && s.end >= last.end && s.end - s.start > last.end - last.start)) out.push(s);
  }
  return out;
}
