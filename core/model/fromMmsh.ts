/**
 * MMSH (+ optional SKEL) → MeshModel.
 *
 * LODs. A MeshModel LOD is what the engine draws from one distance on. The MMSH's LOD section
 * lists, per mesh level, one connection record per LOD group (see `MmshLodLevel`); a level's parts
 * are the meshes of the data blocks its connections name (-1 = that group draws nothing). Levels
 * are taken nearest first; a level drawing exactly what the previous one draws, or nothing, is
 * dropped. On the real head: 0 cm (8 blocks), 500, 1500, 2500 cm (4 blocks each); 1 cm repeats 0 cm
 * and 4500 cm draws nothing. When the LOD section does not read as levels, the groups' connection
 * chains are used by position (LOD k = each group's k-th record), and without connections each
 * data block is its own LOD. Each way is noted.
 *
 * Skeleton. With a SKEL whose bone names hash (StringHash) to the MMSH bone list, the SKEL's bones
 * are used (depth-first, so parents precede children) with their names; otherwise the MMSH bone
 * list, names as 0x%08X hashes. Both store the bind pose in model space; MeshModel bones are
 * parent-relative, so each is converted (t = conj(qParent)·(tChild - tParent),
 * q = conj(qParent)·qChild). A palette byte indexes the skeleton's name-table order (seed 004;
 * the breadth-first order on the sample, see core/formats/mesh/skel/layout.ts): with a SKEL the name-table
 * order is the names' order in its string blob, without one the breadth-first order of the MMSH
 * bone list (UNCERTAIN, noted).
 *
 * Vertices: positions as stored (cm), normals, tangents with w = sign(dot(cross(n, t), b)) from the
 * stored bitangent, the first texcoord channel (s16 UVs ÷ 32767: a guess, noted), colours,
 * weights in slot order by seed 004's BGRA rule, normalised to sum 1.
 */
import { Arch06Error } from '../errors';
import { type Quaternion, multiplyQuaternions as qMul } from '../math';
import { StringHasher, defaultHasher, formatHash } from '../hash/stringHash';
import { Mmsh } from '../formats/mesh/mmsh/layout';
import { MmshMeshData, decodeMmshMesh } from '../formats/mesh/mmsh/vertices';
import { Skel } from '../formats/mesh/skel/layout';
import { breadthFirstOrder } from '../formats/mesh/skel/hierarchy';
import { MeshModel, ModelBone, ModelLod, ModelPart, ModelSkeleton, ModelSocket, boundsOf } from './meshModel';

type Vec3 = [number, number, number];
type Quat = Quaternion;

/** One draw of a planned LOD: a data block with the material slot and group that draw it. */
interface MmshDraw {
  block: number;
  material: number;
  group: number;
  connection: number;
}

interface MmshLodPlan {
  distance?: number;
  draws: MmshDraw[];
}

/** Which data blocks each MeshModel LOD draws (see the file comment); notes say how it was worked out. */
function planMmshLods(mmsh: Mmsh, notes: string[] = []): MmshLodPlan[] {
  const C = mmsh.info.connections;
  const draw = (ci: number): MmshDraw | undefined => {
    const c = C[ci]!;
    return c.lod >= 0 ? { block: c.lod, material: c.material, group: c.lodGroup, connection: ci } : undefined;
  };
  const compact = (plans: MmshLodPlan[]): MmshLodPlan[] => {
    const out: MmshLodPlan[] = [];
    const key = (p: MmshLodPlan): string => p.draws.map((d) => `${d.block}/${d.material}`).join(',');
    for (const p of plans) {
      if (!p.draws.length) continue;
      if (out.length && key(out[out.length - 1]!) === key(p)) continue;
      out.push(p);
    }
    return out;
  };
  const meshLevels = mmsh.levels.filter((l) => l.kind === 'mesh').sort((a, b) => a.distance - b.distance);
  if (meshLevels.length) {
    const plans = compact(meshLevels.map((l) => ({ distance: l.distance, draws: l.connections.map(draw).filter((d): d is MmshDraw => !!d) })));
    if (plans.length) {
      notes.push(
        `LODs from the LOD section's ${meshLevels.length} mesh levels (nearest first; empty and repeated levels dropped): ${plans.map((p) => `${p.distance} cm`).join(', ')}`,
      );
      return withUndrawn(mmsh, plans, notes);
    }
  }
  if (C.length) {
    const chains = mmsh.lodGroups.map((g) => g.connections);
    let longest = 0; // a loop: Math.max(...) over a count the file sets throws RangeError
    for (const c of chains) longest = Math.max(longest, c.length);
    const plans: MmshLodPlan[] = [];
    for (let k = 0; k < longest; k++) plans.push({ draws: chains.map((c) => (k < c.length ? draw(c[k]!) : undefined)).filter((d): d is MmshDraw => !!d) });
    notes.push("LODs from the position in each group's connection chain (the LOD section does not read as levels): UNCERTAIN");
    return withUndrawn(mmsh, compact(plans), notes);
  }
  notes.push('no connection records: each data block is shown as its own LOD');
  return mmsh.info.lods.map((l) => ({ draws: [{ block: l.index, material: -1, group: -1, connection: -1 }] }));
}

