// A mesh with its sibling skeleton, as the CLI and the mesh editor load it: found, missing, not
// parsing, not matching, and the reader's own errors.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { formatHash, stringHash } from '../../hash/stringHash';
import { parseMmsh } from '../../formats/mesh/mmsh/reader';
import { parseSkel } from '../../formats/mesh/skel/reader';
import { writeSkel } from '../../formats/mesh/skel/writer';
import { SAMPLE_MESH, SAMPLE_SKELETON, SAMPLE_SWORD_BONES, sampleSwordMesh, sampleSwordSkeleton } from '../../sample/sampleGame';
import { findSiblingSkeleton, loadMeshWithSkeleton, meshModelWithSkeleton, siblingSkeletonPath } from '../meshWithSkeleton';

const mmsh = (): ReturnType<typeof parseMmsh> => parseMmsh(sampleSwordMesh(), SAMPLE_MESH);

test('siblingSkeletonPath: same folder and stem, either separator; a dot in a folder is not an extension', () => {
  assert.equal(siblingSkeletonPath(SAMPLE_MESH), SAMPLE_SKELETON);
  assert.equal(siblingSkeletonPath('/a/b/x.mesh'), '/a/b/x.skel');
  assert.equal(siblingSkeletonPath('/a/b.c/x'), '/a/b.c/x.skel');
});

test('loadMeshWithSkeleton: the sibling names the bones and is reported as the reader names it', async () => {
  const asked: string[] = [];
  const r = await loadMeshWithSkeleton(
    mmsh(),
    SAMPLE_MESH,
    'sample_sword.mesh',
    (p) => (asked.push(p), { bytes: sampleSwordSkeleton(), from: 'Base:sword.skel' }),
  );
  assert.deepEqual(asked, [SAMPLE_SKELETON]);
  assert.equal(r.matches, true);
  assert.equal(r.skeleton.from, 'Base:sword.skel');
  assert.equal(r.skeleton.note, undefined);
  assert.equal(r.model.skeleton?.from, 'skel');
  assert.deepEqual(
    r.model.skeleton?.bones.map((b) => b.name),
    SAMPLE_SWORD_BONES.map((b) => b.name),
  );
  assert.equal(r.model.name, 'sample_sword.mesh');
});

test('loadMeshWithSkeleton: without a sibling, or with one that does not parse, bones by hash and a note', async () => {
  const hashes = SAMPLE_SWORD_BONES.map((b) => formatHash(stringHash(b.name)));
  const none = await loadMeshWithSkeleton(mmsh(), SAMPLE_MESH, 'sword', () => undefined);
  assert.equal(none.matches, false);
  assert.equal(none.skeleton.note, 'no sample_sword.skel beside the mesh: bones are shown by hash');
  assert.deepEqual(
    none.model.skeleton?.bones.map((b) => b.name),
    hashes,
  );
  assert.ok(!none.model.notes.includes(none.skeleton.note!), 'the note is the caller’s to place');
  const bad = await loadMeshWithSkeleton(mmsh(), SAMPLE_MESH, 'sword', async () => ({ bytes: new Uint8Array(8), from: 'x' }));
  assert.equal(bad.skeleton.skel, undefined);
  assert.match(bad.skeleton.note!, /^sample_sword\.skel does not parse \(.+\): bones are shown by hash$/);
  assert.deepEqual(
    bad.model.skeleton?.bones.map((b) => b.name),
    hashes,
  );
});

test('findSiblingSkeleton: a reader error that is bad input becomes the note; any other error propagates', async () => {
  const capped = await findSiblingSkeleton(SAMPLE_MESH, () => {
    throw new Arch06Error('TRUNCATED', 'over the entry cap', { file: SAMPLE_SKELETON });
  });
  assert.match(capped.note!, /sample_sword\.skel does not parse \(.*over the entry cap.*\)/);
  await assert.rejects(
    findSiblingSkeleton(SAMPLE_MESH, () => {
      throw new Error('disk on fire');
    }),
    /disk on fire/,
  );
});

test('meshModelWithSkeleton: a skeleton whose bones are not the mesh’s is not used (matches false)', () => {
  const other = writeSkel({ bones: [{ name: 'Other_Root', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1] }] });
  const lookup = { skel: parseSkel(other, 'other.skel'), from: 'other.skel' };
  const r = meshModelWithSkeleton(mmsh(), lookup, 'sword');
  assert.equal(r.matches, false);
  assert.notEqual(r.model.skeleton?.from, 'skel');
  assert.equal(r.skeleton, lookup);
});
