/** The sample install's skinned sword: its geometry built in code, written as an MMSH mesh and a SKEL skeleton. */
import { writeMmsh } from '../formats/mesh/mmsh/writer';
import { writeSkel } from '../formats/mesh/skel/writer';

/** The sample skinned mesh and its skeleton (seed 004 "Shipped weapons": grip at the origin, blade along +Y). */
export const SAMPLE_MESH = 'characters\\sample\\sample_sword.mesh';
export const SAMPLE_SKELETON = 'characters\\sample\\sample_sword.skel';
/**
 * Bones, depth-first, model space, identity rotations: Root > Blade > Blade_Tip, Root > Grip. The
 * name-table (breadth-first) order is Root, Blade, Grip, Blade_Tip, so palettes exercise it.
 */
export const SAMPLE_SWORD_BONES: { name: string; parent: number; y: number }[] = [
  { name: 'Root', parent: -1, y: 0 },
  { name: 'Blade', parent: 0, y: 10 },
  { name: 'Blade_Tip', parent: 1, y: 70 },
  { name: 'Grip', parent: 0, y: -10 },
];
/** The LOD groups (SKEL mesh parts): material slot 0 for the blade, 1 for the grip and guard; LOD 1 from 500 cm, nothing from 3000 cm. */
export const SAMPLE_SWORD_GROUPS = ['Sword_Blade', 'Sword_Grip'];

interface SwordGeometry {
  positions: number[];
  normals: number[];
  tangents: number[];
  bitangents: number[];
  uvs: number[];
  indices: number[];
  joints: number[];
  weights: number[];
}

/** A closed prism through rings of (x, z) corners at heights y; one flat-shaded strip per side. */
function swordPrism(g: SwordGeometry, rings: { y: number; pts: [number, number][] }[], skin: (y: number) => [number[], number[]]): void {
  const k = rings[0]!.pts.length;
  const y0 = rings[0]!.y;
  const y1 = rings[rings.length - 1]!.y;
  for (let j = 0; j < k; j++) {
    const first = g.positions.length / 3;
    const a = rings[0]!.pts[j]!;
    const b = rings[0]!.pts[(j + 1) % k]!;
    const len = Math.hypot(b[1] - a[1], a[0] - b[0]) || 1;
    let n: [number, number] = [(b[1] - a[1]) / len, (a[0] - b[0]) / len];
    if (n[0] * (a[0] + b[0]) + n[1] * (a[1] + b[1]) < 0) n = [-n[0], -n[1]];
    for (const r of rings) {
      for (const c of [j, (j + 1) % k]) {
        const p = r.pts[c]!;
        g.positions.push(p[0], r.y, p[1]);
        g.normals.push(n[0], 0, n[1]);
        g.uvs.push((j + (c === j ? 0 : 1)) / k, 1 - (r.y - y0) / (y1 - y0));
        const [jo, we] = skin(r.y);
        g.joints.push(...jo);
        g.weights.push(...we);
      }
    }
    for (let i = 0; i + 1 < rings.length; i++) swordQuad(g, first + 2 * i, first + 2 * i + 1, first + 2 * i + 3, first + 2 * i + 2);
  }
}

/** A flat cap over one ring (fan), facing +Y (up) or -Y. */
function swordCap(g: SwordGeometry, y: number, pts: [number, number][], up: boolean, skin: (y: number) => [number[], number[]]): void {
  const first = g.positions.length / 3;
  for (const p of pts) {
    g.positions.push(p[0], y, p[1]);
    g.normals.push(0, up ? 1 : -1, 0);
    g.uvs.push(0.5 + p[0] / 20, 0.5 + p[1] / 20);
    const [jo, we] = skin(y);
    g.joints.push(...jo);
    g.weights.push(...we);
  }
  for (let i = 1; i + 1 < pts.length; i++) swordTri(g, first, first + i, first + i + 1);
}

function swordQuad(g: SwordGeometry, a: number, b: number, c: number, d: number): void {
  swordTri(g, a, b, c);
  swordTri(g, a, c, d);
}

