/**
 * The 3D editor for `.mesh` (MMSH) and `.skel` (SKEL), read-only. The document parses the file
 * and, for a mesh, looks for its skeleton in the mount (same folder, same stem, `.skel`); the
 * webview (media/mesh/, bundled to dist/webview/meshView.js) draws the `MeshModel` it is sent.
 * `.inst` (PRFB) and `.wldmsh` (MESH) open here too and say plainly that their readers are not
 * written yet, with a hex view. Export to glTF binary from the editor's title bar.
 *
 * Protocol: media/mesh/protocol.ts.
 */
import * as vscode from 'vscode';
import { isArch06Error } from '../../core/errors';
import { parseMmsh } from '../../core/formats/mmsh';
import { Skel, parseSkel } from '../../core/formats/skel';
import { MeshModel } from '../../core/model/meshModel';
import { meshModelFromMmsh, meshModelFromSkel } from '../../core/model/fromMmsh';
import { writeGlb } from '../../core/model/glb';
import { toWireModel } from '../../core/model/wire';
import type { HostToView, ViewToHost } from '../../media/mesh/protocol';
import { hexDump } from './hexDump';
import { MountService } from '../mountService';

const nameOf = (uri: vscode.Uri): string => uri.path.split('/').pop() ?? uri.path;

/** What parsing a file gave: a model, or the reason there is none. */
interface Loaded {
  model?: MeshModel;
  error?: string;
  /** The skeleton file used, when one was found. */
  skeletonFrom?: string;
}

class MeshDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    readonly bytes: Uint8Array,
    readonly openedAt: number,
  ) {}
  /** Parsing starts once the webview is loading (the two overlap); everyone awaits the same result. */
  private loading: Promise<Loaded> | undefined;
  /** The last LOD the webview reported showing: the glTF export follows the view. */
  lod = 0;
  /** Milestones after `openedAt` (ms) for the output channel. */
  parsedMs = 0;
  readyMs = 0;

  load(log: (line: string) => void): Promise<Loaded> {
    this.loading ??= (async (): Promise<Loaded> => {
      try {
        return await load(this.uri, this.bytes);
      } catch (e) {
        const error = isArch06Error(e) ? e.message : e instanceof Error ? e.message : String(e);
        log(`mesh ${this.uri.toString()}: ${error}`);
        return { error };
      } finally {
        this.parsedMs = performance.now() - this.openedAt;
      }
    })();
    return this.loading;
  }

  dispose(): void {}
}

/** Formats that open here but have no reader yet: what to tell the user. */
const NOT_YET: Record<string, string> = {
  inst: 'PRFB v8 prefabs (.inst) are not decoded yet (seed 001 "Prefabs"); the raw bytes are below.',
  wldmsh: 'MESH v5 world meshes (.wldmsh) are not decoded yet (seed 001 "World meshes"); the raw bytes are below.',
};

async function tryRead(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
}

/** Parse a .mesh (with its sibling .skel when it reads) or a .skel into a MeshModel. */
async function load(uri: vscode.Uri, bytes: Uint8Array): Promise<{ model: MeshModel; skeletonFrom?: string }> {
  const ext = (/\.([^./]+)$/.exec(uri.path)?.[1] ?? '').toLowerCase();
  if (NOT_YET[ext]) throw new Error(NOT_YET[ext]);
  const name = nameOf(uri);
  if (ext === 'skel') return { model: meshModelFromSkel(parseSkel(bytes, uri.path), name) };
  const mmsh = parseMmsh(bytes, uri.path);
  const skelUri = uri.with({ path: uri.path.replace(/\.[^./]+$/, '.skel') });
  let skel: Skel | undefined;
  let skeletonFrom: string | undefined;
  const skelBytes = await tryRead(skelUri);
  if (skelBytes) {
    try {
      skel = parseSkel(skelBytes, skelUri.path);
      skeletonFrom = nameOf(skelUri);
    } catch {
      // A skeleton that does not parse: the mesh still shows, with the bone hashes of its own list.
    }
  }
  const model = meshModelFromMmsh(mmsh, skel, name);
  if (!skel) model.notes.push(skelBytes ? `${nameOf(skelUri)} did not parse: bones are named by hash` : `no ${nameOf(skelUri)} beside the mesh: bones are named by hash`);
  return { model, skeletonFrom };
}

export class MeshEditorProvider implements vscode.CustomReadonlyEditorProvider<MeshDocument> {
  static readonly viewType = 'arch06.mesh';
  private active: MeshDocument | undefined;

  static register(context: vscode.ExtensionContext, service: MountService): vscode.Disposable {
    const provider = new MeshEditorProvider(context, service);
    return vscode.Disposable.from(
      vscode.window.registerCustomEditorProvider(MeshEditorProvider.viewType, provider, {
        supportsMultipleEditorsPerDocument: true,
        webviewOptions: { retainContextWhenHidden: true },
      }),
      vscode.commands.registerCommand('arch06.exportGlb', (uri?: vscode.Uri) => provider.exportGlb(uri)),
    );
  }

