/**
 * The skeleton overlay (bones, sockets, the names in focus) and the bind pose it is drawn in,
 * apart from overlays.ts so that the model view (model.ts) can hold one without importing the
 * overlays, which import the model.
 */
import {
  AxesHelper,
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
  Vector3,
} from 'three';
import { CSS2DObject } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import type { MeshModel } from '../../core/model';
import { el } from '../shared/html';

/** World matrices (centimetres) of the bind pose: world = parent world × local TRS. */
export function boneWorlds(m: MeshModel): Matrix4[] {
  const out: Matrix4[] = [];
  for (const [i, b] of (m.skeleton?.bones ?? []).entries()) {
    const local = new Matrix4().compose(new Vector3(...b.translation), new Quaternion(...b.rotation).normalize(), new Vector3(b.scale, b.scale, b.scale));
    out.push(b.parent >= 0 && b.parent < i ? out[b.parent]!.clone().multiply(local) : local);
  }
  return out;
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
