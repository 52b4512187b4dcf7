import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Arch06Error } from '../../../errors';
import { stringHash } from '../../../hash/stringHash';
import { MMSH_LAYOUT_SECTION_ID, Mmsh } from '../mmsh/layout';
import { parseMmsh } from '../mmsh/reader';
import { decodeMmshMesh } from '../mmsh/vertices';
import { MmshWriteInput, MmshWritePart, quantiseWeights, writeMmsh } from '../mmsh/writer';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';
import { sharedPath } from '../../../../test/support/shared';
import { rawGroupBlocks, rawMmshFacts } from '../../../../test/support/rawMmsh';

const MESH = sharedPath('samples/real/player_eltariel_head.mesh');

// ---- the real sample -------------------------------------------------------------------------
// Oracles: the header words and block tables read here by hand (formats-public §5), seed 004's
// statements (weights sum to 255, ladder rising to index bytes / 6, BGRA weights) and the figures
// of the sample itself.

// Per data block: triangles (the desc section's face bytes / 6) and vertex counts (MeshInfo vertex
// counts summed per LodInfo), read from the bytes by test/support/rawMmsh.ts at formats-public §5's
// offsets, not by the reader: 816 324 408 218 1904 15598 4957 1523 157 4436 1276 triangles and
// 560 232 280 162 1274 8645 2563 1545 256 2711 967 vertices.

test('mmsh: the real player_eltariel_head.mesh parses completely', { skip: MESH.skip }, () => {
  const bytes = fs.readFileSync(MESH.path);
  const m = parseMmsh(bytes, MESH.path);
  // Header: 20 + desc + info + data == file length, each section where the header puts it.
  const [desc, info, data] = [bytes.readUInt32LE(8), bytes.readUInt32LE(12), bytes.readUInt32LE(16)];
  assert.equal(20 + desc + info + data, bytes.length);
  assert.deepEqual([m.desc.offset, m.desc.size, m.info.offset, m.info.size, m.data.offset, m.data.size], [20, desc, 20 + desc, info, 20 + desc + info, data]);
  assert.equal(m.header.version, 17);
  // Section ids at the section starts (formats-public §5).
  assert.equal(bytes.readUInt32LE(20), 0xebaec3fa);
  assert.equal(bytes.readUInt32LE(20 + desc), 0x1a1541bc);
  assert.equal(bytes.readUInt32LE(20 + desc + info), 0x95dbdb69);

  // The info section's counts (formats-public §5.3), read from the bytes: L @+0x0C = 11,
  // meshCount @+0x10 = 16, G @+0x04 = 8, C @+0x08 = 20, B @+0x40 = 142 (§5.4 also names 142 bones).
  const word = (o: number): number => bytes.readUInt32LE(20 + desc + o);
  assert.deepEqual([word(0x0c), word(0x10), word(0x04), word(0x08), word(0x40)], [11, 16, 8, 20, 142]);
  assert.equal(m.info.lodCount, word(0x0c));
  assert.equal(m.info.meshCount, word(0x10));
  assert.equal(m.info.lodGroupCount, word(0x04));
  assert.equal(m.info.connectionCount, word(0x08));
  assert.equal(m.info.boneCount, word(0x40));
  assert.equal(m.info.bones.length, 142);
  assert.equal(m.info.cullDistance, 400, 'seed 004: +0x2C is the cull distance (400 on 153 meshes)');
  const raw = rawMmshFacts(bytes);
  assert.deepEqual(
    m.info.lods.map((l) => l.faceBytes / 6),
    raw.triangles,
  );
  assert.deepEqual(
    m.info.lods.map((l) => m.info.meshes.slice(l.firstMesh, l.firstMesh + l.meshCount).reduce((s, x) => s + x.vertexCount, 0)),
    raw.vertices,
  );
  assert.deepEqual(
    m.info.lods.map((l) => l.meshCount),
    raw.meshes,
  );
  // Seed 004: the ladder rises to the block's triangle count (the sample repeats it 16 times).
  for (const l of m.info.lods) {
    assert.equal(l.ladder.length, 16);
    assert.equal(l.ladder[15], l.faceBytes / 6);
    assert.equal(l.ladderConfidence, 'confirmed');
  }
  // The blocks lie back to back: vertex blocks, then face blocks, then palette blocks.
  let at = m.data.offset + 4;
  for (const kind of [m.data.vertexBlocks, m.data.faceBlocks, m.data.paletteBlocks]) {
    for (const b of kind) {
      assert.equal(b.offset, at);
      at += b.size;
    }
  }
  assert.equal(at, bytes.length);
  // Layouts: 6, 52 attributes in all (info +0x28).
  assert.equal(m.info.layouts.length, 6);
  assert.equal(
    m.info.layouts.reduce((s, l) => s + l.attributes.length, 0),
    m.info.attributeTotal,
  );
  assert.equal(m.info.attributeTotal, 52);
  // Every mesh's vertex range: offset + count x stride, and the next mesh starts where it ends.
  for (const l of m.info.lods) {
    const ms = m.info.meshes.slice(l.firstMesh, l.firstMesh + l.meshCount);
    let end = 0;
    for (const x of ms) {
      assert.equal(x.vertexByteOffset, end);
      end += x.vertexCount * m.info.layouts[x.layout]!.stride!;
    }
    assert.equal(end, l.vertexBytes, `block ${l.index} vertex bytes close`);
  }
  // Quaternions x, y, z, w of unit length; the root is the identity.
  for (const b of m.info.bones) assert.ok(Math.abs(Math.hypot(...b.rotation) - 1) < 1e-4, `bone ${b.index}`);
  assert.deepEqual(m.info.bones[0]!.rotation, [0, 0, 0, 1]);
  assert.equal(m.info.bones[0]!.parent, -1);
  // The desc section's two per-connection columns are the connections' flags and blocks.
  assert.deepEqual(
    m.desc.connectionFlags,
    m.info.connections.map((c) => c.flags),
  );
  assert.deepEqual(
    m.desc.connectionLods,
    m.info.connections.map((c) => c.lod),
  );
  assert.equal(m.confidence, 'confirmed', m.notes.join('; '));

  console.log(
    `player_eltariel_head.mesh: ${m.info.lodCount} blocks; per block vertices/triangles ${m.info.lods.map((l, i) => `${raw.vertices[i]}/${l.faceBytes / 6}`).join(' ')}; ${m.info.boneCount} bones`,
  );
});

