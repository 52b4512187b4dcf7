/**
 * Ready-made inputs for the synthetic PRFB / MESH writer (./writer.ts), for tests and fixtures:
 * a box, two vertex formats, a prefab of two LOD groups and a world mesh.
 */
import { VERTEX_TYPE, VERTEX_USAGE } from './tables/layout';
import type { PrfbWriteInput, WorldMeshWriteInput, WriteEntry } from './writeInput';

/** A box from (x0, y0, z0) to (x1, y1, z1): 24 vertices (4 per face) with normals and uvs, 12 triangles. */
export function box(
  min: [number, number, number],
  max: [number, number, number],
): { positions: number[]; normals: number[]; uvs: number[]; colors: number[]; indices: number[] } {
  const positions: number[] = [],
    normals: number[] = [],
    uvs: number[] = [],
    colors: number[] = [],
    indices: number[] = [];
  const faces: [number, number, number][] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
  ];
  faces.forEach((n, fi) => {
    const axis = n.findIndex((x) => x !== 0);
    const [a, b] = [0, 1, 2].filter((k) => k !== axis) as [number, number];
    for (const [s, t] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ] as const) {
      const p: [number, number, number] = [0, 0, 0];
      p[axis] = n[axis]! > 0 ? max[axis]! : min[axis]!;
      p[a] = s ? max[a]! : min[a]!;
      p[b] = t ? max[b]! : min[b]!;
      positions.push(...p);
      normals.push(...n);
      uvs.push(s, t);
      colors.push(40 * fi, 255 - 40 * fi, 128, 255);
    }
    const o = fi * 4;
    indices.push(o, o + 1, o + 2, o, o + 2, o + 3);
  });
  return { positions, normals, uvs, colors, indices };
}

/** Two vertex formats: float3 position + half4 normal + half2 uv in stream 0; half4 position in stream 0 + ubyte4 colour and half2 uv in stream 1. */
export const SAMPLE_FORMATS: WriteEntry[][] = [
  [
    { stream: 0, type: VERTEX_TYPE.FLOAT3, usage: VERTEX_USAGE.POSITION },
    { stream: 0, type: VERTEX_TYPE.HALF4, usage: VERTEX_USAGE.NORMAL },
    { stream: 0, type: VERTEX_TYPE.HALF2, usage: VERTEX_USAGE.UV },
  ],
  [
    { stream: 0, type: VERTEX_TYPE.HALF4, usage: VERTEX_USAGE.POSITION },
    { stream: 1, type: VERTEX_TYPE.UBYTE4, usage: VERTEX_USAGE.COLOUR },
    { stream: 1, type: VERTEX_TYPE.HALF2, usage: VERTEX_USAGE.UV },
  ],
];

/**
 * A keep-wall-like prefab: group 0xD238B9DD with three units (switch distances 32000, 15000,
 * 8000; coarse to fine, drawing 1, 1 and 2 draws), a lantern group 0x3249 with one unit, and a
 * draw in no unit (a shadow caster); two materials.
 */
export function samplePrefabInput(): PrfbWriteInput {
  const fine = box([-100, 0, -50], [100, 300, 50]);
  const mid = box([-100, 0, -50], [100, 290, 50]);
  const far = box([-100, 0, -50], [100, 280, 50]);
  const top = box([-20, 300, -20], [20, 340, 20]);
  const lantern = box([-5, 0, -5], [5, 20, 5]);
  const shadow = box([-100, 0, -50], [100, 300, 50]);
  return {
    hash: 0xcafef00d,
    groups: [
      {
        tag: 0xd238b9dd,
        cullDistance: 700000,
        units: [
          { nameHash: 0x1111, firstDraw: 0, drawCount: 1, switchDistance: 32000, f24: 1 },
          { nameHash: 0x2222, firstDraw: 1, drawCount: 1, switchDistance: 15000, f24: 1 },
          { nameHash: 0x3333, firstDraw: 2, drawCount: 2, switchDistance: 8000, f24: 1 },
        ],
      },
      { tag: 0x3249, cullDistance: 9000, units: [{ nameHash: 0x4444, firstDraw: 4, drawCount: 1, switchDistance: 0 }] },
    ],
    formats: SAMPLE_FORMATS,
    draws: [
      { ...far, format: 1, material: 0, f44: 1.5, f48: -2 },
      { ...mid, format: 1, material: 0 },
      { ...fine, format: 0, material: 0 },
      { ...top, format: 0, material: 1, padAfter: 4 },
      { ...lantern, format: 1, material: 1 },
      { ...shadow, format: 0, material: 0 },
    ],
    materials: ['art\\prefabs\\fort\\keepwall_a.mat', 'art\\prefabs\\fort\\keepwall_trim.mat'],
  };
}

/** A world mesh: a 200 m ground slab, a building and a 600 km sky dome card. */
export function sampleWorldMeshInput(): WorldMeshWriteInput {
  return {
    formats: SAMPLE_FORMATS,
    draws: [
      { ...box([-10000, -50, -10000], [10000, 0, 10000]), format: 0, material: 3 },
      { ...box([500, 0, 500], [900, 600, 900]), format: 1, material: 7 },
      { ...box([-30_000_000, 0, -30_000_000], [30_000_000, 10, 30_000_000]), format: 0, material: 0 },
    ],
  };
}
