/**
 * The 3D stage: the WebGL renderer (renderer.ts, the viewer's own; absent when WebGL 2 is not
 * available), the label layer, camera,
 * orbit controls, lights, the ground grid with its legend, the theme's background, rendering on
 * demand and framing a box.
 */
import { AxesHelper, Box3, BufferAttribute, Color, DirectionalLight, GridHelper, HemisphereLight, PerspectiveCamera, Scene, Sphere, Vector3 } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import { esc, fmt } from '../shared/html';
import { cm, disposeObject } from './model';
import { ViewerRenderer } from './renderer';

/** The editor background of the current theme (the stage's CSS background), for the clear colour. */
export function themeBackground(stage: HTMLElement): Color {
  for (const e of [stage, document.body]) {
    const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)(?:[,\s/]+([\d.]+))?/.exec(getComputedStyle(e).backgroundColor);
    if (m && (m[4] === undefined || Number(m[4]) > 0)) return new Color(`rgb(${m[1]}, ${m[2]}, ${m[3]})`);
  }
  return new Color(0x1e1e1e);
}

export function isDark(c: Color): boolean {
  const s = c.clone().convertLinearToSRGB();
  return 0.2126 * s.r + 0.7152 * s.g + 0.0722 * s.b < 0.5;
}

/** 1, 2 or 5 × 10^k, the nearest at or above `x`. */
function niceStep(x: number): number {
  const k = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1e-6))));
  for (const f of [1, 2, 5, 10]) if (f * k >= x) return f * k;
  return 10 * k;
}

export class SceneView {
  readonly renderer: ViewerRenderer | undefined;
  /** Why there is no renderer. */
  readonly webglError: string | undefined;
  readonly labels = new CSS2DRenderer();
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(45, 1, 0.1, 10000);
  readonly controls: OrbitControls;
  private grid: GridHelper | undefined;
  private axes: AxesHelper | undefined;
  private renderPending = false;

  /**
   * `layers`: elements stacked over the picture after the label layer (the UV view, the legend).
   * `rendered` runs after each frame drawn; `redraw` after a resize or theme change.
   */
  constructor(
    private readonly stage: HTMLElement,
    private readonly legend: HTMLElement,
    layers: HTMLElement[],
    private readonly hooks: { rendered(): void; redraw(): void },
  ) {
    try {
      this.renderer = new ViewerRenderer();
      this.renderer.setPixelRatio(window.devicePixelRatio || 1);
      this.renderer.domElement.className = 'gl';
      stage.append(this.renderer.domElement);
    } catch (e) {
      this.webglError = e instanceof Error ? e.message : String(e);
    }
    this.labels.domElement.id = 'labels';
    stage.append(this.labels.domElement, ...layers, legend);
    this.camera.position.set(150, 120, 150);
    this.scene.add(this.camera);
    this.scene.add(new HemisphereLight(0xffffff, 0x505050, 1.6));
    // A light that follows the camera, so whatever faces the viewer is lit.
    const headlight = new DirectionalLight(0xffffff, 1.8);
    headlight.position.set(0.4, 0.8, 1);
    headlight.target.position.set(0, 0, -1);
    this.camera.add(headlight, headlight.target);
    this.controls = new OrbitControls(this.camera, this.renderer?.domElement ?? stage);
    this.controls.listenToKeyEvents(stage);
    this.controls.addEventListener('change', () => this.requestRender());
    new MutationObserver(() => this.applyTheme()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
    new ResizeObserver(() => this.resize()).observe(stage);
  }

  requestRender(): void {
    if (this.renderPending) return;
    this.renderPending = true;
    requestAnimationFrame(() => this.render());
  }

  private render(): void {
    this.renderPending = false;
    if (!this.renderer) return;
    this.renderer.render(this.scene, this.camera);
    this.labels.render(this.scene, this.camera);
    this.hooks.rendered();
  }

  resize(): void {
    const w = Math.max(1, this.stage.clientWidth),
      h = Math.max(1, this.stage.clientHeight);
    this.renderer?.setSize(w, h, false);
    this.labels.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.hooks.redraw();
    this.requestRender();
  }

  /** The clear colour and grid lines from the current theme. */
  applyTheme(): void {
    const bg = themeBackground(this.stage);
    this.renderer?.setClearColor(bg, 1);
    if (this.grid) {
      // One colour for every grid line (the grid's centre is not the origin; the axes mark that).
      const line = new Color(isDark(bg) ? 0x4a4a4a : 0xc4c4c4);
      const colors = this.grid.geometry.getAttribute('color') as BufferAttribute;
      for (let i = 0; i < colors.count; i++) colors.setXYZ(i, line.r, line.g, line.b);
      colors.needsUpdate = true;
    }
    this.hooks.redraw();
    this.requestRender();
  }

  /** The grid on the ground plane (y = min(0, lowest point)), cells of a round number of centimetres, and the origin's axes. */
  setGrid(box: Box3): void {
    this.clearGrid();
    const size = box.getSize(new Vector3());
    const extent = Math.max(size.x, size.z, size.y, 1);
    const step = niceStep(extent / 8);
    const half = Math.ceil((Math.max(size.x, size.z) / 2 + extent * 0.5) / step) + 1;
    const cx = Math.round((box.min.x + box.max.x) / 2 / step) * step;
    const cz = Math.round((box.min.z + box.max.z) / 2 / step) * step;
    const y = Math.min(0, box.min.y);
    this.grid = new GridHelper(half * 2 * step, half * 2);
    this.grid.position.set(cx, y, cz);
    this.grid.name = 'grid';
    this.axes = new AxesHelper(step);
    this.axes.name = 'origin';
    this.scene.add(this.grid, this.axes);
    this.legend.innerHTML = `Grid: ${esc(fmt(step))} cm squares at y = ${esc(cm(y))} · Y up · axes at the origin: <span class="x">X</span> <span class="y">Y</span> <span class="z">Z</span>`;
  }

  clearGrid(): void {
    for (const o of [this.grid, this.axes]) {
      if (o) {
        this.scene.remove(o);
        disposeObject(o);
      }
    }
    this.grid = this.axes = undefined;
  }

  /** Points the camera at `box` from the current direction, near enough to fill the view. */
  frame(box: Box3): void {
    const sphere = box.getBoundingSphere(new Sphere());
    const r = Math.max(sphere.radius, 0.5);
    const dist = (r / Math.sin(((this.camera.fov / 2) * Math.PI) / 180)) * 1.15;
    const dir = this.camera.position.clone().sub(this.controls.target);
    if (dir.lengthSq() < 1e-12) dir.set(1, 0.7, 1);
    dir.normalize();
    this.camera.near = Math.max(dist / 1000, 0.01);
    this.camera.far = dist * 100 + r * 10;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(sphere.center);
    this.camera.position.copy(sphere.center).addScaledVector(dir, dist);
    this.controls.update();
    this.requestRender();
  }

  /** Looks from the (1, 0.7, 1) direction at the origin, before the first frame of a model. */
  resetView(): void {
    this.camera.position.set(1, 0.7, 1);
    this.controls.target.set(0, 0, 0);
  }
}
