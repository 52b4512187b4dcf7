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
 * Names: a mesh prints names it stores only as StringHashes as `0x%08X` (a part's LOD group id
 * when no skeleton names it, bones from the mesh's own list). After the model, the host looks those
 * hashes up in the mount's hash dictionary (extension/hashNames.ts, built once per mount and shared
 * with the string-table editor; the user's dictionary files alone for a file outside the mount)
 * and sends the names it knows (`names`); the model is never held up for them.
 *
 * First paint: the page's markup has the header (the file's name) and a progress line, and its
 * style sheet is inlined, so both show before the three.js bundle has loaded; the webview reports
 * when it painted (`painted`), logged as "first paint …" beside "first frame …".
 *
 * Protocol: media/mesh/protocol.ts.
 */
import * as vscode from 'vscode';
import { Arch06Error } from '../../core/errors';
import { DecodePool, encodePng } from '../../core/image/node';
import { FuzzyIndex } from '../../core/search';
import type { Mount } from '../../core/archive';
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
  hashKey,
  hashTokens,
} from '../../core/model';
import { parseMmsh, parseSkel } from '../../core/formats/mesh';
import { type HostToView, type ViewToHost, checkViewMessage } from '../../media/mesh/protocol';
import { MountService } from '../mountService';
import type { HashNames } from '../hashNames';
import { textureRole } from '../../core/formats/texture';
import { SCHEME, gamePathOf, parseUri } from '../fs/uris';
import { EditorDocument, PageSpec, WebviewEditor, errorText } from './webviewEditor';
import { showError, showInformation, showWarning } from '../notify';

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

  /** `names`: the extension's hash-name service; without it, hashes stay as they are. */
  static register(context: vscode.ExtensionContext, service: MountService, pool: DecodePool, names?: HashNames): vscode.Disposable {
    const provider = new MeshEditorProvider(context, service, pool, names);
    return vscode.Disposable.from(
      provider.registration(),
      vscode.commands.registerCommand('arch06.exportGlb', (uri?: vscode.Uri) => provider.exportGlb(uri)),
    );
  }

  private readonly documents = new Map<string, MeshDocument>();
  /** The mount's texture paths (sorted) and a fuzzy index over them, built on the first pick. */
  private textureIndex: { from: Mount; paths: string[]; index: FuzzyIndex } | undefined;

  private constructor(
    context: vscode.ExtensionContext,
    service: MountService,
    /** The extension's one decode pool (large levels off the host's thread). */
    private readonly pool: DecodePool,
    private readonly names: HashNames | undefined,
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

  /** The document whose page is being made (set around the base class's synchronous page step). */
  private pageFor: MeshDocument | undefined;

  override resolveCustomEditor(doc: MeshDocument, panel: vscode.WebviewPanel): Promise<void> {
    this.pageFor = doc;
    try {
      return super.resolveCustomEditor(doc, panel);
    } finally {
      this.pageFor = undefined;
    }
  }

  /**
   * The viewer builds its own DOM; the page is its style sheet (inlined: no round trip before the
   * first paint), the header and progress line it shows until the model is on screen, and a
   * small loader that adds the bundle as an async script (with the page's nonce) once the next
   * frame has painted, so the browser paints the header before it fetches and parses three.js. The loader also marks when
   * the page's markup had been read (`__arch06PageStart`, performance.now()), which the webview's
   * `painted` message measures the first paint from.
   */
  protected page(webview: vscode.Webview): PageSpec {
    const name = this.pageFor ? escapeHtml(this.pageFor.name) : 'Mesh';
    const bundle = webview.asWebviewUri(this.extensionUri('dist/webview/meshView.js')).toString();
    return {
      title: name,
      style: { inline: this.extensionText('media/mesh/meshView.css') },
      body: `<div id="boot" role="status" aria-live="polite"><div class="bootTitle">${name}</div><div class="bootText">Loading the 3D view…</div><div class="progress"></div></div>`,
      script: {
        inline:
          `globalThis.__arch06PageStart = performance.now();` +
          `(() => { const nonce = document.currentScript.nonce; let done = false; const load = () => { if (done) return; done = true; ` +
          `const s = document.createElement('script'); s.src = ${JSON.stringify(bundle)}; s.nonce = nonce; s.async = true; document.body.append(s); }; ` +
          // After the next frame has painted (rAF runs before the paint; the timeout after it), or in 250 ms when no frame comes (a hidden view).
          `requestAnimationFrame(() => setTimeout(load, 0)); setTimeout(load, 250); })();`,
      },
    };
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
        if (model) void this.postNames(doc, panel, model);
        return;
      }
      case 'painted':
        this.log(
          doc,
          `first paint ${msg.firstPaintMs < 0 ? 'not reported' : `${Math.round(msg.firstPaintMs - msg.pageMs)} ms`} after the page was written into the webview ` +
            `(page at ${Math.round(msg.pageMs)} ms, first paint at ${Math.round(msg.firstPaintMs)} ms, script started at ${Math.round(msg.scriptMs)} ms, ` +
            `ready sent at ${Math.round(msg.readyMs)} ms from the webview document's start; webview ready at ${Math.round(doc.readyMs)} ms after the editor started opening it)`,
        );
        return;
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
        void showError(`The 3D view could not show ${doc.name}: ${msg.message}`);
        return;
    }
  }

  /**
   * The names the hash dictionary knows for the hashes the model prints (`0x%08X`), sent once it is
   * ready (the mount's dictionary for a file in the mount, else the user's files alone); nothing
   * when no hash is named. A failure is logged: the view keeps the hashes.
   */
  private async postNames(doc: MeshDocument, panel: vscode.WebviewPanel, model: MeshModel): Promise<void> {
    const tokens = hashTokens(model);
    if (!this.names || tokens.length === 0) return;
    const mount = this.service.mount;
    try {
      const dict = await (doc.uri.scheme === SCHEME && mount ? this.names.forMount(mount) : this.names.userOnly());
      const names: Record<string, string> = {};
      for (const h of tokens) {
        const n = dict.name(h);
        if (n !== undefined) names[hashKey(h)] = n;
      }
      const named = Object.keys(names).length;
      this.log(doc, `${named} of ${tokens.length} hashed names known to the hash dictionary`);
      if (named > 0 && doc.panels.has(panel)) this.post(panel, { type: 'names', names });
    } catch (e) {
      this.log(doc, `hash names: ${errorText(e)}`);
    }
  }

  /** The mount's texture paths, sorted, and a fuzzy index over them (rebuilt when the mount changes). */
  private textures(): { paths: string[]; index: FuzzyIndex } | undefined {
    const mount = this.service.mount;
    if (!mount) return undefined;
    if (this.textureIndex?.from !== mount) {
      const keyed = mount
        .distinctPaths()
        .filter(isMaterialTexturePath)
        .map((p) => [p.toLowerCase(), p] as const);
      const paths = keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((k) => k[1]);
      this.textureIndex = { from: mount, paths, index: new FuzzyIndex(paths) };
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
      void showInformation('No install is mounted, so there are no game textures to choose from. Run "arch06: Open Game Folder as Workspace" first.');
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
      void showWarning(`${file} cannot be used as the texture of ${slot}; nothing changed. ${errorText(e)}`);
    }
  }

  /** Export the LOD on screen as glTF binary, then offer to open it in the default app. */
  async exportGlb(uri?: vscode.Uri): Promise<void> {
    const doc = (uri && this.documents.get(uri.toString())) ?? this.active;
    const loaded = await doc?.load((l) => this.service.log(l));
    if (!doc || !loaded?.model) {
      void showWarning(doc ? `Nothing to export: ${loaded?.error}` : 'Open a .mesh in the arch06 mesh editor first.');
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
      const open = await showInformation(
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

/** Text safe in HTML markup. */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
