/**
 * The data editors' one search box: typing changes the query (the editor saves it and refilters),
 * Escape clears a box that holds text, the table's movement keys work from the box too (`move`),
 * Ctrl+F (⌘F) anywhere in the editor returns to the box while it is shown, and a printable key typed in the table
 * goes on into the box. Bundle, string-table and registry editors wire theirs through this.
 */
export interface SearchBoxOptions {
  /** The query changed (typed, or cleared with Escape). */
  changed: (value: string) => void;
  /** A key the table handles while the box has focus (arrows, pages): true when it was handled. */
  move?: (e: KeyboardEvent) => boolean;
  /** The table: a printable key typed there goes on into the box. */
  table?: HTMLElement;
}

/** A key that types a character (not a shortcut, not the space that toggles or scrolls). */
export const isPrintableKey = (e: KeyboardEvent): boolean => e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && e.key !== ' ';

export function wireSearchBox(input: HTMLInputElement, o: SearchBoxOptions): void {
  input.addEventListener('input', () => o.changed(input.value));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && input.value) {
      input.value = '';
      o.changed('');
      e.preventDefault();
    } else if (o.move?.(e)) e.preventDefault();
  });
  o.table?.addEventListener('keydown', (e) => {
    if (e.target !== input && !e.defaultPrevented && isPrintableKey(e)) input.focus();
  });
  document.addEventListener('keydown', (e) => {
    // Only while the box is shown (an editor with tabs hides it with its tab).
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f' && input.offsetParent !== null) {
      input.focus();
      input.select();
      e.preventDefault();
      e.stopPropagation();
    }
  });
}
