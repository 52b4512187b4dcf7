/**
 * glTF 2.0 binary (.glb) export of a `MeshModel`: one LOD's parts as primitives, the skeleton
 * as a node hierarchy with a skin, one material per material name.
 *
 * Units and axes. The game works in centimetres with Y up; glTF works in metres with Y up
 * (right-handed, +Z forward). Axes are copied unchanged, no swap and no mirror. UNCERTAIN: whether
 * the game's model space is right- or left-handed is not established; if it is left-handed, an
 * export shows the model mirrored, and the fix is a Z negation here (the winding check below
 * follows the normals, so it stays right either way). The exporter converts **the data**, not
 * the scene graph: every position and every bone and socket
 * translation is multiplied by 0.01, and no node carries a unit-conversion scale. So accessor
 * min/max are metres, a skinned mesh needs no scaled parent (glTF ignores a skinned mesh node's
 * own transform), and the inverse bind matrices are computed from the already converted bind
 * pose, so they agree with the vertices. Rotations and bone scales are unit-free and copied.
 * `asset.extras.units` and the scene's `extras.units` say this in the file itself.
 *
 * Other conventions kept as they are: UVs are written as stored (v down: glTF's texture origin is
 * the top-left corner too); vertex colours (0..255) become COLOR_0 as normalised unsigned bytes —
 * glTF viewers multiply them into the base colour.
 *
 * Fixes made on the way out (each counted in `asset.extras.notes`): a part whose triangles turn
 * clockwise against its normals (Direct3D's front faces) has each triangle's order reversed, since
 * glTF's front faces are counter-clockwise; normals and tangent xyz are
 * renormalised (zero-length ones become +Y / +X), tangent w becomes ±1, weights are renormalised
 * to sum to 1, a joint repeated within one vertex has its weights merged, zero-weight slots point
 * at joint 0, and a vertex with no weight at all is bound fully to its first joint. Anything that
 * cannot be repaired (lengths that do not match, indices or joints out of range, NaN, a bone
 * whose parent comes after it) is an `Arch06Error` with code INVALID naming the part.
 *
 * Textures: a material gets a neutral base colour, and `GlbOptions.baseColorImage` embeds an
 * image per material name when the caller has one (PNG/JPEG bytes), as its baseColorTexture. The
 * mesh editor supplies the textures a modder assigned to slots by hand (core/model/materialTexture.ts):
 * the file does not say which texture fills a slot.
 */
import { Arch06Error } from '../errors';
import { fromTrs, invert, worldMatrices, type Mat4 } from './mat4';
import type { MeshModel, ModelBone, ModelLod, ModelPart } from './meshModel';
import { reverseTriangles, windingOf } from './winding';
import { invalid, validatePart, validateSkeleton } from './glbChecks';

/** Game units (centimetres) to glTF units (metres). */
const CENTIMETRES_TO_METRES = 0.01;

export interface GlbImage {
  mimeType: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
}

export interface GlbOptions {
  /** Which of the model's LODs to write (an index into `model.lods`; default 0). */
  lod?: number;
  /** A base-colour image for a material name, when the caller has one. */
  baseColorImage?: (material: string) => GlbImage | undefined;
}

// glTF constants.
const FLOAT = 5126;
const UNSIGNED_BYTE = 5121;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'

type Json = Record<string, unknown>;

interface Accessor {
  bufferView: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4';
  min?: number[];
  max?: number[];
}

/** Collects the JSON document and the binary chunk; every buffer view starts 4-byte aligned. */
class GltfBuilder {
  readonly bufferViews: Json[] = [];
  readonly accessors: Accessor[] = [];
  readonly images: Json[] = [];
  readonly textures: Json[] = [];
  readonly samplers: Json[] = [];
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  /** A tightly packed buffer view (no byteStride) over a copy of `data`'s bytes. */
  addView(data: ArrayBufferView, target?: number): number {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.length += pad;
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const view: Json = { buffer: 0, byteOffset: this.length, byteLength: bytes.length };
    if (target !== undefined) view.target = target;
    this.chunks.push(bytes.slice());
    this.length += bytes.length;
    this.bufferViews.push(view);
    return this.bufferViews.length - 1;
  }

