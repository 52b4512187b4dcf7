import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { formatHash, stringHash } from '../../hash/stringHash';
import { parseMmsh } from '../../formats/mesh/mmsh/reader';
import { parseSkel } from '../../formats/mesh/skel/reader';
import { writeMmsh } from '../../formats/mesh/mmsh/writer';
import { meshModelFromMmsh, meshModelFromSkel } from '../fromMmsh';
import { MeshModel, ModelBone } from '../meshModel';
import { SAMPLE_SWORD_BONES, sampleSwordMesh, sampleSwordSkeleton } from '../../sample/sampleGame';
import { sharedPath } from '../../../test/support/shared';
import { rawMmshFacts, rawTrianglesAt } from '../../../test/support/rawMmsh';

const MESH = sharedPath('samples/real/player_eltariel_head.mesh');
const SKEL = sharedPath('samples/real/player_eltariel_head.skel');

type V3 = [number, number, number];
type Q = [number, number, number, number];
const qmul = (a: Q, b: Q): Q => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const rotate = (q: Q, v: V3): V3 => {
  const r = qmul(qmul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
};
/** Model-space transforms recomposed from parent-relative bones. */
function world(bones: ModelBone[]): { t: V3; q: Q }[] {
  const out: { t: V3; q: Q }[] = [];
  for (const b of bones) {
    if (b.parent < 0) out.push({ t: b.translation, q: b.rotation });
    else {
      const p = out[b.parent]!;
      const r = rotate(p.q, b.translation);
      out.push({ t: [p.t[0] + r[0], p.t[1] + r[1], p.t[2] + r[2]], q: qmul(p.q, b.rotation) });
    }
  }
  return out;
}

function checkModel(model: MeshModel): void {
  for (const lod of model.lods) {
    assert.equal(
      lod.triangles,
      lod.parts.reduce((s, p) => s + p.indices.length / 3, 0),
    );
    for (const p of lod.parts) {
      const n = p.positions.length / 3;
      for (const i of p.indices) assert.ok(i < n);
      if (p.weights) {
        for (let v = 0; v < n; v++) {
          const sum: number = p.weights[4 * v]! + p.weights[4 * v + 1]! + p.weights[4 * v + 2]! + p.weights[4 * v + 3]!;
          if (Math.abs(sum - 1) > 1e-5) assert.fail(`${p.name} vertex ${v}: weights sum to ${sum}`);
        }
        for (const j of p.joints!) assert.ok(j < model.skeleton!.bones.length);
      }
      if (p.tangents) for (let v = 0; v < n; v++) assert.ok(Math.abs(p.tangents[4 * v + 3]!) === 1);
    }
  }
  model.skeleton?.bones.forEach((b, i) => assert.ok(b.parent < i, `bone ${i} parent ${b.parent}`));
}

/** Names of the bones a part's vertices are weighted to. */
function weightedBones(model: MeshModel, lod: number, part: number): Set<string> {
  const p = model.lods[lod]!.parts[part]!;
  const names = new Set<string>();
  for (let i = 0; i < p.joints!.length; i++) if (p.weights![i]! > 0) names.add(model.skeleton!.bones[p.joints![i]!]!.name);
  return names;
}

test('fromMmsh: the real head with its skeleton: LODs from the LOD section, parts, skeleton, skinning', { skip: MESH.skip || SKEL.skip }, () => {
  const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
  const s = parseSkel(fs.readFileSync(SKEL.path), SKEL.path);
  const model = meshModelFromMmsh(m, s, 'player_eltariel_head.mesh');
  checkModel(model);
  // LOD levels of the sample, from its LOD section and tables read from the bytes (test/support/rawMmsh.ts):
  // blocks drawn from 0, 500, 1500, 2500 cm; 1 cm repeats 0 cm and 4500 cm draws nothing.
  const raw = rawMmshFacts(fs.readFileSync(MESH.path));
  const levels = [...raw.meshLevels]
    .sort((a, b) => a.distance - b.distance)
    .map((l) => ({
      distance: l.distance,
      blocks: l.connections
        .map((c) => raw.connections[c]!.lod)
        .filter((b) => b >= 0)
        .sort((a, b) => a - b),
    }));
  const distinct = levels.filter((l, i) => l.blocks.length > 0 && (i === 0 || l.blocks.join() !== levels[i - 1]!.blocks.join()));
  assert.deepEqual(
    distinct.map((l) => l.distance),
    [0, 500, 1500, 2500],
  );
  assert.deepEqual(
    model.lods.map((l) => l.distance),
    distinct.map((l) => l.distance),
  );
  model.lods.forEach((l, i) => {
    assert.equal(
      l.triangles,
      distinct[i]!.blocks.reduce((s, b) => s + raw.triangles[b]!, 0),
    );
    assert.equal(
      l.parts.length,
      distinct[i]!.blocks.reduce((s, b) => s + raw.meshes[b]!, 0),
    );
  });
  assert.equal(model.lods[0]!.triangles, rawTrianglesAt(raw, 0)); // 24,980
  // The material of every part equals the SKEL part entry active at that distance (an independent file).
  for (const l of model.lods) {
    for (const p of l.parts) {
      const part = s.parts.find((x) => p.name.split(' ')[1] === x.name)!;
      const active = part.entries.filter((e) => e.distance <= l.distance!).pop()!;
      assert.equal(p.materialIndex, active.material, `${p.name}`);
    }
  }
  // Skeleton: the SKEL's names; recomposed, the parent-relative bones give back the stored model-space pose.
  const bones = model.skeleton!.bones;
  assert.equal(bones.length, 142);
  assert.deepEqual(
    bones.map((b) => b.name),
    s.bones.map((b) => b.name),
  );
  world(bones).forEach((w, i) => {
    const t = s.bones[i]!.translation;
    const q = s.bones[i]!.rotation;
    assert.ok(Math.hypot(w.t[0] - t[0], w.t[1] - t[1], w.t[2] - t[2]) < 1e-3, `${bones[i]!.name} translation`);
    const dot = Math.abs(w.q[0] * q[0] + w.q[1] * q[1] + w.q[2] * q[2] + w.q[3] * q[3]);
    assert.ok(dot > 1 - 1e-4, `${bones[i]!.name} rotation`);
  });
  // The eyes are weighted to the eye bones (palette through the name table).
  assert.match(model.lods[0]!.parts[0]!.name, /Eltariel_Eyes/);
  assert.deepEqual([...weightedBones(model, 0, 0)].sort(), ['L_Eye', 'R_Eye']);
  // Every drawn LOD 0 position lies inside the declared sphere (seed 004: +0x30) and the SKEL bounds.
  const { center: c, radius: r } = model.sphere!;
  const { min, max } = s.header.bounds;
  let farthest = 0;
  for (const p of model.lods[0]!.parts) {
    for (let i = 0; i < p.positions.length; i += 3) {
      farthest = Math.max(farthest, Math.hypot(p.positions[i]! - c[0], p.positions[i + 1]! - c[1], p.positions[i + 2]! - c[2]));
      for (let k = 0; k < 3; k++) assert.ok(p.positions[i + k]! >= min[k]! && p.positions[i + k]! <= max[k]!);
    }
  }
  assert.ok(farthest <= r * (1 + 1e-5) && farthest > r * 0.99, `farthest ${farthest}, radius ${r}`);
  assert.ok(model.bounds.min[1] > 50 && model.bounds.max[1] < 90, JSON.stringify(model.bounds));
  console.log(
    `head model: LODs ${model.lods.map((l) => `${l.distance} cm ${l.vertices} v / ${l.triangles} t`).join(', ')}; bounds ${JSON.stringify(model.bounds)}`,
  );
});

test('fromMmsh: without the skeleton, the MMSH bone list by hash and its breadth-first order resolve the palette', { skip: MESH.skip }, () => {
  const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
  const model = meshModelFromMmsh(m, undefined, 'head');
  checkModel(model);
  assert.deepEqual(
    model.skeleton!.bones.map((b) => b.name),
    m.info.bones.map((b) => formatHash(b.nameHash)),
  );
  assert.deepEqual([...weightedBones(model, 0, 0)].sort(), [formatHash(stringHash('L_Eye')), formatHash(stringHash('R_Eye'))].sort());
  assert.ok(model.notes.some((n) => /breadth-first/.test(n)));
});

test('fromMmsh: a skeleton that does not belong to the mesh is set aside with a note', { skip: MESH.skip }, () => {
  const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
  const model = meshModelFromMmsh(m, parseSkel(sampleSwordSkeleton(), 'sword.skel'), 'head');
  assert.equal(model.skeleton!.bones.length, 142);
  assert.ok(model.notes.some((n) => /does not match/.test(n)));
});

test('fromMmsh: a skeleton alone', { skip: SKEL.skip }, () => {
  const model = meshModelFromSkel(parseSkel(fs.readFileSync(SKEL.path), SKEL.path), 'head.skel');
  assert.equal(model.lods.length, 0);
  assert.equal(model.skeleton!.bones.length, 142);
  checkModel(model);
});

test('fromMmsh: the sample sword: two LODs of blade and grip, skinned through the name table', () => {
  const m = parseMmsh(sampleSwordMesh(), 'sword.mesh');
  const s = parseSkel(sampleSwordSkeleton(), 'sword.skel');
  for (const model of [meshModelFromMmsh(m, s, 'sword'), meshModelFromMmsh(m, undefined, 'sword')]) {
    checkModel(model);
    assert.deepEqual(
      model.lods.map((l) => l.distance),
      [0, 500],
    );
    assert.deepEqual(
      model.lods.map((l) => l.parts.map((p) => p.materialIndex)),
      [
        [0, 1],
        [0, 1],
      ],
    );
    const ratio = model.lods[1]!.triangles / model.lods[0]!.triangles;
    assert.ok(ratio > 0.3 && ratio < 0.6, `LOD 1 / LOD 0 = ${ratio}`);
    // Seed 004's sword: grip at the origin, blade along +Y, about 100 cm.
    assert.ok(model.bounds.max[1] > 95 && model.bounds.max[1] < 110);
    assert.ok(model.bounds.min[1] < 0);
    // The blade's tip vertices belong to Blade_Tip, the pommel's to Grip (Grip comes before
    // Blade_Tip in the name table but after it in the bone list).
    const name = (b: string): string => (model.skeleton!.bones.some((x) => x.name === b) ? b : formatHash(stringHash(b)));
    const blade = model.lods[0]!.parts[0]!;
    const grip = model.lods[0]!.parts[1]!;
    const bone = (p: typeof blade, v: number): string => {
      let best = 0;
      for (let k = 1; k < 4; k++) if (p.weights![4 * v + k]! > p.weights![4 * v + best]!) best = k;
      return model.skeleton!.bones[p.joints![4 * v + best]!]!.name;
    };
    for (let v = 0; v < blade.positions.length / 3; v++) {
      const y = blade.positions[3 * v + 1]!;
      if (y > 85) assert.equal(bone(blade, v), name('Blade_Tip'));
      if (y < 30) assert.equal(bone(blade, v), name('Blade'));
    }
    for (let v = 0; v < grip.positions.length / 3; v++) if (grip.positions[3 * v + 1]! < -19) assert.equal(bone(grip, v), name('Grip'));
    assert.deepEqual(
      model.skeleton!.bones.map((b) => b.parent),
      SAMPLE_SWORD_BONES.map((b) => b.parent),
    );
  }
});

test('fromMmsh: LOD planning falls back to chain positions, then to one LOD per block', () => {
  const part = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] };
  const bytes = writeMmsh({
    blocks: [{ parts: [part] }, { parts: [part] }, { parts: [part] }],
    groups: [
      {
        id: 1,
        chain: [
          { block: 0, material: 3, distance: 0 },
          { block: 1, material: 4, distance: 100 },
        ],
      },
      { id: 2, chain: [{ block: 2, material: 5, distance: 0 }] },
    ],
  });
  const m = parseMmsh(bytes, 'x.mesh');
  assert.deepEqual(
    meshModelFromMmsh(m, undefined, 'x').lods.map((l) => [l.distance, l.parts.map((p) => p.materialIndex)]),
    [
      [0, [3, 5]],
      [100, [4, 5]],
    ],
  );
  // Break the LOD section's link counts: chains by position (the second group has no LOD 1).
  const c = Buffer.from(bytes);
  const ls = m.info.lodSection;
  c.writeUInt32LE(99, ls.offset + 4 + 4 * ls.settings.length + 8 * ls.meshLodDistances.length);
  const broken = parseMmsh(c, 'x.mesh');
  assert.deepEqual(broken.levels, []);
  assert.equal(broken.confidence, 'uncertain');
  const chained = meshModelFromMmsh(broken, undefined, 'x');
  assert.deepEqual(
    chained.lods.map((l) => [l.distance, l.parts.map((p) => p.materialIndex)]),
    [
      [undefined, [3, 5]],
      [undefined, [4]],
    ],
  );
  assert.ok(chained.notes.some((n) => /chain/.test(n)));
  const none = meshModelFromMmsh(parseMmsh(writeMmsh({ blocks: [{ parts: [part] }, { parts: [part] }], groups: [] }), 'x.mesh'), undefined, 'x');
  assert.equal(none.lods.length, 2);
  assert.equal(none.skeleton, undefined);
  assert.ok(none.notes.some((n) => /own LOD/.test(n)));
});