test(
  'mmsh: every vertex of the real sample: indices in range, blend indices in the palette, palette values below 142, weights sum to 255',
  { skip: MESH.skip },
  () => {
    const bytes = fs.readFileSync(MESH.path);
    const m = parseMmsh(bytes, MESH.path);
    const uvMin = new Map<string, number>();
    const uvMax = new Map<string, number>();
    for (const x of m.info.meshes) {
      const d = decodeMmshMesh(m, x.index);
      assert.deepEqual(
        d.attributes.filter((a) => a.status !== 'decoded'),
        [],
        `mesh ${x.index}`,
      );
      assert.ok(d.positions && d.normals && d.tangents && d.bitangents && d.weights && d.blendIndices && d.colors);
      for (const i of d.indices) assert.ok(i < x.vertexCount);
      // Indices local to the mesh span 0 .. vertexCount-1 (formats-public §5.4).
      assert.equal(Math.max(...d.indices), x.vertexCount - 1);
      for (const b of d.blendIndices) assert.ok(b < x.paletteCount, `mesh ${x.index}: blend index ${b} >= palette ${x.paletteCount}`);
      for (const p of d.palette) assert.ok(p < 142);
      for (let v = 0; v < x.vertexCount; v++) {
        const s = d.weightsStored![4 * v]! + d.weightsStored![4 * v + 1]! + d.weightsStored![4 * v + 2]! + d.weightsStored![4 * v + 3]!;
        if (s !== 255) assert.fail(`mesh ${x.index} vertex ${v}: weights sum to ${s}`);
        if (d.positionW![v] !== 1) assert.fail(`mesh ${x.index} vertex ${v}: w = ${d.positionW![v]}`);
      }
      for (let v = 0; v < x.vertexCount; v += 97) assert.ok(Math.abs(Math.hypot(d.normals[3 * v]!, d.normals[3 * v + 1]!, d.normals[3 * v + 2]!) - 1) < 1e-3);
      for (const [ch, uv] of d.uvs) {
        const key = `${d.uvRanges.has(ch) ? 's16' : 'f32'} channel ${ch}`;
        const range = d.uvRanges.get(ch);
        const lo = range ? range.min : Math.min(...uv);
        const hi = range ? range.max : Math.max(...uv);
        uvMin.set(key, Math.min(uvMin.get(key) ?? Infinity, lo));
        uvMax.set(key, Math.max(uvMax.get(key) ?? -Infinity, hi));
      }
    }
    // formats-public: the s16 UVs fit SNORM16 (0 .. 32767 here; no negative value).
    for (const [k, lo] of uvMin) console.log(`UV ${k}: ${lo} .. ${uvMax.get(k)}`);
    assert.ok(uvMin.get('s16 channel 0')! >= 0 && uvMax.get('s16 channel 0')! <= 32767);
  },
);

