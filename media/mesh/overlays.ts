/**
 * What the toolbar's toggles lay over the model: vertex normals and tangents, the bounding box and
 * sphere, the skeleton (bones, sockets, the names in focus), and the UV view (the visible parts' triangles in
 * texture space, drawn on a 2D canvas over the stage).
 */
import {
  AxesHelper,
  Box3,
  Box3Helper,
  BufferAttribute,
  BufferGeometry,
  type Camera,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Points,
  PointsMaterial,
  Quaternion,
  Scene,
  Sphere,
  Vector3,
} from 'three';
import { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js';
import { VertexTangentsHelper } from 'three/examples/jsm/helpers/VertexTangentsHelper.js';
import { CSS2DObject } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import type { MeshModel } from '../../core/model';
import { el } from '../shared/html';
import { LodView, ModelView, PartView, boneWorlds } from './model';
import { isDark, themeBackground } from './scene';

/** The overlay toggles' part of the view state. */
export interface OverlayState {
  normals: boolean;
  tangents: boolean;
  bounds: boolean;
  bones: boolean;
}

function label(text: string, className: string): CSS2DObject {
  const o = new CSS2DObject(el('div', { className, textContent: text }));
  o.center.set(0, 1); // the label's lower-left corner at the point
  return o;
}

/** What the bone overlay shows besides the skeleton: which bones are named, which one is highlighted. */
export interface BoneFocus {
  /** Bone indices whose name is drawn (core/model `bonesToLabel`). */
  labelled: readonly number[];
  /** Name every socket too (the "All names" toggle). */
  allSockets: boolean;
  /** The bone highlighted (selected in the list or in the scene). */
  selected: number | undefined;
  /** The bone under the pointer (in the list or in the scene). */
  hovered: number | undefined;
}

/**
 * The skeleton overlay: joints, bones as lines, sockets as small axes, and name labels made only
 * for the bones that are named (a 142-bone head labelled at once is an unreadable block; see
 * `BoneFocus`), plus the selected bone drawn larger with its link to its parent.
 */
export class BoneOverlay {
  readonly group = new Group();
  /** Each bone's position in the model (centimetres). */
  readonly joints: Vector3[] = [];
  /** Each socket's position in the model. */
  private readonly socketsAt: Vector3[] = [];
  private readonly labels = new Map<number, CSS2DObject>();
  private readonly socketLabels = new Map<number, CSS2DObject>();
  private readonly highlight: Points;
  private readonly highlightLink: LineSegments;
  private readonly hoverMark: Points;

  constructor(
    private readonly model: MeshModel,
    modelSize: number,
    /** A bone's or socket's name as shown (decoded where the hash is known). */
    private readonly shown: (name: string) => string,
  ) {
    const sk = model.skeleton!;
    const worlds = boneWorlds(model);
    this.group.name = 'skeleton';
    const joints: number[] = [];
    const segments: number[] = [];
    sk.bones.forEach((b, i) => {
      const p = new Vector3().setFromMatrixPosition(worlds[i]!);
      this.joints.push(p);
      joints.push(p.x, p.y, p.z);
      if (b.parent >= 0 && b.parent < i) {
        const q = this.joints[b.parent]!;
        segments.push(q.x, q.y, q.z, p.x, p.y, p.z);
      }
    });
    const lineGeometry = new BufferGeometry();
    lineGeometry.setAttribute('position', new Float32BufferAttribute(segments, 3));
    const lines = new LineSegments(lineGeometry, new LineBasicMaterial({ color: 0xffc040, depthTest: false, transparent: true }));
    lines.renderOrder = 10;
    const pointGeometry = new BufferGeometry();
    pointGeometry.setAttribute('position', new Float32BufferAttribute(joints, 3));
    const points = new Points(pointGeometry, new PointsMaterial({ color: 0xffe080, size: 5, sizeAttenuation: false, depthTest: false, transparent: true }));
    points.renderOrder = 11;
    this.highlight = marker(0x40c0ff, 11);
    this.hoverMark = marker(0xffffff, 8);
    const linkGeometry = new BufferGeometry();
    linkGeometry.setAttribute('position', new Float32BufferAttribute(new Float32Array(6), 3));
    this.highlightLink = new LineSegments(linkGeometry, new LineBasicMaterial({ color: 0x40c0ff, depthTest: false, transparent: true }));
    this.highlightLink.renderOrder = 13;
    this.highlightLink.visible = false;
    this.group.add(lines, points, this.highlightLink, this.highlight, this.hoverMark);
    // Sockets: small axes (X red, Y green, Z blue) at bone world × socket local.
    const axisSize = Math.max(1, modelSize * 0.04);
    sk.sockets.forEach((s) => {
      const world = (worlds[s.bone] ?? new Matrix4())
        .clone()
        .multiply(new Matrix4().compose(new Vector3(...s.translation), new Quaternion(...s.rotation).normalize(), new Vector3(1, 1, 1)));
      const a = new AxesHelper(axisSize);
      (a.material as LineBasicMaterial).depthTest = false;
      a.renderOrder = 12;
      a.matrixAutoUpdate = false;
      a.matrix.copy(world);
      this.socketsAt.push(new Vector3().setFromMatrixPosition(world));
      this.group.add(a);
    });
  }

  /** Names, the highlight and the hover mark for `focus`; labels are made the first time they are needed. */
  setFocus(focus: BoneFocus): void {
    const sk = this.model.skeleton!;
    const named = new Set(focus.labelled);
    for (const i of named) {
      if (this.labels.has(i)) continue;
      const l = label(this.shown(sk.bones[i]!.name), 'label');
      l.position.copy(this.joints[i]!);
      this.labels.set(i, l);
      this.group.add(l);
    }
    for (const [i, l] of this.labels) {
      l.visible = named.has(i);
      l.element.classList.toggle('selected', i === focus.selected);
    }
    // A socket is named with "All names", or when its bone is selected.
    sk.sockets.forEach((s, k) => {
      const on = focus.allSockets || s.bone === focus.selected;
      let l = this.socketLabels.get(k);
      if (on && !l) {
        l = label(this.shown(s.name), 'label socket');
        l.position.copy(this.socketsAt[k]!);
        this.socketLabels.set(k, l);
        this.group.add(l);
      }
      if (l) l.visible = on;
    });
    place(this.highlight, focus.selected === undefined ? undefined : this.joints[focus.selected]);
    place(this.hoverMark, focus.hovered === undefined || focus.hovered === focus.selected ? undefined : this.joints[focus.hovered]);
    const parent = focus.selected === undefined ? -1 : (sk.bones[focus.selected]?.parent ?? -1);
    this.highlightLink.visible = parent >= 0;
    if (parent >= 0) {
      const a = this.joints[parent]!,
        b = this.joints[focus.selected!]!;
      const pos = this.highlightLink.geometry.getAttribute('position') as BufferAttribute;
      pos.setXYZ(0, a.x, a.y, a.z);
      pos.setXYZ(1, b.x, b.y, b.z);
      pos.needsUpdate = true;
      this.highlightLink.geometry.computeBoundingSphere();
    }
  }

  /** The labels' text again (names decoded since they were made). */
  relabel(): void {
    const sk = this.model.skeleton!;
    for (const [i, l] of this.labels) l.element.textContent = this.shown(sk.bones[i]!.name);
    for (const [k, l] of this.socketLabels) l.element.textContent = this.shown(sk.sockets[k]!.name);
  }

  /**
   * The bone whose joint is drawn nearest to (x, y) (CSS pixels in a `width` × `height` view),
   * within `radius` pixels, or undefined.
   */
  nearest(camera: Camera, width: number, height: number, x: number, y: number, radius = 8): number | undefined {
    let best: number | undefined;
    let bestD = radius * radius;
    const v = new Vector3();
    this.joints.forEach((j, i) => {
      v.copy(j).project(camera);
      if (v.z < -1 || v.z > 1) return;
      const dx = ((v.x + 1) / 2) * width - x,
        dy = ((1 - v.y) / 2) * height - y;
      const d = dx * dx + dy * dy;
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    });
    return best;
  }
}

/** A single large joint marker drawn over everything. */
function marker(color: number, size: number): Points {
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(new Float32Array(3), 3));
  const p = new Points(g, new PointsMaterial({ color, size, sizeAttenuation: false, depthTest: false, transparent: true }));
  p.renderOrder = 14;
  p.visible = false;
  return p;
}

