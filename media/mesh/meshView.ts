/**
 * The 3D model viewer webview: draws a `MeshModel` (sent as a `WireModel`) with three.js.
 * Bundled by esbuild for the browser (scripts/build.mjs → dist/webview/meshView.js, IIFE).
 *
 * Protocol (the types live in ./protocol.ts, which the host imports too):
 *
 *   webview → host   { type: 'ready' }                                   on load
 *   host → webview   { type: 'model', model: WireModel, title: string }  the model to show
 *                 or { type: 'failed', message: string, hex: string, size?: number }
 *   webview → host   { type: 'firstFrame', ms, sinceModelMs }  once, after the first frame that drew a model;
 *                                                    ms = performance.now() − script start
 *   webview → host   { type: 'stats', lod, triangles, visibleParts }   when a model is shown and
 *                                                    after every change of view (LOD, part
 *                                                    visibility, overlay, selection); lod −1 for
 *                                                    a model without LODs
 *   webview → host   { type: 'error', message }      the model could not be shown (bad wire data,
 *                                                    no WebGL)
 *   webview → host   { type: 'pickTexture', slot }   the user clicked a slot's "Texture…" button
 *   host → webview   { type: 'texture', slot, width, height, rgba: ArrayBuffer, path }
 *                                                    RGBA8, rows top first: the slot's base-colour map
 *   webview → host   { type: 'clearTexture', slot }  the user removed a slot's texture ("×")
 *   host → webview   { type: 'clearTexture', slot }  another view of the document removed it
 *
 * `slot` is a material name as `slotKey` gives it ('slot 0'), the name the glTF export uses too.
 * Slot textures are the host's: they are dropped when a `model` arrives and the host sends them
 * again after it. The Textures toggle shows or hides them without forgetting them.
 *
 * `WireModel` (core/model/wire.ts): a `MeshModel` whose part arrays are exact-size ArrayBuffers —
 * positions, normals, tangents, uvs, weights: Float32; colors: Uint8 rgba; joints: Uint16;
 * indices: Uint16 or Uint32 per the part's `indexType`. Build it with `toWireModel()`.
 *
 * Host page: this script builds its own DOM inside <body>; the page only needs
 * media/mesh/meshView.css, this bundle, and a CSP such as
 * `default-src 'none'; style-src ${cspSource}; script-src 'nonce-…'` (labels are positioned
 * through element.style, which a CSP without 'unsafe-inline' allows).
 *
 * The picture is in the game's units, centimetres with Y up; the grid legend says its cell size.
 * Skinned parts are drawn as plain meshes: their vertices are already in the bind pose.
 */
