/**
 * The 3D model viewer webview: draws a `MeshModel` (sent as a `WireModel`) with three.js.
 * Bundled by esbuild for the browser (scripts/build.mjs → dist/webview/meshView.js, IIFE).
 * This file is the entry: the page layout, the view state, the message loop, and `apply()`,
 * which brings the picture, the toolbar and the panel in line with the state after every change.
 * The parts: scene.ts (renderer, camera, grid), model.ts (three.js objects from the model),
 * overlays.ts (normals, tangents, bounds, bones, UV view), slotTextures.ts, toolbar.ts, panel.ts,
 * boot.ts (the progress line until the first frame, and the first-paint report).
 *
 * Protocol: ./protocol.ts (the host imports it too). `slot` is a material name as `slotKey` gives
 * it ('slot 0'), the name the glTF export uses too. Slot textures are the host's: they are dropped
 * when a `model` arrives and the host sends them again after it. The Textures toggle shows or
 * hides them without forgetting them.
 *
 * First paint: the host's page carries a header and a progress line (`#boot`) in its markup and
 * loads this bundle as an async script, so they show before this bundle has loaded; the script keeps the progress line up to date and
 * takes it away once the model is on screen. The first frame comes before any optional work:
 * the normals and tangents helpers, the bounds, the skeleton overlay, the UV view and the bone
 * list are made after it (`optionalReady`), on the next idle moment.
 *
 * Host page: this script builds its own DOM inside <body> (after `#boot` when the page has one);
 * the page only needs media/mesh/meshView.css, this bundle, and a CSP such as
 * `default-src 'none'; style-src ${cspSource}; script-src 'nonce-…'` (labels are positioned
 * through element.style, which a CSP without 'unsafe-inline' allows).
 */
import { Color } from 'three';
import type { MeshModel } from '../../core/model';
import { bonesToLabel } from '../../core/model';
import { el, esc, failurePage, fmt } from '../shared/html';
import { hostChannel } from '../shared/webviewApi';
import { Boot, reportPaint } from './boot';
import { ModelView, PartView, defaultBox, slotKey } from './model';
import { type BoneFocus, addPartHelpers, applyOverlays, drawUv } from './overlays';
import { BoneList, markSelected, showInfo } from './panel';
import { type FailedMessage, type HostToView, type ViewToHost, fromWireModel } from './protocol';
import { SceneView } from './scene';
import { SlotTextures, renderSlots } from './slotTextures';
import { DEFAULT_VIEW, Toggle, Toolbar, ViewState, disabledToggles } from './toolbar';

const scriptStart = performance.now();
const host = hostChannel<ViewToHost>();

/** Runs `f` when the browser is idle (or soon, where it has no idle callback). */
const whenIdle = (f: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 200 });
  else setTimeout(f, 0);
};