test('fromMmsh: LODs that draw the same mesh share its arrays; bad weights are counted once per mesh', () => {
  const tri = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] };
  const shared = {
    positions: [123.5, 7, 9, 1, 0, 0, 0, 1, 0],
    normals: [0, 0, 1, 0, 0, 1, 0, 0, 1],
    tangents: [1, 0, 0, 1, 0, 0, 1, 0, 0],
    bitangents: [0, 1, 0, 0, 1, 0, 0, -1, 0],
    uvs: [0, 0, 1, 0, 0, 1],
    joints: [0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0],
    weights: [0.5, 0.5, 0, 0, 1, 0, 0, 0, 0.25, 0.75, 0, 0],
    indices: [0, 1, 2],
  };
  const bytes = writeMmsh({
    blocks: [{ parts: [shared] }, { parts: [tri] }, { parts: [tri] }],
    bones: [
      { name: 'Root', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'Tip', parent: 0, translation: [0, 10, 0], rotation: [0, 0, 0, 1] },
    ],
    groups: [
      {
        id: 1,
        chain: [
          { block: 1, material: 3, distance: 0 },
          { block: 2, material: 4, distance: 100 },
        ],
      },
      { id: 2, chain: [{ block: 0, material: 5, distance: 0 }] },
    ],
  });
  // Make the shared mesh's first vertex weigh 100 + 100 (not 255): its stream-0 record is the
  // f32x4 position (123.5, 7, 9, 1) followed by the four weight bytes.
  const b = Buffer.from(bytes);
  const pos = Buffer.alloc(16);
  [123.5, 7, 9, 1].forEach((x, i) => pos.writeFloatLE(x, 4 * i));
  const at = b.indexOf(pos);
  assert.ok(at > 0 && b.indexOf(pos, at + 1) < 0);
  b.set([100, 0, 100, 0], at + 16);
  const model = meshModelFromMmsh(parseMmsh(b, 'x.mesh'), undefined, 'x');
  assert.deepEqual(
    model.lods.map((l) => l.parts.map((p) => p.materialIndex)),
    [
      [3, 5],
      [4, 5],
    ],
  );
  const [p0, p1] = [model.lods[0]!.parts[1]!, model.lods[1]!.parts[1]!];
  assert.notEqual(p0, p1);
  assert.notEqual(p0.name, p1.name);
  for (const k of ['positions', 'indices', 'normals', 'tangents', 'uvs', 'joints', 'weights'] as const) {
    assert.ok(p0[k], k);
    assert.equal(p0[k], p1[k], `${k}: the same typed array in both LODs`);
  }
  assert.equal(model.lods[0]!.parts[0]!.tangents, undefined);
  checkModel(model);
  // One mesh, one vertex: counted once although two LODs draw it.
  assert.deepEqual(
    model.notes.filter((n) => /weights not summing to 255/.test(n)),
    ['1 vertices have weights not summing to 255 (normalised)'],
  );
});
