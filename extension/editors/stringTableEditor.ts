/**
 * The string-table editor for `.strdb` files (SKDB v9, seed 004; an editable custom editor on the
 * editableEditor.ts skeleton): one row per key hash, the key's name where the hash dictionary has
 * one (dimmed "unknown" where not), one text column per language, search as you type, and CSV /
 * JSON exports of what the search keeps. The model is stringTableModel.ts (no vscode); the
 * webview is media/strings/, which holds only the rows in view and asks the host for windows.
 *
 * What a document shows:
 * - an `arch06:` file `<dir>\<language>\<name>.strdb` (merged view or one source): every language
 *   folder of `<dir>` holding `<name>.strdb` in the same view, the opened language first (the game
 *   ships 14 language folders under database\string); key names from the mount's hash dictionary
 *   (extension/hashNames.ts: paths, script literals, registry names, the user's files), which is
 *   gathered once per mount while the table is already on screen;
 * - any other file: that table alone, named from the user's dictionary files.
 *
 * Editing (issue 24 item 2; the model is stringTableEdits.ts): the opened language's texts change
 * (Enter, F2 or a double click on a row: its text in an input box, line breaks written `\n`), a
 * key is added by name (Insert) and deleted (Delete); a key another language has and this one
 * lacks shows "missing" and gets its text the same way. Each edit is one entry of VS Code's
 * undo/redo; saving writes into the active mod (extension/mods/editorSaveTarget.ts), never the game.
 *
 * Protocol: media/strings/protocol.ts.
 */
import * as vscode from 'vscode';
import { type SourceEntry, readEntryCheckedAsync, toGamePath } from '../../core/archive';
import { parseSkdb } from '../../core/formats/strings';
import { type HashDictionary, formatHash, stringHash } from '../../core/hash';
import { isArch06Error } from '../../core/errors';
import { modFilePath } from '../../core/mod';
import { type HostToView, type StringTableView, type ViewToHost, checkViewMessage } from '../../media/strings/protocol';
import { type InMount, locateLoose } from '../fs/uris';
import { dictionarySummary } from '../../core/nameSources';
import type { HashNames } from '../hashNames';
import { MountService } from '../mountService';
import type { ModProjects } from '../mods/modProjects';
import type { LanguageTable, StringTableModel } from './stringTableModel';
import { EditableDocument, EditableEditor } from './editableEditor';
import { EditableStringTable, type StringTableEdit, editLabel, lineForInput, textFromInput } from './stringTableEdits';
import { type PageSpec, errorText } from './webviewEditor';
import { showInformation, showWarning } from '../notify';

/** Rows sent with a search result: the first screenful and some beyond. */
const FIRST_WINDOW = 120;
/** Languages shown at first (the opened one and the next ones); the toggles show the rest. */
const FIRST_SHOWN = 3;

/** What one view of the document asked for last: its search runs again when another view moved the model. */
interface PanelQuery {
  seq: number;
  text: string;
  languages: string[];
}

class StringTableDocument extends EditableDocument<EditableStringTable, StringTableEdit> {
  /** The summary's facts that do not change with an edit (title, files, notes, dictionary line). */
  view: StringTableView | undefined;
  /** The views of this document, each with its last query. */
  readonly panels = new Map<vscode.WebviewPanel, PanelQuery | undefined>();
  /** The query the shared model holds now. */
  modelQuery: PanelQuery | undefined;
  constructor(
    uri: vscode.Uri,
    bytes: Uint8Array,
    openedAt: number,
    readonly inMount: InMount | undefined,
  ) {
    super(uri, bytes, openedAt);
  }
}

export class StringTableEditorProvider extends EditableEditor<StringTableDocument, EditableStringTable, StringTableEdit, ViewToHost, HostToView> {
  static readonly viewType = 'arch06.stringTable';