  addAccessor(data: ArrayBufferView, a: Omit<Accessor, 'bufferView'>, target?: number): number {
    this.accessors.push({ bufferView: this.addView(data, target), ...a });
    return this.accessors.length - 1;
  }

  /** An embedded image and a texture that samples it (repeat wrapping); returns the texture index. */
  addImageTexture(image: GlbImage, name: string): number {
    if (this.samplers.length === 0) this.samplers.push({ wrapS: 10497, wrapT: 10497 });
    this.images.push({ name, mimeType: image.mimeType, bufferView: this.addView(image.bytes) });
    this.textures.push({ source: this.images.length - 1, sampler: 0 });
    return this.textures.length - 1;
  }

  /** The GLB file: header, JSON chunk (space padded), BIN chunk (zero padded) when there is data. */
  finish(json: Json): Uint8Array {
    if (this.length > 0) json.buffers = [{ byteLength: this.length }];
    for (const [key, list] of [
      ['bufferViews', this.bufferViews],
      ['accessors', this.accessors],
      ['samplers', this.samplers],
      ['images', this.images],
      ['textures', this.textures],
    ] as const) {
      if (list.length > 0) json[key] = list;
    }
    const text = new TextEncoder().encode(JSON.stringify(json));
    const jsonLength = align4(text.length);
    const binLength = align4(this.length);
    const total = 12 + 8 + jsonLength + (this.length > 0 ? 8 + binLength : 0);
    const out = new Uint8Array(total);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, GLB_MAGIC, true);
    dv.setUint32(4, 2, true);
    dv.setUint32(8, total, true);
    dv.setUint32(12, jsonLength, true);
    dv.setUint32(16, CHUNK_JSON, true);
    out.set(text, 20);
    out.fill(0x20, 20 + text.length, 20 + jsonLength);
    if (this.length > 0) {
      let at = 20 + jsonLength;
      dv.setUint32(at, binLength, true);
      dv.setUint32(at + 4, CHUNK_BIN, true);
      at += 8;
      for (const c of this.chunks) {
        out.set(c, at);
        at += c.length;
      }
    }
    return out;
  }
}

const align4 = (n: number): number => (n + 3) & ~3;

/** Where a part sits, for error messages: `part "LOD0 mesh 2" (LOD 0, part 2)`. */
function partLabel(lod: ModelLod, pi: number, part: ModelPart): string {
  return `part "${part.name}" (LOD ${lod.index}, part ${pi})`;
}

