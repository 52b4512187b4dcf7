/**
 * The bundle editor for `.bndl` manifests and `.embb` containers (read-only custom editor, built on
 * webviewEditor.ts): a table of the bundle's members with their declared and container sizes,
 * where the engine serves each from (container / loose entry and from which source / missing) and
 * how many sources hold a loose copy; above it the counts, the container-size identity, the
 * mirror check and the notes. Double-click or Enter opens a member in its own editor through its
 * bundle folder (`arch06:/<dir>/x.bndl [bundle]/<member path>`), so textures and meshes open in
 * theirs. The table is built by bundleRows.ts (no vscode); the webview is media/bundle/.
 *
 * What a document shows:
 * - an `arch06:` file of the merged view or of one source (`@sources/<name>/…`): the bundle of its
 *   stem resolved in the mount (core/archive/bundles.ts, through the file system's bundle-folder
 *   cache); an `.embb` shows the table of the manifest of the same stem, or, when no manifest
 *   exists, the container's own member list; a copy the engine does not use says so above the table;
 * - any other file (on disk, inside a bundle folder): its bytes read alone.
 *
 * A container can be large (retail: up to 1.4 GB), so an `arch06:` document never reads it whole:
 * the resolution walks only its header, path table and size words, and the document keeps the
 * first bytes for the failure page's hex view. The table is built after the webview starts
 * loading (the two overlap) and sent in one message when the webview says it is ready.
 *
 * Protocol: media/bundle/protocol.ts.
 */
import * as vscode from 'vscode';
import { type BundleFolders, EntryByteSource, partBundlePath, toGamePath } from '../../core/archive';
import { isArch06Error } from '../../core/errors';
import { readEmbb } from '../../core/formats/bundle';
import { type HostToView, type ViewToHost, checkViewMessage } from '../../media/bundle/protocol';
import { type InMount, SCHEME, locateLoose } from '../fs/uris';
import { MountService } from '../mountService';
import { type BundleModel, containerModel, copyBanner, mountLooseCopies, resolvedModel, standaloneModel, summaryLine } from './bundleRows';
import { ModelDocument, PageSpec, WebviewEditor } from './webviewEditor';
import { showInformation } from '../notify';

/** Bytes kept of a file the document does not need whole: the failure page's hex view shows 256. */
const PREFIX_BYTES = 4096;

class BundleDocument extends ModelDocument<BundleModel> {
  constructor(
    uri: vscode.Uri,
    /** The file's first bytes (all of them outside the mount). */
    bytes: Uint8Array,
    openedAt: number,
    /** The file's size in bytes. */
    readonly size: number,
    readonly inMount: InMount | undefined,
  ) {
    super(uri, bytes, openedAt);
  }
}

const isNotFound = (e: unknown): boolean => isArch06Error(e) && e.code === 'NOT_FOUND';

export class BundleEditorProvider extends WebviewEditor<BundleDocument, ViewToHost, HostToView> {
  static readonly viewType = 'arch06.bundle';