import {
  AxesHelper,
  Box3,
  Box3Helper,
  BufferAttribute,
  BufferGeometry,
  Color,
  DataTexture,
  DirectionalLight,
  DoubleSide,
  Float32BufferAttribute,
  GridHelper,
  Group,
  HemisphereLight,
  LinearFilter,
  LinearMipmapLinearFilter,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
  MeshStandardMaterial,
  Object3D,
  PerspectiveCamera,
  Points,
  PointsMaterial,
  Quaternion,
  RepeatWrapping,
  RGBAFormat,
  SRGBColorSpace,
  NoColorSpace,
  Scene,
  Sphere,
  UnsignedByteType,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js';
import { VertexTangentsHelper } from 'three/examples/jsm/helpers/VertexTangentsHelper.js';
import { CSS2DObject, CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import { reverseTriangles, windingOf } from '../../core/model/glb';
import type { MeshModel, ModelPart } from '../../core/model/meshModel';
import { fromWireModel, type HostToView, type ViewToHost } from './protocol';

const scriptStart = performance.now();

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// Outside VS Code (a test page), talk to the parent frame instead.
const vscode: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : { postMessage: (m) => window.parent.postMessage(m, '*'), getState: () => undefined, setState: () => undefined };
const post = (m: ViewToHost): void => vscode.postMessage(m);

type Toggle = 'wireframe' | 'textures' | 'normals' | 'tangents' | 'colors' | 'bounds' | 'bones' | 'uv';
interface ViewState extends Record<Toggle, boolean> {
  lod: number;
}
const TOGGLES: { key: Toggle; label: string; title: string }[] = [
  { key: 'wireframe', label: 'Wireframe', title: 'Draw triangle edges only (W)' },
  { key: 'textures', label: 'Textures', title: 'Draw the textures assigned to material slots (assign one with "Texture…" beside a slot)' },
  { key: 'normals', label: 'Normals', title: 'Show the vertex normals the file stores' },
  { key: 'tangents', label: 'Tangents', title: 'Show the vertex tangents the file stores' },
  { key: 'colors', label: 'Vertex colours', title: 'Shade with the vertex colours instead of the material colour' },
  { key: 'bounds', label: 'Bounds', title: 'Show the bounding box and bounding sphere' },
  { key: 'bones', label: 'Bones', title: 'Show the skeleton (bones, names, sockets)' },
  { key: 'uv', label: 'UV', title: 'Show the visible parts’ triangles in UV space' },
];

const saved = (vscode.getState() ?? {}) as Partial<ViewState>;
const state: ViewState = { lod: 0, wireframe: false, textures: true, normals: false, tangents: false, colors: false, bounds: false, bones: false, uv: false, ...saved };
const save = (): void => vscode.setState({ ...state });

// ---------------------------------------------------------------------------------------------
// DOM

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

const titleText = el('span', { id: 'title' });
const lodSelect = el('select', { id: 'lod', title: 'Level of detail' });
lodSelect.setAttribute('aria-label', 'Level of detail');
const frameButton = el('button', { id: 'frame', title: 'Frame the model, or the selected part (F)', textContent: 'Frame' });
const toggleButtons = new Map<Toggle, HTMLButtonElement>();
const toggleGroup = el('span', { className: 'group' });
toggleGroup.setAttribute('role', 'group');
toggleGroup.setAttribute('aria-label', 'Overlays');
for (const t of TOGGLES) {
  const b = el('button', { title: t.title, textContent: t.label });
  b.dataset.toggle = t.key;
  b.setAttribute('aria-pressed', 'false');
  b.addEventListener('click', () => setToggle(t.key, !state[t.key]));
  toggleButtons.set(t.key, b);
  toggleGroup.append(b);
}
const statusText = el('span', { id: 'status' });
statusText.setAttribute('aria-live', 'polite');
const toolbar = el('div', { id: 'toolbar' }, titleText, el('label', {}, 'LOD ', lodSelect), frameButton, toggleGroup, statusText);
toolbar.setAttribute('role', 'toolbar');
toolbar.setAttribute('aria-label', '3D view controls');

const stage = el('div', { id: 'stage', tabIndex: 0 });
stage.setAttribute('aria-label', '3D view: drag to orbit, right-drag or arrow keys to pan, wheel to zoom');
const uvCanvas = el('canvas', { id: 'uv' });
const legend = el('div', { id: 'legend' });
const info = el('aside', { id: 'info' });
info.setAttribute('aria-label', 'Model details');
const mainArea = el('div', { id: 'main' }, stage, info);
/** Replaces the view when the host reports a file that did not parse. */
const failedBox = el('div', { className: 'message', hidden: true });
document.body.append(toolbar, mainArea, failedBox);
document.body.dataset.state = 'waiting';
document.body.dataset.textures = '0';

function esc(s: unknown): string {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
const fmt = (n: number): string => n.toLocaleString('en-US');
const cm = (n: number): string => `${Math.round(n * 100) / 100} cm`;

function stageMessage(html: string): void {
  stage.querySelector('.stageMessage')?.remove();
  stage.append(el('div', { className: 'stageMessage message', innerHTML: html }));
}

// ---------------------------------------------------------------------------------------------
// three.js scene

let renderer: WebGLRenderer | undefined;
let webglError: string | undefined;
try {
  renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.domElement.className = 'gl';
  stage.append(renderer.domElement);
} catch (e) {
  webglError = e instanceof Error ? e.message : String(e);
}
const labelRenderer = new CSS2DRenderer();
labelRenderer.domElement.id = 'labels';
stage.append(labelRenderer.domElement, uvCanvas, legend);

const scene = new Scene();
const camera = new PerspectiveCamera(45, 1, 0.1, 10000);
camera.position.set(150, 120, 150);
scene.add(camera);
scene.add(new HemisphereLight(0xffffff, 0x505050, 1.6));
// A light that follows the camera, so whatever faces the viewer is lit.
const headlight = new DirectionalLight(0xffffff, 1.8);
headlight.position.set(0.4, 0.8, 1);
headlight.target.position.set(0, 0, -1);
camera.add(headlight, headlight.target);

const controls = new OrbitControls(camera, renderer?.domElement ?? stage);
controls.listenToKeyEvents(stage);
controls.addEventListener('change', () => requestRender());

/** A drawn part: its mesh, its own material (for selection highlight), helpers made on demand. */
interface PartView {
  part: ModelPart;
  index: number;
  mesh: Mesh<BufferGeometry, MeshStandardMaterial>;
  slotColor: Color;
  visible: boolean;
  triangles: number;
  /** The triangles turn clockwise against the normals (Direct3D order) and are drawn reversed. */
  flipped: boolean;
  normalsHelper?: VertexNormalsHelper;
  tangentsHelper?: VertexTangentsHelper;
}

interface LodView {
  group: Group;
  parts: PartView[];
}

let model: MeshModel | undefined;
let lodViews = new Map<number, LodView>();
let selected: PartView | undefined;
let modelRoot = new Group();
let boundsGroup: Group | undefined;
let bonesGroup: Group | undefined;
let grid: GridHelper | undefined;
let axes: AxesHelper | undefined;
/** Characteristic size of the model in centimetres (largest extent, at least 1). */
let modelSize = 100;
let firstFrameSent = false;
/** When the last `model` message arrived (performance.now()). */
let modelArrivedAt = 0;
const slotColors = new Map<string, Color>();

function slotColor(key: string): Color {
  let c = slotColors.get(key);
  if (!c) {
    // Muted, well separated hues (golden-ratio steps), the same for a slot across LODs.
    c = new Color().setHSL((slotColors.size * 0.618034 + 0.08) % 1, 0.28, 0.62);
    slotColors.set(key, c);
  }
  return c;
}
const slotKey = (p: ModelPart): string => p.material ?? (p.materialIndex !== undefined && p.materialIndex >= 0 ? `material ${p.materialIndex}` : NO_MATERIAL);
const NO_MATERIAL = '(no material)';

/** A texture the host assigned to a material slot: the slot's base-colour map. */
interface SlotTexture {
  texture: DataTexture;
  path: string;
  width: number;
  height: number;
}
/** By slot key. The host's assignments: dropped with the model, sent again after it. */
const slotTextures = new Map<string, SlotTexture>();

/**
 * A slot's map from the host's RGBA8 (rows top first).
 *
 * UV convention: parts get the game's UVs as stored (buildLod copies them into `uv` unchanged),
 * v down with the origin at the image's top-left corner, as in glTF. A DataTexture uploads its
 * first row at texture coordinate v = 0 and `flipY` stays false, so the image's top row is v = 0:
 * the stored convention, with no flip anywhere (three's GLTFLoader sets flipY = false the same way).
 *
 * A base-colour map is sRGB (seed 004: the files store UNORM formats and mark colour maps with a
 * flag whose position is unknown); a map the host marks `linear` (`_n`, `_s`, `_m` by name) is
 * shown as raw data. Alpha is
 * ignored (the material is opaque): in the game it often carries something else. Wrapping
 * repeats, as the glTF export's sampler does, since game UVs may leave 0..1.
 */
function makeSlotTexture(rgba: ArrayBuffer, width: number, height: number, path: string, linear: boolean): DataTexture {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || rgba.byteLength !== width * height * 4) {
    throw new Error(`texture ${path}: ${rgba.byteLength} bytes do not make ${width}x${height} RGBA8 pixels`);
  }
  const t = new DataTexture(new Uint8Array(rgba), width, height, RGBAFormat, UnsignedByteType);
  t.flipY = false;
  t.colorSpace = linear ? NoColorSpace : SRGBColorSpace;
  t.wrapS = t.wrapT = RepeatWrapping;
  t.magFilter = LinearFilter;
  t.minFilter = LinearMipmapLinearFilter;
  t.generateMipmaps = true;
  t.anisotropy = Math.min(8, renderer?.capabilities.getMaxAnisotropy() ?? 1);
  t.name = path;
  t.needsUpdate = true;
  return t;
}

function setSlotTexture(slot: string, rgba: ArrayBuffer, width: number, height: number, path: string, linear: boolean): void {
  const texture = makeSlotTexture(rgba, width, height, path, linear);
  slotTextures.get(slot)?.texture.dispose();
  slotTextures.set(slot, { texture, path, width, height });
  renderSlots();
  apply();
}

/** Forget a slot's texture; `refocus` when the user's "×" did it (the button goes with its row). */
function clearSlotTexture(slot: string, refocus = false): void {
  const t = slotTextures.get(slot);
  if (!t) return;
  t.texture.dispose();
  slotTextures.delete(slot);
  renderSlots(refocus ? slot : undefined);
  apply();
}

/** The editor background of the current theme (the stage's CSS background), for the clear colour. */
function themeBackground(): Color {
  for (const e of [stage, document.body]) {
    const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)(?:[,\s/]+([\d.]+))?/.exec(getComputedStyle(e).backgroundColor);
    if (m && (m[4] === undefined || Number(m[4]) > 0)) return new Color(`rgb(${m[1]}, ${m[2]}, ${m[3]})`);
  }
  return new Color(0x1e1e1e);
}
function isDark(c: Color): boolean {
  const s = c.clone().convertLinearToSRGB();
  return 0.2126 * s.r + 0.7152 * s.g + 0.0722 * s.b < 0.5;
}

function applyTheme(): void {
  const bg = themeBackground();
  renderer?.setClearColor(bg, 1);
  if (grid) {
    // One colour for every grid line (the grid's centre is not the origin; the axes mark that).
    const line = new Color(isDark(bg) ? 0x4a4a4a : 0xc4c4c4);
    const colors = grid.geometry.getAttribute('color') as BufferAttribute;
    for (let i = 0; i < colors.count; i++) colors.setXYZ(i, line.r, line.g, line.b);
    colors.needsUpdate = true;
  }
  if (state.uv) drawUv();
  requestRender();
}
new MutationObserver(applyTheme).observe(document.body, { attributes: true, attributeFilter: ['class'] });

let renderPending = false;
function requestRender(): void {
  if (renderPending) return;
  renderPending = true;
  requestAnimationFrame(render);
}

function render(): void {
  renderPending = false;
  if (!renderer) return;
  renderer.render(scene, camera);
  labelRenderer.render(scene, camera);
  if (model && !firstFrameSent) {
    firstFrameSent = true;
    const now = performance.now();
    post({ type: 'firstFrame', ms: now - scriptStart, sinceModelMs: now - modelArrivedAt });
  }
}

function resize(): void {
  const w = Math.max(1, stage.clientWidth), h = Math.max(1, stage.clientHeight);
  renderer?.setSize(w, h, false);
  labelRenderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  if (state.uv) drawUv();
  requestRender();
}
new ResizeObserver(resize).observe(stage);

// ---------------------------------------------------------------------------------------------
// Building the scene from a model

function disposeObject(root: Object3D): void {
  root.traverse((o) => {
    const drawn = o as Partial<Mesh>;
    drawn.geometry?.dispose();
    const mats = drawn.material === undefined ? [] : Array.isArray(drawn.material) ? drawn.material : [drawn.material];
    for (const m of mats) m.dispose();
    // Labels live in the label layer's DOM; removing their group from the scene does not remove them.
    if (o instanceof CSS2DObject) o.element.remove();
  });
}

function clearModel(): void {
  for (const lv of lodViews.values()) {
    for (const p of lv.parts) {
      for (const h of [p.normalsHelper, p.tangentsHelper]) {
        if (h) {
          scene.remove(h);
          h.dispose();
        }
      }
    }
  }
  scene.remove(modelRoot);
  disposeObject(modelRoot);
  for (const o of [grid, axes]) {
    if (o) {
      scene.remove(o);
      disposeObject(o);
    }
  }
  modelRoot = new Group();
  lodViews = new Map();
  selected = undefined;
  boundsGroup = bonesGroup = undefined;
  grid = axes = undefined;
  slotColors.clear();
  for (const t of slotTextures.values()) t.texture.dispose();
  slotTextures.clear();
}

function buildLod(index: number): LodView {
  const existing = lodViews.get(index);
  if (existing) return existing;
  const lod = model!.lods[index]!;
  const group = new Group();
  group.name = `LOD ${lod.index}`;
  const parts = lod.parts.map((part, i): PartView => {
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(part.positions, 3));
    if (part.normals) g.setAttribute('normal', new BufferAttribute(part.normals, 3));
    if (part.tangents) g.setAttribute('tangent', new BufferAttribute(part.tangents, 4));
    if (part.uvs) g.setAttribute('uv', new BufferAttribute(part.uvs, 2));
    if (part.colors) g.setAttribute('color', new BufferAttribute(part.colors, 4, true));
    // Front faces are counter-clockwise here; a part wound the Direct3D way is drawn reversed, so
    // that its stored normals light the outside (the material is double-sided either way).
    const flipped = windingOf(part) === 'cw';
    let indices = part.indices;
    if (flipped) {
      indices = indices.slice();
      reverseTriangles(indices);
    }
    g.setIndex(new BufferAttribute(indices, 1));
    // Shading needs normals; parts without them get computed ones (the Normals overlay shows only the file's).
    if (!part.normals) g.computeVertexNormals();
    g.computeBoundingBox();
    g.computeBoundingSphere();
    const color = slotColor(slotKey(part));
    const material = new MeshStandardMaterial({ color, roughness: 0.75, metalness: 0, side: DoubleSide });
    const mesh = new Mesh(g, material);
    mesh.name = part.name;
    group.add(mesh);
    return { part, index: i, mesh, slotColor: color, visible: true, triangles: part.indices.length / 3, flipped };
  });
  const lv = { group, parts };
  lodViews.set(index, lv);
  modelRoot.add(group);
  return lv;
}