function withUndrawn(mmsh: Mmsh, plans: MmshLodPlan[], notes: string[]): MmshLodPlan[] {
  const drawn = new Set(plans.flatMap((p) => p.draws.map((d) => d.block)));
  const undrawn = mmsh.info.lods.filter((l) => !drawn.has(l.index)).map((l) => l.index);
  if (undrawn.length) notes.push(`data block(s) ${undrawn.join(', ')} are drawn by no LOD level (not shown)`);
  return plans;
}

// ---- quaternions ---------------------------------------------------------------------------

const qConj = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
function qRotate(q: Quat, v: Vec3): Vec3 {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}
function qNormalize(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return n > 0 && Number.isFinite(n) ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [0, 0, 0, 1];
}

interface ModelSpaceBone {
  name: string;
  parent: number;
  translation: Vec3;
  rotation: Quat;
  scale: number;
}

/** Parent-relative bones from model-space ones (parents must precede children). */
function toParentRelative(bones: ModelSpaceBone[]): ModelBone[] {
  return bones.map((b) => {
    const rotation = qNormalize(b.rotation);
    if (b.parent < 0) return { name: b.name, parent: -1, translation: [...b.translation], rotation, scale: b.scale };
    const p = bones[b.parent]!;
    const inv = qConj(qNormalize(p.rotation));
    const d: Vec3 = [b.translation[0] - p.translation[0], b.translation[1] - p.translation[1], b.translation[2] - p.translation[2]];
    return { name: b.name, parent: b.parent, translation: qRotate(inv, d), rotation: qNormalize(qMul(inv, rotation)), scale: b.scale };
  });
}

/** An order of `parents` in which every parent precedes its children (depth-first, siblings by index). */
function parentsFirstOrder(parents: readonly number[], file: string): number[] {
  const n = parents.length;
  if (parents.every((p, i) => p < i)) return parents.map((_, i) => i);
  const children: number[][] = parents.map(() => []);
  const roots: number[] = [];
  parents.forEach((p, i) => (p >= 0 && p < n && p !== i ? children[p]!.push(i) : roots.push(i)));
  const order: number[] = [];
  const seen = new Uint8Array(n);
  const visit = (start: number): void => {
    const stack = [start];
    while (stack.length) {
      const b = stack.pop()!;
      if (seen[b]) continue;
      seen[b] = 1;
      order.push(b);
      for (let k = children[b]!.length - 1; k >= 0; k--) stack.push(children[b]![k]!);
    }
  };
  roots.forEach(visit);
  if (order.length < n) {
    throw new Arch06Error('INVALID', 'the bone parents form a cycle', {
      file,
      field: 'info.bones.parent',
      expected: 'a forest',
      actual: `${n - order.length} bones unreachable from a root`,
    });
  }
  return order;
}

interface SkeletonChoice {
  skeleton?: ModelSkeleton;
  /** Palette byte → index into skeleton.bones. */
  paletteToBone?: Int32Array;
  groupNames: Map<number, string>;
}