/** Writes `model` as a GLB. Throws `Arch06Error` (INVALID, or BAD_ARGUMENT for `options.lod`). */
export function writeGlb(model: MeshModel, options: GlbOptions = {}): Uint8Array {
  const lodIndex = options.lod ?? 0;
  const hasLods = model.lods.length > 0;
  if (!Number.isInteger(lodIndex) || lodIndex < 0 || (hasLods && lodIndex >= model.lods.length) || (!hasLods && lodIndex !== 0)) {
    throw new Arch06Error('BAD_ARGUMENT', 'no such LOD to export', {
      file: model.name,
      field: 'lod',
      expected: hasLods ? `0..${model.lods.length - 1}` : '0 (the model has no LODs)',
      actual: String(lodIndex),
    });
  }
  const lod = model.lods[lodIndex];
  const bones = model.skeleton?.bones ?? [];
  validateSkeleton(model);
  const notes: string[] = [];
  const b = new GltfBuilder();
  const nodes: Json[] = [];
  const sceneNodes: number[] = [];

  // Materials, one per distinct name, in order of first use.
  const materials: Json[] = [];
  const materialByName = new Map<string, number>();
  const materialOf = (part: ModelPart): number | undefined => {
    const name = part.material ?? (part.materialIndex !== undefined && part.materialIndex >= 0 ? `material ${part.materialIndex}` : undefined);
    if (name === undefined) return undefined;
    let index = materialByName.get(name);
    if (index === undefined) {
      const pbr: Json = { baseColorFactor: neutralColour(materials.length), metallicFactor: 0, roughnessFactor: 0.8 };
      const image = options.baseColorImage?.(name);
      if (image) pbr.baseColorTexture = { index: b.addImageTexture(image, name) };
      materials.push({ name, pbrMetallicRoughness: pbr });
      index = materials.length - 1;
      materialByName.set(name, index);
    }
    return index;
  };

  // Primitives, split into skinned and rigid: glTF requires JOINTS_0/WEIGHTS_0 on every primitive
  // of a skinned mesh, so a LOD that mixes both becomes two meshes.
  const skinned: Json[] = [];
  const rigid: Json[] = [];
  let triangles = 0;
  if (lod) {
    lod.parts.forEach((part, pi) => {
      const label = partLabel(lod, pi, part);
      const field = `lods[${lodIndex}].parts[${pi}]`;
      const count = validatePart(model, part, label, field, bones.length);
      if (part.indices.length === 0) {
        // glTF accessors cannot be empty, and a primitive without indices would draw its vertices.
        notes.push(`${label} has no triangles and was left out`);
        return;
      }
      const prim = writePrimitive(b, part, count, label, notes);
      const m = materialOf(part);
      if (m !== undefined) prim.material = m;
      prim.extras = { part: part.name, ...(part.material !== undefined ? { material: part.material } : {}) };
      triangles += part.indices.length / 3;
      if ((prim.attributes as Json).JOINTS_0 !== undefined) skinned.push(prim);
      else rigid.push(prim);
    });
  }

  const meshes: Json[] = [];
  const baseName = model.name.split(/[\\/]/).pop() || 'model';
  const meshNode = (primitives: Json[], suffix: string): number => {
    meshes.push({ name: `LOD ${lod?.index ?? lodIndex}${suffix}`, primitives });
    nodes.push({ name: baseName + suffix, mesh: meshes.length - 1 });
    sceneNodes.push(nodes.length - 1);
    return nodes.length - 1;
  };
  const both = skinned.length > 0 && rigid.length > 0;
  if (rigid.length > 0) meshNode(rigid, both ? ' (rigid)' : '');
  const skinnedNode = skinned.length > 0 ? meshNode(skinned, both ? ' (skinned)' : '') : undefined;

  // Skeleton: one node per bone (children listed on the parent), sockets as child nodes.
  const json = documentJson(model, notes, triangles);
  if (model.skeleton && bones.length > 0) {
    const first = nodes.length;
    const children: number[][] = bones.map(() => []);
    bones.forEach((bone, i) => {
      nodes.push({ name: bone.name, ...trsJson(bone.translation, bone.rotation, bone.scale) });
      if (bone.parent >= 0) children[bone.parent]!.push(first + i);
      else sceneNodes.push(first + i);
    });
    for (const socket of model.skeleton.sockets) {
      nodes.push({ name: socket.name, ...trsJson(socket.translation, socket.rotation, 1), extras: { socket: true } });
      children[socket.bone]!.push(nodes.length - 1);
    }
    children.forEach((c, i) => {
      if (c.length > 0) nodes[first + i]!.children = c;
    });
    // A skin only when a mesh uses it (a skeleton alone is exported as plain nodes).
    if (skinnedNode !== undefined) {
      const skin: Json = {
        name: `${baseName} skeleton`,
        joints: bones.map((_, i) => first + i),
        inverseBindMatrices: b.addAccessor(inverseBindMatrices(model, bones), { componentType: FLOAT, count: bones.length, type: 'MAT4' }),
      };
      const roots = bones.flatMap((bone, i) => (bone.parent < 0 ? [first + i] : []));
      if (roots.length === 1) skin.skeleton = roots[0];
      nodes[skinnedNode]!.skin = 0;
      json.skins = [skin];
    }
  }
  return assemble(b, json, nodes, sceneNodes, meshes, materials);
}

function assemble(b: GltfBuilder, json: Json, nodes: Json[], sceneNodes: number[], meshes: Json[], materials: Json[]): Uint8Array {
  const units = (json.asset as Json).extras as Json;
  json.scene = 0;
  json.scenes = [{ name: (units.source as string | undefined) ?? 'scene', nodes: sceneNodes, extras: { units: units.units } }];
  if (nodes.length > 0) json.nodes = nodes;
  if (meshes.length > 0) json.meshes = meshes;
  if (materials.length > 0) json.materials = materials;
  return b.finish(json);
}

