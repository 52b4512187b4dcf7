/**
 * Triangle winding: which way a part's triangles turn against its stored normals, and reversing
 * them. Used by the glTF writer (core/model/glb.ts: glTF front faces are counter-clockwise) and by
 * the 3D viewer (media/mesh/: three.js's are too), which must not import a writer to get them.
 */
import type { ModelPart } from './meshModel';

/**
 * Which way a part's triangles turn relative to its vertex normals: 'ccw' when
 * (b − a) × (c − a) mostly points along the normals (the front faces of glTF, OpenGL and three.js),
 * 'cw' when mostly against them (Direct3D's default front faces), undefined when the part has no
 * normals or no triangles to tell by. Area-weighted vote over all triangles.
 */
export function windingOf(part: ModelPart): 'ccw' | 'cw' | undefined {
  const p = part.positions,
    n = part.normals,
    idx = part.indices;
  if (!n || n.length !== p.length || idx.length < 3) return undefined;
  let vote = 0,
    total = 0;
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = idx[t]! * 3,
      b = idx[t + 1]! * 3,
      c = idx[t + 2]! * 3;
    if (c + 2 >= p.length || a + 2 >= p.length || b + 2 >= p.length) continue;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    const cx = uy * vz - uz * vy,
      cy = uz * vx - ux * vz,
      cz = ux * vy - uy * vx;
    const nx = n[a]! + n[b]! + n[c]!,
      ny = n[a + 1]! + n[b + 1]! + n[c + 1]!,
      nz = n[a + 2]! + n[b + 2]! + n[c + 2]!;
    const d = cx * nx + cy * ny + cz * nz;
    vote += d;
    total += Math.abs(d);
  }
  if (total === 0 || Math.abs(vote) < total * 1e-3) return undefined;
  return vote > 0 ? 'ccw' : 'cw';
}

/** Reverses each triangle's turn in place (a, b, c → a, c, b). */
export function reverseTriangles(indices: Uint16Array | Uint32Array): void {
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const b = indices[t + 1]!;
    indices[t + 1] = indices[t + 2]!;
    indices[t + 2] = b;
  }
}