const currentLod = (): LodView | undefined => (model && model.lods.length > 0 ? lodViews.get(state.lod) : undefined);

/** World matrices (centimetres) of the bind pose: world = parent world × local TRS. */
function boneWorlds(m: MeshModel): Matrix4[] {
  const out: Matrix4[] = [];
  for (const [i, b] of (m.skeleton?.bones ?? []).entries()) {
    const local = new Matrix4().compose(new Vector3(...b.translation), new Quaternion(...b.rotation).normalize(), new Vector3(b.scale, b.scale, b.scale));
    out.push(b.parent >= 0 && b.parent < i ? out[b.parent]!.clone().multiply(local) : local);
  }
  return out;
}

/** Bone and socket positions (centimetres), for framing a model that has no mesh. */
function skeletonBox(m: MeshModel): Box3 {
  const box = new Box3();
  const worlds = boneWorlds(m);
  for (const w of worlds) box.expandByPoint(new Vector3().setFromMatrixPosition(w));
  for (const s of m.skeleton?.sockets ?? []) box.expandByPoint(new Vector3(...s.translation).applyMatrix4(worlds[s.bone] ?? new Matrix4()));
  return box;
}

function label(text: string, className: string): CSS2DObject {
  const o = new CSS2DObject(el('div', { className, textContent: text }));
  o.center.set(0, 1); // the label's lower-left corner at the point
  return o;
}