test("mmsh: the BGRA weight rule on the real sample's first vertex (seed 004)", { skip: MESH.skip }, () => {
  const bytes = fs.readFileSync(MESH.path);
  const m = parseMmsh(bytes, MESH.path);
  // Block 0, mesh 0, layout 0: stream 0 = position f32x4 (16) + weights (4) + indices (4).
  const at = m.data.vertexBlocks[0]!.offset;
  assert.deepEqual([...bytes.subarray(at + 16, at + 20)], [0, 0, 255, 0]);
  assert.deepEqual([...bytes.subarray(at + 20, at + 24)], [1, 0, 0, 0]);
  const d = decodeMmshMesh(m, 0);
  // Slot 0 (index 1) carries byte 2 = 255.
  assert.deepEqual([...d.weights!.subarray(0, 4)], [255, 0, 0, 0]);
  assert.deepEqual([...d.blendIndices!.subarray(0, 4)], [1, 0, 0, 0]);
});

test("mmsh: the real sample's LOD group ids are StringHash of the .skel part names, and its LOD section reads as levels", { skip: MESH.skip }, () => {
  const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
  const names = [
    'Eltariel_Eyes',
    'Eltariel_Lashes',
    'Eltariel_Lacrimal',
    'Eltariel_Eyeshadow',
    'Eltariel_Bangs',
    'Eltariel_Head',
    'Eltariel_Mouth',
    'Eltariel_Hair',
  ];
  assert.deepEqual(
    m.info.lodGroupIds,
    names.map((n) => stringHash(n)),
  );
  // 6 mesh levels of 8 connections (one per group), then 6 shadow levels. The distances are the
  // LOD section's f32[ML] as stored (test/support/rawMmsh.ts reads them from the bytes): 4500 2500 1500 500 1 0.
  const raw = rawMmshFacts(fs.readFileSync(MESH.path));
  const mesh = m.levels.filter((l) => l.kind === 'mesh');
  const shadow = m.levels.filter((l) => l.kind === 'shadow');
  assert.deepEqual(
    mesh.map((l) => l.distance),
    raw.meshLevels.map((l) => l.distance),
  );
  assert.deepEqual(
    mesh.map((l) => l.connections),
    raw.meshLevels.map((l) => l.connections),
  );
  for (const l of mesh)
    assert.deepEqual(
      l.connections.map((c) => m.info.connections[c]!.lodGroup),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
  // Every shadow level lists its mesh level's connections whose flags have bit 1.
  shadow.forEach((s, i) =>
    assert.deepEqual(
      s.connections,
      mesh[i]!.connections.filter((c) => m.info.connections[c]!.flags & 2),
    ),
  );
  // At 0 cm every group draws its first block (the connection table read from the bytes gives
  // each group's blocks in order: 0, 1, 2, 3, 4, 5, 9, 10 first); the head's chain runs through blocks 5..8.
  const firstBlocks = Array.from({ length: 8 }, (_, g) => rawGroupBlocks(raw, g)[0]);
  assert.deepEqual(
    mesh[5]!.connections.map((c) => m.info.connections[c]!.lod),
    firstBlocks,
  );
  assert.deepEqual(
    m.lodGroups[5]!.connections.map((c) => m.info.connections[c]!.lod),
    raw.connections.filter((c) => c.lodGroup === 5).map((c) => c.lod),
  );
});

// ---- synthetic files through the writer ---------------------------------------------------------

/** A quad strip of `n` quads along +Y, skinned to bones a (bottom) and b (top). */
function strip(n: number, a: number, b: number, withColor = true): MmshWritePart {
  const positions: number[] = [];
  const normals: number[] = [];
  const tangents: number[] = [];
  const bitangents: number[] = [];
  const uvs: number[] = [];
  const colors: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (const x of [-1, 1]) {
      positions.push(x * 2.5, i * 10.25, 0.5);
      normals.push(0, 0, 1);
      tangents.push(1, 0, 0);
      bitangents.push(0, -1, 0);
      uvs.push((x + 1) / 2, 1 - i / n);
      colors.push(10 * i, 20, 30, 40 + x);
      joints.push(a, b, a, a);
      weights.push(1 - i / n, i / n, 0, 0);
    }
  }
  for (let i = 0; i < n; i++) indices.push(2 * i, 2 * i + 1, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 2);
  const p: MmshWritePart = { positions, normals, tangents, bitangents, uvs, indices, joints, weights };
  if (withColor) p.colors = colors;
  return p;
}

