/**
 * The 3D editor for `.mesh` (MMSH) and `.skel` (SKEL), read-only. The document parses the file
 * and, for a mesh, looks for its skeleton in the mount (same folder, same stem, `.skel`); the
 * webview (media/mesh/, bundled to dist/webview/meshView.js) draws the `MeshModel` it is sent.
 * `.inst` (PRFB) and `.wldmsh` (MESH) open here too, read from seed 001 alone
 * (core/model/fromPrfb.ts): a model when their geometry is checkable, otherwise the structure
 * found and why there is no model, with a hex view. Export to glTF binary from the editor's title bar.
 *
 * Textures by material slot: a mesh names its materials only as slots, and which textures fill
 * a slot is decided by the game's design records (seed 000), so the modder assigns a texture file
 * to a slot by hand ("Texture…" in the viewer's panel → a quick pick of the mount's texture
 * paths, the mesh's folder first). The winning copy is read, its largest slice-0 mip of at most
 * 2048 pixels a side is decoded (core/model/materialTexture.ts, on the decode pool) and sent to
 * every view of the document; the document keeps it in memory (never on disk) and the glTF
 * export embeds it as that material's base-colour PNG.
 *
 * Protocol: media/mesh/protocol.ts.
 */
import * as vscode from 'vscode';
import { Arch06Error } from '../../core/errors';
import { DecodePool, encodePng } from '../../core/image/node';
import { FuzzyIndex } from '../../core/search';
import {
  chooseMaterialTexture,
  gameFolderOf,
  isMaterialTexturePath,
  textureChoices,
  MeshModel,
  meshModelFromSkel,
  loadMeshWithSkeleton,
  explainNoModel,
  readPrefabLike,
  writeGlb,
  toWireModel,
} from '../../core/model';
import { parseMmsh, parseSkel } from '../../core/formats/mesh';
import { type HostToView, type ViewToHost, checkViewMessage } from '../../media/mesh/protocol';
import { MountService } from '../mountService';
import { textureRole } from '../../core/formats/texture';
import { SCHEME, gamePathOf, parseUri } from '../fs/uris';
import { EditorDocument, PageSpec, WebviewEditor, errorText } from './webviewEditor';

/** What parsing a file gave: a model, or the reason there is none. */
interface Loaded {
  model?: MeshModel;
  error?: string;
  /** The skeleton file used, when one was found. */
  skeletonFrom?: string;
}

/** A texture the modder assigned to a material slot: the decoded level, and its PNG once exported. */
interface SlotTexture {
  /** The game path chosen (as the winning source spells it). */
  path: string;
  width: number;
  height: number;
  /** RGBA8, rows top first. */
  rgba: Uint8Array;
  /** Encoded on the first export that needs it. */
  png?: Uint8Array;
}

class MeshDocument extends EditorDocument {
  /** Parsing starts once the webview is loading (the two overlap); everyone awaits the same result. */
  private loading: Promise<Loaded> | undefined;
  /** The last LOD the webview reported showing: the glTF export follows the view. */
  lod = 0;
  /** Textures assigned to material slots, by slot (= glTF material) name. In memory only. */
  readonly textures = new Map<string, SlotTexture>();
  /** The open views of this document (an editor split shows one document twice). */
  readonly panels = new Set<vscode.WebviewPanel>();
  /** When parsing finished, ms after `openedAt` (for the timing log). */
  parsedMs = 0;

  load(log: (line: string) => void): Promise<Loaded> {
    this.loading ??= (async (): Promise<Loaded> => {
      try {
        return await load(this.uri, this.bytes);
      } catch (e) {
        log(`mesh ${this.uri.toString()}: ${errorText(e)}`);
        return { error: errorText(e) };
      } finally {
        this.parsedMs = performance.now() - this.openedAt;
      }
    })();
    return this.loading;
  }
}

/** Formats read from seed 001 alone: a model only when their geometry is checkable. */
const PREFAB_LIKE: Record<string, 'PRFB' | 'MESH'> = { inst: 'PRFB', wldmsh: 'MESH' };