function buildBones(m: MeshModel): Group | undefined {
  const sk = m.skeleton;
  if (!sk || sk.bones.length === 0) return undefined;
  const worlds = boneWorlds(m);
  const group = new Group();
  group.name = 'skeleton';
  const joints: number[] = [];
  const segments: number[] = [];
  const p = new Vector3(), q = new Vector3();
  sk.bones.forEach((b, i) => {
    p.setFromMatrixPosition(worlds[i]!);
    joints.push(p.x, p.y, p.z);
    if (b.parent >= 0 && b.parent < i) {
      q.setFromMatrixPosition(worlds[b.parent]!);
      segments.push(q.x, q.y, q.z, p.x, p.y, p.z);
    }
    const l = label(b.name, 'label');
    l.position.copy(p);
    group.add(l);
  });
  const lineGeometry = new BufferGeometry();
  lineGeometry.setAttribute('position', new Float32BufferAttribute(segments, 3));
  const lines = new LineSegments(lineGeometry, new LineBasicMaterial({ color: 0xffc040, depthTest: false, transparent: true }));
  lines.renderOrder = 10;
  const pointGeometry = new BufferGeometry();
  pointGeometry.setAttribute('position', new Float32BufferAttribute(joints, 3));
  const points = new Points(pointGeometry, new PointsMaterial({ color: 0xffe080, size: 5, sizeAttenuation: false, depthTest: false, transparent: true }));
  points.renderOrder = 11;
  group.add(lines, points);
  // Sockets: small axes (X red, Y green, Z blue) at bone world × socket local.
  const axisSize = Math.max(1, modelSize * 0.04);
  for (const s of sk.sockets) {
    const world = (worlds[s.bone] ?? new Matrix4()).clone().multiply(new Matrix4().compose(new Vector3(...s.translation), new Quaternion(...s.rotation).normalize(), new Vector3(1, 1, 1)));
    const a = new AxesHelper(axisSize);
    (a.material as LineBasicMaterial).depthTest = false;
    a.renderOrder = 12;
    a.matrixAutoUpdate = false;
    a.matrix.copy(world);
    const l = label(s.name, 'label socket');
    l.position.setFromMatrixPosition(world);
    group.add(a, l);
  }
  return group;
}

/** The box and the sphere: the file's sphere when it declares one, else the box's. */
function buildBounds(m: MeshModel): Group {
  const group = new Group();
  group.name = 'bounds';
  const box = new Box3(new Vector3(...m.bounds.min), new Vector3(...m.bounds.max));
  group.add(new Box3Helper(box, 0x33aaff));
  const sphere = m.sphere ? new Sphere(new Vector3(...m.sphere.center), m.sphere.radius) : box.getBoundingSphere(new Sphere());
  const pts: number[] = [];
  const N = 96;
  for (let ring = 0; ring < 3; ring++) {
    for (let i = 0; i < N; i++) {
      for (const j of [i, i + 1]) {
        const t = (j / N) * Math.PI * 2;
        const a = Math.cos(t) * sphere.radius, b = Math.sin(t) * sphere.radius;
        const v = ring === 0 ? [a, b, 0] : ring === 1 ? [a, 0, b] : [0, a, b];
        pts.push(sphere.center.x + v[0]!, sphere.center.y + v[1]!, sphere.center.z + v[2]!);
      }
    }
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(pts, 3));
  group.add(new LineSegments(g, new LineBasicMaterial({ color: m.sphere ? 0xff66cc : 0x99aacc })));
  group.userData.sphere = sphere;
  group.userData.fromFile = m.sphere !== undefined;
  return group;
}