const bones: MmshWriteInput['bones'] = [
  { name: 'Root', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1] },
  { name: 'A', parent: 0, translation: [0, 10, 0], rotation: [0, 0, 0, 1] },
  { name: 'A_End', parent: 1, translation: [0, 40, 0], rotation: [0, 0, 0, 1] },
  { name: 'B', parent: 0, translation: [0, -10, 0], rotation: [0, 0, 0, 1] },
];

function synthetic(opts: Partial<MmshWriteInput> = {}): Uint8Array {
  return writeMmsh({
    blocks: [{ parts: [strip(4, 1, 2), strip(2, 3, 0, false)] }, { parts: [strip(2, 1, 2)] }],
    bones,
    groups: [
      {
        name: 'Group_One',
        chain: [
          { block: 0, material: 1, distance: 0 },
          { block: 1, material: 0, distance: 800 },
          { block: -1, material: 0, distance: 2000, castsShadow: false },
        ],
      },
    ],
    ...opts,
  });
}

test('mmsh writer: round trip of blocks, meshes, layouts, vertices, palettes and levels', () => {
  const input = { blocks: [{ parts: [strip(4, 1, 2), strip(2, 3, 0, false)] }, { parts: [strip(2, 1, 2)] }] };
  const bytes = synthetic();
  const m = parseMmsh(bytes, 'x.mesh');
  assert.equal(m.confidence, 'confirmed', m.notes.join('; '));
  assert.equal(m.info.lodCount, 2);
  assert.deepEqual(
    m.info.lods.map((l) => l.meshCount),
    [2, 1],
  );
  assert.deepEqual(
    m.info.lods.map((l) => l.faceBytes / 6),
    [8 + 4, 4],
  );
  assert.equal(m.info.layouts.length, 2, 'with and without colour');
  assert.equal(m.info.layouts[0]!.stride, 24 + 8 + 36 + 4);
  assert.deepEqual(
    m.info.bones.map((b) => b.nameHash),
    ['Root', 'A', 'A_End', 'B'].map((n) => stringHash(n)),
  );
  assert.deepEqual(
    m.info.bones.map((b) => b.childCount),
    [2, 1, 0, 0],
  );
  assert.deepEqual(m.info.lodGroupIds, [stringHash('Group_One')]);
  assert.deepEqual(
    m.levels.filter((l) => l.kind === 'mesh').map((l) => [l.distance, l.connections]),
    [
      [2000, [2]],
      [800, [1]],
      [0, [0]],
    ],
  );
  assert.deepEqual(
    m.levels.filter((l) => l.kind === 'shadow').map((l) => [l.distance, l.connections]),
    [
      [2000, []],
      [800, [1]],
      [0, [0]],
    ],
  );
  let mi = 0;
  input.blocks.forEach((b) =>
    b.parts.forEach((p) => {
      const d = decodeMmshMesh(m, mi++);
      assert.deepEqual([...d.positions!], p.positions);
      assert.deepEqual([...d.normals!], p.normals);
      assert.deepEqual([...d.tangents!], p.tangents);
      assert.deepEqual([...d.bitangents!], p.bitangents);
      assert.deepEqual(
        [...d.uvs.get(0)!].map((x) => Math.round(x * 1e6) / 1e6),
        Array.from(p.uvs!).map((x) => Math.round(x * 1e6) / 1e6),
      );
      assert.deepEqual([...d.indices], p.indices);
      if (p.colors) assert.deepEqual([...d.colors!], p.colors);
      else assert.equal(d.colors, undefined);
      // Joints through the palette: the palette holds name-table (breadth-first) positions:
      // Root 0, A 1, B 2, A_End 3.
      const bfsPos = [0, 1, 3, 2];
      for (let v = 0; v < d.vertexCount; v++) {
        const w = quantiseWeights(Array.from(p.weights!).slice(4 * v, 4 * v + 4));
        for (let k = 0; k < 4; k++) {
          assert.equal(d.palette[d.blendIndices![4 * v + k]!], bfsPos[p.joints![4 * v + k]!]);
          assert.equal(d.weights![4 * v + k], w[k]);
          // Stored BGRA: slot k's weight is byte (2, 1, 0, 3)[k].
          assert.equal(d.weightsStored![4 * v + [2, 1, 0, 3][k]!], w[k]);
        }
      }
    }),
  );
});

