import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Arch06Error } from '../../../errors';
import { stringHash } from '../../../hash/stringHash';
import { parseSkel } from '../skel/reader';
import { breadthFirstOrder, skelBonesByHash } from '../skel/hierarchy';
import { parseMmsh } from '../mmsh/reader';
import { decodeMmshMesh } from '../mmsh/vertices';
import { SkelWriteInput, writeSkel } from '../skel/writer';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';
import { sharedPath } from '../../../../test/support/shared';

const SKEL = sharedPath('samples/real/player_eltariel_head.skel');
const MESH = sharedPath('samples/real/player_eltariel_head.mesh');

// ---- the real sample -------------------------------------------------------------------------
// Oracles: seed 004's header identities and markers, and the sample's own bytes (read by hand).

test('skel: the real player_eltariel_head.skel parses completely; the seed 004 header identities hold', { skip: SKEL.skip }, () => {
  const bytes = fs.readFileSync(SKEL.path);
  const s = parseSkel(bytes, SKEL.path);
  const w = (i: number): number => bytes.readUInt32LE(4 + 4 * i);
  assert.equal(bytes.toString('latin1', 0, 4), 'SKEL');
  assert.equal(w(0), 17);
  assert.equal(w(1), 64);
  assert.equal(w(3), w(6) + w(7), 'string count = [6] + [7]');
  assert.equal(w(5), 37 * w(4), 'bone bytes = 37 x bone count');
  assert.equal(w(9), w(4), 'bone count repeated');
  assert.equal(s.bones.length, w(4));
  assert.equal(s.bones.length, 142);
  assert.equal(s.header.stringCount, 9);
  assert.equal(s.parts.length, 8);
  assert.equal(s.anixNames.length, 1);
  // Seed 004: the five markers in order (searched here in the raw bytes, one after another).
  let from = 0;
  const markerAt: number[] = [];
  for (const id of [0xdcdcff00, 0xdcdcff01, 0xdcdcff02, 0xdcdcff03, 0xdcdcff04]) {
    const le = Buffer.alloc(4);
    le.writeUInt32LE(id);
    const at = bytes.indexOf(le, from);
    assert.ok(at > from, `marker ${id.toString(16)} after ${from}`);
    markerAt.push(at);
    from = at + 4;
  }
  assert.deepEqual(
    s.sections.slice(0, 5).map((x) => x.offset),
    markerAt,
  );
  // The sections follow each other without gaps, the footer runs to the end of the file.
  for (let i = 1; i < s.sections.length; i++) assert.equal(s.sections[i]!.offset, s.sections[i - 1]!.end);
  assert.equal(s.sections[s.sections.length - 1]!.end, bytes.length);
  assert.deepEqual(
    s.sections.map((x) => x.name),
    ['bones', 'model', 'animationTypes', 'boneBytes', 'cloth', 'unknown05', 'footer'],
  );
  assert.equal(s.footer.tag, 'SKPY');
  assert.equal(s.footer.trailing.size, 8);
  // The mesh parts start at 0x60 and end where 0xDCDCFF00 begins.
  assert.equal(s.parts[0]!.offset, 0x60);
  assert.equal(
    s.parts.reduce((e, p) => e + 4 + 14 * p.entries.length, 0x60),
    markerAt[0],
  );
  // The blob starts with a NUL; every bone has a name.
  assert.equal(bytes[s.strings.offset], 0);
  assert.ok(s.bones.every((b) => b.name.length > 0));
  assert.equal(s.bones[0]!.name, 'Null');
  // Unit quaternions.
  for (const b of s.bones) assert.ok(Math.abs(Math.hypot(...b.rotation) - 1) < 1e-4, `${b.name} ${b.rotation}`);
  // Parents from the depth-first child counts: Head has 128 children, Jaw one (Tongue1).
  const head = s.bones.find((b) => b.name === 'Head')!;
  assert.equal(s.bones.filter((b) => b.parent === head.index).length, 128);
  assert.equal(s.bones.find((b) => b.name === 'Tongue1')!.parent, s.bones.find((b) => b.name === 'Jaw')!.index);
  assert.ok(s.bones.every((b) => b.parent < b.index));
  // Part names (0xDCDCFF01) and the .anix library.
  assert.deepEqual(
    s.parts.map((p) => p.name),
    ['Eltariel_Eyes', 'Eltariel_Lashes', 'Eltariel_Lacrimal', 'Eltariel_Eyeshadow', 'Eltariel_Bangs', 'Eltariel_Head', 'Eltariel_Mouth', 'Eltariel_Hair'],
  );
  assert.match(s.anixNames[0]!, /player_eltariel_head\.anix$/);
  assert.deepEqual(
    s.masks.map((m) => [m.name, m.boneCount]),
    [
      ['Facial', 142],
      ['Null', 142],
      ['Twitch', 142],
    ],
  );
  console.log(
    `player_eltariel_head.skel: ${s.bones.length} bones, ${s.parts.length} parts, ${s.sockets.length} sockets, masks ${s.masks.map((m) => m.name).join('/')}, 0x44 = ${s.header.distance0x44}, bounds ${JSON.stringify(s.header.bounds)}`,
  );
});