/** 1, 2 or 5 × 10^k, the nearest at or above `x`. */
function niceStep(x: number): number {
  const k = Math.pow(10, Math.floor(Math.log10(Math.max(x, 1e-6))));
  for (const f of [1, 2, 5, 10]) if (f * k >= x) return f * k;
  return 10 * k;
}

/** The grid on the ground plane (y = min(0, lowest point)), cells of a round number of centimetres. */
function buildGrid(box: Box3): void {
  const size = box.getSize(new Vector3());
  const extent = Math.max(size.x, size.z, size.y, 1);
  const step = niceStep(extent / 8);
  const half = Math.ceil((Math.max(size.x, size.z) / 2 + extent * 0.5) / step) + 1;
  const cx = Math.round((box.min.x + box.max.x) / 2 / step) * step;
  const cz = Math.round((box.min.z + box.max.z) / 2 / step) * step;
  const y = Math.min(0, box.min.y);
  grid = new GridHelper(half * 2 * step, half * 2);
  grid.position.set(cx, y, cz);
  grid.name = 'grid';
  axes = new AxesHelper(step);
  axes.name = 'origin';
  scene.add(grid, axes);
  legend.innerHTML = `Grid: ${esc(fmt(step))} cm squares at y = ${esc(cm(y))} · Y up · axes at the origin: <span class="x">X</span> <span class="y">Y</span> <span class="z">Z</span>`;
}

/** Bounds of everything a frame should show: the selected part, else the visible parts, else the bones, else the model's bounds. */
function frameBox(): Box3 {
  const box = new Box3();
  if (selected) return box.copy(selected.mesh.geometry.boundingBox!);
  for (const p of currentLod()?.parts ?? []) if (p.visible) box.union(p.mesh.geometry.boundingBox!);
  if (box.isEmpty() && model?.skeleton) box.union(skeletonBox(model));
  if (box.isEmpty() && model) box.set(new Vector3(...model.bounds.min), new Vector3(...model.bounds.max));
  if (box.isEmpty()) box.set(new Vector3(-50, 0, -50), new Vector3(50, 100, 50));
  return box;
}

function frame(): void {
  const sphere = frameBox().getBoundingSphere(new Sphere());
  const r = Math.max(sphere.radius, 0.5);
  const dist = (r / Math.sin(((camera.fov / 2) * Math.PI) / 180)) * 1.15;
  const dir = camera.position.clone().sub(controls.target);
  if (dir.lengthSq() < 1e-12) dir.set(1, 0.7, 1);
  dir.normalize();
  camera.near = Math.max(dist / 1000, 0.01);
  camera.far = dist * 100 + r * 10;
  camera.updateProjectionMatrix();
  controls.target.copy(sphere.center);
  camera.position.copy(sphere.center).addScaledVector(dir, dist);
  controls.update();
  requestRender();
}

// ---------------------------------------------------------------------------------------------
// Applying the view state

function setToggle(key: Toggle, on: boolean): void {
  state[key] = on;
  save();
  apply();
}

function apply(): void {
  for (const [key, b] of toggleButtons) {
    const forced = key === 'bones' && model !== undefined && model.lods.length === 0;
    const on = state[key] || forced;
    b.setAttribute('aria-pressed', String(on));
    b.classList.toggle('on', on);
  }
  const lv = currentLod();
  for (const [i, v] of lodViews) v.group.visible = v === lv && i === state.lod;
  /** Slots of this LOD that draw a texture now. */
  const textured = new Set<string>();
  for (const p of lv?.parts ?? []) {
    const m = p.mesh.material;
    // A slot's texture maps the parts of that slot that have UVs; the others keep the slot colour.
    const key = slotKey(p.part);
    const map = state.textures && p.part.uvs ? slotTextures.get(key)?.texture ?? null : null;
    if (m.map !== map) {
      m.map = map;
      m.needsUpdate = true;
    }
    if (map) textured.add(key);
    p.mesh.visible = p.visible;
    if (m.wireframe !== state.wireframe) m.wireframe = state.wireframe;
    const useColors = state.colors && p.part.colors !== undefined;
    if (m.vertexColors !== useColors) {
      m.vertexColors = useColors;
      m.needsUpdate = true;
    }
    // With vertex colours or a texture on, show them as they are (white base); else the slot colour.
    m.color.copy(useColors || map ? new Color(0xffffff) : p.slotColor);
    m.emissive.set(p === selected ? 0x4060a0 : 0x000000);
    if (state.normals && p.part.normals && !p.normalsHelper) {
      p.normalsHelper = new VertexNormalsHelper(p.mesh, modelSize * 0.06, 0x40a0ff);
      scene.add(p.normalsHelper);
    }
    if (state.tangents && p.part.tangents && !p.tangentsHelper) {
      p.tangentsHelper = new VertexTangentsHelper(p.mesh, modelSize * 0.06, 0xff9040);
      scene.add(p.tangentsHelper);
    }
  }
  for (const v of lodViews.values()) {
    for (const p of v.parts) {
      const shown = v === lv && p.visible;
      if (p.normalsHelper) p.normalsHelper.visible = shown && state.normals;
      if (p.tangentsHelper) p.tangentsHelper.visible = shown && state.tangents;
    }
  }
  if (state.bounds && !boundsGroup && model) {
    boundsGroup = buildBounds(model);
    modelRoot.add(boundsGroup);
  }
  if (boundsGroup) boundsGroup.visible = state.bounds;
  const showBones = state.bones || (model !== undefined && model.lods.length === 0);
  if (showBones && !bonesGroup && model?.skeleton) {
    bonesGroup = buildBones(model);
    if (bonesGroup) modelRoot.add(bonesGroup);
  }
  if (bonesGroup) bonesGroup.visible = showBones;
  toggleButtons.get('bones')!.disabled = !model?.skeleton || model.skeleton.bones.length === 0;
  toggleButtons.get('normals')!.disabled = !lv?.parts.some((p) => p.part.normals);
  toggleButtons.get('tangents')!.disabled = !lv?.parts.some((p) => p.part.tangents);
  toggleButtons.get('colors')!.disabled = !lv?.parts.some((p) => p.part.colors);
  toggleButtons.get('uv')!.disabled = !lv?.parts.some((p) => p.part.uvs);
  toggleButtons.get('textures')!.disabled = slotTextures.size === 0;
  document.body.dataset.textures = String(textured.size);
  uvCanvas.classList.toggle('on', state.uv);
  if (state.uv) drawUv();
  info.querySelectorAll<HTMLTableRowElement>('tr[data-part]').forEach((row) => row.classList.toggle('selected', selected?.index === Number(row.dataset.part)));
  postStats();
  requestRender();
}

