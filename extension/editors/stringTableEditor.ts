/**
 * The string-table editor for `.strdb` files (SKDB v9, seed 004; read-only custom editor on the
 * webviewEditor.ts skeleton): one row per key hash, the key's name where the hash dictionary has
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
 * Protocol: media/strings/protocol.ts.
 */
import * as vscode from 'vscode';
import { type SourceEntry, readEntryCheckedAsync, toGamePath } from '../../core/archive';
import { parseSkdb } from '../../core/formats/strings';
import type { HashDictionary } from '../../core/hash';
import { type HostToView, type StringTableView, type ViewToHost, checkViewMessage } from '../../media/strings/protocol';
import { type InMount, locateLoose } from '../fs/uris';
import { dictionarySummary } from '../../core/nameSources';
import type { HashNames } from '../hashNames';
import { MountService } from '../mountService';
import { type LanguageTable, StringTableModel } from './stringTableModel';
import { ModelDocument, PageSpec, WebviewEditor, errorText } from './webviewEditor';
import { showInformation } from '../notify';

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

interface Loaded {
  model: StringTableModel;
  view: StringTableView;
}

class StringTableDocument extends ModelDocument<Loaded> {
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

export class StringTableEditorProvider extends WebviewEditor<StringTableDocument, ViewToHost, HostToView> {
  static readonly viewType = 'arch06.stringTable';

  static register(context: vscode.ExtensionContext, service: MountService, names: HashNames): vscode.Disposable {
    return new StringTableEditorProvider(context, service, names).registration();
  }

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    private readonly names: HashNames,
  ) {
    super(context, service, {
      viewType: StringTableEditorProvider.viewType,
      kind: 'string table',
      retainContextWhenHidden: false,
      resourceRoots: ['media/strings'],
      check: checkViewMessage,
    });
  }

  async openCustomDocument(uri: vscode.Uri): Promise<StringTableDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    await this.service.settled();
    const openedAt = performance.now();
    const inMount = locateLoose(this.service.mount, uri);
    // Header first and within the mount's cap (core/archive/entryRead.ts).
    const bytes = inMount ? await readEntryCheckedAsync(inMount.entry, { maxBytes: inMount.mount.maxEntryBytes }) : await vscode.workspace.fs.readFile(uri);
    return new StringTableDocument(uri, bytes, openedAt, inMount);
  }

  /** The opened table (its failure fails the editor), then its sibling languages (their failures become notes). */
  private async build(doc: StringTableDocument): Promise<Loaded> {
    const opened = parseSkdb(doc.bytes, doc.inMount?.entry.path ?? doc.name);
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
    const model = new StringTableModel(
      tables,
      undefined,
      tables.slice(0, FIRST_SHOWN).map((t) => t.language),
    );
    const counts = model.keyCounts();
    const dictionary = at ? this.names.forMount(at.mount) : this.names.userOnly();
    const view: StringTableView = {
      title: at?.entry.path ?? doc.name,
      languages: tables.map((t, i) => ({ language: t.language, file: t.file, keys: counts[i] })),
      shown: model.shownLanguageNames,
      total: model.total,
      named: 0,
      dictionary: 'gathering key names…',
      notes,
    };
    void dictionary.then(
      (dict) => this.named(doc, model, view, dict),
      (e) => this.service.reportError('gathering hash names', e),
    );
    this.log(doc, `${model.total} keys in ${tables.length} language${tables.length === 1 ? '' : 's'} (${model.languages.join(', ')})`);
    return { model, view };
  }

  /** The dictionary is ready: name the keys and tell every view to ask for its rows again. */
  private named(doc: StringTableDocument, model: StringTableModel, view: StringTableView, dict: HashDictionary): void {
    model.setDictionary(dict);
    view.named = model.namedKeys;
    view.dictionary = dictionarySummary(dict);
    for (const panel of doc.panels.keys()) this.post(panel, { type: 'names', named: view.named, dictionary: view.dictionary });
  }

  protected override viewOpened(doc: StringTableDocument, panel: vscode.WebviewPanel): void {
    doc.panels.set(panel, undefined);
    panel.onDidDispose(() => doc.panels.delete(panel));
    setImmediate(() => void doc.load(() => this.build(doc)));
  }

  /** The shared model searched as this view last asked (another view of the document may have moved it). */
  private searchFor(doc: StringTableDocument, model: StringTableModel, q: PanelQuery): void {
    const m = doc.modelQuery;
    if (m && m.text === q.text && m.languages.join() === q.languages.join()) return;
    model.setShownLanguages(q.languages);
    model.search(q.text);
    doc.modelQuery = q;
  }

  protected async onMessage(doc: StringTableDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready': {
        const r = await doc.load(() => this.build(doc));
        if ('error' in r) {
          this.log(doc, r.error);
          this.post(panel, this.failed(doc, r.error));
        } else this.post(panel, { type: 'init', view: r.view });
        return;
      }
      case 'query': {
        const r = await doc.load(() => this.build(doc));
        if ('error' in r) return;
        const q = { seq: msg.seq, text: msg.text, languages: msg.languages };
        doc.panels.set(panel, q);
        doc.modelQuery = undefined; // the same text again (after new names) searches again
        this.searchFor(doc, r.model, q);
        const m = r.model;
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
        const r = await doc.load(() => this.build(doc));
        const q = doc.panels.get(panel);
        if ('error' in r || !q || q.seq !== msg.seq) return; // an older query's window: dropped
        this.searchFor(doc, r.model, q);
        this.post(panel, { type: 'rows', seq: q.seq, start: msg.start, rows: r.model.rows(msg.start, msg.count) });
        return;
      }
      case 'firstRows':
        if (doc.timed) return;
        doc.timed = true;
        this.logTiming(doc, 'first rows', `${msg.rows} keys, table built at ${Math.round(doc.builtMs)} ms, webview ready at ${Math.round(doc.readyMs)} ms`);
        return;
      case 'export': {
        const r = await doc.load(() => this.build(doc));
        const q = doc.panels.get(panel);
        if ('error' in r || !q) return;
        await this.export(doc, r.model, q, msg.format);
        return;
      }
    }
  }

  /** What the view's search keeps, in its shown languages, to a file outside the install. */
  private async export(doc: StringTableDocument, model: StringTableModel, q: PanelQuery, format: 'csv' | 'json'): Promise<void> {
    const base = doc.name.replace(/\.[^.]+$/, '');
    const target = await this.service.exportTarget({
      title: `Export the string table as ${format.toUpperCase()}`,
      saveLabel: `Export ${format.toUpperCase()}`,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      fileName: `${base}.${format}`,
    });
    if (!target) return;
    try {
      this.searchFor(doc, model, q);
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
  <span class="spacer"></span>
  <button id="exportCsv" title="Save the keys the search keeps, in the shown languages, as CSV">Export CSV</button>
  <button id="exportJson" title="Save the keys the search keeps, in the shown languages, as JSON">Export JSON</button>
</div>
<div id="grid" role="grid" tabindex="0" aria-label="String table: arrow keys, Page Up/Down, Home and End move the selection" aria-readonly="true">
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
