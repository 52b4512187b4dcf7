// The GLB exporter, checked by hand (container layout) and by a real consumer: three.js's
// GLTFLoader, loaded in Node. Bone positions are recomputed here from the input TRS with
// quaternion arithmetic, independently of core/model/mat4.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { writeGlb } from '../glb';
import { reverseTriangles, windingOf } from '../winding';
import type { MeshModel, ModelBone } from '../meshModel';
import { cubeModel, skinnedStripModel } from './synthetic';

type Three = typeof import('three');
type Gltf = { scene: import('three').Group; parser: { json: GltfJson } };
interface GltfJson {
  asset: { version: string; extras: { units: { conversion: string }; notes: string[] } };
  scenes: { extras: { units: unknown } }[];
  accessors: { bufferView: number; componentType: number; count: number; type: string; normalized?: boolean; min?: number[]; max?: number[] }[];
  bufferViews: { byteOffset: number; byteLength: number; byteStride?: number; target?: number }[];
  buffers: { byteLength: number }[];
  meshes: { primitives: { attributes: Record<string, number>; indices: number; material?: number }[] }[];
  materials: { name: string; pbrMetallicRoughness: { baseColorTexture?: { index: number } } }[];
  nodes: { name: string; skin?: number; children?: number[] }[];
  skins?: { joints: number[]; inverseBindMatrices: number }[];
  images?: { mimeType: string; bufferView: number }[];
  textures?: unknown[];
}

let threePromise: Promise<{ THREE: Three; load: (glb: Uint8Array) => Promise<Gltf> }> | undefined;
/** three and its GLTFLoader, ESM, loaded once through dynamic import() (kept as import() by tsc). */
function three(): Promise<{ THREE: Three; load: (glb: Uint8Array) => Promise<Gltf> }> {
  threePromise ??= (async () => {
    const THREE = await import('three');
    const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
    const load = (glb: Uint8Array): Promise<Gltf> => {
      const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
      return new GLTFLoader().parseAsync(buffer, '') as unknown as Promise<Gltf>;
    };
    return { THREE, load };
  })();
  return threePromise;
}

/** The GLB container, read by hand: header, JSON chunk, BIN chunk, with every rule checked. */
function readGlb(glb: Uint8Array): { json: GltfJson; bin: Uint8Array | undefined } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  assert.equal(String.fromCharCode(...glb.subarray(0, 4)), 'glTF', 'magic');
  assert.equal(dv.getUint32(4, true), 2, 'version');
  assert.equal(dv.getUint32(8, true), glb.length, 'total length');
  assert.equal(glb.length % 4, 0, 'file length aligned');
  const jsonLength = dv.getUint32(12, true);
  assert.equal(dv.getUint32(16, true), 0x4e4f534a, 'JSON chunk type');
  assert.equal(jsonLength % 4, 0, 'JSON chunk aligned');
  const jsonBytes = glb.subarray(20, 20 + jsonLength);
  const json = JSON.parse(new TextDecoder().decode(jsonBytes)) as GltfJson;
  // Padding is spaces, which JSON.parse already skipped; check it is nothing else.
  const text = new TextDecoder().decode(jsonBytes);
  assert.equal(text.trimEnd().length + (text.length - text.trimEnd().length), jsonLength);
  let at = 20 + jsonLength;
  let bin: Uint8Array | undefined;
  if (at < glb.length) {
    const binLength = dv.getUint32(at, true);
    assert.equal(dv.getUint32(at + 4, true), 0x004e4942, 'BIN chunk type');
    assert.equal(binLength % 4, 0, 'BIN chunk aligned');
    bin = glb.subarray(at + 8, at + 8 + binLength);
    at += 8 + binLength;
    assert.ok(json.buffers[0]!.byteLength <= binLength && json.buffers[0]!.byteLength > binLength - 4, 'buffer byteLength within the padded chunk');
  }
  assert.equal(at, glb.length, 'nothing after the last chunk');
  return { json, bin };
}