/** One triangle, wound counter-clockwise around its vertices' normal; degenerate ones are skipped. */
function swordTri(g: SwordGeometry, a: number, b: number, c: number): void {
  const P = (i: number): number[] => g.positions.slice(3 * i, 3 * i + 3);
  const [pa, pb, pc] = [P(a), P(b), P(c)];
  const e1 = [pb[0]! - pa[0]!, pb[1]! - pa[1]!, pb[2]! - pa[2]!];
  const e2 = [pc[0]! - pa[0]!, pc[1]! - pa[1]!, pc[2]! - pa[2]!];
  const cr = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
  if (Math.hypot(cr[0]!, cr[1]!, cr[2]!) < 1e-6) return;
  const n = g.normals.slice(3 * a, 3 * a + 3);
  if (cr[0]! * n[0]! + cr[1]! * n[1]! + cr[2]! * n[2]! < 0) g.indices.push(a, c, b);
  else g.indices.push(a, b, c);
}

/** Tangents along +dP/du and bitangents along +dP/dv (seed 004), accumulated per vertex and orthogonalised. */
function swordTangents(g: SwordGeometry): void {
  const n = g.positions.length / 3;
  const t = new Float64Array(3 * n);
  const b = new Float64Array(3 * n);
  for (let i = 0; i < g.indices.length; i += 3) {
    const [i0, i1, i2] = [g.indices[i]!, g.indices[i + 1]!, g.indices[i + 2]!];
    const p = (v: number, k: number): number => g.positions[3 * v + k]!;
    const uv = (v: number, k: number): number => g.uvs[2 * v + k]!;
    const du1 = uv(i1, 0) - uv(i0, 0),
      dv1 = uv(i1, 1) - uv(i0, 1),
      du2 = uv(i2, 0) - uv(i0, 0),
      dv2 = uv(i2, 1) - uv(i0, 1);
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-12) continue;
    for (let k = 0; k < 3; k++) {
      const e1 = p(i1, k) - p(i0, k),
        e2 = p(i2, k) - p(i0, k);
      const tk = (e1 * dv2 - e2 * dv1) / det;
      const bk = (e2 * du1 - e1 * du2) / det;
      for (const v of [i0, i1, i2]) {
        t[3 * v + k] += tk;
        b[3 * v + k] += bk;
      }
    }
  }
  for (let v = 0; v < n; v++) {
    const nn = [g.normals[3 * v]!, g.normals[3 * v + 1]!, g.normals[3 * v + 2]!];
    for (const [src, out] of [
      [t, g.tangents],
      [b, g.bitangents],
    ] as const) {
      const x = [src[3 * v]!, src[3 * v + 1]!, src[3 * v + 2]!];
      const d = x[0]! * nn[0]! + x[1]! * nn[1]! + x[2]! * nn[2]!;
      const o = [x[0]! - d * nn[0]!, x[1]! - d * nn[1]!, x[2]! - d * nn[2]!];
      const len = Math.hypot(o[0]!, o[1]!, o[2]!);
      if (len > 1e-9) out.push(o[0]! / len, o[1]! / len, o[2]! / len);
      else out.push(...(src === t ? [1, 0, 0] : [0, 1, 0]));
    }
  }
}