test("skel: 0x44 is no radius of the bounds (the seed's reading); it equals the mesh's cull distance", { skip: SKEL.skip || MESH.skip }, () => {
  const s = parseSkel(fs.readFileSync(SKEL.path), SKEL.path);
  const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
  const { min, max } = s.header.bounds;
  const halfDiagonal = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  assert.ok(Math.abs(s.header.distance0x44 - halfDiagonal) > 100, `${s.header.distance0x44} vs ${halfDiagonal}`);
  assert.equal(s.header.distance0x44, m.info.cullDistance);
});

test(
  'skel: names hash (StringHash) to the MMSH bone list, position for position; the name table is breadth-first; palettes index it',
  { skip: SKEL.skip || MESH.skip },
  () => {
    const s = parseSkel(fs.readFileSync(SKEL.path), SKEL.path);
    const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
    assert.deepEqual(
      s.bones.map((b) => stringHash(b.name)),
      m.info.bones.map((b) => b.nameHash),
      'MMSH bone list = SKEL depth-first order',
    );
    assert.deepEqual(
      s.bones.map((b) => b.parent),
      m.info.bones.map((b) => b.parent),
    );
    assert.equal(skelBonesByHash(s).size, 142);
    // Name-table order: bone names in the order the blob stores them.
    const byOffset = [...s.bones].sort((a, b) => a.nameOffset - b.nameOffset).map((b) => b.index);
    assert.deepEqual(s.nameTableOrder, byOffset);
    // An independent breadth-first walk over the MMSH's own parent links (the other file): roots,
    // then each level's children, in index order.
    const parents = m.info.bones.map((b) => b.parent);
    const bfs: number[] = [];
    for (let level = parents.flatMap((p, i) => (p < 0 ? [i] : [])); level.length; level = level.flatMap((p) => parents.flatMap((q, i) => (q === p ? [i] : []))))
      bfs.push(...level);
    assert.deepEqual(byOffset, bfs);
    // The two orders really differ (at 58 positions here), so the check tells breadth-first from depth-first.
    assert.ok(byOffset.filter((b, k) => b !== k).length > 0, 'the name table differs from the depth-first order');
    assert.deepEqual(s.nameTableOrder, breadthFirstOrder(s.bones.map((b) => b.parent)));
    assert.equal(s.nameTableIsBreadthFirst, true);
    // The eye mesh (block 0) palette is [84, 85]: in name-table order R_Eye and L_Eye.
    const eyes = decodeMmshMesh(m, 0);
    assert.deepEqual([...eyes.palette], [84, 85]);
    assert.deepEqual(
      [...eyes.palette].map((p) => s.bones[s.nameTableOrder[p]!]!.name),
      ['R_Eye', 'L_Eye'],
    );
    // Spatially: every mesh's vertices lie nearer to their dominant bone's stored (model-space)
    // position when the palette is read in name-table order than in depth-first order.
    const meanDistance = (mapping: (p: number) => number): number[] =>
      m.info.meshes.map((x) => {
        const d = decodeMmshMesh(m, x.index);
        let sum = 0;
        for (let v = 0; v < d.vertexCount; v++) {
          let best = 0;
          for (let k = 1; k < 4; k++) if (d.weights![4 * v + k]! > d.weights![4 * v + best]!) best = k;
          const t = s.bones[mapping(d.palette[d.blendIndices![4 * v + best]!]!)]!.translation;
          sum += Math.hypot(t[0] - d.positions![3 * v]!, t[1] - d.positions![3 * v + 1]!, t[2] - d.positions![3 * v + 2]!);
        }
        return sum / d.vertexCount;
      });
    const nameTable = meanDistance((p) => s.nameTableOrder[p]!);
    const depthFirst = meanDistance((p) => p);
    nameTable.forEach((d, i) => assert.ok(d <= depthFirst[i]! + 1e-9, `mesh ${i}: ${d} vs ${depthFirst[i]}`));
    assert.ok(nameTable[0]! < 2 && depthFirst[0]! > 5, `eyes: ${nameTable[0]} vs ${depthFirst[0]}`);
    console.log(
      `mean vertex-to-bone distance per mesh (cm), name-table vs depth-first: ${nameTable.map((d, i) => `${d.toFixed(1)}/${depthFirst[i]!.toFixed(1)}`).join(' ')}`,
    );
  },
);

