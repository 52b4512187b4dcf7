// `arch06 mesh` / `mesh-file` as a user runs them: the bundled dist/cli.js against the generated
// sample install and against the real sample files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedPath } from '../support/shared';
import { rawMmshFacts, rawTrianglesAt } from '../support/rawMmsh';
import { CLI, cliJson, runCli } from '../support/cli';
import { tempDir, treeDigest, writeTree } from '../support/fixtures';
import { formatHash, stringHash } from '../../core/hash';
import { SAMPLE_MESH, SAMPLE_SKELETON, SAMPLE_SWORD_BONES, SAMPLE_SWORD_GROUPS, sampleGame } from '../../core/sample';
import { rawSampleServed } from '../support/rawLtar';

const MESH = sharedPath('samples/real/player_eltariel_head.mesh');
const SKEL = sharedPath('samples/real/player_eltariel_head.skel');

const run = runCli;
const json = cliJson;

const root = tempDir('arch06-mesh-');
const made = run('make-sample', root);
const before = treeDigest(root);

test('mesh --json on the sample sword: blocks, meshes, materials, LODs against the bytes, bone names from the sibling .skel', () => {
  assert.equal(made.code, 0, made.stderr);
  const j = json('mesh', root, SAMPLE_MESH);
  // The oracle: the sword's bytes as the sample archives store them, read at formats-public §5's offsets by hand.
  const raw = rawMmshFacts(rawSampleServed(sampleGame(), SAMPLE_MESH));
  assert.deepEqual(
    j.blocks.map((b: any) => [b.triangles, b.vertices, b.meshes.length]),
    raw.triangles.map((t, i) => [t, raw.vertices[i], raw.meshes[i]]),
  );
  assert.equal(j.boneCount, raw.boneCount);
  // LODs: the stored mesh levels that draw some block (a connection with lod -1 draws nothing), nearest first.
  const drawing = raw.meshLevels.filter((l) => l.connections.some((c) => raw.connections[c].lod >= 0)).map((l) => l.distance);
  assert.deepEqual(
    j.lods.map((l: any) => l.distance),
    drawing.sort((a, b) => a - b),
  );
  assert.equal(j.format, 'MMSH');
  assert.equal(j.version, 17);
  assert.equal(j.skeleton.from, SAMPLE_SKELETON);
  assert.equal(j.blocks.length, 4);
  for (const b of j.blocks) {
    assert.equal(b.triangles, b.faceBytes / 6);
    assert.equal(
      b.triangles,
      b.meshes.reduce((s: number, m: any) => s + m.triangles, 0),
    );
    assert.equal(
      b.vertices,
      b.meshes.reduce((s: number, m: any) => s + m.vertices, 0),
    );
    for (const m of b.meshes) assert.equal(m.indices, 3 * m.triangles);
  }
  assert.deepEqual(
    j.blocks.map((b: any) => b.material),
    [0, 1, 0, 1],
  );
  assert.deepEqual(
    j.blocks.map((b: any) => b.groups),
    [[SAMPLE_SWORD_GROUPS[0]], [SAMPLE_SWORD_GROUPS[1]], [SAMPLE_SWORD_GROUPS[0]], [SAMPLE_SWORD_GROUPS[1]]],
  );
  assert.deepEqual(
    j.materials.map((m: any) => m.slot),
    [0, 1],
  );
  assert.equal(j.boneCount, SAMPLE_SWORD_BONES.length);
  assert.deepEqual(
    j.bones.map((b: any) => b.name),
    SAMPLE_SWORD_BONES.map((b) => b.name),
  );
  assert.deepEqual(
    j.lods.map((l: any) => l.distance),
    [0, 500],
  );
  assert.ok(j.lods[1].triangles < j.lods[0].triangles * 0.6);
  assert.equal(j.cullDistance, 140);
  // Any case and separator; the text form.
  const t = run('mesh', root, SAMPLE_MESH.replace(/\\/g, '/').toUpperCase());
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /block 0: \d+ vertices, \d+ triangles, material 0 \(Sword_Blade\)/);
  assert.match(t.stdout, /bones: Root, Blade, Blade_Tip, Grip/);
});