function postStats(): void {
  if (!model) return;
  const lv = currentLod();
  const visible = lv?.parts.filter((p) => p.visible) ?? [];
  const stats = { type: 'stats' as const, lod: lv ? state.lod : -1, triangles: visible.reduce((n, p) => n + p.triangles, 0), visibleParts: visible.length };
  statusText.textContent = lv ? `${fmt(stats.triangles)} triangles · ${stats.visibleParts} of ${lv.parts.length} parts` : model.skeleton ? `${model.skeleton.bones.length} bones` : '';
  const ds = document.body.dataset;
  ds.lod = String(stats.lod);
  ds.triangles = String(stats.triangles);
  ds.visibleParts = String(stats.visibleParts);
  post(stats);
}

function drawUv(): void {
  const dpr = window.devicePixelRatio || 1;
  const w = stage.clientWidth, h = stage.clientHeight;
  uvCanvas.width = Math.max(1, Math.round(w * dpr));
  uvCanvas.height = Math.max(1, Math.round(h * dpr));
  const ctx = uvCanvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const bg = themeBackground();
  const dark = isDark(bg);
  ctx.fillStyle = `#${bg.getHexString()}`;
  ctx.globalAlpha = 0.92;
  ctx.fillRect(0, 0, w, h);
  ctx.globalAlpha = 1;
  const parts = (currentLod()?.parts ?? []).filter((p) => p.visible && p.part.uvs);
  // The view covers 0..1 and every uv used (clamped to a sane range), v down as stored.
  let u0 = 0, v0 = 0, u1 = 1, v1 = 1;
  for (const p of parts) {
    const uv = p.part.uvs!;
    for (let i = 0; i < uv.length; i += 2) {
      const u = uv[i]!, v = uv[i + 1]!;
      if (u < u0) u0 = u;
      if (u > u1) u1 = u;
      if (v < v0) v0 = v;
      if (v > v1) v1 = v;
    }
  }
  u0 = Math.max(u0, -8); v0 = Math.max(v0, -8); u1 = Math.min(u1, 9); v1 = Math.min(v1, 9);
  const margin = 24;
  const scale = Math.max(1, Math.min((w - 2 * margin) / (u1 - u0), (h - 2 * margin) / (v1 - v0)));
  const ox = (w - (u1 - u0) * scale) / 2 - u0 * scale;
  const oy = (h - (v1 - v0) * scale) / 2 - v0 * scale;
  const X = (u: number): number => ox + u * scale, Y = (v: number): number => oy + v * scale;
  ctx.lineWidth = 1;
  ctx.strokeStyle = dark ? 'rgba(255,255,255,0.15)' : 'rgba(0,0,0,0.15)';
  ctx.beginPath();
  for (let k = 1; k < 4; k++) {
    ctx.moveTo(X(k / 4), Y(0));
    ctx.lineTo(X(k / 4), Y(1));
    ctx.moveTo(X(0), Y(k / 4));
    ctx.lineTo(X(1), Y(k / 4));
  }
  ctx.stroke();
  ctx.strokeStyle = dark ? 'rgba(255,255,255,0.6)' : 'rgba(0,0,0,0.6)';
  ctx.strokeRect(X(0), Y(0), scale, scale);
  ctx.fillStyle = dark ? '#ccc' : '#333';
  ctx.font = '11px sans-serif';
  ctx.fillText('(0,0)', X(0) + 3, Y(0) - 4);
  ctx.fillText('(1,1)  u →, v ↓ as stored', X(1) - 150, Y(1) + 14);
  if (parts.length === 0) {
    ctx.fillText('No UVs in the visible parts.', X(0) + 8, Y(0.5));
    return;
  }
  for (const p of parts) {
    const uv = p.part.uvs!;
    const idx = p.part.indices;
    ctx.strokeStyle = `#${p.slotColor.clone().offsetHSL(0, 0.3, dark ? 0.1 : -0.25).getHexString()}`;
    ctx.beginPath();
    for (let t = 0; t + 2 < idx.length; t += 3) {
      const a = idx[t]! * 2, b = idx[t + 1]! * 2, c = idx[t + 2]! * 2;
      ctx.moveTo(X(uv[a]!), Y(uv[a + 1]!));
      ctx.lineTo(X(uv[b]!), Y(uv[b + 1]!));
      ctx.lineTo(X(uv[c]!), Y(uv[c + 1]!));
      ctx.closePath();
    }
    ctx.stroke();
  }
}

// ---------------------------------------------------------------------------------------------
// The side panel

/** The material slots of the LOD on screen, each with its texture and the buttons to change it. */
const slotsBox = el('div', { id: 'slots' });