test('mmsh writer: f16 positions and s16 UVs', () => {
  const m = parseMmsh(synthetic({ positionFormat: 'f16', uvFormat: 's16' }), 'x.mesh');
  assert.equal(m.info.layouts[0]!.attributes[0]!.typeName, 'f16x4');
  assert.equal(m.info.layouts[0]!.strides[0], 16, 'seed 004: stream A is 16 bytes with half positions');
  const d = decodeMmshMesh(m, 0);
  const p = strip(4, 1, 2);
  [...d.positions!].forEach((x, i) => assert.ok(Math.abs(x - (p.positions[i] as number)) < 0.05, `${x} vs ${p.positions[i]}`));
  assert.ok(d.uvRanges.get(0));
  [...d.uvs.get(0)!].forEach((x, i) => assert.ok(Math.abs(x - (p.uvs![i] as number)) < 1e-4));
  assert.deepEqual(
    [...d.positionW!].every((w) => w === 1),
    true,
  );
});

test('mmsh writer: bad input is BAD_ARGUMENT', () => {
  const p = strip(1, 0, 1);
  expectArch06Error(() => writeMmsh({ blocks: [{ parts: [{ ...p, indices: [0, 1, 9] }] }], bones }), 'BAD_ARGUMENT', {
    field: 'blocks[0].parts[0].indices[2]',
  });
  expectArch06Error(() => writeMmsh({ blocks: [{ parts: [{ ...p, joints: [7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }] }], bones }), 'BAD_ARGUMENT', {
    field: /joints/,
  });
  expectArch06Error(() => writeMmsh({ blocks: [{ parts: [p] }], bones: [{ ...bones![0]!, parent: 2 }] }), 'BAD_ARGUMENT', { field: 'bones[0].parent' });
  expectArch06Error(() => writeMmsh({ blocks: [{ parts: [p] }], groups: [{ id: 1, chain: [{ block: 3, material: 0, distance: 0 }] }] }), 'BAD_ARGUMENT', {
    field: /block/,
  });
});

// ---- corruption ---------------------------------------------------------------------------------

function expectError(f: () => unknown, code: string, field?: string | RegExp): Arch06Error {
  const e = expectArch06Error(f, code, { field });
  assert.equal(e.file, 'x.mesh');
  assert.equal(typeof e.offset, 'number', e.message);
  return e;
}

/** Parse, then decode every mesh: the whole reading path a viewer takes. */
function readAll(bytes: Uint8Array): Mmsh {
  const m = parseMmsh(bytes, 'x.mesh');
  for (const x of m.info.meshes) decodeMmshMesh(m, x.index);
  return m;
}

/** Only Arch06Error may escape. */
function onlyArch06(f: () => unknown, what: string): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof Arch06Error)) assert.fail(`${what}: ${(e as Error).stack ?? e}`);
  }
}

test('mmsh: every truncation of a synthetic file is TRUNCATED; shortened sections are typed errors', () => {
  const b = synthetic();
  for (let n = 0; n < b.length; n++) expectError(() => parseMmsh(b.subarray(0, n), 'x.mesh'), 'TRUNCATED');
  // Cut k bytes out of the info section and shrink infoSize to match: the section no longer closes.
  const infoAt = 20 + Buffer.from(b).readUInt32LE(8);
  const infoSize = Buffer.from(b).readUInt32LE(12);
  for (let cut = 1; cut < infoSize; cut += 3) {
    const c = Buffer.concat([b.subarray(0, infoAt + infoSize - cut), b.subarray(infoAt + infoSize)]);
    c.writeUInt32LE(infoSize - cut, 12);
    onlyArch06(() => {
      parseMmsh(c, 'x.mesh');
      assert.fail(`cut ${cut} of the info section parsed`);
    }, `cut ${cut}`);
  }
});

