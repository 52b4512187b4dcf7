/**
 * The 3D model viewer webview: draws a `MeshModel` (sent as a `WireModel`) with three.js.
 * Bundled by esbuild for the browser (scripts/build.mjs → dist/webview/meshView.js, IIFE).
 * This file is the entry: the page layout, the view state, the message loop, and `apply()`,
 * which brings the picture, the toolbar and the panel in line with the state after every change.
 * The parts: scene.ts (renderer, camera, grid), model.ts (three.js objects from the model),
 * overlays.ts (normals, tangents, bounds, bones, UV view), slotTextures.ts, toolbar.ts, panel.ts.
 *
 * Protocol: ./protocol.ts (the host imports it too). `slot` is a material name as `slotKey` gives
 * it ('slot 0'), the name the glTF export uses too. Slot textures are the host's: they are dropped
 * when a `model` arrives and the host sends them again after it. The Textures toggle shows or
 * hides them without forgetting them.
 *
 * Host page: this script builds its own DOM inside <body>; the page only needs
 * media/mesh/meshView.css, this bundle, and a CSP such as
 * `default-src 'none'; style-src ${cspSource}; script-src 'nonce-…'` (labels are positioned
 * through element.style, which a CSP without 'unsafe-inline' allows).
 */
import { Color } from 'three';
import type { MeshModel } from '../../core/model';
import { el, esc, failurePage, fmt } from '../shared/html';
import { hostChannel } from '../shared/webviewApi';
import { ModelView, PartView, defaultBox, slotKey } from './model';
import { addPartHelpers, applyOverlays, drawUv } from './overlays';
import { markSelected, showInfo } from './panel';
import { type FailedMessage, type HostToView, type ViewToHost, fromWireModel } from './protocol';
import { SceneView } from './scene';
import { SlotTextures, renderSlots } from './slotTextures';
import { DEFAULT_VIEW, Toggle, Toolbar, ViewState } from './toolbar';

const scriptStart = performance.now();
const host = hostChannel<ViewToHost>();

/** The viewer: what is on screen and the state the controls edit. */
class Viewer {
  readonly state: ViewState = { ...DEFAULT_VIEW, ...(host.getState() as Partial<ViewState> | undefined) };
  readonly toolbar = new Toolbar({
    toggle: (key) => this.setToggle(key, !this.state[key]),
    selectLod: (i) => this.selectLod(i),
    frame: () => this.frame(),
    clearSelection: () => {
      if (!this.view?.selected) return false;
      this.view.selected = undefined;
      this.apply();
      return true;
    },
  });
  readonly stage = el('div', { id: 'stage', tabIndex: 0 });
  private readonly uvCanvas = el('canvas', { id: 'uv' });
  private readonly info = el('aside', { id: 'info' });
  private readonly mainArea = el('div', { id: 'main' }, this.stage, this.info);
  /** Replaces the view when the host reports a file that did not parse. */
  private readonly failedBox = el('div', { className: 'message', hidden: true });
  /** The material slots of the LOD on screen, each with its texture and the buttons to change it. */
  private readonly slotsBox = el('div', { id: 'slots' });
  readonly scene: SceneView;
  private readonly textures: SlotTextures;
  /** The model on screen. */
  private view: ModelView | undefined;
  private firstFrameSent = false;
  /** When the last `model` message arrived (performance.now()). */
  modelArrivedAt = 0;

  constructor() {
    this.stage.setAttribute('aria-label', '3D view: drag to orbit, right-drag or arrow keys to pan, wheel to zoom');
    this.info.setAttribute('aria-label', 'Model details');
    document.body.append(this.toolbar.element, this.mainArea, this.failedBox);
    document.body.dataset.state = 'waiting';
    document.body.dataset.textures = '0';
    this.scene = new SceneView(this.stage, el('div', { id: 'legend' }), [this.uvCanvas], {
      rendered: () => this.rendered(),
      redraw: () => {
        if (this.state.uv) this.drawUv();
      },
    });
    this.textures = new SlotTextures(Math.min(8, this.scene.renderer?.capabilities.getMaxAnisotropy() ?? 1));
  }

  private save(): void {
    host.setState({ ...this.state });
  }

  /** After each frame drawn: the first one of a model is reported with its timings. */
  private rendered(): void {
    if (!this.view || this.firstFrameSent) return;
    this.firstFrameSent = true;
    const now = performance.now();
    host.post({ type: 'firstFrame', ms: now - scriptStart, sinceModelMs: now - this.modelArrivedAt });
  }