test("skel: the part entries carry the MMSH connections' material slots; flags = flagA << 1 | flagB", { skip: SKEL.skip || MESH.skip }, () => {
  const s = parseSkel(fs.readFileSync(SKEL.path), SKEL.path);
  const m = parseMmsh(fs.readFileSync(MESH.path), MESH.path);
  assert.deepEqual(
    m.info.lodGroupIds,
    s.parts.map((p) => stringHash(p.name)),
  );
  s.parts.forEach((p, g) => {
    const chain = m.lodGroups[g]!.connections.map((c) => m.info.connections[c]!);
    assert.equal(chain.length, p.entries.length);
    p.entries.forEach((e, k) => {
      assert.equal(e.material, chain[k]!.material);
      assert.equal((e.flagA << 1) | e.flagB, chain[k]!.flags);
    });
  });
});

// ---- the writer -------------------------------------------------------------------------------

const input: SkelWriteInput = {
  bones: [
    { name: 'Root', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1] },
    { name: 'Spine', parent: 0, translation: [0, 10, 0], rotation: [0, 0, 0.7071067690849304, 0.7071067690849304] },
    { name: 'Head', parent: 1, translation: [0, 20, 0], rotation: [0, 0, 0, 1], deform: 0 },
    { name: 'Jaw', parent: 2, translation: [0, 18, 2], rotation: [0, 0, 0, 1] },
    { name: 'Arm', parent: 0, translation: [5, 12, 0], rotation: [0, 0, 0, 1] },
  ],
  parts: [
    {
      name: 'Body',
      lods: [
        { distance: 0, material: 0 },
        { distance: 500, material: 1, flagA: 0 },
      ],
    },
    { name: 'Hat', lods: [{ distance: 0, material: 2 }] },
  ],
  anix: ['characters\\x\\x.anix'],
  masks: [{ name: 'Twitch' }, { name: 'Root', values: [6, 6, 6, 6, 6] }],
  sockets: [{ bone: 2, name: 'Hat_Socket', rotation: [0, 0, 0, 1], translation: [0, 25, 0], scale: 1 }],
  distance0x44: 250,
};

test('skel writer: round trip', () => {
  const bytes = writeSkel(input);
  const s = parseSkel(bytes, 'x.skel');
  assert.deepEqual(
    s.bones.map((b) => [b.name, b.parent, b.deform, b.childCount]),
    [
      ['Root', -1, 1, 2],
      ['Spine', 0, 1, 1],
      ['Head', 1, 0, 1],
      ['Jaw', 2, 1, 0],
      ['Arm', 0, 1, 0],
    ],
  );
  assert.deepEqual(
    s.bones.map((b) => b.translation),
    input.bones.map((b) => b.translation),
  );
  assert.deepEqual(
    s.bones.map((b) => b.rotation),
    input.bones.map((b) => b.rotation),
  );
  // Breadth-first name table: Root, Spine, Arm, Head, Jaw.
  assert.deepEqual(s.nameTableOrder, [0, 1, 4, 2, 3]);
  assert.equal(s.nameTableIsBreadthFirst, true);
  assert.deepEqual(
    s.parts.map((p) => [p.name, p.entries.map((e) => [e.distance, e.material, e.flagA, e.flagB])]),
    [
      [
        'Body',
        [
          [0, 0, 1, 1],
          [500, 1, 0, 1],
        ],
      ],
      ['Hat', [[0, 2, 1, 1]]],
    ],
  );
  assert.deepEqual(s.anixNames, input.anix);
  assert.deepEqual(
    s.masks.map((m) => [m.name, m.values]),
    [
      ['Twitch', [1, 1, 1, 1, 1]],
      ['Root', [6, 6, 6, 6, 6]],
    ],
  );
  assert.equal(s.masks[1]!.nameOffset, s.bones[0]!.nameOffset, 'equal strings share one offset');
  assert.deepEqual(
    s.sockets.map((x) => [x.name, x.bone, x.translation]),
    [['Hat_Socket', 2, [0, 25, 0]]],
  );
  assert.equal(s.header.distance0x44, 250);
  assert.deepEqual(s.header.bounds, { min: [0, 0, 0], max: [5, 20, 2] });
  assert.deepEqual(
    s.sections.map((x) => x.name),
    ['bones', 'model', 'animationTypes', 'boneBytes', 'cloth', 'unknown05', 'footer'],
  );
  assert.equal(s.footer.trailing.size, 8);
  // Header identities.
  const b = Buffer.from(bytes);
  assert.equal(b.readUInt32LE(4 + 4 * 3), 1 + 2);
  assert.equal(b.readUInt32LE(4 + 4 * 5), 37 * 5);
});