test('mmsh: the real sample cut short at many offsets gives TRUNCATED', { skip: MESH.skip }, () => {
  const bytes = fs.readFileSync(MESH.path);
  const rnd = prng(17);
  for (let i = 0; i < 300; i++) {
    const n = i < 100 ? i * 83 : Math.floor(rnd() * bytes.length);
    expectError(() => parseMmsh(bytes.subarray(0, n), 'x.mesh'), 'TRUNCATED');
  }
});

test('mmsh: header, section and record faults name the field', () => {
  const base = Buffer.from(synthetic());
  const patch = (at: number, v: number, signed = false): Buffer => {
    const c = Buffer.from(base);
    if (signed) c.writeInt32LE(v, at);
    else c.writeUInt32LE(v >>> 0, at);
    return c;
  };
  const descAt = 20;
  const infoAt = 20 + base.readUInt32LE(8);
  const dataAt = infoAt + base.readUInt32LE(12);
  expectError(() => parseMmsh(patch(0, 0x4853444d), 'x.mesh'), 'BAD_MAGIC', 'header.magic');
  expectError(() => parseMmsh(patch(4, 16), 'x.mesh'), 'UNSUPPORTED_VERSION', 'header.version');
  expectError(() => parseMmsh(Buffer.concat([base, Buffer.alloc(1)]), 'x.mesh'), 'INVALID', 'header.sizes');
  expectError(() => parseMmsh(patch(descAt, 1), 'x.mesh'), 'BAD_MAGIC', 'desc.sectionId');
  expectError(() => parseMmsh(patch(infoAt, 1), 'x.mesh'), 'BAD_MAGIC', 'info.sectionId');
  expectError(() => parseMmsh(patch(dataAt, 1), 'x.mesh'), 'BAD_MAGIC', 'data.sectionId');
  // Counts far beyond the section: refused before anything is allocated.
  expectError(() => parseMmsh(patch(descAt + 4, 0xffffffff), 'x.mesh'), 'OUT_OF_RANGE', 'desc.connectionCount');
  expectError(() => parseMmsh(patch(infoAt + 0x04, 0x7fffffff), 'x.mesh'), 'OUT_OF_RANGE', 'info.lodGroupCount');
  expectError(() => parseMmsh(patch(infoAt + 0x10, 0x10000000), 'x.mesh'), 'INVALID', 'info.meshCount');
  expectError(() => parseMmsh(patch(infoAt + 0x40, 5), 'x.mesh'), 'INVALID', 'info.boneSectionSize');
  // desc and info disagree on the block sizes.
  expectError(() => parseMmsh(patch(descAt + 12 + 8 * 3, base.readUInt32LE(descAt + 12 + 8 * 3) + 4), 'x.mesh'), 'INVALID', 'info.lods[0].vertexBytes');
  // Connection naming a block that does not exist (info fixed 72 + 1 group id).
  const conn0 = infoAt + 72 + 4;
  expectError(() => parseMmsh(patch(conn0 + 4, 9, true), 'x.mesh'), 'OUT_OF_RANGE', 'info.connections[0].lod');
  expectError(() => parseMmsh(patch(conn0, 3, true), 'x.mesh'), 'OUT_OF_RANGE', 'info.connections[0].lodGroup');
  // MeshInfo 0 (after 3 connections and 2 LodInfos): layout index out of range, vertices past the block.
  const mesh0 = conn0 + 3 * 16 + 2 * 48;
  expectError(() => parseMmsh(patch(mesh0 + 36, 7), 'x.mesh'), 'OUT_OF_RANGE', 'info.meshes[0].layout');
  expectError(() => parseMmsh(patch(mesh0 + 8, 1000), 'x.mesh'), 'OUT_OF_RANGE', 'info.meshes[0].vertexByteOffset');
  expectError(() => parseMmsh(patch(mesh0 + 16, 999), 'x.mesh'), 'OUT_OF_RANGE', 'info.meshes[0].indexCount');
  // Bone parent outside the list (bone section at the end of the info section).
  const bone0 = dataAt - 4 * 40;
  const badParent = Buffer.from(base);
  badParent.writeInt16LE(40, bone0 + 4);
  expectError(() => parseMmsh(badParent, 'x.mesh'), 'OUT_OF_RANGE', 'info.bones[0].parent');
});

