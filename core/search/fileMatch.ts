/**
 * The matches in one file's searchable text, as Find in Files reports them: the one place that
 * turns the matcher's line hits into `TextMatch`es, for the calling thread (./textSearch.ts) and
 * the pool's workers (./searchWorker.ts) alike, so both report the same matches.
 */
import type { Matcher } from './lineMatch';
import type { TextView } from './fileText';

export interface TextMatch {
  path: string;
  source: string;
  /** For a bundle member: its manifest's game path (open it in the bundle's folder). */
  bundle?: string;
  /** The text searched: the bytes as text, a script's source (lines as its text view numbers them), a decoded text. */
  view: TextView;
  /** 0-based line and character range of the match. */
  line: number;
  start: number;
  end: number;
  /** The line's text (trimmed to 400 characters around the match). */
  preview: string;
}

const PREVIEW_CHARS = 400;

/** Hand each match in `text` to `take` in order, until it returns false. */
export function eachMatch(
  matcher: Matcher,
  text: string,
  where: { path: string; source: string; bundle?: string; view: TextView },
  take: (m: TextMatch) => boolean,
): void {
  matcher.each(text, (h) => {
    const from = Math.max(0, Math.min(h.start - 200, h.lineText.length - PREVIEW_CHARS));
    return take({
      path: where.path,
      source: where.source,
      ...(where.bundle ? { bundle: where.bundle } : {}),
      view: where.view,
      line: h.line,
      start: h.start,
      end: h.end,
      preview: h.lineText.slice(from, from + PREVIEW_CHARS),
    });
  });
}
