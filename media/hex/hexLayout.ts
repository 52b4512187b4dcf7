/**
 * The hex view's arithmetic, without DOM or vscode (unit-tested in
 * extension/editors/tests/hexView.test.ts): row formatting, the windows of bytes a range of rows
 * needs, which windows to drop, the scroll mapping for files taller than a browser can lay out,
 * and the offsets Go to Offset accepts.
 *
 * The scroll mapping: a file of N bytes has ceil(N / 16) rows. At 20 px a row, a 1 GB file would be
 * 1.3 billion pixels tall, and browsers cap an element's height (Chromium near 33.5 million px), so
 * beyond `MAX_SCROLL_PX` the scrollbar's range is scaled: scrollTop 0 is the first row, the largest
 * scrollTop the last screenful, linearly in between. Wheel and keys then move by rows (the view
 * keeps its top row and sets scrollTop from it); dragging the scrollbar jumps.
 */

/** Bytes per row. */
export const BYTES_PER_ROW = 16;
/** The tallest spacer the view lays out; taller files scroll on a scaled bar. */
export const MAX_SCROLL_PX = 8_000_000;

/** Rows in a file of `size` bytes. */
export function rowCount(size: number): number {
  return Math.ceil(size / BYTES_PER_ROW);
}

/** Hex digits of the offset column: 8, more when the file's last offset needs them. */
export function offsetDigits(size: number): number {
  return Math.max(8, Math.max(0, size - 1).toString(16).length);
}

export function formatOffset(offset: number, digits: number): string {
  return offset.toString(16).toUpperCase().padStart(digits, '0');
}

/** A byte as the ASCII column shows it: printable ASCII as itself, anything else as a dot. */
export function asciiOf(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
}

/** A byte as two upper-case hex digits. */
export function hexOf(byte: number): string {
  return (byte < 16 ? '0' : '') + byte.toString(16).toUpperCase();
}

/**
 * The first bytes of a file as text, for the header: printable ASCII as itself, anything else as
 * \xNN (so "GFX\x08", "\x1BLua"), and the same bytes as hex pairs.
 */
export function magicOf(bytes: Uint8Array, length = 4): { text: string; hex: string } {
  const head = Array.from(bytes.subarray(0, length));
  return {
    text: head.map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : '\\x' + hexOf(b))).join(''),
    hex: head.map(hexOf).join(' '),
  };
}

/** The windows (by index, `block` bytes each) that rows [firstRow, endRow) of a `size`-byte file need. */
export function blocksForRows(firstRow: number, endRow: number, size: number, block: number): number[] {
  const start = Math.max(0, firstRow * BYTES_PER_ROW);
  const end = Math.min(size, endRow * BYTES_PER_ROW);
  if (end <= start) return [];
  const out: number[] = [];
  for (let b = Math.floor(start / block); b * block < end; b++) out.push(b);
  return out;
}

/** The byte range [start, end) of window `index` in a `size`-byte file. */
export function blockRange(index: number, size: number, block: number): { start: number; end: number } {
  const start = Math.min(size, index * block);
  return { start, end: Math.min(size, start + block) };
}

/** The windows to drop so that at most `max` are kept: those farthest from `centre`. */
export function blocksToDrop(kept: Iterable<number>, centre: number, max: number): number[] {
  const all = [...kept];
  if (all.length <= max) return [];
  return all.sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre) || b - a).slice(0, all.length - max);
}

/** How scroll positions map to rows for one file and viewport. */
export interface ScrollMap {
  rows: number;
  rowHeight: number;
  /** Rows wholly on screen (at least 1). */
  pageRows: number;
  /** The spacer's height in px (the scrollbar's range plus the viewport). */
  contentPx: number;
  /** The largest top row: the last screenful starts there. */
  maxTopRow: number;
  /** Whether the scrollbar is scaled (the file is taller than `MAX_SCROLL_PX`). */
  scaled: boolean;
}

export function scrollMap(rows: number, rowHeight: number, viewportPx: number, maxPx = MAX_SCROLL_PX): ScrollMap {
  const pageRows = Math.max(1, Math.floor(viewportPx / rowHeight));
  const natural = rows * rowHeight;
  const scaled = natural > maxPx;
  return { rows, rowHeight, pageRows, contentPx: scaled ? maxPx : natural, maxTopRow: Math.max(0, rows - pageRows), scaled };
}

/** The largest scrollTop the viewport allows. */
function maxScroll(m: ScrollMap, viewportPx: number): number {
  return Math.max(0, m.contentPx - viewportPx);
}

/** The top row shown at `scrollTop`. */
export function topRowAt(m: ScrollMap, scrollTop: number, viewportPx: number): number {
  if (!m.scaled) return clampRow(m, Math.floor(scrollTop / m.rowHeight));
  const range = maxScroll(m, viewportPx);
  return range <= 0 ? 0 : clampRow(m, Math.round((scrollTop / range) * m.maxTopRow));
}

/** The scrollTop that shows `topRow` first. */
export function scrollTopFor(m: ScrollMap, topRow: number, viewportPx: number): number {
  const row = clampRow(m, topRow);
  if (!m.scaled) return row * m.rowHeight;
  return m.maxTopRow === 0 ? 0 : Math.round((row / m.maxTopRow) * maxScroll(m, viewportPx));
}

export function clampRow(m: ScrollMap, row: number): number {
  return Math.max(0, Math.min(m.maxTopRow, Math.floor(row)));
}

/** The top row that keeps `row` on screen, moving the view as little as possible from `top`. */
export function revealRow(m: ScrollMap, top: number, row: number): number {
  if (row < top) return clampRow(m, row);
  if (row >= top + m.pageRows) return clampRow(m, row - m.pageRows + 1);
  return top;
}

/**
 * An offset typed into Go to Offset: `0x1F40` or `1F40h` (hex), `8000` (decimal), digits grouped
 * with `_`, `,` or spaces; `+N` / `-N` move from `from`. Past the file's end or before its start is
 * an error naming the file's range.
 */
export function parseOffset(text: string, size: number, from = 0): { offset: number } | { error: string } {
  const raw = text.trim().replace(/[_,\s]/g, '');
  if (!raw) return { error: 'Type an offset: 0x1F40 or 1F40h (hex), 8000 (decimal), +N or -N from here' };
  const sign = raw[0] === '+' ? 1 : raw[0] === '-' ? -1 : 0;
  const body = sign ? raw.slice(1) : raw;
  let value: number;
  if (/^0x[0-9a-f]+$/i.test(body)) value = parseInt(body.slice(2), 16);
  else if (/^[0-9a-f]+h$/i.test(body)) value = parseInt(body.slice(0, -1), 16);
  else if (/^[0-9]+$/.test(body)) value = parseInt(body, 10);
  else return { error: `"${text.trim()}" is not an offset: 0x1F40 or 1F40h (hex), 8000 (decimal), +N or -N from here` };
  if (!Number.isSafeInteger(value)) return { error: `${text.trim()} is too large` };
  const offset = sign ? from + sign * value : value;
  const last = Math.max(0, size - 1);
  if (size === 0) return { error: 'The file is empty' };
  if (offset < 0 || offset > last)
    return { error: `${text.trim()} is outside the file: offsets run from 0 to 0x${last.toString(16).toUpperCase()} (${last.toLocaleString('en-US')})` };
  return { offset };
}
