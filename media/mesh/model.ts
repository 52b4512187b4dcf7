/**
 * The three.js side of one `MeshModel`: a group per LOD (built when first shown), a mesh and a
 * material per part, the slot colours, and what a frame should cover. The picture is in the
 * game's units, centimetres with Y up. Skinned parts are drawn as plain meshes: their vertices
 * are already in the bind pose.
 */
import { Box3, BufferAttribute, BufferGeometry, Color, DoubleSide, Group, Matrix4, Mesh, MeshStandardMaterial, Object3D, Scene, Vector3 } from 'three';
import type { VertexNormalsHelper } from 'three/examples/jsm/helpers/VertexNormalsHelper.js';
import type { VertexTangentsHelper } from 'three/examples/jsm/helpers/VertexTangentsHelper.js';
import { CSS2DObject } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import type { MeshModel, ModelPart } from '../../core/model';
import { nameHashes, reverseTriangles, windingOf } from '../../core/model';
import { type BoneOverlay, boneWorlds } from './boneOverlay';

/** A drawn part: its mesh, its own material (for selection highlight), helpers made on demand. */
export interface PartView {
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

export interface LodView {
  group: Group;
  parts: PartView[];
}

/** What a part without a material slot is listed as (no glTF material to embed a texture in). */
export const NO_MATERIAL = '(no material)';

/** The material slot a part draws with: its material name, else `material <index>` (the glTF export's names too). */
export const slotKey = (p: ModelPart): string =>
  p.material ?? (p.materialIndex !== undefined && p.materialIndex >= 0 ? `material ${p.materialIndex}` : NO_MATERIAL);

/** What to frame when there is nothing else: a metre around the origin, a metre up. */
export const defaultBox = (): Box3 => new Box3(new Vector3(-50, 0, -50), new Vector3(50, 100, 50));

/** Centimetres, as the panels print them. */
export const cm = (n: number): string => `${Math.round(n * 100) / 100} cm`;

/** Frees geometries, materials and label elements under `root`. */
export function disposeObject(root: Object3D): void {
  root.traverse((o) => {
    const drawn = o as Partial<Mesh>;
    drawn.geometry?.dispose();
    const mats = drawn.material === undefined ? [] : Array.isArray(drawn.material) ? drawn.material : [drawn.material];
    for (const m of mats) m.dispose();
    // Labels live in the label layer's DOM; removing their group from the scene does not remove them.
    if (o instanceof CSS2DObject) o.element.remove();
  });
}

/** Bone and socket positions (centimetres), for framing a model that has no mesh. */
function skeletonBox(m: MeshModel): Box3 {
  const box = new Box3();
  const worlds = boneWorlds(m);
  for (const w of worlds) box.expandByPoint(new Vector3().setFromMatrixPosition(w));
  for (const s of m.skeleton?.sockets ?? []) box.expandByPoint(new Vector3(...s.translation).applyMatrix4(worlds[s.bone] ?? new Matrix4()));
  return box;
}

/** The model on screen: its LOD groups under one root, the selection, its overlays once built. */
export class ModelView {
  readonly root = new Group();
  readonly lods = new Map<number, LodView>();
  selected: PartView | undefined;
  /** The bone selected in the bone list or the scene, and the one under the pointer (indices into the skeleton). */
  selectedBone: number | undefined;
  hoveredBone: number | undefined;
  /** Names the host decoded for hashes the model prints as `0x%08X` (protocol `names`). */
  names: Record<string, string> = {};
  /** The skeleton and bounds overlays, built the first time they are shown. */
  bones: BoneOverlay | undefined;
  bounds: Group | undefined;
  /** Characteristic size of the model in centimetres (largest extent, at least 1). */
  readonly size: number;
  /** The box the grid and the first frame use: the model's bounds, or its bones' when it has no mesh. */
  readonly box: Box3;
  private readonly slotColors = new Map<string, Color>();

  constructor(readonly model: MeshModel) {
    const box = new Box3();
    if (model.lods.length > 0) box.set(new Vector3(...model.bounds.min), new Vector3(...model.bounds.max));
    else box.union(skeletonBox(model));
    if (box.isEmpty()) box.copy(defaultBox());
    const size = box.getSize(new Vector3());
    this.box = box;
    this.size = Math.max(size.x, size.y, size.z, 1);
  }

  /** A part, bone or socket name as shown: its hashes decoded where the host named them. */
  shownName(name: string): string {
    return nameHashes(name, this.names);
  }

  /** The LOD shown for index `lod`, or undefined when the model has no LODs. */
  current(lod: number): LodView | undefined {
    return this.model.lods.length > 0 ? this.lods.get(lod) : undefined;
  }

  /** A slot's colour: muted, well separated hues (golden-ratio steps), the same for a slot across LODs. */
  slotColor(key: string): Color {
    let c = this.slotColors.get(key);
    if (!c) {
      c = new Color().setHSL((this.slotColors.size * 0.618034 + 0.08) % 1, 0.28, 0.62);
      this.slotColors.set(key, c);
    }
    return c;
  }

  /** The LOD's group and part views, built on first use. */
  lod(index: number): LodView {
    const existing = this.lods.get(index);
    if (existing) return existing;
    const lod = this.model.lods[index]!;
    const group = new Group();
    group.name = `LOD ${lod.index}`;
    const parts = lod.parts.map((part, i): PartView => {
      const color = this.slotColor(slotKey(part));
      const { geometry, flipped } = partGeometry(part);
      const mesh = new Mesh(geometry, new MeshStandardMaterial({ color, roughness: 0.75, metalness: 0, side: DoubleSide }));
      mesh.name = part.name;
      group.add(mesh);
      return { part, index: i, mesh, slotColor: color, visible: true, triangles: part.indices.length / 3, flipped };
    });
    const lv = { group, parts };
    this.lods.set(index, lv);
    this.root.add(group);
    return lv;
  }

  /** Bounds of everything a frame should show: the selected part, else the visible parts, else the bones, else the model's bounds. */
  frameBox(lod: number): Box3 {
    const box = new Box3();
    if (this.selected) return box.copy(this.selected.mesh.geometry.boundingBox!);
    for (const p of this.current(lod)?.parts ?? []) if (p.visible) box.union(p.mesh.geometry.boundingBox!);
    if (box.isEmpty() && this.model.skeleton) box.union(skeletonBox(this.model));
    if (box.isEmpty()) box.set(new Vector3(...this.model.bounds.min), new Vector3(...this.model.bounds.max));
    return box.isEmpty() ? defaultBox() : box;
  }

  /** Takes everything out of `scene` and frees it. */
  dispose(scene: Scene): void {
    for (const lv of this.lods.values()) {
      for (const p of lv.parts) {
        for (const h of [p.normalsHelper, p.tangentsHelper]) {
          if (h) {
            scene.remove(h);
            h.dispose();
          }
        }
      }
    }
    scene.remove(this.root);
    disposeObject(this.root);
  }
}

/** A part's geometry, and whether its triangles were reversed. */
function partGeometry(part: ModelPart): { geometry: BufferGeometry; flipped: boolean } {
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
  return { geometry: g, flipped };
}
