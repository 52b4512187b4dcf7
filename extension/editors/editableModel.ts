/**
 * The format-specific half of an editable editor (editableEditor.ts), apart so that a format's
 * model and its tests need no vscode: apply an edit, returning what undoes it exactly, and
 * serialize the file.
 */
export interface EditableModel<E> {
  /**
   * Apply `edit`. Returns what undoes it exactly (the bytes as before), called only on the state
   * right after this edit. Throws, changing nothing, when the edit is refused.
   */
  apply(edit: E): () => void;
  /** The file as the model holds it now: bytes, or parts written back to back. */
  serialize(): Uint8Array | readonly Uint8Array[];
}