  static register(context: vscode.ExtensionContext, service: MountService, bundles: BundleFolders): vscode.Disposable {
    return new BundleEditorProvider(context, service, bundles).registration();
  }

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    /** The file system's bundle folders (resolved once per mount, shared with the Explorer). */
    private readonly bundles: BundleFolders,
  ) {
    super(context, service, {
      viewType: BundleEditorProvider.viewType,
      kind: 'bundle',
      retainContextWhenHidden: false,
      resourceRoots: ['media/bundle'],
      check: checkViewMessage,
    });
  }

  /** An `arch06:` file in the mount keeps only its first bytes (a container may be huge); other files are read whole. */
  async openCustomDocument(uri: vscode.Uri): Promise<BundleDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    await this.service.settled();
    const openedAt = performance.now();
    const inMount = locateLoose(this.service.mount, uri);
    if (inMount) {
      const { entry } = inMount;
      const prefix = await entry.read(0, Math.min(entry.size, PREFIX_BYTES));
      return new BundleDocument(uri, prefix, openedAt, entry.size, inMount);
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    return new BundleDocument(uri, bytes, openedAt, bytes.length, undefined);
  }

  /** The table for a document (synchronous engine work: called once the webview is loading). */
  private build(doc: BundleDocument): BundleModel {
    const model = doc.inMount ? this.resolve(doc.inMount) : standaloneModel(doc.name, doc.bytes);
    this.log(doc, summaryLine(model.view));
    return model;
  }

  /** The bundle of an `arch06:` file's stem as the engine resolves it, or a container's own list. */
  private resolve(at: InMount): BundleModel {
    const copies = mountLooseCopies(at.mount);
    let model: BundleModel;
    try {
      const folder = this.bundles.resolve(at.mount, toGamePath(partBundlePath(at.entry.path)));
      model = resolvedModel(folder.bundle, copies);
      if (at.source) {
        const banner = copyBanner(folder.bundle, { source: at.entry.source.name, path: at.entry.path });
        if (banner) model.view.banner = banner;
      }
    } catch (e) {
      // A container no manifest names: its own member list.
      if (!isNotFound(e) || !/\.embb$/i.test(at.entry.path)) throw e;
      const embb = readEmbb(new EntryByteSource(at.entry));
      const entryCopies = copies(at.entry.path);
      model = containerModel({ path: at.entry.path, source: at.entry.source.name, size: at.entry.size, copies: entryCopies }, embb, copies);
    }
    return model;
  }

  protected override viewOpened(doc: BundleDocument): void {
    // Yield once so the webview starts loading before the (synchronous) resolution takes the thread.
    setImmediate(() => void doc.load(() => this.build(doc)));
  }

  protected async onMessage(doc: BundleDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready': {
        const r = await doc.load(() => this.build(doc));
        if ('error' in r) {
          this.log(doc, r.error);
          this.post(panel, { ...this.failed(doc, r.error), size: doc.size });
        } else this.post(panel, { type: 'init', view: r.view });
        return;
      }
      case 'firstRows':
        if (doc.timed) return;
        doc.timed = true;
        this.logTiming(doc, 'first rows', `${msg.rows} rows, table built at ${Math.round(doc.builtMs)} ms, webview ready at ${Math.round(doc.readyMs)} ms`);
        return;
      case 'open': {
        const r = await doc.load(() => this.build(doc));
        const target = 'error' in r ? undefined : r.targets[msg.row];
        if (!target) return;
        if ('reason' in target) {
          void showInformation(target.reason);
          return;
        }
        // Keep the bundle's tab (a preview tab would be replaced by the member); members opened one
        // after another share one preview tab, as the Explorer's do.
        if (panel.active) await vscode.commands.executeCommand('workbench.action.keepEditor');
        await vscode.commands.executeCommand('vscode.open', vscode.Uri.from({ scheme: SCHEME, path: target.uriPath }), { preview: true });
        return;
      }
    }
  }

  /** Script and style inlined (one round trip less before the first rows); the markup the script fills. */
  protected page(): PageSpec {
    return {
      title: 'Bundle',
      style: { inline: this.extensionText('media/bundle/bundleView.css') },
      script: { inline: this.extensionText('dist/webview/bundleView.js') },
      body: `<header id="summary" aria-live="polite"><p class="muted">Reading the bundle…</p></header>
<div id="toolbar" role="toolbar" aria-label="Bundle table controls">
  <input id="filter" type="search" placeholder="Filter by path (type to filter, ↑↓ to move, Enter to open)" aria-label="Filter members by path" spellcheck="false" autocomplete="off">
  <span id="shownText" aria-live="polite"></span>
</div>
<div id="grid" role="grid" tabindex="0" aria-label="Bundle members: arrow keys move the selection, Enter or double-click opens the member" aria-readonly="true">
  <div id="head" role="row"></div>
  <div id="viewport"><div id="spacer"><div id="rows" role="rowgroup"></div></div></div>
</div>
`,
    };
  }
}