function chooseSkeleton(mmsh: Mmsh, skel: Skel | undefined, notes: string[], hasher: StringHasher): SkeletonChoice {
  const mb = mmsh.info.bones;
  const groupNames = new Map<number, string>();
  if (skel) {
    for (const p of skel.parts) {
      const h = hasher.tryHash(p.name);
      if (h.ok) groupNames.set(h.hash, p.name);
    }
    // Does this skeleton belong to the mesh? Bone i's name must hash to MMSH bone i's hash.
    let matches = 0;
    for (let i = 0; i < Math.min(mb.length, skel.bones.length); i++) {
      const h = hasher.tryHash(skel.bones[i]!.name);
      if (h.ok && h.hash === mb[i]!.nameHash) matches++;
    }
    const fits = mb.length === 0 ? skel.bones.length > 0 : matches === mb.length && skel.bones.length === mb.length;
    if (fits) {
      const bones = toParentRelative(skel.bones.map((b) => ({ name: b.name, parent: b.parent, translation: b.translation, rotation: b.rotation, scale: 1 })));
      const sockets: ModelSocket[] = skel.sockets.map((s) => ({ name: s.name, bone: s.bone, translation: [...s.translation], rotation: [...s.rotation] }));
      const paletteToBone = Int32Array.from(skel.nameTableOrder);
      notes.push(
        `skeleton from the .skel (${skel.bones.length} bones${mb.length ? `, names hash to all ${mb.length} MMSH bone hashes` : ''}); palettes resolved through its name-table order`,
      );
      if (sockets.length) notes.push('socket transforms are shown as stored (their frame is UNCERTAIN)');
      return { skeleton: { bones, sockets, from: 'skel' }, paletteToBone, groupNames };
    }
    notes.push(
      `the .skel does not match the mesh's bone list (${matches} of ${mb.length} bone hashes agree, ${skel.bones.length} vs ${mb.length} bones): using the mesh's own bone list`,
    );
  }
  if (!mb.length) return { groupNames };
  const order = parentsFirstOrder(
    mb.map((b) => b.parent),
    mmsh.file,
  );
  const modelIndex = new Int32Array(mb.length);
  order.forEach((b, i) => (modelIndex[b] = i));
  const bones = toParentRelative(
    order.map((b) => {
      const x = mb[b]!;
      return {
        name: formatHash(x.nameHash),
        parent: x.parent < 0 ? -1 : modelIndex[x.parent]!,
        translation: x.translation,
        rotation: x.rotation,
        scale: x.scale,
      };
    }),
  );
  const bfs = breadthFirstOrder(mb.map((b) => b.parent));
  const paletteToBone = Int32Array.from(bfs, (b) => modelIndex[b]!);
  notes.push(
    `skeleton from the mesh's bone list (${mb.length} bones, names as hashes); palettes resolved through its breadth-first order (the name-table order of the sample's .skel; UNCERTAIN without the .skel)`,
  );
  return { skeleton: { bones, sockets: [], from: 'mesh' }, paletteToBone, groupNames };
}

// ---- parts ---------------------------------------------------------------------------------

/** A part's vertex arrays: what depends on the mesh alone, not on the LOD or material that draws it. */
type PartArrays = Omit<ModelPart, 'name' | 'material' | 'materialIndex'>;

/**
 * The arrays of mesh `d` as parts carry them (tangents with w, the first uv channel, joints and
 * weights resolved through the palette). Built once per mesh and shared by every LOD that draws
 * it, so `counts` counts each mesh once.
 */
function partArrays(d: MmshMeshData, paletteToBone: Int32Array | undefined, counts: { badWeights: number; s16: boolean }): PartArrays | undefined {
  if (!d.positions) return undefined;
  const n = d.vertexCount;
  const part: PartArrays = { positions: d.positions, indices: d.indices };
  if (d.normals) part.normals = d.normals;
  if (d.tangents) {
    const t = new Float32Array(n * 4);
    for (let v = 0; v < n; v++) {
      const tx = d.tangents[3 * v]!,
        ty = d.tangents[3 * v + 1]!,
        tz = d.tangents[3 * v + 2]!;
      t[4 * v] = tx;
      t[4 * v + 1] = ty;
      t[4 * v + 2] = tz;
      let w = 1;
      if (d.normals && d.bitangents) {
        const nx = d.normals[3 * v]!,
          ny = d.normals[3 * v + 1]!,
          nz = d.normals[3 * v + 2]!;
        const cx = ny * tz - nz * ty,
          cy = nz * tx - nx * tz,
          cz = nx * ty - ny * tx;
        const dot = cx * d.bitangents[3 * v]! + cy * d.bitangents[3 * v + 1]! + cz * d.bitangents[3 * v + 2]!;
        w = dot < 0 ? -1 : 1;
      }
      t[4 * v + 3] = w;
    }
    part.tangents = t;
  }
  const channels = [...d.uvs.keys()].sort((a, b) => a - b);
  if (channels.length) {
    part.uvs = d.uvs.get(channels[0]!)!;
    if (d.uvRanges.has(channels[0]!)) counts.s16 = true;
  }
  if (d.colors) part.colors = d.colors;
  if (paletteToBone && d.blendIndices && d.weights && d.palette.length) {
    const joints = new Uint16Array(n * 4);
    const weights = new Float32Array(n * 4);
    for (let v = 0; v < n; v++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += d.weights[4 * v + k]!;
      if (sum !== 255) counts.badWeights++;
      for (let k = 0; k < 4; k++) {
        const slot = d.blendIndices[4 * v + k]!;
        const p = d.palette[slot]!;
        const bone = p < paletteToBone.length ? paletteToBone[p]! : 0;
        joints[4 * v + k] = bone;
        weights[4 * v + k] = sum > 0 ? d.weights[4 * v + k]! / sum : k === 0 ? 1 : 0;
      }
    }
    part.joints = joints;
    part.weights = weights;
  }
  return part;
}