/** Parse a .mesh (with its sibling .skel when it reads: core/model/meshWithSkeleton.ts), a .skel, or a prefab-like file into a MeshModel. */
async function load(uri: vscode.Uri, bytes: Uint8Array): Promise<{ model: MeshModel; skeletonFrom?: string }> {
  const ext = (/\.([^./]+)$/.exec(uri.path)?.[1] ?? '').toLowerCase();
  const name = uri.path.split('/').pop() ?? uri.path;
  const prefabKind = PREFAB_LIKE[ext];
  if (prefabKind) {
    // No model: the structure found becomes the `failed` message, shown above the hex dump.
    const r = readPrefabLike(bytes, uri.path, name, prefabKind);
    if (r.model) return { model: r.model };
    throw new Error(explainNoModel(prefabKind, r));
  }
  if (ext === 'skel') return { model: meshModelFromSkel(parseSkel(bytes, uri.path), name) };
  // The sibling through the same file system as the mesh (so the mount's winning copy), named by its file name.
  const { model, skeleton, matches } = await loadMeshWithSkeleton(parseMmsh(bytes, uri.path), uri.path, name, async (path) => {
    const sibling = uri.with({ path });
    try {
      return { bytes: await vscode.workspace.fs.readFile(sibling), from: path.split('/').pop() ?? path };
    } catch {
      return undefined;
    }
  });
  if (skeleton.note) model.notes.push(skeleton.note);
  // A skeleton that does not match the mesh's bones is not used (the notes say why): no "+ x.skel".
  return { model, skeletonFrom: matches ? skeleton.from : undefined };
}

export class MeshEditorProvider extends WebviewEditor<MeshDocument, ViewToHost, HostToView> {
  static readonly viewType = 'arch06.mesh';
  private active: MeshDocument | undefined;

  static register(context: vscode.ExtensionContext, service: MountService, pool: DecodePool): vscode.Disposable {
    const provider = new MeshEditorProvider(context, service, pool);
    return vscode.Disposable.from(
      provider.registration(),
      vscode.commands.registerCommand('arch06.exportGlb', (uri?: vscode.Uri) => provider.exportGlb(uri)),
    );
  }