/** The blade (a diamond section tapering to the tip at 102 cm) and the grip with its guard, at two levels of detail. */
function swordGeometry(detail: 0 | 1): { blade: SwordGeometry; grip: SwordGeometry } {
  const empty = (): SwordGeometry => ({ positions: [], normals: [], tangents: [], bitangents: [], uvs: [], indices: [], joints: [], weights: [] });
  const blade = empty();
  const grip = empty();
  // Blade: Blade below 40 cm, blending to Blade_Tip by 80 cm.
  const bladeSkin = (y: number): [number[], number[]] => {
    const f = Math.min(1, Math.max(0, (y - 40) / 40));
    return [
      [1, 2, 0, 0],
      [1 - f, f, 0, 0],
    ];
  };
  const segments = detail === 0 ? 15 : 7;
  const rings: { y: number; pts: [number, number][] }[] = [];
  for (let i = 0; i <= segments; i++) {
    const y = 2 + (90 * i) / segments;
    const w = 3.5 * (1 - (0.3 * (y - 2)) / 90);
    const t = 0.8 * (1 - (0.4 * (y - 2)) / 90);
    rings.push({
      y,
      pts: [
        [0, w],
        [t, 0],
        [0, -w],
        [-t, 0],
      ],
    });
  }
  rings.push({
    y: 102,
    pts: [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ],
  });
  swordPrism(blade, rings, bladeSkin);
  // Grip: an 8- (or 4-) sided handle from -20 to 0 on Grip and Root, a pommel cap, a guard box on Root.
  const gripSkin = (y: number): [number[], number[]] => {
    const f = Math.min(1, Math.max(0, -y / 20));
    return [
      [3, 0, 0, 0],
      [f, 1 - f, 0, 0],
    ];
  };
  const sides = detail === 0 ? 8 : 4;
  const circle = (r: number): [number, number][] =>
    Array.from({ length: sides }, (_, i) => [r * Math.cos((2 * Math.PI * i) / sides), r * Math.sin((2 * Math.PI * i) / sides)] as [number, number]);
  const gripRings = (detail === 0 ? [-20, -15, -10, -5, 0] : [-20, -10, 0]).map((y) => ({ y, pts: circle(1.5) }));
  swordPrism(grip, gripRings, gripSkin);
  swordCap(grip, -20, circle(1.5), false, gripSkin);
  const guard: [number, number][] = [
    [1.5, 8],
    [-1.5, 8],
    [-1.5, -8],
    [1.5, -8],
  ];
  const rootSkin = (): [number[], number[]] => [
    [0, 0, 0, 0],
    [1, 0, 0, 0],
  ];
  swordPrism(
    grip,
    [
      { y: 0, pts: guard },
      { y: 2, pts: guard },
    ],
    rootSkin,
  );
  swordCap(grip, 0, guard, false, rootSkin);
  swordCap(grip, 2, guard, true, rootSkin);
  swordTangents(blade);
  swordTangents(grip);
  return { blade, grip };
}

/** The sample .mesh: blocks 0/1 = blade/grip at LOD 0, blocks 2/3 at LOD 1 (about half the triangles). */
export function sampleSwordMesh(): Uint8Array {
  const lod0 = swordGeometry(0);
  const lod1 = swordGeometry(1);
  return writeMmsh({
    blocks: [lod0.blade, lod0.grip, lod1.blade, lod1.grip].map((g) => ({ parts: [g] })),
    bones: SAMPLE_SWORD_BONES.map((b) => ({ name: b.name, parent: b.parent, translation: [0, b.y, 0], rotation: [0, 0, 0, 1] })),
    groups: [
      {
        name: SAMPLE_SWORD_GROUPS[0],
        chain: [
          { block: 0, material: 0, distance: 0 },
          { block: 2, material: 0, distance: 500 },
          { block: -1, material: 0, distance: 3000 },
        ],
      },
      {
        name: SAMPLE_SWORD_GROUPS[1],
        chain: [
          { block: 1, material: 1, distance: 0 },
          { block: 3, material: 1, distance: 500 },
          { block: -1, material: 0, distance: 3000 },
        ],
      },
    ],
    cullDistance: 140,
  });
}

/** The sample .skel: the bones above and the two mesh parts whose names hash to the mesh's LOD group ids. */
export function sampleSwordSkeleton(): Uint8Array {
  return writeSkel({
    bones: SAMPLE_SWORD_BONES.map((b) => ({ name: b.name, parent: b.parent, translation: [0, b.y, 0], rotation: [0, 0, 0, 1] })),
    parts: [
      {
        name: SAMPLE_SWORD_GROUPS[0]!,
        lods: [
          { distance: 0, material: 0 },
          { distance: 500, material: 0 },
          { distance: 3000, material: 0 },
        ],
      },
      {
        name: SAMPLE_SWORD_GROUPS[1]!,
        lods: [
          { distance: 0, material: 1 },
          { distance: 500, material: 1 },
          { distance: 3000, material: 0 },
        ],
      },
    ],
    anix: ['characters\\sample\\sample_sword.anix'],
    masks: [{ name: 'Twitch' }],
    sockets: [{ bone: 2, name: 'Socket_Tip', rotation: [0, 0, 0, 1], translation: [0, 102, 0] }],
    distance0x44: 140,
    bounds: { min: [-8, -20, -8], max: [8, 102, 8] },
  });
}
