/**
 * What the glTF export checks before it writes anything (core/model/glb.ts): the skeleton's bones
 * come parents first with finite transforms, and each part's arrays agree with each other and
 * with the skeleton. Anything that cannot be repaired on the way out is an `Arch06Error` with
 * code INVALID naming the part and the field.
 */
import { Arch06Error } from '../errors';
import type { MeshModel, ModelBone, ModelPart } from './meshModel';

export function invalid(model: MeshModel, what: string, field: string, expected: string, actual: string): Arch06Error {
  return new Arch06Error('INVALID', what, { file: model.name, field, expected, actual });
}

export function validateSkeleton(model: MeshModel): void {
  const sk = model.skeleton;
  if (!sk) return;
  const n = sk.bones.length;
  sk.bones.forEach((bone: ModelBone, i) => {
    const label = `bone ${i} "${bone.name}"`;
    const field = `skeleton.bones[${i}]`;
    if (!Number.isInteger(bone.parent) || bone.parent < -1 || bone.parent >= i) {
      throw invalid(model, `${label}: its parent must come before it`, `${field}.parent`, `-1 or 0..${i - 1}`, String(bone.parent));
    }
    if (bone.translation.length !== 3 || !bone.translation.every(Number.isFinite))
      throw invalid(model, `${label}: bad translation`, `${field}.translation`, '3 finite numbers', String(bone.translation));
    if (bone.rotation.length !== 4 || !bone.rotation.every(Number.isFinite) || Math.hypot(...bone.rotation) < 1e-6) {
      throw invalid(model, `${label}: bad rotation`, `${field}.rotation`, 'a unit quaternion (x, y, z, w)', String(bone.rotation));
    }
    if (!Number.isFinite(bone.scale) || Math.abs(bone.scale) < 1e-9)
      throw invalid(model, `${label}: bad scale`, `${field}.scale`, 'a finite non-zero number', String(bone.scale));
  });
  sk.sockets.forEach((s, i) => {
    const field = `skeleton.sockets[${i}]`;
    if (!Number.isInteger(s.bone) || s.bone < 0 || s.bone >= n)
      throw invalid(model, `socket ${i} "${s.name}": bone out of range`, `${field}.bone`, `0..${n - 1}`, String(s.bone));
    if (s.translation.length !== 3 || !s.translation.every(Number.isFinite))
      throw invalid(model, `socket ${i} "${s.name}": bad translation`, `${field}.translation`, '3 finite numbers', String(s.translation));
    if (s.rotation.length !== 4 || !s.rotation.every(Number.isFinite) || Math.hypot(...s.rotation) < 1e-6) {
      throw invalid(model, `socket ${i} "${s.name}": bad rotation`, `${field}.rotation`, 'a unit quaternion (x, y, z, w)', String(s.rotation));
    }
  });
}

/** Checks one part's arrays against each other; returns its vertex count. */
export function validatePart(model: MeshModel, part: ModelPart, label: string, field: string, boneCount: number): number {
  const p = part.positions;
  if (p.length % 3 !== 0)
    throw invalid(
      model,
      `${label}: positions length is not a multiple of 3`,
      `${field}.positions`,
      'xyz per vertex (length a multiple of 3)',
      String(p.length),
    );
  const n = p.length / 3;
  const per = (name: 'normals' | 'tangents' | 'uvs' | 'colors' | 'joints' | 'weights', k: number, desc: string): void => {
    const a = part[name];
    if (a !== undefined && a.length !== n * k)
      throw invalid(model, `${label}: ${name} do not match the ${n} positions`, `${field}.${name}`, `${n * k} (${desc} per vertex)`, String(a.length));
  };
  per('normals', 3, 'xyz');
  per('tangents', 4, 'xyzw');
  per('uvs', 2, 'uv');
  per('colors', 4, 'rgba');
  per('joints', 4, 'four joints');
  per('weights', 4, 'four weights');
  for (const name of ['positions', 'normals', 'tangents', 'uvs', 'weights'] as const) {
    const a = part[name];
    if (!a) continue;
    for (let i = 0; i < a.length; i++) {
      if (!Number.isFinite(a[i]!))
        throw invalid(model, `${label}: ${name} hold a value that is not a finite number`, `${field}.${name}[${i}]`, 'a finite number', String(a[i]));
    }
  }
  if ((part.joints === undefined) !== (part.weights === undefined)) {
    throw invalid(
      model,
      `${label}: joints and weights come together`,
      `${field}.${part.joints ? 'weights' : 'joints'}`,
      'both joints and weights, or neither',
      part.joints ? 'joints only' : 'weights only',
    );
  }
  if (part.joints) {
    if (boneCount === 0) throw invalid(model, `${label}: skinned, but the model has no skeleton`, `${field}.joints`, 'a skeleton with bones', 'no skeleton');
    const j = part.joints;
    for (let i = 0; i < j.length; i++) {
      if (j[i]! >= boneCount)
        throw invalid(model, `${label}: joint index out of range`, `${field}.joints[${i}]`, `< ${boneCount} (the bone count)`, String(j[i]));
    }
    const w = part.weights!;
    for (let i = 0; i < w.length; i++) {
      if (w[i]! < -1e-6 || w[i]! > 1 + 1e-3) throw invalid(model, `${label}: weight outside 0..1`, `${field}.weights[${i}]`, '0..1', String(w[i]));
    }
  }
  const idx = part.indices;
  if (idx.length % 3 !== 0)
    throw invalid(model, `${label}: index count is not a multiple of 3`, `${field}.indices`, 'a triangle list (length a multiple of 3)', String(idx.length));
  for (let i = 0; i < idx.length; i++) {
    if (idx[i]! >= n) throw invalid(model, `${label}: index out of range`, `${field}.indices[${i}]`, `< ${n} (the vertex count)`, String(idx[i]));
  }
  return n;
}
