/**
 * The object-registry editor for `.objres` (OBJR v13; an editable custom editor on the skeleton's
 * editable half, editableEditor.ts): a header with the counts, the OBJL record layout's validation and seed 001's
 * patch rule for this copy; tabs for the objects (a virtualised table the webview fills window by
 * window, a class filter and search as you type), the script bindings, the groups and the block
 * chain (a hex view of raw blocks). Clicking a binding (or Enter on it) opens the part's script at
 * its function: the `.scripts` copy the search order serves (a loose copy winning in the merged
 * view, else the container's member through the bundle folder), as its read-only text view with
 * the cursor on the function's line, revealed in the centre.
 *
 * The edit panel (issue 24 item 4) moves and turns the selected object (degrees in the panel, a
 * unit quaternion in the file), renames it, sets its class, a binding's event and function, its
 * group's members, adds and deletes objects: each `edit` message goes to registryEdits.ts (core's
 * edits, re-validated with the reader's checks; a refused one answers `editResult` with the reason,
 * shown in the panel); each applied edit is an entry of VS Code's undo/redo stack, and a save goes
 * into the active mod (editorSaveTarget.ts; the game's copy is never written).
 *
 * The model is registryEdits.ts over registryModel.ts (no vscode); the webview is media/registry/;
 * the protocol media/registry/protocol.ts. The objects stay here: the webview asks for the rows it shows.
 */
import * as vscode from 'vscode';
import { type BundleFolders, type Mount, type UriFile, toGamePath } from '../../core/archive';
import { type HostToView, MAX_WINDOW, type ViewToHost, checkViewMessage } from '../../media/registry/protocol';
import { SCHEME, locate } from '../fs/uris';
import { MountService } from '../mountService';
import { textUri } from '../views/textView';
import type { RegistryEdit } from '../../media/registry/protocol';
import type { ModProjects } from '../mods/modProjects';
import { type BundleResolver, blockHex, loadPartScript, patchRuleOf, summaryLine } from './registryModel';
import { EditableRegistry, editLabel } from './registryEdits';
import { EditableDocument, EditableEditor } from './editableEditor';
import { type PageSpec, errorText } from './webviewEditor';
import { showInformation } from '../notify';

/** A registry's bytes and its editable model, built once (again after a revert). */
type RegistryDocument = EditableDocument<EditableRegistry, RegistryEdit>;

/** The `#object=` name, or undefined when absent or not decodable. */
function decodeFocus(raw: string | undefined): string | undefined {
  try {
    return raw ? decodeURIComponent(raw) : undefined;
  } catch {
    return undefined;
  }
}

export class RegistryEditorProvider extends EditableEditor<RegistryDocument, EditableRegistry, RegistryEdit, ViewToHost, HostToView> {
  static readonly viewType = 'arch06.registry';
  /** The open views of each document (an edit, undo or revert updates them all). */
  private readonly panels = new Map<RegistryDocument, Set<vscode.WebviewPanel>>();