/** Moves a marker to `at`, or hides it. */
function place(p: Points, at: Vector3 | undefined): void {
  p.visible = at !== undefined;
  if (!at) return;
  const pos = p.geometry.getAttribute('position') as BufferAttribute;
  pos.setXYZ(0, at.x, at.y, at.z);
  pos.needsUpdate = true;
  p.geometry.computeBoundingSphere();
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
        const a = Math.cos(t) * sphere.radius,
          b = Math.sin(t) * sphere.radius;
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

/** Creates the normals and tangents helpers a part needs now (once each). */
export function addPartHelpers(p: PartView, on: OverlayState, modelSize: number, scene: Scene): void {
  if (on.normals && p.part.normals && !p.normalsHelper) {
    p.normalsHelper = new VertexNormalsHelper(p.mesh, modelSize * 0.06, 0x40a0ff);
    scene.add(p.normalsHelper);
  }
  if (on.tangents && p.part.tangents && !p.tangentsHelper) {
    p.tangentsHelper = new VertexTangentsHelper(p.mesh, modelSize * 0.06, 0xff9040);
    scene.add(p.tangentsHelper);
  }
}

/**
 * Shows the overlays `on` asks for over `view` (LOD `lv` on screen), building each the first
 * time; a model without LODs always shows its bones.
 */
export function applyOverlays(view: ModelView, lv: LodView | undefined, on: OverlayState, focus: BoneFocus): void {
  for (const v of view.lods.values()) {
    for (const p of v.parts) {
      const shown = v === lv && p.visible;
      if (p.normalsHelper) p.normalsHelper.visible = shown && on.normals;
      if (p.tangentsHelper) p.tangentsHelper.visible = shown && on.tangents;
    }
  }
  if (on.bounds && !view.bounds) {
    view.bounds = buildBounds(view.model);
    view.root.add(view.bounds);
  }
  if (view.bounds) view.bounds.visible = on.bounds;
  const showBones = on.bones || view.model.lods.length === 0;
  if (showBones && !view.bones && view.model.skeleton && view.model.skeleton.bones.length > 0) {
    view.bones = new BoneOverlay(view.model, view.size, (n) => view.shownName(n));
    view.root.add(view.bones.group);
  }
  if (view.bones) {
    view.bones.group.visible = showBones;
    if (showBones) view.bones.setFocus(focus);
  }
}

/** The UV view of the visible parts of `lv` over `stage` (0..1 and every uv used, v down as stored). */
export function drawUv(canvas: HTMLCanvasElement, stage: HTMLElement, lv: LodView | undefined): void {
  const dpr = window.devicePixelRatio || 1;
  const w = stage.clientWidth,
    h = stage.clientHeight;
  canvas.width = Math.max(1, Math.round(w * dpr));
  canvas.height = Math.max(1, Math.round(h * dpr));
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const bg = themeBackground(stage);
  const dark = isDark(bg);
  ctx.fillStyle = `#${bg.getHexString()}`;
  ctx.globalAlpha = 0.92;
  ctx.fillRect(0, 0, w, h);
  ctx.globalAlpha = 1;
  const parts = (lv?.parts ?? []).filter((p) => p.visible && p.part.uvs);
  // The view covers 0..1 and every uv used (clamped to a sane range), v down as stored.
  let u0 = 0,
    v0 = 0,
    u1 = 1,
    v1 = 1;
  for (const p of parts) {
    const uv = p.part.uvs!;
    for (let i = 0; i < uv.length; i += 2) {
      const u = uv[i]!,
        v = uv[i + 1]!;
      if (u < u0) u0 = u;
      if (u > u1) u1 = u;
      if (v < v0) v0 = v;
      if (v > v1) v1 = v;
    }
  }
  u0 = Math.max(u0, -8);
  v0 = Math.max(v0, -8);
  u1 = Math.min(u1, 9);
  v1 = Math.min(v1, 9);
  const margin = 24;
  const scale = Math.max(1, Math.min((w - 2 * margin) / (u1 - u0), (h - 2 * margin) / (v1 - v0)));
  const ox = (w - (u1 - u0) * scale) / 2 - u0 * scale;
  const oy = (h - (v1 - v0) * scale) / 2 - v0 * scale;
  const X = (u: number): number => ox + u * scale,
    Y = (v: number): number => oy + v * scale;
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
    ctx.strokeStyle = `#${p.slotColor
      .clone()
      .offsetHSL(0, 0.3, dark ? 0.1 : -0.25)
      .getHexString()}`;
    ctx.beginPath();
    for (let t = 0; t + 2 < idx.length; t += 3) {
      const a = idx[t]! * 2,
        b = idx[t + 1]! * 2,
        c = idx[t + 2]! * 2;
      ctx.moveTo(X(uv[a]!), Y(uv[a + 1]!));
      ctx.lineTo(X(uv[b]!), Y(uv[b + 1]!));
      ctx.lineTo(X(uv[c]!), Y(uv[c + 1]!));
      ctx.closePath();
    }
    ctx.stroke();
  }
}