test('skel: an unknown 0xDCDCFFnn section before the footer is kept raw and the footer still reads', () => {
  const base = writeSkel(input);
  // The writer ends with the footer: 0xDCDCFF99, "SKPY", u32 1, 8 zero bytes.
  const footerAt = base.length - 20;
  assert.equal(Buffer.from(base).readUInt32LE(footerAt), 0xdcdcff99);
  const extra = Buffer.alloc(16);
  extra.writeUInt32LE(0xdcdcff06, 0);
  extra.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 4);
  const bytes = Buffer.concat([base.subarray(0, footerAt), extra, base.subarray(footerAt)]);
  const s = parseSkel(bytes, 'x.skel');
  assert.deepEqual(s.tail, { offset: footerAt, size: 16 });
  assert.deepEqual([...bytes.subarray(s.tail!.offset, s.tail!.offset + s.tail!.size)], [...extra]);
  assert.equal(s.sections[s.sections.length - 1]!.offset, footerAt + 16, 'the footer section starts right after it');
  assert.equal(s.footer.tag, 'SKPY');
  assert.equal(s.footer.value, 1);
  assert.equal(s.footer.trailing.size, 8);
  assert.equal(s.confidence, 'uncertain');
  assert.ok(s.notes.includes('unknown section 0xDCDCFF06 (16 bytes) before the footer, kept raw'), s.notes.join('\n'));
  // Everything before it reads as without it.
  const plain = parseSkel(base, 'x.skel');
  assert.equal(plain.tail, undefined);
  assert.deepEqual(s.bones, plain.bones);
  assert.deepEqual(s.sockets, plain.sockets);
  assert.deepEqual(s.unknown05, plain.unknown05);
  assert.deepEqual(
    s.sections.map((x) => x.name),
    plain.sections.map((x) => x.name),
  );
  // Without a footer after it, the unknown section is not taken: the footer is reported missing.
  expectArch06Error(() => parseSkel(Buffer.concat([base.subarray(0, footerAt), extra]), 'x.skel'), 'BAD_MAGIC', { field: 'footer.sectionId' });
});

test('skel writer: bones not in depth-first order are refused', () => {
  const bones = [input.bones[0]!, { ...input.bones[1]!, parent: 0 }, { ...input.bones[4]!, parent: 0 }, { ...input.bones[2]!, parent: 1 }];
  expectArch06Error(() => writeSkel({ bones }), 'BAD_ARGUMENT', { field: 'bones[2].parent' });
  expectArch06Error(() => writeSkel({ bones: [{ ...input.bones[0]!, name: 'a\0b' }] }), 'BAD_ARGUMENT', { field: 'bones[0].name' });
});

// ---- corruption ---------------------------------------------------------------------------------

function onlyArch06(f: () => unknown, what: string): Arch06Error | undefined {
  try {
    f();
  } catch (e) {
    if (!(e instanceof Arch06Error)) assert.fail(`${what}: ${(e as Error).stack ?? e}`);
    return e;
  }
  return undefined;
}

test('skel: every truncation of a synthetic file is a typed error naming a field', () => {
  const b = writeSkel(input);
  for (let n = 0; n < b.length; n++) {
    const e = expectArch06Error(() => parseSkel(b.subarray(0, n), 'x.skel'), 'TRUNCATED');
    assert.ok(e.field, `cut at ${n}: ${e.message}`);
    assert.equal(e.file, 'x.skel');
  }
});