/** Fill `slotsBox`; `focusSlot`: give that slot's "Texture…" button the focus (after "×" removed its row's button). */
function renderSlots(focusSlot?: string): void {
  const lv = currentLod();
  const slots = new Map<string, PartView[]>();
  for (const p of lv?.parts ?? []) {
    const key = slotKey(p.part);
    if (key === NO_MATERIAL) continue; // nothing to name it by, and no glTF material to embed it in
    slots.set(key, [...(slots.get(key) ?? []), p]);
  }
  if (slots.size === 0) {
    slotsBox.replaceChildren(el('p', { className: 'hint', textContent: 'No material slots in this LOD.' }));
    return;
  }
  const table = el('table', { className: 'slots' });
  let focus: HTMLButtonElement | undefined;
  for (const [key, views] of slots) {
    const swatch = el('span', { className: 'swatch' });
    swatch.style.background = `#${views[0]!.slotColor.getHexString()}`;
    const pick = el('button', { className: 'small', textContent: 'Texture…', title: `Choose a texture file for ${key}: drawn here and embedded in the glTF export (nothing is written to the game)` });
    pick.dataset.pickTexture = key;
    pick.setAttribute('aria-label', `Choose a texture for ${key}`);
    pick.addEventListener('click', () => post({ type: 'pickTexture', slot: key }));
    if (key === focusSlot) focus = pick;
    const t = slotTextures.get(key);
    const cell = el('td', { className: 'texture' });
    if (t) {
      const remove = el('button', { className: 'small remove', textContent: '×', title: `Remove the texture of ${key}` });
      remove.dataset.clearTexture = key;
      remove.setAttribute('aria-label', `Remove the texture of ${key}`);
      remove.addEventListener('click', () => {
        clearSlotTexture(key, true);
        post({ type: 'clearTexture', slot: key });
      });
      cell.append(el('span', { className: 'path', textContent: t.path, title: `${t.path}: ${t.width} × ${t.height} shown` }), ' ', remove);
      if (!views.some((p) => p.part.uvs)) cell.append(el('div', { className: 'hint', textContent: 'No UVs in this slot’s parts: drawn in the plain colour.' }));
    } else cell.append(el('span', { className: 'hint', textContent: 'no texture' }));
    table.append(el('tr', {}, el('td', {}, swatch, key), el('td', {}, pick), cell));
  }
  slotsBox.replaceChildren(
    table,
    el('p', { className: 'hint', textContent: 'A mesh names its materials only by slot; the game’s design records decide which textures fill them, so choose one by hand.' }),
  );
  focus?.focus();
}

function showInfo(m: MeshModel): void {
  const parts = document.createDocumentFragment();
  const lv = currentLod();
  if (lv) {
    const lod = m.lods[state.lod]!;
    parts.append(el('h3', { textContent: `Parts of LOD ${lod.index}` }));
    const table = el('table', { className: 'parts' });
    table.append(el('tr', {}, el('th', { textContent: 'Show · part' }), el('th', { textContent: 'Material' }), el('th', { textContent: 'Triangles' })));
    for (const p of lv.parts) {
      const box = el('input', { type: 'checkbox', checked: p.visible });
      box.setAttribute('aria-label', `Show ${p.part.name}`);
      box.addEventListener('change', () => {
        p.visible = box.checked;
        if (!p.visible && selected === p) selected = undefined;
        apply();
      });
      const name = el('button', { className: 'link', textContent: p.part.name, title: 'Select this part (F frames it, Esc clears)' });
      name.addEventListener('click', () => {
        selected = selected === p ? undefined : p;
        apply();
      });
      const swatch = el('span', { className: 'swatch' });
      swatch.style.background = `#${p.slotColor.getHexString()}`;
      const first = el('td', {}, box, ' ', name);
      if (p.flipped) first.append(' ', el('span', { className: 'mark', textContent: 'cw', title: 'The triangles turn clockwise against the normals (Direct3D order); drawn reversed. The glTF export reverses them too.' }));
      const row = el('tr', {}, first, el('td', {}, swatch, slotKey(p.part)), el('td', { className: 'num', textContent: fmt(p.triangles) }));
      row.dataset.part = String(p.index);
      table.append(row);
    }
    parts.append(table);
    const all = el('button', { className: 'small', textContent: 'Show all' });
    all.addEventListener('click', () => {
      for (const p of lv.parts) p.visible = true;
      table.querySelectorAll('input').forEach((b) => (b.checked = true));
      apply();
    });
    parts.append(el('p', {}, all));
    parts.append(el('h3', { textContent: 'Textures by material slot' }), slotsBox);
    renderSlots();
  } else if (m.lods.length === 0) {
    parts.append(el('p', { className: 'hint', textContent: 'This model has no mesh: only its skeleton is drawn.' }));
  }

  const size = new Vector3(...m.bounds.max).sub(new Vector3(...m.bounds.min));
  const rows: [string, string][] = [
    ['file', m.name],
    ['LODs', m.lods.map((l) => `${l.index}: ${fmt(l.triangles)} tris, ${fmt(l.vertices)} verts${l.distance !== undefined ? ` @ ${cm(l.distance)}` : ''}`).join('\n') || 'none'],
    ['bounds', `${cm(size.x)} × ${cm(size.y)} × ${cm(size.z)}\nmin ${m.bounds.min.map((v) => Math.round(v * 100) / 100).join(', ')}\nmax ${m.bounds.max.map((v) => Math.round(v * 100) / 100).join(', ')}`],
  ];
  if (m.sphere) rows.push(['sphere', `centre ${m.sphere.center.map((v) => Math.round(v * 100) / 100).join(', ')}, radius ${cm(m.sphere.radius)}`]);
  const modelTable = el('table');
  for (const [k, v] of rows) modelTable.append(el('tr', {}, el('th', { textContent: k }), el('td', { innerHTML: esc(v).replace(/\n/g, '<br>') })));
  parts.append(el('h3', { textContent: 'Model' }), modelTable);

  if (m.skeleton) {
    const sk = m.skeleton;
    parts.append(el('h3', { textContent: `Skeleton: ${sk.bones.length} bones, ${sk.sockets.length} sockets` }));
    const details = el('details', { open: sk.bones.length <= 64 });
    details.append(el('summary', { textContent: 'Bones (index, name, parent)' }));
    const t = el('table', { className: 'bones' });
    sk.bones.forEach((b, i) => t.append(el('tr', {}, el('td', { className: 'num', textContent: String(i) }), el('td', { textContent: b.name }), el('td', { textContent: b.parent >= 0 ? sk.bones[b.parent]?.name ?? String(b.parent) : '(root)' }))));
    details.append(t);
    parts.append(details);
    if (sk.sockets.length > 0) {
      const sd = el('details', { open: sk.sockets.length <= 16 });
      sd.append(el('summary', { textContent: 'Sockets (name, bone)' }));
      const st = el('table', { className: 'bones' });
      for (const s of sk.sockets) st.append(el('tr', {}, el('td', { textContent: s.name }), el('td', { textContent: sk.bones[s.bone]?.name ?? String(s.bone) })));
      sd.append(st);
      parts.append(sd);
    }
  }
  if (m.notes.length > 0) {
    parts.append(el('h3', { textContent: 'Notes' }));
    const ul = el('ul');
    for (const n of m.notes) ul.append(el('li', { textContent: n }));
    parts.append(ul);
  }
  info.replaceChildren(parts);
}