  private drawUv(): void {
    drawUv(this.uvCanvas, this.stage, this.view?.current(this.state.lod));
  }

  stageMessage(html: string): void {
    this.stage.querySelector('.stageMessage')?.remove();
    this.stage.append(el('div', { className: 'stageMessage message', innerHTML: html }));
  }

  private frame(): void {
    this.scene.frame(this.view ? this.view.frameBox(this.state.lod) : defaultBox());
  }

  private setToggle(key: Toggle, on: boolean): void {
    this.state[key] = on;
    this.save();
    this.apply();
  }

  /** Brings the picture, the toolbar, the panel and the host's stats in line with the state. */
  apply(): void {
    const view = this.view;
    const lv = view?.current(this.state.lod);
    const parts = lv?.parts ?? [];
    const noMesh = view !== undefined && view.model.lods.length === 0;
    const disabled = new Set<Toggle>();
    if (!view?.model.skeleton || view.model.skeleton.bones.length === 0) disabled.add('bones');
    for (const [key, has] of [
      ['normals', 'normals'],
      ['tangents', 'tangents'],
      ['colors', 'colors'],
      ['uv', 'uvs'],
    ] as const)
      if (!parts.some((p) => p.part[has])) disabled.add(key);
    if (this.textures.size === 0) disabled.add('textures');
    this.toolbar.setToggles(this.state, new Set<Toggle>(noMesh ? ['bones'] : []), disabled);
    if (view) for (const [i, v] of view.lods) v.group.visible = v === lv && i === this.state.lod;
    /** Slots of this LOD that draw a texture now. */
    const textured = new Set<string>();
    for (const p of parts) {
      if (this.applyPart(p, view!.selected)) textured.add(slotKey(p.part));
      addPartHelpers(p, this.state, view!.size, this.scene.scene);
    }
    if (view) applyOverlays(view, lv, this.state);
    document.body.dataset.textures = String(textured.size);
    this.uvCanvas.classList.toggle('on', this.state.uv);
    if (this.state.uv) this.drawUv();
    markSelected(this.info, view?.selected);
    this.postStats();
    this.scene.requestRender();
  }

  /** One part's material and visibility from the state; true when it draws its slot's texture. */
  private applyPart(p: PartView, selected: PartView | undefined): boolean {
    const m = p.mesh.material;
    // A slot's texture maps the parts of that slot that have UVs; the others keep the slot colour.
    const map = this.state.textures && p.part.uvs ? (this.textures.get(slotKey(p.part))?.texture ?? null) : null;
    if (m.map !== map) {
      m.map = map;
      m.needsUpdate = true;
    }
    p.mesh.visible = p.visible;
    if (m.wireframe !== this.state.wireframe) m.wireframe = this.state.wireframe;
    const useColors = this.state.colors && p.part.colors !== undefined;
    if (m.vertexColors !== useColors) {
      m.vertexColors = useColors;
      m.needsUpdate = true;
    }
    // With vertex colours or a texture on, show them as they are (white base); else the slot colour.
    m.color.copy(useColors || map ? new Color(0xffffff) : p.slotColor);
    m.emissive.set(p === selected ? 0x4060a0 : 0x000000);
    return map !== null;
  }

  private postStats(): void {
    const view = this.view;
    if (!view) return;
    const lv = view.current(this.state.lod);
    const visible = lv?.parts.filter((p) => p.visible) ?? [];
    const stats = {
      type: 'stats' as const,
      lod: lv ? this.state.lod : -1,
      triangles: visible.reduce((n, p) => n + p.triangles, 0),
      visibleParts: visible.length,
    };
    const skeleton = view.model.skeleton;
    this.toolbar.setStatus(
      lv ? `${fmt(stats.triangles)} triangles · ${stats.visibleParts} of ${lv.parts.length} parts` : skeleton ? `${skeleton.bones.length} bones` : '',
    );
    const ds = document.body.dataset;
    ds.lod = String(stats.lod);
    ds.triangles = String(stats.triangles);
    ds.visibleParts = String(stats.visibleParts);
    host.post(stats);
  }

  /** The slots' section of the panel; `focusSlot` gets the focus. */
  private renderSlots(focusSlot?: string): void {
    renderSlots(
      this.slotsBox,
      this.view?.current(this.state.lod),
      this.textures,
      {
        pick: (slot) => host.post({ type: 'pickTexture', slot }),
        remove: (slot) => {
          this.clearTexture(slot, true);
          host.post({ type: 'clearTexture', slot });
        },
      },
      focusSlot,
    );
  }