  private readonly documents = new Map<string, MeshDocument>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly service: MountService,
  ) {}

  /** Only reads the bytes: parsing waits until the webview is loading, so the two overlap. */
  async openCustomDocument(uri: vscode.Uri): Promise<MeshDocument> {
    const openedAt = performance.now();
    const doc = new MeshDocument(uri, await vscode.workspace.fs.readFile(uri), openedAt);
    this.documents.set(uri.toString(), doc);
    return doc;
  }

  async resolveCustomEditor(doc: MeshDocument, panel: vscode.WebviewPanel): Promise<void> {
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'mesh');
    const bundle = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media, bundle] };
    panel.webview.html = this.html(panel.webview, media, bundle);
    // Yield once so the webview starts loading before the (synchronous) parse takes the thread.
    setImmediate(() => void doc.load((l) => this.service.log(l)));
    const track = (): void => {
      if (panel.active) this.active = doc;
    };
    track();
    panel.onDidChangeViewState(track);
    panel.onDidDispose(() => {
      if (this.active === doc) this.active = undefined;
      this.documents.delete(doc.uri.toString());
    });
    panel.webview.onDidReceiveMessage(async (msg: ViewToHost) => {
      switch (msg.type) {
        case 'ready': {
          doc.readyMs = performance.now() - doc.openedAt;
          const { model, error, skeletonFrom } = await doc.load((l) => this.service.log(l));
          const out: HostToView = model
            ? { type: 'model', model: toWireModel(model), title: nameOf(doc.uri) + (skeletonFrom ? ` + ${skeletonFrom}` : '') }
            : { type: 'failed', message: error ?? 'unknown error', hex: hexDump(doc.bytes), size: doc.bytes.length };
          void panel.webview.postMessage(out);
          return;
        }
        case 'firstFrame':
          this.service.log(
            `mesh ${nameOf(doc.uri)}: first frame ${Math.round(performance.now() - doc.openedAt)} ms after the editor started opening it ` +
              `(read, then parse done at ${Math.round(doc.parsedMs)} ms, webview ready at ${Math.round(doc.readyMs)} ms, model message to first frame ${Math.round(msg.sinceModelMs)} ms)`,
          );
          return;
        case 'stats':
          doc.lod = Math.max(0, msg.lod);
          return;
        case 'error':
          this.service.log(`mesh ${nameOf(doc.uri)}: the viewer failed: ${msg.message}`);
          void vscode.window.showErrorMessage(`The 3D view could not show ${nameOf(doc.uri)}: ${msg.message}`);
          return;
      }
    });
  }

  /** Export the LOD on screen as glTF binary, then offer to open it in the default app. */
  async exportGlb(uri?: vscode.Uri): Promise<void> {
    const doc = (uri && this.documents.get(uri.toString())) ?? this.active;
    const loaded = await doc?.load((l) => this.service.log(l));
    if (!doc || !loaded?.model) {
      void vscode.window.showWarningMessage(doc ? `Nothing to export: ${loaded?.error}` : 'Open a .mesh in the arch06 mesh editor first.');
      return;
    }
    const model = loaded.model;
    const base = nameOf(doc.uri).replace(/\.[^.]+$/, '');
    const target = await vscode.window.showSaveDialog({
      title: 'Export as glTF binary (metres, Y up; the game uses centimetres)',
      saveLabel: 'Export .glb',
      filters: { 'glTF binary': ['glb'] },
      defaultUri: vscode.Uri.file(`${base}${doc.lod ? `_lod${doc.lod}` : ''}.glb`),
    });
    if (!target) return;
    try {
      const glb = writeGlb(model, { lod: Math.min(doc.lod, Math.max(0, model.lods.length - 1)) });
      await vscode.workspace.fs.writeFile(target, glb);
      const open = await vscode.window.showInformationMessage(`Exported ${nameOf(target)} (${(glb.length / 1024).toFixed(0)} KiB).`, 'Open in Default App');
      if (open) await vscode.env.openExternal(target);
    } catch (e) {
      this.service.reportError('glTF export failed', e);
    }
  }

  private html(webview: vscode.Webview, media: vscode.Uri, bundle: vscode.Uri): string {
    const nonce = [...Array(32)].map(() => Math.floor(Math.random() * 36).toString(36)).join('');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(bundle, 'meshView.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'meshView.css'));
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data: blob:; style-src ${webview.cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${style}" rel="stylesheet"><title>Mesh</title></head>
<body>
<script nonce="${nonce}" src="${script}"></script>
</body></html>`;
  }
}