/** The viewer: what is on screen and the state the controls edit. */
class Viewer {
  readonly state: ViewState = { ...DEFAULT_VIEW, ...(host.getState() as Partial<ViewState> | undefined) };
  readonly boot = new Boot();
  readonly toolbar = new Toolbar({
    toggle: (key) => this.setToggle(key, !this.state[key]),
    selectLod: (i) => this.selectLod(i),
    frame: () => this.frame(),
    clearSelection: () => {
      if (!this.view?.selected && this.view?.selectedBone === undefined) return false;
      this.view.selected = undefined;
      this.view.selectedBone = undefined;
      this.boneList?.setSelected(undefined);
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
  /** Optional work (helpers, overlays, the UV view, the bone list) waits until the model's first frame is drawn. */
  private optionalReady = false;
  /** The searchable bone list of the model's skeleton, made after the first frame. */
  private boneList: BoneList | undefined;
  /** Where a press on the stage started (a press that does not move picks a bone). */
  private pressAt: { x: number; y: number } | undefined;
  /** When the last `model` message arrived (performance.now()). */
  modelArrivedAt = 0;

  constructor() {
    this.stage.setAttribute('aria-label', '3D view: drag to orbit, right-drag or arrow keys to pan, wheel to zoom');
    this.info.setAttribute('aria-label', 'Model details');
    this.toolbar.element.hidden = true;
    this.boot.element.after(this.toolbar.element, this.mainArea, this.failedBox);
    this.boot.say('Starting the 3D view…');
    document.body.dataset.state = 'waiting';
    document.body.dataset.textures = '0';
    this.scene = new SceneView(this.stage, el('div', { id: 'legend' }), [this.uvCanvas], {
      rendered: () => this.rendered(),
      redraw: () => {
        if (this.state.uv) this.drawUv();
      },
    });
    this.textures = new SlotTextures(Math.min(8, this.scene.renderer?.capabilities.getMaxAnisotropy() ?? 1));
    this.bindBonePicking();
  }

  /** Hovering a joint in the scene names it and its parent; a click (a press that does not move) selects it. */
  private bindBonePicking(): void {
    const at = (e: PointerEvent): number | undefined => {
      const view = this.view;
      if (!view?.bones || !view.bones.group.visible) return undefined;
      const r = this.stage.getBoundingClientRect();
      return view.bones.nearest(this.scene.camera, r.width, r.height, e.clientX - r.left, e.clientY - r.top);
    };
    this.stage.addEventListener('pointermove', (e) => {
      if (e.buttons !== 0 || !this.view) return;
      this.hoverBone(at(e));
    });
    this.stage.addEventListener('pointerleave', () => this.hoverBone(undefined));
    this.stage.addEventListener('pointerdown', (e) => (this.pressAt = { x: e.clientX, y: e.clientY }));
    this.stage.addEventListener('pointerup', (e) => {
      const p = this.pressAt;
      this.pressAt = undefined;
      if (!p || Math.hypot(e.clientX - p.x, e.clientY - p.y) > 4) return;
      const bone = at(e);
      if (bone !== undefined) this.selectBone(bone);
    });
  }

  /** The bone under the pointer (scene or list) changed: its label and its parent's, nothing else. */
  private hoverBone(bone: number | undefined): void {
    const view = this.view;
    if (!view || view.hoveredBone === bone) return;
    view.hoveredBone = bone;
    this.applyBoneFocus();
  }

  /** Select a bone (from the list or the scene): the skeleton is shown, the bone highlighted and named with its parent. */
  private selectBone(bone: number | undefined): void {
    const view = this.view;
    if (!view) return;
    view.selectedBone = bone;
    this.boneList?.setSelected(bone);
    if (bone !== undefined && !this.state.bones && view.model.lods.length > 0) {
      this.state.bones = true;
      this.save();
    }
    this.apply();
  }

  /** Which bones are named and highlighted now. */
  private boneFocus(): BoneFocus {
    const view = this.view;
    const parents = view?.model.skeleton?.bones.map((b) => b.parent) ?? [];
    const labelled = bonesToLabel(parents, [view?.hoveredBone, view?.selectedBone], this.state.labels);
    return { labelled, allSockets: this.state.labels, selected: view?.selectedBone, hovered: view?.hoveredBone };
  }

  /** The bone overlay's names and highlight from the focus, and the dataset mirror for tests. */
  private applyBoneFocus(): void {
    const view = this.view;
    const focus = this.boneFocus();
    if (view?.bones && view.bones.group.visible) view.bones.setFocus(focus);
    const ds = document.body.dataset;
    const bones = view?.model.skeleton?.bones ?? [];
    ds.selectedBone = focus.selected === undefined ? '' : view!.shownName(bones[focus.selected]!.name);
    ds.boneLabels = String(view?.bones?.group.visible ? focus.labelled.length : 0);
    this.scene.requestRender();
  }

  private save(): void {
    host.setState({ ...this.state });
  }

  /**
   * After each frame drawn: the first one of a model is reported with its timings, the progress
   * line goes, and the optional work waits for the next idle moment.
   */
  private rendered(): void {
    if (!this.view || this.firstFrameSent) return;
    this.firstFrameSent = true;
    const now = performance.now();
    host.post({ type: 'firstFrame', ms: now - scriptStart, sinceModelMs: now - this.modelArrivedAt });
    this.boot.done();
    const view = this.view;
    whenIdle(() => {
      if (this.view !== view) return;
      this.optionalReady = true;
      this.makeBoneList();
      this.showInfo(view);
      this.apply();
      document.body.dataset.optional = 'ready';
    });
  }

  /** The searchable bone list (after the first frame; a model without bones has none). */
  private makeBoneList(): void {
    const view = this.view;
    const sk = view?.model.skeleton;
    this.boneList = undefined;
    if (!view || !sk || sk.bones.length === 0) return;
    this.boneList = new BoneList(
      view.model,
      (n) => view.shownName(n),
      {
        select: (bone) => this.selectBone(bone),
        hover: (bone) => this.hoverBone(bone),
      },
      '',
    );
    this.boneList.setSelected(view.selectedBone);
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
    this.toolbar.setToggles(
      this.state,
      new Set<Toggle>(noMesh ? ['bones'] : []),
      disabledToggles(
        view?.model,
        parts.map((p) => p.part),
        this.state,
        this.textures.size,
      ),
    );
    if (view) for (const [i, v] of view.lods) v.group.visible = v === lv && i === this.state.lod;
    // Optional work waits for the first frame; a model with no mesh draws its bones in it.
    const optional = this.optionalReady || noMesh;
    /** Slots of this LOD that draw a texture now. */
    const textured = new Set<string>();
    for (const p of parts) {
      if (this.applyPart(p, view!.selected)) textured.add(slotKey(p.part));
      if (optional) addPartHelpers(p, this.state, view!.size, this.scene.scene);
    }
    if (view && optional) applyOverlays(view, lv, this.state, this.boneFocus());
    document.body.dataset.textures = String(textured.size);
    const uv = optional && this.state.uv;
    this.uvCanvas.classList.toggle('on', uv);
    if (uv) this.drawUv();
    markSelected(this.info, view?.selected);
    this.applyBoneFocus();
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
    const scroll = this.info.scrollTop;
    showInfo(
      this.info,
      view.model,
      lv,
      this.state.lod,
      this.slotsBox,
      {
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
      },
      (n) => view.shownName(n),
      this.boneList,
    );
    this.info.scrollTop = scroll;
    if (lv) this.renderSlots();
  }

  /** Names the host decoded for the model's hashes: the panel, the labels and the title show them. */
  setNames(names: Record<string, string>): void {
    const view = this.view;
    if (!view) return;
    view.names = names;
    document.body.dataset.names = String(Object.keys(names).length);
    view.bones?.relabel();
    this.boneList?.refresh();
    this.showInfo(view);
    this.apply();
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
    this.optionalReady = false;
    this.boneList = undefined;
    delete document.body.dataset.optional;
    this.boot.say('Drawing the first frame…');
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
      this.boot.done();
      // No frame will come: the panel's optional parts (the bone list) now.
      this.optionalReady = true;
      this.makeBoneList();
      this.showInfo(view);
      host.post({ type: 'error', message: `WebGL is not available: ${reason}` });
    }
  }

  /** Like the texture editor: the message and the first bytes, in place of the view. */
  showFailed(msg: FailedMessage): void {
    this.clearModel();
    document.body.dataset.state = 'failed';
    this.boot.done();
    this.toolbar.element.hidden = this.mainArea.hidden = true;
    this.failedBox.hidden = false;
    this.failedBox.innerHTML = failurePage('a model', msg);
  }
}

const viewer = new Viewer();

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const msg = e.data;
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'names') {
    if (msg.names && typeof msg.names === 'object') viewer.setNames(msg.names);
  } else if (msg.type === 'model') {
    viewer.modelArrivedAt = performance.now();
    let m: MeshModel;
    try {
      m = fromWireModel(msg.model);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      viewer.stageMessage(`<h3>This model could not be shown</h3><p>${esc(message)}</p>`);
      viewer.boot.done();
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
const readyAt = performance.now();
viewer.boot.say('Reading the model…');
reportPaint((msg) => host.post(msg), scriptStart, readyAt);