function documentJson(model: MeshModel, notes: string[], triangles: number): Json {
  return {
    asset: {
      version: '2.0',
      generator: 'arch06',
      extras: {
        source: model.name,
        units: {
          source: 'centimetres, Y up (the game)',
          file: 'metres, Y up (glTF)',
          conversion:
            'positions, bone translations and socket translations multiplied by 0.01; no scale node; rotations and bone scales unchanged; inverse bind matrices computed from the converted bind pose',
          axes: "copied unchanged (no swap, no mirror); the handedness of the game's model space is not established",
        },
        triangles,
        notes: [...model.notes, ...notes],
      },
    },
  };
}

/** TRS node fields in metres, leaving out the defaults. */
function trsJson(t: [number, number, number], q: [number, number, number, number], s: number): Json {
  const out: Json = {};
  const tm = t.map((v) => v * CENTIMETRES_TO_METRES);
  if (tm.some((v) => v !== 0)) out.translation = tm;
  const len = Math.hypot(...q);
  const qn = q.map((v) => v / len);
  if (!(qn[0] === 0 && qn[1] === 0 && qn[2] === 0 && qn[3] === 1)) out.rotation = qn;
  if (s !== 1) out.scale = [s, s, s];
  return out;
}

/** A muted colour per material slot, so slots are told apart without textures. */
function neutralColour(i: number): number[] {
  const hue = (i * 0.618034) % 1;
  // HSL(hue, 15 %, 65 %) → linear RGB.
  const l = 0.65,
    s = 0.15;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => {
    const k = (n + hue * 12) % 12;
    const srgb = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round((srgb <= 0.04045 ? srgb / 12.92 : ((srgb + 0.055) / 1.055) ** 2.4) * 1000) / 1000;
  };
  return [f(0), f(8), f(4), 1];
}

/** One primitive's attributes and indices (validated input). */
function writePrimitive(b: GltfBuilder, part: ModelPart, n: number, label: string, notes: string[]): Json {
  const attributes: Json = {};
  // POSITION, metres, with the min/max glTF requires (taken from the float32 values written).
  const pos = new Float32Array(part.positions.length);
  for (let i = 0; i < pos.length; i++) pos[i] = part.positions[i]! * CENTIMETRES_TO_METRES;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pos.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = pos[i + k]!;
      if (v < min[k]!) min[k] = v;
      if (v > max[k]!) max[k] = v;
    }
  }
  attributes.POSITION = b.addAccessor(pos, { componentType: FLOAT, count: n, type: 'VEC3', min, max }, ARRAY_BUFFER);

  if (part.normals) {
    const out = new Float32Array(part.normals);
    let fixed = 0;
    for (let i = 0; i < out.length; i += 3) fixed += unit(out, i, 3, 1) ? 0 : 1;
    if (fixed) notes.push(`${label}: ${fixed} zero-length normals written as +Y`);
    attributes.NORMAL = b.addAccessor(out, { componentType: FLOAT, count: n, type: 'VEC3' }, ARRAY_BUFFER);
  }
  if (part.tangents) {
    const out = new Float32Array(part.tangents);
    let fixed = 0;
    for (let i = 0; i < out.length; i += 4) {
      fixed += unit(out, i, 3, 0) ? 0 : 1;
      out[i + 3] = out[i + 3]! < 0 ? -1 : 1;
    }
    if (fixed) notes.push(`${label}: ${fixed} zero-length tangents written as +X`);
    attributes.TANGENT = b.addAccessor(out, { componentType: FLOAT, count: n, type: 'VEC4' }, ARRAY_BUFFER);
  }
  if (part.uvs) attributes.TEXCOORD_0 = b.addAccessor(part.uvs, { componentType: FLOAT, count: n, type: 'VEC2' }, ARRAY_BUFFER);
  if (part.colors) attributes.COLOR_0 = b.addAccessor(part.colors, { componentType: UNSIGNED_BYTE, normalized: true, count: n, type: 'VEC4' }, ARRAY_BUFFER);
  if (part.joints && part.weights) {
    const joints = new Uint16Array(part.joints);
    const weights = new Float32Array(part.weights);
    let unweighted = 0;
    for (let v = 0; v < n; v++) {
      const o = v * 4;
      // Merge a joint repeated within the vertex; zero-weight slots point at joint 0.
      for (let s = 0; s < 4; s++) {
        if (!(weights[o + s]! > 0)) {
          weights[o + s] = 0;
          joints[o + s] = 0;
          continue;
        }
        for (let e = 0; e < s; e++) {
          if (weights[o + e]! > 0 && joints[o + e] === joints[o + s]) {
            weights[o + e]! += weights[o + s]!;
            weights[o + s] = 0;
            joints[o + s] = 0;
            break;
          }
        }
      }
      const sum = weights[o]! + weights[o + 1]! + weights[o + 2]! + weights[o + 3]!;
      if (sum > 0) {
        for (let s = 0; s < 4; s++) weights[o + s]! /= sum;
      } else {
        unweighted++;
        joints[o] = part.joints[o]!;
        weights[o] = 1;
      }
    }
    if (unweighted) notes.push(`${label}: ${unweighted} vertices without weights bound fully to their first joint`);
    attributes.JOINTS_0 = b.addAccessor(joints, { componentType: UNSIGNED_SHORT, count: n, type: 'VEC4' }, ARRAY_BUFFER);
    attributes.WEIGHTS_0 = b.addAccessor(weights, { componentType: FLOAT, count: n, type: 'VEC4' }, ARRAY_BUFFER);
  }
  // Indices: 16-bit while every index fits below 65535 (glTF forbids the restart value), else 32-bit.
  let maxIndex = 0;
  for (let i = 0; i < part.indices.length; i++) if (part.indices[i]! > maxIndex) maxIndex = part.indices[i]!;
  const indices = maxIndex < 65535 ? Uint16Array.from(part.indices) : Uint32Array.from(part.indices);
  if (windingOf(part) === 'cw') {
    reverseTriangles(indices);
    notes.push(`${label}: triangles turn clockwise against the normals; written counter-clockwise (glTF front faces)`);
  }
  const componentType = indices instanceof Uint16Array ? UNSIGNED_SHORT : UNSIGNED_INT;
  return { attributes, indices: b.addAccessor(indices, { componentType, count: indices.length, type: 'SCALAR' }, ELEMENT_ARRAY_BUFFER) };
}