test('mesh: --skel names the skeleton; a .skel path prints the skeleton', () => {
  const j = json('mesh', root, SAMPLE_MESH, '--skel', SAMPLE_SKELETON);
  assert.equal(j.skeleton.from, SAMPLE_SKELETON);
  const s = json('mesh', root, SAMPLE_SKELETON);
  assert.equal(s.format, 'SKEL');
  assert.deepEqual(
    s.bones.map((b: any) => [b.name, b.parent]),
    SAMPLE_SWORD_BONES.map((b) => [b.name, b.parent]),
  );
  assert.deepEqual(
    s.sockets.map((x: any) => x.name),
    ['Socket_Tip'],
  );
  assert.deepEqual(
    s.parts.map((p: any) => p.name),
    SAMPLE_SWORD_GROUPS,
  );
  const t = run('mesh', root, SAMPLE_SKELETON);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /^ {2}1 Blade$/m);
  assert.match(t.stdout, /^ {4}2 Blade_Tip$/m);
});

test('mesh: missing paths exit 1, bad input exits 2', () => {
  assert.equal(run('mesh', root, 'characters\\sample\\none.mesh').code, 1);
  assert.equal(run('mesh', root, SAMPLE_MESH, '--skel', 'characters\\sample\\none.skel').code, 1);
  const notMesh = run('mesh', root, 'config\\game.cfg');
  assert.equal(notMesh.code, 2);
  assert.match(notMesh.stderr, /not an MMSH mesh/);
  assert.equal(run('mesh', root).code, 2);
  assert.equal(run('mesh', root, SAMPLE_MESH, 'extra').code, 2);
  assert.equal(run('mesh', root, SAMPLE_MESH, '--skel').code, 2);
});

test('mesh --glb writes a glTF binary outside the install', () => {
  const out = path.join(tempDir(), 'sword.glb');
  const r = run('mesh', root, SAMPLE_MESH, '--glb', out);
  assert.equal(r.code, 0, r.stderr);
  const b = fs.readFileSync(out);
  assert.equal(b.toString('latin1', 0, 4), 'glTF');
  assert.equal(b.readUInt32LE(8), b.length);
});

/** Load a .glb with three.js's GLTFLoader (ESM, through import(), which tsc keeps) and count what it drew. */
async function loadInThree(file: string): Promise<{ triangles: number; joints: number }> {
  const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
  const b = fs.readFileSync(file);
  const gltf = await new GLTFLoader().parseAsync(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, '');
  let triangles = 0;
  let joints = 0;
  gltf.scene.traverse((o: any) => {
    if (o.isMesh) triangles += (o.geometry.index ? o.geometry.index.count : o.geometry.attributes.position.count) / 3;
    if (o.isSkinnedMesh) joints = Math.max(joints, o.skeleton.bones.length);
  });
  return { triangles, joints };
}

test('mesh --glb: the export opens in three.js GLTFLoader with the triangles of LOD 0 and every bone', async () => {
  const out = path.join(tempDir(), 'sword.glb');
  assert.equal(run('mesh', root, SAMPLE_MESH, '--glb', out).code, 0);
  const lod0 = json('mesh', root, SAMPLE_MESH).lods[0].triangles;
  const loaded = await loadInThree(out);
  assert.equal(loaded.triangles, lod0);
  assert.equal(loaded.joints, 4);
});

test('mesh-file --glb of the real head opens in GLTFLoader with its 24,980 LOD 0 triangles', { skip: MESH.skip || SKEL.skip }, async () => {
  const out = path.join(tempDir(), 'head.glb');
  const r = run('mesh-file', MESH.path, '--glb', out);
  assert.equal(r.code, 0, r.stderr);
  const lod0 = json('mesh-file', MESH.path).lods[0].triangles;
  assert.equal(lod0, rawTrianglesAt(rawMmshFacts(fs.readFileSync(MESH.path)), 0)); // 24,980, from the bytes
  const loaded = await loadInThree(out);
  assert.equal(loaded.triangles, lod0);
  assert.equal(loaded.joints, rawMmshFacts(fs.readFileSync(MESH.path)).boneCount); // 142, info +0x40
});