  private readonly documents = new Map<string, MeshDocument>();
  /** The mount's texture paths (sorted) and a fuzzy index over them, built on the first pick. */
  private textureIndex: { from: FuzzyIndex; paths: string[]; index: FuzzyIndex } | undefined;

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    /** The extension's one decode pool (large levels off the host's thread). */
    private readonly pool: DecodePool,
  ) {
    // The three.js scene is costly to rebuild, so a hidden tab keeps its webview.
    super(context, service, {
      viewType: MeshEditorProvider.viewType,
      kind: 'mesh',
      retainContextWhenHidden: true,
      resourceRoots: ['media/mesh', 'dist/webview'],
      check: checkViewMessage,
    });
  }

  /** Only reads the bytes: parsing waits until the webview is loading, so the two overlap. */
  async openCustomDocument(uri: vscode.Uri): Promise<MeshDocument> {
    // A tab restored with the window opens before activation's mount has settled.
    await this.service.settled();
    const openedAt = performance.now();
    const doc = new MeshDocument(uri, await vscode.workspace.fs.readFile(uri), openedAt);
    this.documents.set(uri.toString(), doc);
    return doc;
  }

  /** The viewer builds its own DOM: the page is its style sheet and its bundle. */
  protected page(): PageSpec {
    return { title: 'Mesh', style: { href: this.extensionUri('media/mesh/meshView.css') }, script: { src: this.extensionUri('dist/webview/meshView.js') } };
  }

  protected override viewOpened(doc: MeshDocument, panel: vscode.WebviewPanel): void {
    // Yield once so the webview starts loading before the (synchronous) parse takes the thread.
    setImmediate(() => void doc.load((l) => this.service.log(l)));
    const track = (): void => {
      if (panel.active) this.active = doc;
    };
    track();
    doc.panels.add(panel);
    panel.onDidChangeViewState(track);
    panel.onDidDispose(() => {
      doc.panels.delete(panel);
      if (this.active === doc) this.active = undefined;
      if (doc.panels.size === 0) this.documents.delete(doc.uri.toString());
    });
  }

  protected async onMessage(doc: MeshDocument, panel: vscode.WebviewPanel, msg: ViewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready': {
        const { model, error, skeletonFrom } = await doc.load((l) => this.service.log(l));
        this.post(
          panel,
          model
            ? { type: 'model', model: toWireModel(model), title: doc.name + (skeletonFrom ? ` + ${skeletonFrom}` : '') }
            : this.failed(doc, error ?? 'unknown error'),
        );
        // The view drops slot textures with each model: send this document's again.
        if (model) for (const [slot, t] of doc.textures) this.postTexture(panel, slot, t);
        return;
      }
      case 'pickTexture':
        await this.pickTexture(doc, msg.slot);
        return;
      case 'clearTexture':
        if (doc.textures.delete(msg.slot)) {
          this.log(doc, `${msg.slot} has no texture now`);
          for (const other of doc.panels) if (other !== panel) this.post(other, { type: 'clearTexture', slot: msg.slot });
        }
        return;
      case 'firstFrame':
        this.logTiming(
          doc,
          'first frame',
          `read, then parse done at ${Math.round(doc.parsedMs)} ms, webview ready at ${Math.round(doc.readyMs)} ms, model message to first frame ${Math.round(msg.sinceModelMs)} ms`,
        );
        return;
      case 'stats':
        doc.lod = Math.max(0, msg.lod);
        return;
      case 'error':
        this.log(doc, `the viewer failed: ${msg.message}`);
        void vscode.window.showErrorMessage(`The 3D view could not show ${doc.name}: ${msg.message}`);
        return;
    }
  }

  /** The mount's texture paths, sorted, and a fuzzy index over them (rebuilt when the mount changes). */
  private textures(): { paths: string[]; index: FuzzyIndex } | undefined {
    const all = this.service.fuzzyIndex();
    if (!all) return undefined;
    if (this.textureIndex?.from !== all) {
      const keyed = all.paths.filter(isMaterialTexturePath).map((p) => [p.toLowerCase(), p] as const);
      const paths = keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((k) => k[1]);
      this.textureIndex = { from: all, paths, index: new FuzzyIndex(paths) };
    }
    return this.textureIndex;
  }

  /**
   * "Texture…" on a slot: a quick pick over the mount's texture paths (the mesh's folder first;
   * typing filters fuzzily like Go to File), then read, decode and send the chosen one.
   */
  async pickTexture(doc: MeshDocument, slot: string): Promise<void> {
    const mount = this.service.mount;
    const tex = this.textures();
    if (!mount || !tex) {
      void vscode.window.showInformationMessage(
        'No install is mounted, so there are no game textures to choose from. Run "arch06: Open Game Folder as Workspace" first.',
      );
      return;
    }
    const meshPath = doc.uri.scheme === SCHEME ? gamePathOf(parseUri(doc.uri)) : undefined;
    const folder = meshPath === undefined ? undefined : gameFolderOf(meshPath);
    const picked = await new Promise<string | undefined>((resolve) => {
      type Item = vscode.QuickPickItem & { path?: string };
      const qp = vscode.window.createQuickPick<Item>();
      qp.title = `Texture for ${slot} of ${doc.name} (for the view and the glTF export; nothing is written to the game)`;
      qp.placeholder = `Search ${tex.paths.length.toLocaleString('en')} textures by name (.tex, .tex0, .texuhd, .dds)`;
      qp.matchOnDescription = false;
      const item = (p: string, positions: number[] = []): Item => {
        const cut = p.lastIndexOf('\\');
        const nameStart = cut + 1;
        const label: [number, number][] = positions.filter((x) => x >= nameStart).map((x) => [x - nameStart, x - nameStart + 1]);
        // We filter ourselves; keep VS Code's own filter from hiding our matches.
        return { label: p.slice(nameStart), description: cut > 0 ? p.slice(0, cut) : '', path: p, alwaysShow: true, highlights: { label } } as Item;
      };
      const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
      const group = (near: Item[], rest: Item[], restLabel: string): Item[] =>
        near.length === 0
          ? rest
          : [
              separator(`in ${meshPath ? gameFolderOf(meshPath) || 'the root' : 'the mesh folder'}`),
              ...near,
              ...(rest.length ? [separator(restLabel), ...rest] : []),
            ];
      const update = (): void => {
        if (!qp.value.trim()) {
          // Nothing typed: the mesh's folder, then the first of the rest (typing searches them all).
          const { near, rest } = textureChoices(tex.paths, meshPath);
          qp.items = group(
            near.map((p) => item(p)),
            rest.slice(0, 200).map((p) => item(p)),
            rest.length > 200 ? `elsewhere (first 200 of ${rest.length.toLocaleString('en')}: type to search)` : 'elsewhere',
          );
          return;
        }
        const matches = tex.index.match(qp.value, 200);
        const near: Item[] = [];
        const rest: Item[] = [];
        for (const m of matches) {
          const p = tex.index.paths[m.index]!;
          (folder !== undefined && gameFolderOf(p) === folder ? near : rest).push(item(p, m.positions));
        }
        qp.items = group(near, rest, 'elsewhere');
      };
      update();
      let chosen: string | undefined;
      qp.onDidChangeValue(update);
      qp.onDidAccept(() => {
        chosen = (qp.selectedItems[0] ?? qp.activeItems[0])?.path;
        if (chosen) qp.hide();
      });
      qp.onDidHide(() => {
        qp.dispose();
        resolve(chosen);
      });
      qp.show();
    });
    if (!picked) return;
    const file = picked.slice(picked.lastIndexOf('\\') + 1);
    try {
      const t = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `arch06: decoding ${file}…` },
        async (): Promise<SlotTexture & { mip: number; note: string }> => {
          const entry = mount.winner(picked);
          if (!entry) throw new Arch06Error('NOT_FOUND', 'path not found in any mounted source', { file: picked });
          const bytes = await entry.read();
          const { texture, level } = chooseMaterialTexture(bytes, picked);
          const d = await this.pool.decode(texture.dds, texture.bytes, 0, level.mip);
          return {
            path: picked,
            width: d.width,
            height: d.height,
            rgba: d.rgba,
            mip: level.mip,
            note: `${texture.dds.format.name}, ${texture.dds.width}×${texture.dds.height}`,
          };
        },
      );
      if (mount !== this.service.mount) return; // remounted meanwhile: the path may mean something else now
      const { mip, note, ...kept } = t;
      doc.textures.set(slot, kept);
      this.log(doc, `${slot} shows ${picked} (${note}; mip ${mip}, ${t.width}×${t.height})`);
      for (const p of doc.panels) this.postTexture(p, slot, kept);
    } catch (e) {
      this.log(doc, `${picked} as the texture of ${slot}: ${errorText(e)}`);
      void vscode.window.showWarningMessage(`${file} cannot be used as the texture of ${slot}; nothing changed. ${errorText(e)}`);
    }
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
    const base = doc.name.replace(/\.[^.]+$/, '');
    const target = await this.service.exportTarget({
      title: 'Export as glTF binary (metres, Y up; the game uses centimetres)',
      saveLabel: 'Export .glb',
      filters: { 'glTF binary': ['glb'] },
      fileName: `${base}${doc.lod ? `_lod${doc.lod}` : ''}.glb`,
    });
    if (!target) return;
    try {
      // Each slot's assigned texture becomes its material's base-colour image (PNG, encoded once).
      const embedded = new Set<string>();
      const glb = writeGlb(model, {
        lod: Math.min(doc.lod, Math.max(0, model.lods.length - 1)),
        baseColorImage: (material) => {
          const t = doc.textures.get(material);
          if (!t) return undefined;
          t.png ??= encodePng(t.rgba, t.width, t.height);
          embedded.add(material);
          return { mimeType: 'image/png', bytes: t.png };
        },
      });
      await this.service.writeExport(target, glb);
      const textures = embedded.size ? `, ${embedded.size} texture${embedded.size > 1 ? 's' : ''} embedded` : '';
      const open = await vscode.window.showInformationMessage(
        `Exported ${target.path.split('/').pop() ?? target.path} (${(glb.length / 1024).toFixed(0)} KiB${textures}).`,
        'Open in Default App',
      );
      if (open) await vscode.env.openExternal(target);
    } catch (e) {
      this.service.reportError('glTF export failed', e);
    }
  }

  /** Send one slot texture to a view (a copy: the document keeps its pixels for the export). */
  private postTexture(panel: vscode.WebviewPanel, slot: string, t: SlotTexture): void {
    const rgba = t.rgba.buffer.slice(t.rgba.byteOffset, t.rgba.byteOffset + t.rgba.byteLength) as ArrayBuffer;
    this.post(panel, { type: 'texture', slot, width: t.width, height: t.height, rgba, path: t.path, linear: textureRole(t.path).srgbLikely === false });
  }
}