/** Normalises `size` components at `a[o]`; a zero vector becomes the unit vector on `axis`. False when it was zero. */
function unit(a: Float32Array, o: number, size: number, axis: number): boolean {
  let len = 0;
  for (let k = 0; k < size; k++) len += a[o + k]! * a[o + k]!;
  len = Math.sqrt(len);
  if (len < 1e-12) {
    for (let k = 0; k < size; k++) a[o + k] = k === axis ? 1 : 0;
    return false;
  }
  for (let k = 0; k < size; k++) a[o + k]! /= len;
  return true;
}

/**
 * Inverse bind matrices: the inverse of each bone's model-space bind matrix, built from the same
 * metre-converted TRS the bone nodes carry, so mesh vertices (bind pose) stay where they are.
 */
function inverseBindMatrices(model: MeshModel, bones: ModelBone[]): Float32Array {
  const locals = bones.map((bone) =>
    fromTrs(
      [bone.translation[0] * CENTIMETRES_TO_METRES, bone.translation[1] * CENTIMETRES_TO_METRES, bone.translation[2] * CENTIMETRES_TO_METRES],
      bone.rotation,
      bone.scale,
    ),
  );
  const worlds = worldMatrices(
    locals,
    bones.map((bone) => bone.parent),
  );
  const out = new Float32Array(bones.length * 16);
  worlds.forEach((w: Mat4, i) => {
    const inv = invert(w);
    if (!inv)
      throw invalid(
        model,
        `bone ${i} "${bones[i]!.name}": its bind matrix cannot be inverted`,
        `skeleton.bones[${i}]`,
        'an invertible bind pose',
        'a singular matrix',
      );
    // The bottom row is exactly (0, 0, 0, 1) for an affine matrix; write it so.
    inv[3] = inv[7] = inv[11] = 0;
    inv[15] = 1;
    out.set(inv, i * 16);
  });
  return out;
}