function fillLods(m: MeshModel): void {
  lodSelect.replaceChildren(...m.lods.map((l, i) => el('option', { value: String(i), textContent: `LOD ${l.index} · ${fmt(l.triangles)} tris` })));
  if (m.lods.length === 0) lodSelect.append(el('option', { value: '-1', textContent: 'no mesh' }));
  lodSelect.disabled = m.lods.length <= 1;
  lodSelect.value = String(m.lods.length > 0 ? state.lod : -1);
}

function selectLod(i: number): void {
  if (!model || i < 0 || i >= model.lods.length) return;
  state.lod = i;
  save();
  selected = undefined;
  buildLod(i);
  showInfo(model);
  apply();
}

// ---------------------------------------------------------------------------------------------
// Messages and input

function showModel(m: MeshModel, title: string): void {
  clearModel();
  model = m;
  firstFrameSent = false;
  stage.querySelector('.stageMessage')?.remove();
  toolbar.hidden = mainArea.hidden = false;
  failedBox.hidden = true;
  titleText.textContent = title;
  titleText.title = m.name;
  document.title = title;
  state.lod = Math.min(Math.max(0, state.lod), Math.max(0, m.lods.length - 1));
  fillLods(m);
  if (m.lods.length > 0) buildLod(state.lod);
  scene.add(modelRoot);
  // Size and grid from the model's bounds, or from the bones when there is no mesh.
  const box = new Box3();
  if (m.lods.length > 0) box.set(new Vector3(...m.bounds.min), new Vector3(...m.bounds.max));
  else box.union(skeletonBox(m));
  if (box.isEmpty()) box.set(new Vector3(-50, 0, -50), new Vector3(50, 100, 50));
  const size = box.getSize(new Vector3());
  modelSize = Math.max(size.x, size.y, size.z, 1);
  buildGrid(box);
  applyTheme();
  showInfo(m);
  document.body.dataset.state = 'model';
  apply();
  camera.position.set(1, 0.7, 1);
  controls.target.set(0, 0, 0);
  frame();
  if (!renderer) {
    stageMessage(`<p>WebGL is not available here, so the model cannot be drawn: ${esc(webglError ?? 'unknown reason')}</p><p>Its parts, skeleton and notes are listed on the right.</p>`);
    document.body.dataset.state = 'error';
    post({ type: 'error', message: `WebGL is not available: ${webglError ?? 'unknown reason'}` });
  }
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const msg = e.data;
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'model') {
    modelArrivedAt = performance.now();
    let m: MeshModel;
    try {
      m = fromWireModel(msg.model);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      stageMessage(`<h3>This model could not be shown</h3><p>${esc(message)}</p>`);
      document.body.dataset.state = 'error';
      post({ type: 'error', message });
      return;
    }
    showModel(m, msg.title);
  } else if (msg.type === 'texture') {
    try {
      setSlotTexture(msg.slot, msg.rgba, msg.width, msg.height, msg.path, msg.linear === true);
    } catch (err) {
      post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  } else if (msg.type === 'clearTexture') {
    clearSlotTexture(msg.slot);
  } else if (msg.type === 'failed') {
    // Like the texture editor: the message and the first bytes, in place of the view.
    clearModel();
    model = undefined;
    document.body.dataset.state = 'failed';
    toolbar.hidden = mainArea.hidden = true;
    failedBox.hidden = false;
    failedBox.innerHTML =
      '<h3>This file could not be read as a model</h3><p>' +
      esc(msg.message) +
      '</p><p>First bytes' +
      (msg.size !== undefined ? ' (' + esc(fmt(msg.size)) + ' in all)' : '') +
      ':</p><pre>' +
      esc(msg.hex) +
      '</pre>';
  }
});

lodSelect.addEventListener('change', () => selectLod(Number(lodSelect.value)));
frameButton.addEventListener('click', frame);
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target as HTMLElement | null;
  if (t && (t.tagName === 'SELECT' || (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox') || t.tagName === 'TEXTAREA')) return;
  const k = e.key.toLowerCase();
  if (k === 'f') frame();
  else if (k === 'w') setToggle('wireframe', !state.wireframe);
  else if (k === 'escape' && selected) {
    selected = undefined;
    apply();
  } else return;
  e.preventDefault();
});

resize();
post({ type: 'ready' });
