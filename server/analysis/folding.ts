/**
 * Folding: every function, table, block statement and hstructure that spans lines, and each run
 * of comment lines (the retail scripts' section banners).
 */
import type { Chunk, Span } from '../../core/havokScript';

export function foldingSpans(chunk: Chunk, text: string): Span[] {
  const out: Span[] = [];
  const multiLine = (s: Span): boolean => text.indexOf('\n', s.start) >= 0 && text.indexOf('\n', s.start) < s.end;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const n = node as { kind?: string; start?: number; end?: number } & Record<string, unknown>;
    if (
      typeof n.start === 'number' &&
      typeof n.end === 'number' &&
      (n.kind === 'Function' ||
        n.kind === 'Table' ||
        n.kind === 'HStructure' ||
        n.kind === 'If' ||
        n.kind === 'While' ||
        n.kind === 'Do' ||
        n.kind === 'Repeat' ||
        n.kind === 'NumericFor' ||
        n.kind === 'GenericFor') &&
      multiLine(n as Span)
    )
      out.push({ start: n.start, end: n.end });
    for (const [k, v] of Object.entries(n)) if (typeof v === 'object' && k !== 'comments' && k !== 'diagnostics') visit(v);
  };
  visit(chunk.body);
  for (const c of chunk.comments) if (c.long && multiLine(c)) out.push({ start: c.start, end: c.end });
  return out;
}