test('mesh-file on files on disk: the sibling .skel, or bones by hash without one', () => {
  const dir = tempDir();
  const cat = (p: string): Buffer => spawnSync(process.execPath, [CLI, 'cat', root, p], { maxBuffer: 64 << 20 }).stdout;
  writeTree(dir, { 'b/sword.mesh': cat(SAMPLE_MESH), 'b/sword.skel': cat(SAMPLE_SKELETON) });
  const alone = json('mesh-file', path.join(dir, 'b', 'sword.mesh'));
  assert.equal(alone.skeleton.from, path.join(dir, 'b', 'sword.skel'));
  assert.deepEqual(
    alone.bones.map((b: any) => b.name),
    SAMPLE_SWORD_BONES.map((b) => b.name),
  );
  fs.rmSync(path.join(dir, 'b', 'sword.skel'));
  const hashed = json('mesh-file', path.join(dir, 'b', 'sword.mesh'));
  assert.equal(hashed.skeleton.from, null);
  assert.match(hashed.skeleton.note, /by hash/);
  // Every bone, named by its StringHash (as the mesh stores it), in the sample's bone order.
  assert.equal(hashed.bones.length, SAMPLE_SWORD_BONES.length);
  assert.ok(hashed.bones.every((b: any) => /^0x[0-9A-F]{8}$/.test(b.name)));
  assert.deepEqual(
    hashed.bones.map((b: any) => b.name),
    SAMPLE_SWORD_BONES.map((b) => formatHash(stringHash(b.name))),
  );
});

test('mesh-file on the real player_eltariel_head.mesh and .skel', { skip: MESH.skip || SKEL.skip }, () => {
  const j = json('mesh-file', MESH.path);
  assert.equal(j.skeleton.from, SKEL.path);
  assert.equal(j.skeleton.matches, true);
  // Per block: triangles = face bytes / 6, vertices and meshes, read from the file's tables by
  // test/support/rawMmsh.ts (formats-public §5 offsets), not by the reader.
  const raw = rawMmshFacts(fs.readFileSync(MESH.path));
  assert.deepEqual(
    j.blocks.map((b: any) => b.triangles),
    raw.triangles,
  );
  assert.deepEqual(
    j.blocks.map((b: any) => b.vertices),
    raw.vertices,
  );
  assert.deepEqual(
    j.blocks.map((b: any) => b.meshes.length),
    raw.meshes,
  );
  assert.equal(raw.boneCount, 142); // info +0x40; formats-public §5.4 names 142 bones for this sample
  assert.equal(j.boneCount, raw.boneCount);
  assert.equal(j.bones.length, raw.boneCount);
  assert.equal(j.bones[0].name, 'Null');
  assert.equal(j.bones.find((b: any) => b.name === 'R_Eye').hash, formatHash(stringHash('R_Eye')));
  assert.deepEqual(
    j.lodGroups.map((g: any) => g.name),
    ['Eltariel_Eyes', 'Eltariel_Lashes', 'Eltariel_Lacrimal', 'Eltariel_Eyeshadow', 'Eltariel_Bangs', 'Eltariel_Head', 'Eltariel_Mouth', 'Eltariel_Hair'],
  );
  assert.deepEqual(
    j.lods.map((l: any) => l.distance),
    [0, 500, 1500, 2500],
  );
  const s = json('mesh-file', SKEL.path);
  assert.equal(s.boneCount, raw.boneCount); // the .skel agrees with the .mesh's bone count
  assert.equal(s.header.boneBytes, 37 * raw.boneCount);
  assert.equal(s.nameTableIsBreadthFirst, true);
  const bad = path.join(tempDir(), 'bad.mesh');
  fs.writeFileSync(bad, fs.readFileSync(MESH.path).subarray(0, 5000));
  const r = run('mesh-file', bad);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /header\.sizes/);
});

test('the sample install is byte-identical after every mesh command', () => {
  assert.deepEqual(treeDigest(root), before);
});

test('mesh --glb and texture --png refuse a target inside the install (exit 2, nothing written)', () => {
  const before = treeDigest(root);
  const g = run('mesh', root, SAMPLE_MESH, '--glb', path.join(root, 'sword.glb'));
  assert.equal(g.code, 2);
  assert.match(g.stderr, /inside the install/);
  const t = run('texture', root, 'textures\\sample\\sample_banner_d.tex', '--png', path.join(root, 'Game', 'x.png'));
  assert.equal(t.code, 2);
  assert.deepEqual(treeDigest(root), before);
});