/** One draw of a mesh: its label and material over the mesh's shared arrays. */
function partFrom(a: PartArrays, label: string, draw: MmshDraw): ModelPart {
  const part: ModelPart = {
    name: label,
    material: draw.material >= 0 ? `slot ${draw.material}` : undefined,
    materialIndex: draw.material,
    positions: a.positions,
    indices: a.indices,
  };
  if (a.normals) part.normals = a.normals;
  if (a.tangents) part.tangents = a.tangents;
  if (a.uvs) part.uvs = a.uvs;
  if (a.colors) part.colors = a.colors;
  if (a.joints) part.joints = a.joints;
  if (a.weights) part.weights = a.weights;
  return part;
}

/**
 * Convert a parsed MMSH (and its skeleton, when given) into a MeshModel. Throws `Arch06Error`
 * when a mesh's indices or palette are out of range (from `decodeMmshMesh`).
 */
export function meshModelFromMmsh(mmsh: Mmsh, skel: Skel | undefined, name: string, hasher: StringHasher = defaultHasher): MeshModel {
  const notes: string[] = [];
  const plans = planMmshLods(mmsh, notes);
  const sk = chooseSkeleton(mmsh, skel, notes, hasher);
  // Per mesh index: its arrays, or undefined when it has no decodable positions. LODs often draw
  // the same mesh (9 of 25 parts on the real head), so each is decoded and converted once.
  const arrays = new Map<number, PartArrays | undefined>();
  const counts = { badWeights: 0, s16: false };
  const attributeNotes = new Set<string>();
  const lods: ModelLod[] = plans.map((plan, li) => {
    const parts: ModelPart[] = [];
    for (const draw of plan.draws) {
      const block = mmsh.info.lods[draw.block]!;
      const groupName =
        draw.group >= 0 ? (sk.groupNames.get(mmsh.info.lodGroupIds[draw.group]!) ?? formatHash(mmsh.info.lodGroupIds[draw.group]!)) : `block ${draw.block}`;
      for (let k = 0; k < block.meshCount; k++) {
        const mi = block.firstMesh + k;
        if (!arrays.has(mi)) {
          const d = decodeMmshMesh(mmsh, mi);
          for (const n of d.notes) attributeNotes.add(`block ${draw.block} mesh ${k}: ${n}`);
          arrays.set(mi, partArrays(d, sk.paletteToBone, counts));
        }
        const a = arrays.get(mi);
        const label = `LOD${li} ${groupName}${block.meshCount > 1 ? ` mesh ${k}` : ''}`;
        if (a) parts.push(partFrom(a, label, draw));
        else notes.push(`${label}: no decodable positions, not shown`);
      }
    }
    const lod: ModelLod = {
      index: li,
      triangles: parts.reduce((s, p) => s + p.indices.length / 3, 0),
      vertices: parts.reduce((s, p) => s + p.positions.length / 3, 0),
      parts,
    };
    if (plan.distance !== undefined) lod.distance = plan.distance;
    return lod;
  });
  if (counts.badWeights) notes.push(`${counts.badWeights} vertices have weights not summing to 255 (normalised)`);
  if (counts.s16) notes.push('s16 texture coordinates divided by 32767 (SNORM16: a guess; on the real sample they range 62 .. 32767)');
  for (const n of attributeNotes) notes.push(n); // not push(...): a note per mesh, a count the file sets
  const model: MeshModel = {
    name,
    lods,
    bounds: boundsOf(lods[0]?.parts.map((p) => p.positions) ?? []),
    sphere: { center: [...mmsh.info.sphere.center], radius: mmsh.info.sphere.radius },
    notes,
  };
  if (sk.skeleton) model.skeleton = sk.skeleton;
  return model;
}

/**
 * A skeleton on its own (a `.skel` opened by itself): no LODs, the bones (parent-relative, names
 * from the file) and sockets; bounds are those of the bind-pose bone positions.
 */
export function meshModelFromSkel(skel: Skel, name: string): MeshModel {
  const bones = toParentRelative(skel.bones.map((b) => ({ name: b.name, parent: b.parent, translation: b.translation, rotation: b.rotation, scale: 1 })));
  const sockets: ModelSocket[] = skel.sockets.map((s) => ({ name: s.name, bone: s.bone, translation: [...s.translation], rotation: [...s.rotation] }));
  const positions = Float32Array.from(skel.bones.flatMap((b) => b.translation));
  const notes = [
    `${skel.bones.length} bones, ${skel.sockets.length} sockets, ${skel.parts.length} mesh parts (${skel.parts.map((p) => p.name).join(', ')})`,
    'bone transforms are stored in model space and shown parent-relative',
    ...skel.notes,
  ];
  return { name, lods: [], skeleton: { bones, sockets }, bounds: boundsOf([positions]), notes };
}