  private showInfo(view: ModelView): void {
    const lv = view.current(this.state.lod);
    showInfo(this.info, view.model, lv, this.state.lod, this.slotsBox, {
      visibility: (p, visible) => {
        p.visible = visible;
        if (!visible && view.selected === p) view.selected = undefined;
        this.apply();
      },
      select: (p) => {
        view.selected = view.selected === p ? undefined : p;
        this.apply();
      },
      showAll: (shown) => {
        for (const p of shown.parts) p.visible = true;
        this.apply();
      },
    });
    if (lv) this.renderSlots();
  }

  private selectLod(i: number): void {
    const view = this.view;
    if (!view || i < 0 || i >= view.model.lods.length) return;
    this.state.lod = i;
    this.save();
    view.selected = undefined;
    view.lod(i);
    this.showInfo(view);
    this.apply();
  }

  /** Takes the model, its grid and the slot textures off the screen. */
  private clearModel(): void {
    this.view?.dispose(this.scene.scene);
    this.view = undefined;
    this.scene.clearGrid();
    this.textures.clear();
  }

  setTexture(slot: string, rgba: ArrayBuffer, width: number, height: number, path: string, linear: boolean): void {
    this.textures.set(slot, rgba, width, height, path, linear);
    this.renderSlots();
    this.apply();
  }

  /** Forget a slot's texture; `refocus` when the user's "×" did it (the button goes with its row). */
  clearTexture(slot: string, refocus = false): void {
    if (!this.textures.delete(slot)) return;
    this.renderSlots(refocus ? slot : undefined);
    this.apply();
  }

  showModel(m: MeshModel, title: string): void {
    this.clearModel();
    this.firstFrameSent = false;
    this.stage.querySelector('.stageMessage')?.remove();
    this.toolbar.element.hidden = this.mainArea.hidden = false;
    this.failedBox.hidden = true;
    document.title = title;
    this.state.lod = Math.min(Math.max(0, this.state.lod), Math.max(0, m.lods.length - 1));
    const view = new ModelView(m);
    this.view = view;
    this.toolbar.showModel(m, title, this.state.lod);
    if (m.lods.length > 0) view.lod(this.state.lod);
    this.scene.scene.add(view.root);
    // The grid from the model's bounds, or from the bones when there is no mesh.
    this.scene.setGrid(view.box);
    this.scene.applyTheme();
    this.showInfo(view);
    document.body.dataset.state = 'model';
    this.apply();
    this.scene.resetView();
    this.frame();
    if (!this.scene.renderer) {
      const reason = this.scene.webglError ?? 'unknown reason';
      this.stageMessage(
        `<p>WebGL is not available here, so the model cannot be drawn: ${esc(reason)}</p><p>Its parts, skeleton and notes are listed on the right.</p>`,
      );
      document.body.dataset.state = 'error';
      host.post({ type: 'error', message: `WebGL is not available: ${reason}` });
    }
  }

  /** Like the texture editor: the message and the first bytes, in place of the view. */
  showFailed(msg: FailedMessage): void {
    this.clearModel();
    document.body.dataset.state = 'failed';
    this.toolbar.element.hidden = this.mainArea.hidden = true;
    this.failedBox.hidden = false;
    this.failedBox.innerHTML = failurePage('a model', msg);
  }
}

const viewer = new Viewer();

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const msg = e.data;
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'model') {
    viewer.modelArrivedAt = performance.now();
    let m: MeshModel;
    try {
      m = fromWireModel(msg.model);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      viewer.stageMessage(`<h3>This model could not be shown</h3><p>${esc(message)}</p>`);
      document.body.dataset.state = 'error';
      host.post({ type: 'error', message });
      return;
    }
    viewer.showModel(m, msg.title);
  } else if (msg.type === 'texture') {
    try {
      viewer.setTexture(msg.slot, msg.rgba, msg.width, msg.height, msg.path, msg.linear === true);
    } catch (err) {
      host.post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  } else if (msg.type === 'clearTexture') {
    viewer.clearTexture(msg.slot);
  } else if (msg.type === 'failed') {
    viewer.showFailed(msg);
  }
});

viewer.scene.resize();
host.post({ type: 'ready' });
