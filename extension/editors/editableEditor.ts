/**
 * The editable half of the one editor skeleton (webviewEditor.ts): a `CustomEditorProvider` whose
 * document is a model changed by edits, with what VS Code's custom editors do for an editable
 * file: each edit an entry of VS Code's undo/redo stack (`onDidChangeCustomDocument`), the dirty
 * state that follows from it, save, save as, revert and hot-exit backups.
 *
 * The format-specific part is `EditableModel` (editableModel.ts, no vscode): apply an edit (returning what undoes it exactly)
 * and serialize the bytes. A save goes where extension/mods/editorSaveTarget.ts decides: a file of
 * an active mod saves there; a file served from the install asks to save into a mod at the same
 * game path; the game's copy is never written.
 *
 * Everything else (page, checked message loop, failure page, timing log) is webviewEditor.ts's.
 */
import * as vscode from 'vscode';
import { concatBytes } from '../../core/io';
import { writeFileAtomic } from '../../core/io/node';
import type { MountService } from '../mountService';
import { type SaveTarget, editorSaveTarget, writeEditorSave } from '../mods/editorSaveTarget';
import type { ModProjects } from '../mods/modProjects';
import { forbiddenFor } from '../mods/modWrites';
import type { EditableModel } from './editableModel';
import { ModelDocument, WebviewEditor, type WebviewEditorOptions } from './webviewEditor';

export type { EditableModel } from './editableModel';

/** A document of edits: the model built from `bytes`, where saves go, and which build is current. */
export class EditableDocument<M extends EditableModel<E>, E> extends ModelDocument<M> {
  /** Where the last save went: later saves go there without asking again. */
  savedTo: SaveTarget | undefined;
  /** Bumped when a revert replaces the model: undo/redo entries of an older model do nothing. */
  generation = 0;
}

export abstract class EditableEditor<D extends EditableDocument<M, E>, M extends EditableModel<E>, E, In extends { type: string }, Out extends { type: string }>
  extends WebviewEditor<D, In, Out>
  implements vscode.CustomEditorProvider<D>
{
  private readonly changes = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<D>>();
  readonly onDidChangeCustomDocument = this.changes.event;

  protected constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    protected readonly projects: ModProjects,
    options: WebviewEditorOptions<In>,
  ) {
    super(context, service, options);
  }

  /** The model of a document (built from its bytes on first use); throws the build's failure. */
  protected abstract model(doc: D): Promise<M>;

  /** The model changed (an edit, undo, redo or revert): bring every view of `doc` up to date. */
  protected abstract documentChanged(doc: D): void;

  /** The file's bytes as saved now (revert reads them again). */
  protected abstract readSaved(doc: D): Promise<Uint8Array>;

  /** The bytes a document opens with: the hot-exit backup when VS Code restores one, else `read()`. */
  protected async openingBytes(context: vscode.CustomDocumentOpenContext, read: () => Promise<Uint8Array>): Promise<Uint8Array> {
    if (context.backupId) return vscode.workspace.fs.readFile(vscode.Uri.parse(context.backupId));
    return read();
  }

  /**
   * Apply one edit and put it on VS Code's undo stack under `label`. Throws (nothing changed,
   * nothing on the stack) when the model refuses it.
   */
  protected async edit(doc: D, edit: E, label: string): Promise<void> {
    const model = await this.model(doc);
    const generation = doc.generation;
    let undo = model.apply(edit);
    const current = (): boolean => doc.generation === generation;
    this.changes.fire({
      document: doc,
      label,
      undo: () => {
        if (!current()) return;
        undo();
        this.documentChanged(doc);
      },
      redo: () => {
        if (!current()) return;
        undo = model.apply(edit);
        this.documentChanged(doc);
      },
    });
    this.documentChanged(doc);
  }

  async saveCustomDocument(doc: D): Promise<void> {
    const target = doc.savedTo ?? (await editorSaveTarget(this.service, this.projects, doc.uri));
    if (!target) throw new vscode.CancellationError();
    await writeEditorSave(this.service, this.projects, target, (await this.model(doc)).serialize());
    doc.savedTo = target;
  }

  async saveCustomDocumentAs(doc: D, destination: vscode.Uri): Promise<void> {
    const target = await editorSaveTarget(this.service, this.projects, destination);
    if (!target) throw new vscode.CancellationError();
    await writeEditorSave(this.service, this.projects, target, (await this.model(doc)).serialize());
  }

  async revertCustomDocument(doc: D): Promise<void> {
    doc.bytes = await this.readSaved(doc);
    doc.generation++;
    doc.reset();
    this.documentChanged(doc);
  }

  async backupCustomDocument(doc: D, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    const bytes = (await this.model(doc)).serialize();
    const dest = context.destination;
    // The backup folder is VS Code's, never the install; on another file system VS Code writes it.
    if (dest.scheme === 'file') writeFileAtomic(dest.fsPath, bytes, { forbid: forbiddenFor(this.service, this.projects.mods) });
    else await vscode.workspace.fs.writeFile(dest, bytes instanceof Uint8Array ? bytes : concatBytes(bytes));
    return {
      id: dest.toString(),
      delete: () => void vscode.workspace.fs.delete(dest).then(undefined, () => undefined),
    };
  }
}
