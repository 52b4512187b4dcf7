/**
 * The string-table editor's edits (issue 24 item 2; no vscode, unit-tested in plain node): the
 * opened language's table held as core's `StringTableDocument` (exact round trip, keys ascending,
 * offsets recomputed on write), changed by three edits — a text set, a key added by name (hashed;
 * a collision refused naming both keys), a key deleted — each returning its exact undo for VS
 * Code's stack (editableEditor.ts). The other languages of the key stay beside it, read-only (each
 * is its own file). After a changed text the rows the webview pages through (stringTableModel.ts)
 * patch that cell; after an added or deleted key they are built again from the table as it would
 * be saved, read back by the same reader that opens a file.
 */
import { type StringTable, StringTableDocument, parseSkdb } from '../../core/formats/strings';
import type { HashDictionary } from '../../core/hash';
import type { EditableModel } from './editableModel';
import { type LanguageTable, StringTableModel } from './stringTableModel';

export type StringTableEdit =
  | { kind: 'setText'; hash: number; text: string }
  | { kind: 'addKey'; name: string; text: string }
  /** A key another language has and this one lacks, given its text here. */
  | { kind: 'addHash'; hash: number; text: string }
  | { kind: 'deleteKey'; hash: number };

/** What an edit is called on VS Code's undo stack (Edit menu, Undo …). */
export function editLabel(edit: StringTableEdit): string {
  return edit.kind === 'setText'
    ? 'Change Text'
    : edit.kind === 'addKey'
      ? `Add Key ${edit.name}`
      : edit.kind === 'addHash'
        ? 'Add Missing Text'
        : 'Delete Key';
}

/** A text on one line for an input box: a line break as `\n`, a carriage return as `\r`, a backslash as `\\`. */
export function lineForInput(text: string): string {
  return text.replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r'));
}

/** The text of an input box's line (`lineForInput` undone; a backslash before anything else stays as typed). */
export function textFromInput(line: string): string {
  return line.replace(/\\([\\nr])/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
}

export class EditableStringTable implements EditableModel<StringTableEdit> {
  private rowsModel: StringTableModel | undefined;
  /** The opened table read back from its bytes as they would be saved, built when asked for. */
  private table: StringTable | undefined;
  /** Edits applied, undone and redone (each rebuilds the rows once, when next asked for). */
  changes = 0;

  constructor(
    private readonly doc: StringTableDocument,
    /** The opened table's language folder (enus, frfr…). */
    readonly language: string,
    /** The other languages, read-only, in the order shown. */
    private readonly others: readonly LanguageTable[],
    private shown: readonly string[],
    private dictionary: HashDictionary | undefined,
  ) {}

  /** Read `bytes` (every rule of the reader) as the editable table. */
  static read(bytes: Uint8Array, file: string, language: string, others: readonly LanguageTable[], shown: readonly string[]): EditableStringTable {
    return new EditableStringTable(StringTableDocument.read(bytes, file), language, others, shown, undefined);
  }

  apply(edit: StringTableEdit): () => void {
    const undo = this.applyToDocument(edit);
    this.changed(edit);
    return () => {
      undo();
      this.changed(edit);
    };
  }

  private applyToDocument(edit: StringTableEdit): () => void {
    switch (edit.kind) {
      case 'setText':
        return this.doc.setText(edit.hash, edit.text);
      case 'addKey': {
        const hash = this.doc.addKey(edit.name, edit.text, (h) => this.dictionary?.name(h));
        // The added string takes no room once its key is gone: the bytes are those before the add.
        return () => void this.doc.deleteKey(hash);
      }
      case 'addHash': {
        const hash = this.doc.addHash(edit.hash, edit.text, undefined, (h) => this.dictionary?.name(h));
        return () => void this.doc.deleteKey(hash);
      }
      case 'deleteKey':
        return this.doc.deleteKey(edit.hash);
    }
  }

  /**
   * The rows after an edit or its undo: a changed text patches its cell (the keys are the same);
   * an added or deleted key builds the rows again from the table as it would be saved.
   */
  private changed(edit: StringTableEdit): void {
    this.changes++;
    this.table = undefined;
    const text = edit.kind === 'setText' ? this.doc.text(edit.hash) : undefined;
    if (edit.kind !== 'setText' || text === undefined || !this.rowsModel?.setText(0, edit.hash, text)) this.rowsModel = undefined;
  }

  serialize(): readonly Uint8Array[] {
    return this.doc.toParts();
  }

  /** The opened table as it would be saved now. */
  get current(): StringTable {
    this.table ??= parseSkdb(this.doc.toBytes(), this.doc.file);
    return this.table;
  }

  /** The text of a key in the opened language, or undefined. */
  text(hash: number): string | undefined {
    return this.doc.text(hash);
  }

  /** The rows: the opened table as it stands now and the other languages, aligned by key. */
  get rows(): StringTableModel {
    this.rowsModel ??= new StringTableModel([{ language: this.language, table: this.current }, ...this.others], this.dictionary, this.shown);
    return this.rowsModel;
  }

  setShownLanguages(names: readonly string[]): void {
    this.shown = names;
    this.rows.setShownLanguages(names);
  }

  setDictionary(dictionary: HashDictionary): void {
    this.dictionary = dictionary;
    this.rows.setDictionary(dictionary);
  }
}