const near = (a: number, b: number, eps: number, what: string): void => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} vs ${b}`);

test('GLB container: magic, version, chunk lengths, 4-byte alignment, tightly packed views', () => {
  const model = cubeModel();
  const { json, bin } = readGlb(writeGlb(model));
  assert.ok(bin);
  assert.equal(json.asset.version, '2.0');
  const sizes: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
  const comps: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
  for (const a of json.accessors) {
    const view = json.bufferViews[a.bufferView]!;
    assert.equal(view.byteStride, undefined, 'no byteStride');
    assert.equal(view.byteOffset % 4, 0, 'view aligned');
    assert.equal(view.byteLength, a.count * comps[a.type]! * sizes[a.componentType]!, 'tightly packed');
    assert.ok(view.byteOffset + view.byteLength <= bin.length);
  }
  const prim = json.meshes[0]!.primitives[0]!;
  const acc = (name: string) => json.accessors[prim.attributes[name]!]!;
  assert.equal(acc('POSITION').componentType, 5126);
  assert.deepEqual(
    [acc('POSITION').min, acc('POSITION').max],
    [
      [-0.2, 0, -0.2],
      [0.2, 0.4, 0.2],
    ].map((v) => v.map((x) => Math.fround(x))),
  );
  assert.equal(acc('NORMAL').type, 'VEC3');
  assert.equal(acc('TANGENT').type, 'VEC4');
  assert.equal(acc('TEXCOORD_0').type, 'VEC2');
  assert.deepEqual([acc('COLOR_0').componentType, acc('COLOR_0').normalized, acc('COLOR_0').type], [5121, true, 'VEC4']);
  assert.equal(json.accessors[prim.indices]!.componentType, 5123);
  assert.equal(json.bufferViews[acc('POSITION').bufferView]!.target, 34962);
  assert.equal(json.bufferViews[json.accessors[prim.indices]!.bufferView]!.target, 34963);
  // One material per distinct name, named.
  assert.deepEqual(
    json.materials.map((m) => m.name),
    ['side', 'cap'],
  );
  assert.match(json.asset.extras.units.conversion, /0\.01/);
  assert.ok(json.scenes[0]!.extras.units);
  assert.deepEqual(json.asset.extras.notes, ['synthetic cube']);
  // LOD 1 has 32-bit indices in the model but fits 16 bits; it is written as one mesh of one primitive.
  const { json: j1 } = readGlb(writeGlb(model, { lod: 1 }));
  assert.equal(j1.meshes.length, 1);
  assert.equal(j1.meshes[0]!.primitives.length, 1);
  assert.equal(j1.accessors[j1.meshes[0]!.primitives[0]!.indices]!.count, 36);
});

test('three.js loads the cube: triangles, vertices, attributes and bounds in metres', async () => {
  const { THREE, load } = await three();
  const model = cubeModel();
  for (const lodIndex of [0, 1]) {
    const gltf = await load(writeGlb(model, { lod: lodIndex }));
    gltf.scene.updateMatrixWorld(true);
    let triangles = 0,
      vertices = 0,
      meshes = 0;
    gltf.scene.traverse((o) => {
      const mesh = o as import('three').Mesh;
      if (!mesh.isMesh) return;
      meshes++;
      triangles += mesh.geometry.index!.count / 3;
      vertices += mesh.geometry.attributes.position!.count;
      if (lodIndex === 0) {
        const color = mesh.geometry.attributes.color!;
        assert.equal(color.itemSize, 4);
        assert.equal(color.normalized, true);
        assert.ok(mesh.geometry.attributes.tangent && mesh.geometry.attributes.uv && mesh.geometry.attributes.normal);
        assert.ok(mesh.material instanceof THREE.MeshStandardMaterial);
      }
    });
    const lod = model.lods[lodIndex]!;
    assert.equal(meshes, lod.parts.length);
    assert.equal(triangles, lod.triangles);
    assert.equal(vertices, lod.vertices);
    const box = new THREE.Box3().setFromObject(gltf.scene);
    for (let k = 0; k < 3; k++) {
      near(box.min.getComponent(k), model.bounds.min[k]! / 100, 1e-6, `min ${k}`);
      near(box.max.getComponent(k), model.bounds.max[k]! / 100, 1e-6, `max ${k}`);
    }
  }
});

// Independent bind-pose arithmetic: quaternions, no matrices.
type Q = [number, number, number, number];
type V = [number, number, number];
const qmul = (a: Q, b: Q): Q => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const rotate = (q: Q, v: V): V => {
  // v' = v + 2w(q×v) + 2 q×(q×v)
  const [x, y, z, w] = q;
  const c1: V = [y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0]];
  const c2: V = [y * c1[2] - z * c1[1], z * c1[0] - x * c1[2], x * c1[1] - y * c1[0]];
  return [v[0] + 2 * (w * c1[0] + c2[0]), v[1] + 2 * (w * c1[1] + c2[1]), v[2] + 2 * (w * c1[2] + c2[2])];
};
function bindPose(bones: ModelBone[]): { p: V; q: Q; s: number }[] {
  const out: { p: V; q: Q; s: number }[] = [];
  for (const b of bones) {
    if (b.parent < 0) out.push({ p: [...b.translation], q: [...b.rotation], s: b.scale });
    else {
      const P = out[b.parent]!;
      const r = rotate(P.q, [b.translation[0] * P.s, b.translation[1] * P.s, b.translation[2] * P.s]);
      out.push({ p: [P.p[0] + r[0], P.p[1] + r[1], P.p[2] + r[2]], q: qmul(P.q, b.rotation), s: P.s * b.scale });
    }
  }
  return out;
}

test('three.js loads the skinned strip: skin joints, bone world positions, vertices stay in the bind pose', async () => {
  const { THREE, load } = await three();
  const model = skinnedStripModel();
  const glb = writeGlb(model);
  const { json } = readGlb(glb);
  assert.equal(json.skins!.length, 1);
  assert.equal(json.skins![0]!.joints.length, 2);
  const prim = json.meshes[0]!.primitives[0]!;
  assert.equal(json.accessors[prim.attributes.JOINTS_0!]!.componentType, 5123);
  assert.equal(json.accessors[prim.attributes.WEIGHTS_0!]!.componentType, 5126);
  assert.equal(json.accessors[json.skins![0]!.inverseBindMatrices]!.type, 'MAT4');

  const gltf = await load(glb);
  gltf.scene.updateMatrixWorld(true);
  let skinned: import('three').SkinnedMesh | undefined;
  gltf.scene.traverse((o) => {
    if ((o as import('three').SkinnedMesh).isSkinnedMesh) skinned = o as import('three').SkinnedMesh;
  });
  assert.ok(skinned, 'a SkinnedMesh');
  assert.equal(skinned.skeleton.bones.length, model.skeleton!.bones.length);
  assert.equal(skinned.geometry.index!.count / 3, model.lods[0]!.triangles);

  const expected = bindPose(model.skeleton!.bones);
  model.skeleton!.bones.forEach((bone, i) => {
    const node = gltf.scene.getObjectByName(bone.name)!;
    assert.equal(skinned!.skeleton.bones[i], node, `joint ${i} is bone ${bone.name}`);
    const world = node.getWorldPosition(new THREE.Vector3());
    for (let k = 0; k < 3; k++) near(world.getComponent(k), expected[i]!.p[k]! / 100, 1e-6, `${bone.name} world ${'xyz'[k]}`);
  });
  // The tip is not at its parent-free translation: the root's turn and scale moved it.
  near(expected[1]!.p[0], 5, 1e-9, 'root x carried to tip');
  near(expected[1]!.p[1], 62.5, 1e-9, 'tip height = 50 × 1.25');

  // The socket hangs under its bone, 10 cm along the bone's (scaled, turned) Y.
  const socket = gltf.scene.getObjectByName('hand')!;
  assert.equal(socket.parent, gltf.scene.getObjectByName('tip'));
  const sp = socket.getWorldPosition(new THREE.Vector3());
  const tip = expected[1]!;
  const off = rotate(tip.q, [0, 10 * tip.s, 0]);
  for (let k = 0; k < 3; k++) near(sp.getComponent(k), (tip.p[k]! + off[k]!) / 100, 1e-6, `socket ${'xyz'[k]}`);

  // Skinning with the file's inverse bind matrices leaves every vertex where the model put it.
  const pos = model.lods[0]!.parts[0]!.positions;
  for (let v = 0; v < pos.length / 3; v++) {
    const p = skinned.applyBoneTransform(v, new THREE.Vector3().fromBufferAttribute(skinned.geometry.attributes.position!, v));
    for (let k = 0; k < 3; k++) near(p.getComponent(k), pos[v * 3 + k]! / 100, 1e-5, `vertex ${v} ${'xyz'[k]}`);
  }
  const box = new THREE.Box3().setFromObject(gltf.scene);
  for (let k = 0; k < 3; k++) {
    near(box.min.getComponent(k), model.bounds.min[k]! / 100, 1e-5, `min ${k}`);
    near(box.max.getComponent(k), model.bounds.max[k]! / 100, 1e-5, `max ${k}`);
  }
});

test('a LOD mixing skinned and rigid parts becomes two meshes; a skeleton alone becomes plain nodes', async () => {
  const model = skinnedStripModel();
  const cube = cubeModel().lods[0]!.parts[0]!;
  model.lods[0]!.parts.push(cube);
  const { json } = readGlb(writeGlb(model));
  assert.equal(json.meshes.length, 2);
  const skinnedNodes = json.nodes.filter((n) => n.skin !== undefined);
  assert.equal(skinnedNodes.length, 1);
  for (const m of json.meshes) {
    const skinnedMesh = m.primitives.every((p) => p.attributes.JOINTS_0 !== undefined);
    assert.ok(skinnedMesh || m.primitives.every((p) => p.attributes.JOINTS_0 === undefined));
  }

  const bare: MeshModel = { ...skinnedStripModel(), lods: [] };
  const { json: j2 } = readGlb(writeGlb(bare));
  assert.equal(j2.skins, undefined);
  assert.deepEqual(
    j2.nodes.map((n) => n.name),
    ['root', 'tip', 'hand'],
  );
  const { THREE, load } = await three();
  const gltf = await load(writeGlb(bare));
  gltf.scene.updateMatrixWorld(true);
  const tip = gltf.scene.getObjectByName('tip')!.getWorldPosition(new THREE.Vector3());
  near(tip.y, 0.625, 1e-6, 'tip y in metres');
});

test('an image per material is embedded when the caller gives one', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const { json, bin } = readGlb(writeGlb(cubeModel(), { baseColorImage: (name) => (name === 'cap' ? { mimeType: 'image/png', bytes: png } : undefined) }));
  assert.equal(json.images!.length, 1);
  assert.equal(json.textures!.length, 1);
  assert.equal(json.materials[1]!.pbrMetallicRoughness.baseColorTexture!.index, 0);
  assert.equal(json.materials[0]!.pbrMetallicRoughness.baseColorTexture, undefined);
  const view = json.bufferViews[json.images![0]!.bufferView]!;
  assert.deepEqual([...bin!.subarray(view.byteOffset, view.byteOffset + view.byteLength)], [...png]);
});

test('weights are repaired on the way out and the repair is noted', () => {
  const model = skinnedStripModel();
  const part = model.lods[0]!.parts[0]!;
  part.weights!.set([0, 0, 0, 0], 0); // vertex 0: no weight at all
  part.joints!.set([1, 1, 0, 0], 4); // vertex 1: joint 1 twice
  part.weights!.set([0.25, 0.25, 0, 0], 4);
  const { json, bin } = readGlb(writeGlb(model));
  const prim = json.meshes[0]!.primitives[0]!;
  const read = (name: string, Type: Float32ArrayConstructor | Uint16ArrayConstructor, n: number) => {
    const a = json.accessors[prim.attributes[name]!]!;
    const v = json.bufferViews[a.bufferView]!;
    return [...new Type(bin!.slice(v.byteOffset, v.byteOffset + v.byteLength).buffer, 0, n)];
  };
  assert.deepEqual(read('WEIGHTS_0', Float32Array, 8), [1, 0, 0, 0, 1, 0, 0, 0]);
  assert.deepEqual(read('JOINTS_0', Uint16Array, 8), [0, 0, 0, 0, 1, 0, 0, 0]);
  assert.ok(json.asset.extras.notes.some((n) => /1 vertices without weights/.test(n)));
});

test('triangles wound clockwise against their normals (Direct3D) are written counter-clockwise', async () => {
  const model = cubeModel();
  assert.equal(windingOf(model.lods[0]!.parts[0]!), 'ccw');
  assert.equal(windingOf(model.lods[1]!.parts[0]!), undefined, 'no normals, no verdict');
  const original = Array.from(model.lods[0]!.parts[0]!.indices);
  for (const p of model.lods[0]!.parts) reverseTriangles(p.indices);
  assert.equal(windingOf(model.lods[0]!.parts[0]!), 'cw');
  const glb = writeGlb(model);
  const { json } = readGlb(glb);
  assert.equal(json.asset.extras.notes.filter((n) => /clockwise/.test(n)).length, 2);
  const { load } = await three();
  const gltf = await load(glb);
  let written: number[] | undefined;
  gltf.scene.traverse((o) => {
    const mesh = o as import('three').Mesh;
    if (mesh.isMesh && mesh.geometry.userData.part === 'LOD0 sides') written = Array.from(mesh.geometry.index!.array);
  });
  assert.deepEqual(written, original);
});

test('malformed models throw INVALID errors that name the part and the expectation', () => {
  const expectInvalid = (mutate: (m: MeshModel) => void, field: RegExp, message: RegExp, base = skinnedStripModel): void => {
    const m = base();
    mutate(m);
    assert.throws(
      () => writeGlb(m),
      (e: unknown) => {
        assert.ok(e instanceof Arch06Error, String(e));
        assert.equal(e.code, 'INVALID');
        assert.equal(e.file, m.name);
        assert.match(e.field ?? '', field);
        assert.match(e.message, message);
        assert.ok(e.expected);
        return true;
      },
    );
  };
  expectInvalid(
    (m) => (m.lods[0]!.parts[0]!.positions = new Float32Array(10)),
    /parts\[0\]\.positions/,
    /part "LOD0 mesh 0" \(LOD 0, part 0\): positions length is not a multiple of 3.*expected xyz per vertex/,
  );
  expectInvalid((m) => (m.lods[0]!.parts[0]!.normals = new Float32Array(3)), /\.normals$/, /normals do not match the 10 positions.*expected 30/);
  expectInvalid((m) => (m.lods[0]!.parts[0]!.indices[5] = 10), /indices\[5\]/, /index out of range.*expected < 10/);
  expectInvalid((m) => (m.lods[0]!.parts[0]!.indices = m.lods[0]!.parts[0]!.indices.subarray(0, 4)), /indices/, /multiple of 3/);
  expectInvalid((m) => (m.lods[0]!.parts[0]!.joints![6] = 2), /joints\[6\]/, /joint index out of range.*expected < 2 \(the bone count\)/);
  expectInvalid((m) => delete m.lods[0]!.parts[0]!.weights, /weights/, /joints and weights come together/);
  expectInvalid((m) => delete m.skeleton, /joints/, /no skeleton/);
  expectInvalid((m) => (m.lods[0]!.parts[0]!.positions[4] = NaN), /positions\[4\]/, /finite/);
  expectInvalid((m) => (m.skeleton!.bones[0]!.parent = 1), /bones\[0\]\.parent/, /bone 0 "root": its parent must come before it/);
  expectInvalid((m) => (m.skeleton!.bones[1]!.scale = 0), /bones\[1\]\.scale/, /bad scale/);
  expectInvalid((m) => (m.skeleton!.sockets[0]!.bone = 9), /sockets\[0\]\.bone/, /socket 0 "hand"/);
  expectInvalid((m) => (m.lods[0]!.parts[1]!.colors = new Uint8Array(5)), /parts\[1\]\.colors/, /part "LOD0 caps" \(LOD 0, part 1\)/, cubeModel);
  assert.throws(
    () => writeGlb(cubeModel(), { lod: 2 }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT' && e.expected === '0..1',
  );
});