  static register(context: vscode.ExtensionContext, service: MountService, bundles: BundleFolders, projects: ModProjects): vscode.Disposable {
    return new RegistryEditorProvider(context, service, bundles, projects).registration();
  }

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    /** The file system's bundle folders (resolved once per mount). */
    private readonly bundles: BundleFolders,
    projects: ModProjects,
  ) {
    super(context, service, projects, {
      viewType: RegistryEditorProvider.viewType,
      kind: 'registry',
      retainContextWhenHidden: false,
      resourceRoots: ['media/registry'],
      check: checkViewMessage,
    });
  }

  /** The whole file (an `arch06:` file through the file system: merged view, one source, or a bundle member). */
  async openCustomDocument(uri: vscode.Uri, context?: vscode.CustomDocumentOpenContext): Promise<RegistryDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    await this.service.settled();
    const openedAt = performance.now();
    const opening = context ?? { backupId: undefined, untitledDocumentData: undefined };
    const bytes = await this.openingBytes(opening, () => this.readSaved({ uri }));
    return new EditableDocument<EditableRegistry, RegistryEdit>(uri, bytes, openedAt);
  }

  protected readSaved(doc: { uri: vscode.Uri }): Promise<Uint8Array> {
    return Promise.resolve(vscode.workspace.fs.readFile(doc.uri));
  }

  protected async model(doc: RegistryDocument): Promise<EditableRegistry> {
    const r = await doc.load(() => this.build(doc));
    if ('error' in r) throw new Error(r.error);
    return r;
  }

  /** Every view of `doc` shows the registry as it is now (and selects what the change names). */
  protected documentChanged(doc: RegistryDocument): void {
    void doc
      .load(() => this.build(doc))
      .then((r) => {
        if ('error' in r) return;
        const selectedRow = r.select ? r.current.objects.window(r.select, '', 0, MAX_WINDOW).rows.find((x) => 'name' in x && x.name === r.select) : undefined;
        const select = r.select ? { select: r.select, ...(selectedRow && 'name' in selectedRow ? { selectedRow } : {}) } : {};
        for (const panel of this.panels.get(doc) ?? []) this.post(panel, { type: 'updated', view: r.current.view, ...select });
      });
  }

  /** Where an `arch06:` URI is in the mount (fs/uris.ts `locate`), or undefined for any other file. */
  private locate(uri: vscode.Uri): { mount: Mount; file: UriFile } | undefined {
    const mount = this.service.mount;
    try {
      const file = locate(mount, uri, this.bundles);
      return mount && file ? { mount, file } : undefined;
    } catch {
      return undefined;
    }
  }

  private async build(doc: RegistryDocument): Promise<EditableRegistry> {
    const at = this.locate(doc.uri);
    let model: EditableRegistry;
    if (!at) {
      model = EditableRegistry.open(doc.bytes, {
        path: doc.name,
        patch: { state: 'unresolved', text: 'Opened outside the mounted install: the patch rule is not checked' },
      });
    } else {
      const resolve: BundleResolver = (p) => this.bundles.resolve(at.mount, toGamePath(p)).bundle;
      const patch = patchRuleOf(at.mount, at.file, resolve);
      // The script from where the registry was read (its bundle folder, its source) first, else as the engine serves it.
      const f = at.file;
      const script = await loadPartScript(
        at.mount,
        f.path,
        f.view === 'bundle' ? { bundle: f.folder.bundle } : f.view === 'source' ? { source: f.source } : {},
      );
      model = EditableRegistry.open(doc.bytes, { path: at.file.path, script, patch });
    }
    this.log(doc, summaryLine(model.current.view));
    return model;
  }

  protected override viewOpened(doc: RegistryDocument, panel: vscode.WebviewPanel): void {
    const views = this.panels.get(doc) ?? new Set();
    views.add(panel);
    this.panels.set(doc, views);
    panel.onDidDispose(() => {
      views.delete(panel);
      if (!views.size) this.panels.delete(doc);
    });
    // Yield once so the webview starts loading before the (synchronous) parse takes the thread.
    setImmediate(() => void doc.load(() => this.build(doc)));
  }

  protected async onMessage(doc: RegistryDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    const loaded = await doc.load(() => this.build(doc));
    if ('error' in loaded) {
      if (msg.type === 'ready') {
        this.log(doc, loaded.error);
        this.post(panel, this.failed(doc, loaded.error));
      }
      return;
    }
    const r = loaded.current;
    switch (msg.type) {
      case 'ready': {
        // `#object=<name>`: opened to show one object (the language server's "bound by" lens).
        const focus = decodeFocus(/(?:^|&)object=([^&]*)/.exec(doc.uri.fragment)?.[1]);
        this.post(panel, { type: 'init', view: r.view, editBlocked: loaded.blocked, ...(focus ? { focus } : {}) });
        return;
      }
      case 'edit': {
        try {
          await this.edit(doc, msg.edit, editLabel(msg.edit));
        } catch (e) {
          this.post(panel, { type: 'editResult', seq: msg.seq, error: errorText(e) });
          return;
        }
        this.log(doc, `${editLabel(msg.edit)}`);
        this.post(panel, { type: 'editResult', seq: msg.seq, error: null });
        return;
      }
      case 'query': {
        const w = r.objects.window(msg.text, msg.className, msg.start, msg.count);
        this.post(panel, { type: 'rows', seq: msg.seq, total: r.objects.total, ...w });
        return;
      }
      case 'firstRows':
        if (doc.timed) return;
        doc.timed = true;
        this.logTiming(
          doc,
          'first rows',
          `${msg.rows} rows in view, model built at ${Math.round(doc.builtMs)} ms, webview ready at ${Math.round(doc.readyMs)} ms`,
        );
        return;
      case 'hex': {
        const hex = blockHex(r, msg.block);
        if (hex) this.post(panel, { type: 'hex', block: msg.block, ...hex });
        return;
      }
      case 'openBinding': {
        const target = r.targets[msg.row];
        if (!target) return;
        if ('reason' in target) {
          void showInformation(target.reason);
          return;
        }
        await this.openScript(panel, target.uriPath, target.line);
        return;
      }
    }
  }

  /** The script's text view (exactly its source, so its lines are the source's) with the cursor on `line`, revealed in the centre. */
  private async openScript(panel: vscode.WebviewPanel, uriPath: string, line: number): Promise<void> {
    // Keep the registry's tab: a preview tab would be replaced by the script.
    if (panel.active) await vscode.commands.executeCommand('workbench.action.keepEditor');
    const at = new vscode.Position(line - 1, 0);
    const range = new vscode.Range(at, at);
    const editor = await vscode.window.showTextDocument(textUri(vscode.Uri.from({ scheme: SCHEME, path: uriPath })), {
      viewColumn: panel.viewColumn,
      preview: true,
      selection: range,
    });
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  }

  /** Script and style inlined (one round trip less before the first rows); the markup the script fills. */
  protected page(): PageSpec {
    return {
      title: 'Object registry',
      style: { inline: this.extensionText('media/registry/registryView.css') },
      script: { inline: this.extensionText('dist/webview/registryView.js') },
      body: `<header id="summary" aria-live="polite"><p class="muted">Reading the registry…</p></header>
<nav id="tabs" role="tablist" aria-label="Registry parts">
  <button role="tab" id="tab-objects" data-tab="objects" aria-controls="panel-objects">Objects</button>
  <button role="tab" id="tab-bindings" data-tab="bindings" aria-controls="panel-bindings">Bindings</button>
  <button role="tab" id="tab-groups" data-tab="groups" aria-controls="panel-groups">Groups</button>
  <button role="tab" id="tab-blocks" data-tab="blocks" aria-controls="panel-blocks">Blocks</button>
</nav>
<section id="panel-objects" class="panel" role="tabpanel" aria-labelledby="tab-objects">
  <div class="toolbar">
    <input id="search" type="search" placeholder="Search by name, class, group or 0x hash (type to filter)" aria-label="Search objects by name, class, group or 0x hash" spellcheck="false" autocomplete="off">
    <select id="classFilter" aria-label="Only objects of one class"><option value="">All classes</option></select>
    <span id="shownText" aria-live="polite"></span>
  </div>
  <div id="grid" role="grid" tabindex="0" aria-label="Objects" aria-readonly="true">
    <div id="head" role="row"></div>
    <div id="viewport"><div id="spacer"><div id="rows" role="rowgroup"></div></div></div>
  </div>
  <section id="editPanel" class="edit-panel" aria-label="Edit the selected object"></section>
</section>
<section id="panel-bindings" class="panel" role="tabpanel" aria-labelledby="tab-bindings" hidden></section>
<section id="panel-groups" class="panel" role="tabpanel" aria-labelledby="tab-groups" hidden></section>
<section id="panel-blocks" class="panel" role="tabpanel" aria-labelledby="tab-blocks" hidden></section>
`,
    };
  }
}