test('skel: the real sample cut at every offset is TRUNCATED', { skip: SKEL.skip }, () => {
  const b = fs.readFileSync(SKEL.path);
  for (let n = 0; n < b.length; n++) expectArch06Error(() => parseSkel(b.subarray(0, n), 'x.skel'), 'TRUNCATED');
});

test('skel: header and record faults', () => {
  const base = Buffer.from(writeSkel(input));
  const patch = (at: number, v: number): Buffer => {
    const c = Buffer.from(base);
    c.writeUInt32LE(v >>> 0, at);
    return c;
  };
  const word = (i: number): number => 4 + 4 * i;
  expectArch06Error(() => parseSkel(patch(0, 0x4c454b54), 'x.skel'), 'BAD_MAGIC', { field: 'header.magic' });
  expectArch06Error(() => parseSkel(patch(word(0), 16), 'x.skel'), 'UNSUPPORTED_VERSION', { field: 'header.version' });
  expectArch06Error(() => parseSkel(patch(word(5), 37 * 5 + 1), 'x.skel'), 'INVALID', { field: 'header.boneBytes' });
  expectArch06Error(() => parseSkel(patch(word(9), 4), 'x.skel'), 'INVALID', { field: 'header.boneCountAgain' });
  expectArch06Error(() => parseSkel(patch(word(3), 4), 'x.skel'), 'INVALID', { field: 'header.stringCount' });
  expectArch06Error(() => parseSkel(patch(word(7), 0x40000000), 'x.skel'), 'INVALID', { field: 'header.stringCount' });
  expectArch06Error(() => parseSkel(patch(word(4), 0x10000000), 'x.skel'), 'INVALID', { field: 'header.boneBytes' });
  // A count the rest of the file cannot hold: refused before anything is read or allocated.
  const huge = patch(word(4), 0x01000000);
  huge.writeUInt32LE(37 * 0x01000000, word(5));
  huge.writeUInt32LE(0x01000000, word(9));
  expectArch06Error(() => parseSkel(huge, 'x.skel'), 'TRUNCATED', { field: 'header.boneCount' });
  const s = parseSkel(base, 'x.skel');
  // A bone name offset outside the blob; a child count the file cannot satisfy.
  expectArch06Error(() => parseSkel(patch(s.bones[1]!.offset, 5000), 'x.skel'), 'OUT_OF_RANGE', { field: 'bones[1].nameOffset' });
  expectArch06Error(() => parseSkel(patch(s.bones[4]!.offset + 33, 2), 'x.skel'), 'INVALID', { field: 'bones.childCount' });
  expectArch06Error(() => parseSkel(patch(s.bones[4]!.offset + 33, 900), 'x.skel'), 'OUT_OF_RANGE', { field: 'bones[4].childCount' });
  // Socket bone outside the skeleton; a section marker overwritten; trailing garbage.
  expectArch06Error(() => parseSkel(patch(s.sockets[0]!.offset, 9), 'x.skel'), 'OUT_OF_RANGE', { field: 'sockets[0].bone' });
  expectArch06Error(() => parseSkel(patch(s.sections[1]!.offset, 0x12345678), 'x.skel'), 'BAD_MAGIC', { field: 'model.sectionId' });
  const trailing = parseSkel(Buffer.concat([base, Buffer.from([1, 2, 3])]), 'x.skel');
  assert.equal(trailing.confidence, 'uncertain');
  assert.equal(trailing.footer.trailing.size, 11);
});

test('skel: random byte mutations only ever throw Arch06Error', () => {
  const base = writeSkel(input);
  const rnd = prng(4242);
  for (let i = 0; i < 4000; i++) {
    const c = Uint8Array.from(base);
    const n = 1 + Math.floor(rnd() * 5);
    for (let k = 0; k < n; k++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256);
    onlyArch06(() => parseSkel(c, 'x.skel'), `mutation ${i}`);
  }
});

test('skel: random mutations of the real sample only ever throw Arch06Error', { skip: SKEL.skip }, () => {
  const base = fs.readFileSync(SKEL.path);
  const rnd = prng(7);
  for (let i = 0; i < 1500; i++) {
    const c = Uint8Array.from(base);
    const n = 1 + Math.floor(rnd() * 4);
    for (let k = 0; k < n; k++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256);
    onlyArch06(() => parseSkel(c, 'x.skel'), `mutation ${i}`);
  }
});