test('mmsh: decode faults: index outside the mesh, palette value outside the bones, blend index outside the palette', () => {
  const base = Buffer.from(synthetic());
  const m = parseMmsh(base, 'x.mesh');
  const faces = m.data.faceBlocks[0]!.offset;
  const c1 = Buffer.from(base);
  c1.writeUInt16LE(60000, faces + 4);
  expectError(() => decodeMmshMesh(parseMmsh(c1, 'x.mesh'), 0), 'OUT_OF_RANGE', 'mesh[0].indices[2]');
  const c2 = Buffer.from(base);
  c2[m.data.paletteBlocks[0]!.offset] = 200;
  expectError(() => decodeMmshMesh(parseMmsh(c2, 'x.mesh'), 0), 'OUT_OF_RANGE', 'mesh[0].palette[0]');
  // Blend index 9 in a 2-entry palette: that attribute fails, the others decode.
  const c3 = Buffer.from(base);
  c3[m.data.vertexBlocks[0]!.offset + 20] = 9;
  const d = decodeMmshMesh(parseMmsh(c3, 'x.mesh'), 0);
  const failed = d.attributes.filter((a) => a.status === 'failed');
  assert.deepEqual(
    failed.map((a) => [a.semantic, a.error?.code]),
    [['indices', 'OUT_OF_RANGE']],
  );
  assert.ok(d.positions && d.normals && d.weights && !d.blendIndices);
});

test('mmsh: an unknown type code fails that attribute only; its size is taken from the data', () => {
  const base = Buffer.from(synthetic());
  const m = parseMmsh(base, 'x.mesh');
  const layoutAt = m.info.layouts[0]!.offset;
  assert.equal(base.readUInt32LE(layoutAt - 4), MMSH_LAYOUT_SECTION_ID);
  // Layout 0 attribute 2 is the normal (f32x3): give it type code 7.
  const a = m.info.layouts[0]!.attributes[2]!;
  assert.equal(a.semanticName, 'normal');
  const c = Buffer.from(base);
  c[a.offset + 1] = 7;
  const u = parseMmsh(c, 'x.mesh');
  assert.equal(u.info.layouts[0]!.stride, undefined);
  assert.equal(u.confidence, 'uncertain');
  assert.ok(u.notes.some((n) => /unknown type code 7/.test(n)));
  const d = decodeMmshMesh(u, 0);
  const normal = d.attributes.find((x) => x.semantic === 'normal')!;
  assert.equal(normal.status, 'failed');
  assert.equal(normal.error?.code, 'INVALID');
  assert.equal(d.normals, undefined);
  const ref = decodeMmshMesh(m, 0);
  assert.deepEqual(d.tangents, ref.tangents, 'the attributes after it still decode (size 12 from the data)');
  assert.deepEqual(d.colors, ref.colors);
  assert.deepEqual(d.positions, ref.positions);
  assert.ok(d.notes.some((n) => /taken as 12 bytes/.test(n)));
});

test('mmsh: random byte mutations only ever throw Arch06Error', () => {
  const base = synthetic();
  const rnd = prng(20240601);
  for (let i = 0; i < 3000; i++) {
    const c = Uint8Array.from(base);
    const n = 1 + Math.floor(rnd() * 6);
    for (let k = 0; k < n; k++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256);
    onlyArch06(() => readAll(c), `mutation ${i}`);
  }
});

test("mmsh: random mutations of the real sample's header, desc and info sections only ever throw Arch06Error", { skip: MESH.skip }, () => {
  const base = fs.readFileSync(MESH.path);
  const infoEnd = 20 + base.readUInt32LE(8) + base.readUInt32LE(12);
  const rnd = prng(99);
  for (let i = 0; i < 400; i++) {
    const c = Uint8Array.from(base);
    const n = 1 + Math.floor(rnd() * 4);
    for (let k = 0; k < n; k++) c[Math.floor(rnd() * infoEnd)] = Math.floor(rnd() * 256);
    onlyArch06(() => parseMmsh(c, 'x.mesh'), `mutation ${i}`);
  }
});
