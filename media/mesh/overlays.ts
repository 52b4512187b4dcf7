/**
 * What the toolbar's toggles lay over the model: vertex normals and tangents, the bounding box and
 * sphere, the skeleton (bones, sockets, the names in focus), and the UV view (the visible parts' triangles in
 * texture space, drawn on a 2D canvas over the stage).
 */
import { Box3, Box3Helper, BufferGeometry, Float32BufferAttribute, Group, LineBasicMaterial, LineSegments, Scene, Sphere, Vector3 } from 'three';
import { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js';
import { VertexTangentsHelper } from 'three/examples/jsm/helpers/VertexTangentsHelper.js';
import type { MeshModel } from '../../core/model';
import { type BoneFocus, BoneOverlay } from './boneOverlay';
import { LodView, ModelView, PartView } from './model';

export type { BoneFocus } from './boneOverlay';
import { isDark, themeBackground } from './scene';

/** The overlay toggles' part of the view state. */
export interface OverlayState {
  normals: boolean;
  tangents: boolean;
  bounds: boolean;
  bones: boolean;
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
