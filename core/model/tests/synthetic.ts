// Synthetic MeshModels for the exporter and wire tests: built by hand, no file format involved.
import { boundsOf, type MeshModel, type ModelLod, type ModelPart } from '../meshModel';

function lod(index: number, parts: ModelPart[]): ModelLod {
  return {
    index,
    parts,
    triangles: parts.reduce((n, p) => n + p.indices.length / 3, 0),
    vertices: parts.reduce((n, p) => n + p.positions.length / 3, 0),
  };
}

/**
 * A 40 cm cube standing on the origin (x, z in -20..20, y in 0..40), LOD 0 in two parts (the
 * four sides with material "side", top and bottom with material "cap"), with normals, tangents,
 * uvs and colours; LOD 1 is one part of 8 shared corners with positions only.
 */
export function cubeModel(): MeshModel {
  const faces: { n: [number, number, number]; u: [number, number, number]; v: [number, number, number] }[] = [
    { n: [1, 0, 0], u: [0, 0, -1], v: [0, 1, 0] },
    { n: [-1, 0, 0], u: [0, 0, 1], v: [0, 1, 0] },
    { n: [0, 0, 1], u: [1, 0, 0], v: [0, 1, 0] },
    { n: [0, 0, -1], u: [-1, 0, 0], v: [0, 1, 0] },
    { n: [0, 1, 0], u: [1, 0, 0], v: [0, 0, -1] },
    { n: [0, -1, 0], u: [1, 0, 0], v: [0, 0, 1] },
  ];
  const part = (name: string, material: string, materialIndex: number, which: typeof faces): ModelPart => {
    const positions: number[] = [],
      normals: number[] = [],
      tangents: number[] = [],
      uvs: number[] = [],
      colors: number[] = [],
      indices: number[] = [];
    which.forEach((f, fi) => {
      const base = fi * 4;
      for (const [a, c] of [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ] as const) {
        for (let k = 0; k < 3; k++) positions.push((f.n[k]! + a * f.u[k]! + c * f.v[k]!) * 20 + (k === 1 ? 20 : 0));
        normals.push(...f.n);
        tangents.push(...f.u, 1);
        uvs.push((a + 1) / 2, (1 - c) / 2);
        colors.push(255, fi * 40, 128, 255);
      }
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    });
    return {
      name,
      material,
      materialIndex,
      positions: new Float32Array(positions),
      normals: new Float32Array(normals),
      tangents: new Float32Array(tangents),
      uvs: new Float32Array(uvs),
      colors: new Uint8Array(colors),
      indices: new Uint16Array(indices),
    };
  };
  const sides = part('LOD0 sides', 'side', 0, faces.slice(0, 4));
  const caps = part('LOD0 caps', 'cap', 1, faces.slice(4));
  const corners: number[] = [];
  for (let i = 0; i < 8; i++) corners.push(i & 1 ? 20 : -20, i & 2 ? 40 : 0, i & 4 ? 20 : -20);
  // prettier-ignore
  const cornerIndices = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5];
  const low: ModelPart = { name: 'LOD1 mesh 0', material: 'side', positions: new Float32Array(corners), indices: new Uint32Array(cornerIndices) };
  const lods = [lod(0, [sides, caps]), lod(1, [low])];
  return { name: 'synthetic/cube.mmsh', lods, bounds: boundsOf(lods[0]!.parts.map((p) => p.positions)), notes: ['synthetic cube'] };
}

const deg = Math.PI / 180;
/** A unit quaternion (x, y, z, w) for `angle` radians about a unit `axis`. */
function axisAngle(axis: [number, number, number], angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/**
 * A strip 10 cm wide and 100 cm tall (5 rows of 2 vertices), skinned to two bones: "root" (at
 * x = 5, turned 90° about Y, scale 1.25) and its child "tip" (50 cm up it, turned 30° about Z).
 * The bottom half follows root, the top half tip, the middle row half and half. A socket sits on
 * tip. The vertices are in the bind pose, in model space.
 */
export function skinnedStripModel(): MeshModel {
  const positions: number[] = [],
    normals: number[] = [],
    joints: number[] = [],
    weights: number[] = [],
    indices: number[] = [];
  for (let row = 0; row < 5; row++) {
    for (const x of [-5, 5]) {
      positions.push(x, row * 25, 0);
      normals.push(0, 0, 1);
      const [j, w] =
        row < 2
          ? [
              [0, 0, 0, 0],
              [1, 0, 0, 0],
            ]
          : row === 2
            ? [
                [0, 1, 0, 0],
                [0.5, 0.5, 0, 0],
              ]
            : [
                [1, 0, 0, 0],
                [1, 0, 0, 0],
              ];
      joints.push(...j);
      weights.push(...w);
    }
    if (row > 0) {
      const a = (row - 1) * 2;
      indices.push(a, a + 1, a + 3, a, a + 3, a + 2);
    }
  }
  const strip: ModelPart = {
    name: 'LOD0 mesh 0',
    material: 'skin',
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    indices: new Uint16Array(indices),
    joints: new Uint16Array(joints),
    weights: new Float32Array(weights),
  };
  const lods = [lod(0, [strip])];
  return {
    name: 'synthetic/strip.mmsh',
    lods,
    skeleton: {
      bones: [
        { name: 'root', parent: -1, translation: [5, 0, 0], rotation: axisAngle([0, 1, 0], 90 * deg), scale: 1.25 },
        { name: 'tip', parent: 0, translation: [0, 50, 0], rotation: axisAngle([0, 0, 1], 30 * deg), scale: 1 },
      ],
      sockets: [{ name: 'hand', bone: 1, translation: [0, 10, 0], rotation: [0, 0, 0, 1] }],
    },
    bounds: boundsOf([strip.positions]),
    sphere: { center: [0, 50, 0], radius: 51 },
    notes: [],
  };
}
