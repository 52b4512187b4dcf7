/**
 * Where the bundle table scrolls after its rows are re-sorted or re-filtered (no DOM, unit-tested
 * in extension/editors/tests/bundleRows.test.ts). A selection the user made (a click, a key, one
 * restored with the tab) is kept in view, the least scroll that shows it; the default selection
 * (the first row, picked when nothing was chosen) is not, so a sort shows the top of the new order
 * instead of following a row the user never picked.
 */
export interface ScrollFacts {
  /** Whether the selection is the user's, not the default. */
  chosen: boolean;
  /** The selected row's position in the rows shown, -1 for none. */
  selectedPos: number;
  scrollTop: number;
  viewHeight: number;
  rowHeight: number;
}

/** The viewport's scrollTop after the rows changed order or filter. */
export function scrollAfterReorder(f: ScrollFacts): number {
  if (!f.chosen || f.selectedPos < 0) return 0;
  const top = f.selectedPos * f.rowHeight;
  if (top < f.scrollTop) return top;
  if (top + f.rowHeight > f.scrollTop + f.viewHeight) return Math.max(0, top + f.rowHeight - f.viewHeight);
  return f.scrollTop;
}