  static register(context: vscode.ExtensionContext, service: MountService, names: HashNames, projects: ModProjects): vscode.Disposable {
    return new StringTableEditorProvider(context, service, names, projects).registration();
  }

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    private readonly names: HashNames,
    projects: ModProjects,
  ) {
    super(context, service, projects, {
      viewType: StringTableEditorProvider.viewType,
      kind: 'string table',
      retainContextWhenHidden: false,
      resourceRoots: ['media/strings'],
      check: checkViewMessage,
    });
  }

  async openCustomDocument(
    uri: vscode.Uri,
    context: vscode.CustomDocumentOpenContext = { backupId: undefined, untitledDocumentData: undefined },
  ): Promise<StringTableDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    await this.service.settled();
    const openedAt = performance.now();
    const inMount = locateLoose(this.service.mount, uri);
    // Header first and within the mount's cap (core/archive/entryRead.ts).
    const bytes = await this.openingBytes(context, () => this.readFrom(uri, inMount));
    return new StringTableDocument(uri, bytes, openedAt, inMount);
  }

  private async readFrom(uri: vscode.Uri, inMount: InMount | undefined): Promise<Uint8Array> {
    return inMount ? await readEntryCheckedAsync(inMount.entry, { maxBytes: inMount.mount.maxEntryBytes }) : await vscode.workspace.fs.readFile(uri);
  }

  /** Revert: the mod's copy once saved there, else the file as the mount serves it now. */
  protected async readSaved(doc: StringTableDocument): Promise<Uint8Array> {
    const to = doc.savedTo;
    if (to?.kind === 'mod') return vscode.workspace.fs.readFile(vscode.Uri.file(modFilePath(to.mod.folder, to.gamePath)));
    if (to?.kind === 'disk') return vscode.workspace.fs.readFile(vscode.Uri.file(to.fsPath));
    return this.readFrom(doc.uri, locateLoose(this.service.mount, doc.uri));
  }

  protected async model(doc: StringTableDocument): Promise<EditableStringTable> {
    const r = await doc.load(() => this.build(doc));
    if ('error' in r) throw new Error(r.error);
    return r;
  }

  /** The opened table (its failure fails the editor), then its sibling languages (their failures become notes). */
  private async build(doc: StringTableDocument): Promise<EditableStringTable> {
    const file = doc.inMount?.entry.path ?? doc.name;
    const opened = parseSkdb(doc.bytes, file);
    const notes = [...opened.notes];
    const tables: (LanguageTable & { file: string })[] = [];
    const at = doc.inMount;
    if (!at) tables.push({ language: diskLanguageOf(doc.uri.path.replace(/\//g, '\\')), table: opened, file: doc.name });
    else {
      const here = at.entry.path;
      tables.push({ language: languageOf(here), table: opened, file: here });
      for (const sibling of siblingTables(at)) {
        try {
          const table = parseSkdb(await readEntryCheckedAsync(sibling, { maxBytes: at.mount.maxEntryBytes }), sibling.path);
          tables.push({ language: languageOf(sibling.path), table, file: sibling.path });
          notes.push(...table.notes.map((n) => `${sibling.path}: ${n}`));
        } catch (e) {
          notes.push(`${sibling.path} is left out: ${errorText(e)}`);
        }
      }
    }
    const model = EditableStringTable.read(
      doc.bytes,
      file,
      tables[0].language,
      tables.slice(1),
      tables.slice(0, FIRST_SHOWN).map((t) => t.language),
    );
    const rows = model.rows;
    const dictionary = at ? this.names.forMount(at.mount) : this.names.userOnly();
    doc.view = {
      title: at?.entry.path ?? doc.name,
      languages: tables.map((t) => ({ language: t.language, file: t.file, keys: 0 })),
      shown: rows.shownLanguageNames,
      total: rows.total,
      named: 0,
      dictionary: 'gathering key names…',
      notes,
    };
    void dictionary.then(
      (dict) => this.named(doc, model, dict),
      (e) => this.service.reportError('gathering hash names', e),
    );
    this.log(doc, `${rows.total} keys in ${tables.length} language${tables.length === 1 ? '' : 's'} (${rows.languages.join(', ')})`);
    return model;
  }

  /** The summary as it stands: counts from the rows now (an edit adds or deletes keys). */
  private viewOf(doc: StringTableDocument, model: EditableStringTable): StringTableView {
    const rows = model.rows;
    const counts = rows.keyCounts();
    const v = doc.view!;
    return { ...v, languages: v.languages.map((l, i) => ({ ...l, keys: counts[i] })), total: rows.total, named: rows.namedKeys };
  }

  /** The dictionary is ready: name the keys and tell every view to ask for its rows again. */
  private named(doc: StringTableDocument, model: EditableStringTable, dict: HashDictionary): void {
    model.setDictionary(dict);
    const view = doc.view!;
    view.named = model.rows.namedKeys;
    view.dictionary = dictionarySummary(dict);
    for (const panel of doc.panels.keys()) this.post(panel, { type: 'names', named: view.named, dictionary: view.dictionary });
  }

  /** An edit, undo, redo or revert: every view gets the summary again and asks for its rows again (keeping its place). */
  protected documentChanged(doc: StringTableDocument): void {
    doc.modelQuery = undefined;
    void doc
      .load(() => this.build(doc))
      .then((r) => {
        for (const panel of doc.panels.keys()) this.post(panel, 'error' in r ? this.failed(doc, r.error) : { type: 'init', view: this.viewOf(doc, r) });
      });
  }

  protected override viewOpened(doc: StringTableDocument, panel: vscode.WebviewPanel): void {
    doc.panels.set(panel, undefined);
    panel.onDidDispose(() => doc.panels.delete(panel));
    setImmediate(() => void doc.load(() => this.build(doc)));
  }

  /** The shared model searched as this view last asked (another view of the document may have moved it). */
  private searchFor(doc: StringTableDocument, model: EditableStringTable, q: PanelQuery): StringTableModel {
    const m = doc.modelQuery;
    if (m && m.text === q.text && m.languages.join() === q.languages.join()) return model.rows;
    model.setShownLanguages(q.languages);
    model.rows.search(q.text);
    doc.modelQuery = q;
    return model.rows;
  }

  protected async onMessage(doc: StringTableDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    if (msg.type === 'editText' || msg.type === 'addKey' || msg.type === 'deleteKey') return this.onEdit(doc, msg);
    const r = await doc.load(() => this.build(doc));
    switch (msg.type) {
      case 'ready': {
        if ('error' in r) {
          this.log(doc, r.error);
          this.post(panel, this.failed(doc, r.error));
        } else this.post(panel, { type: 'init', view: this.viewOf(doc, r) });
        return;
      }
      case 'query': {
        if ('error' in r) return;
        const q = { seq: msg.seq, text: msg.text, languages: msg.languages };
        doc.panels.set(panel, q);
        doc.modelQuery = undefined; // the same text again (after new names or an edit) searches again
        const m = this.searchFor(doc, r, q);
        this.post(panel, {
          type: 'result',
          seq: q.seq,
          shown: m.shown,
          total: m.total,
          languages: m.shownLanguageNames,
          start: 0,
          rows: m.rows(0, FIRST_WINDOW),
        });
        return;
      }
      case 'rows': {
        const q = doc.panels.get(panel);
        if ('error' in r || !q || q.seq !== msg.seq) return; // an older query's window: dropped
        this.post(panel, { type: 'rows', seq: q.seq, start: msg.start, rows: this.searchFor(doc, r, q).rows(msg.start, msg.count) });
        return;
      }
      case 'firstRows':
        if (doc.timed) return;
        doc.timed = true;
        this.logTiming(doc, 'first rows', `${msg.rows} keys, table built at ${Math.round(doc.builtMs)} ms, webview ready at ${Math.round(doc.readyMs)} ms`);
        return;
      case 'export': {
        const q = doc.panels.get(panel);
        if ('error' in r || !q) return;
        await this.export(doc, r, q, msg.format);
        return;
      }
    }
  }

  /** The edits the view asks for: the text or name asked in an input box, then one entry on the undo stack. */
  private async onEdit(doc: StringTableDocument, msg: Extract<ViewToHost, { type: 'editText' | 'addKey' | 'deleteKey' }>): Promise<void> {
    const model = await this.model(doc);
    const edit =
      msg.type === 'addKey'
        ? await this.askNewKey(model)
        : msg.type === 'editText'
          ? await this.askText(model, msg.hash)
          : { kind: 'deleteKey' as const, hash: msg.hash };
    if (!edit) return;
    if (edit.kind === 'deleteKey' && model.text(edit.hash) === undefined) {
      void showInformation(`${model.language} has no key ${formatHash(edit.hash)}: nothing to delete in this table.`);
      return;
    }
    try {
      await this.edit(doc, edit, editLabel(edit));
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      void showWarning(`Not changed: ${e.message}`);
    }
  }

  private async askText(model: EditableStringTable, hash: number): Promise<StringTableEdit | undefined> {
    const before = model.text(hash);
    const name = model.rows.nameOf(hash) ?? formatHash(hash);
    const line = await vscode.window.showInputBox({
      title: `${name} in ${model.language}${before === undefined ? ' (missing: this adds it)' : ''}`,
      prompt: 'The text; a line break is written \\n, a backslash \\\\. Enter saves it into the table (undo with Ctrl+Z).',
      value: lineForInput(before ?? ''),
      valueSelection: [0, lineForInput(before ?? '').length],
      validateInput: (v) => (v.includes('\0') ? 'A text cannot hold NUL' : undefined),
    });
    if (line === undefined) return undefined;
    const text = textFromInput(line);
    if (before === undefined) return { kind: 'addHash', hash, text };
    return text === before ? undefined : { kind: 'setText', hash, text };
  }

  private async askNewKey(model: EditableStringTable): Promise<StringTableEdit | undefined> {
    const name = await vscode.window.showInputBox({
      title: `Add a key to ${model.language} (1/2): its name`,
      prompt: 'The key name; its StringHash is the key. A name whose hash is already a key is refused.',
      validateInput: (v) => {
        if (!v || v.includes('\0')) return 'A key name is a non-empty string without NUL';
        const h = stringHash(v);
        const other = model.rows.nameOf(h);
        return model.text(h) === undefined ? undefined : `${formatHash(h)} is already a key${other ? `: ${other}` : ''}`;
      },
    });
    if (!name) return undefined;
    const line = await vscode.window.showInputBox({
      title: `Add ${name} to ${model.language} (2/2): its text`,
      prompt: 'A line break is written \\n, a backslash \\\\.',
    });
    return line === undefined ? undefined : { kind: 'addKey', name, text: textFromInput(line) };
  }

  /** What the view's search keeps, in its shown languages, to a file outside the install. */
  private async export(doc: StringTableDocument, table: EditableStringTable, q: PanelQuery, format: 'csv' | 'json'): Promise<void> {
    const base = doc.name.replace(/\.[^.]+$/, '');
    const target = await this.service.exportTarget({
      title: `Export the string table as ${format.toUpperCase()}`,
      saveLabel: `Export ${format.toUpperCase()}`,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      fileName: `${base}.${format}`,
    });
    if (!target) return;
    try {
      const model = this.searchFor(doc, table, q);
      const text = format === 'csv' ? model.toCsv() : model.toJson();
      await this.service.writeExport(target, new TextEncoder().encode(text));
      void showInformation(
        `Exported ${model.shown} keys (${model.shownLanguageNames.join(', ')}) to ${target.scheme === 'file' ? target.fsPath : target.toString()}`,
      );
    } catch (e) {
      this.service.reportError(`${format.toUpperCase()} export failed`, e);
    }
  }

  /** Script and style inlined (one round trip less before the first rows); the markup the script fills. */
  protected page(): PageSpec {
    return {
      title: 'String Table',
      style: { inline: this.extensionText('media/strings/stringsView.css') },
      script: { inline: this.extensionText('dist/webview/stringsView.js') },
      body: `<header id="summary" aria-live="polite"><p class="muted">Reading the string table…</p></header>
<div id="toolbar" role="toolbar" aria-label="String table controls">
  <input id="search" type="search" placeholder="Search text, key name or 0x hash (Ctrl+F)" aria-label="Search text, key names or hashes" spellcheck="false" autocomplete="off">
  <span id="count" aria-live="polite"></span>
  <span id="languages" role="group" aria-label="Languages shown"></span>
  <button id="editText" title="Edit the selected key's text in the opened language (Enter or F2)">Edit Text</button>
  <button id="addKey" title="Add a key by name to the opened language (Insert)">Add Key…</button>
  <button id="deleteKey" title="Delete the selected key from the opened language (Delete)">Delete Key</button>
  <span class="spacer"></span>
  <button id="exportCsv" title="Save the keys the search keeps, in the shown languages, as CSV">Export CSV</button>
  <button id="exportJson" title="Save the keys the search keeps, in the shown languages, as JSON">Export JSON</button>
</div>
<div id="grid" role="grid" tabindex="0" aria-label="String table: arrow keys, Page Up/Down, Home and End move the selection; Enter edits the text, Insert adds a key, Delete deletes one">
  <div id="head" role="row"></div>
  <div id="viewport"><div id="spacer"><div id="rows" role="rowgroup"></div></div></div>
</div>
`,
    };
  }
}

/** The folder a table sits in: its language in the game's layout (`database\string\<language>\<name>.strdb`). */
function languageOf(p: string): string {
  const parts = p.split('\\');
  return parts.length >= 2 ? parts[parts.length - 2] : 'text';
}

/** A file on disk: its folder's name when it looks like a language folder (the game's are four letters: enus, frfr, zhcn…). */
function diskLanguageOf(p: string): string {
  const folder = languageOf(p);
  return /^[a-z]{2,5}$/i.test(folder) ? folder : 'text';
}

/** `<dir>\<language>\<name>.strdb` for every language folder in the same view as the opened file, the opened one left out, in folder order. */
function siblingTables(at: InMount): SourceEntry[] {
  const parts = at.entry.path.split('\\');
  if (parts.length < 3) return [];
  const name = parts[parts.length - 1];
  const language = parts[parts.length - 2].toLowerCase();
  const dir = parts.slice(0, -2).join('\\');
  const folders = at.source ? (at.source.list(toGamePath(dir))?.folders ?? []) : (at.mount.list(dir)?.folders.map((f) => f.name) ?? []);
  const out: SourceEntry[] = [];
  for (const f of folders) {
    if (f.toLowerCase() === language) continue;
    const p = `${dir}\\${f}\\${name}`;
    const e = at.source ? at.source.lookup(toGamePath(p)) : at.mount.winner(p);
    if (e) out.push(e);
  }
  return out;
}
