/**
 * Meshes and prefabs: MMSH v17 (every section, the vertex streams decoded, the model with its
 * skeleton, the glTF export and the webview's wire form), SKEL v17 (bones, parts, masks, sockets,
 * the hierarchy, the decoded text, the dictionary's names, the skeleton-only model), PRFB v8
 * (`.inst`) and MESH v5 (`.wldmsh`): the header words, LOD records, the tables located by search,
 * the model when every check passes. Seeds: the sample sword, the retail Eltariel head mesh and
 * skeleton, the writers' prefab and world mesh, and the retail layers' prefabs.
 */
import { Arch06Error } from '../../core/errors';
import { parseMmsh, parseSkel, skelBonesByHash } from '../../core/formats/mesh';
import { parsePrfb, parseWorldMesh, samplePrefabInput, sampleWorldMeshInput, writePrfb, writeWorldMesh } from '../../core/formats/prefab';
import { HashDictionary } from '../../core/hash';
import { meshModelFromSkel, meshModelWithSkeleton, readPrefabLike, toWireModel, writeGlb } from '../../core/model';
import { addSkeletonNames } from '../../core/nameSources';
import { sampleSwordMesh, sampleSwordSkeleton } from '../../core/sample';
import { renderText } from '../../core/text';
import type { Seed } from '../mutate';
import { realFilesEnding, realSample } from '../samples';
import { type FuzzCase, type FuzzTarget, withFields } from '../target';

const skeletons = (): { name: string; bytes: Uint8Array }[] => {
  const out = [{ name: 'sample sword .skel', bytes: sampleSwordSkeleton() }];
  const real = realSample('player_eltariel_head.skel');
  if (real) out.push({ name: 'player_eltariel_head.skel (retail)', bytes: real });
  return out;
};

/** The model and what is made from it; a glTF export may refuse a model with a typed error. */
function exportModel(model: Parameters<typeof writeGlb>[0]): unknown {
  const wire = toWireModel(model);
  try {
    return { wire, glb: writeGlb(model) };
  } catch (e) {
    if (!(e instanceof Arch06Error)) throw e;
    return { wire, refused: e.code };
  }
}

export const mmsh: FuzzTarget = {
  name: 'mmsh',
  covers: 'MMSH v17 meshes: sections, LODs, vertex streams decoded, the model with its skeleton, glTF and the wire form',
  seeds: () => {
    const seed = (name: string, bytes: Uint8Array): Seed => withFields(name, bytes, (b, spans) => parseMmsh(b, name, { spans }));
    const out = [seed('sample sword .mesh', sampleSwordMesh())];
    const real = realSample('player_eltariel_head.mesh');
    if (real) out.push(seed('player_eltariel_head.mesh (retail)', real));
    return out;
  },
  run: (c: FuzzCase) => {
    const mesh = parseMmsh(c.bytes, 'fuzz.mesh');
    // The skeleton beside it: the one that matches the seed, or the other (bones that are not the mesh's).
    const skels = skeletons();
    const pick = c.seed.name.includes('eltariel') === c.rnd.chance(0.8) ? skels[skels.length - 1] : skels[0];
    const skel = c.rnd.chance(0.9) ? parseSkel(pick.bytes, pick.name) : undefined;
    const m = meshModelWithSkeleton(mesh, { skel, from: pick.name, note: skel ? undefined : 'no skeleton' }, 'fuzz');
    return { mesh, m, out: exportModel(m.model) };
  },
};

export const skel: FuzzTarget = {
  name: 'skel',
  covers: 'SKEL v17 skeletons: bones, parts, masks, sockets, the hierarchy, the decoded text, names, the skeleton model',
  seeds: () => skeletons().map((s) => withFields(s.name, s.bytes, (b, spans) => parseSkel(b, s.name, { spans }))),
  run: (c) => {
    const s = parseSkel(c.bytes, 'fuzz.skel');
    const byHash = skelBonesByHash(s);
    const text = renderText('skeleton', c.bytes, 'fuzz.skel');
    const dict = new HashDictionary();
    addSkeletonNames(dict, s);
    const model = meshModelFromSkel(s, 'fuzz');
    return { s, byHash, text, dict, out: exportModel(model) };
  },
};

function prefabSeeds(kind: 'PRFB' | 'MESH'): Seed[] {
  if (kind === 'MESH') {
    const w = writeWorldMesh(sampleWorldMeshInput()).bytes;
    return [withFields('writer: world mesh', w, (b, spans) => parseWorldMesh(b, 'seed.wldmsh', { spans }))];
  }
  const seed = (name: string, bytes: Uint8Array): Seed => withFields(name, bytes, (b, spans) => parsePrfb(b, name, { spans }));
  return [seed('writer: sample prefab', writePrfb(samplePrefabInput()).bytes), ...realFilesEnding('.inst').map((f) => seed(`${f.name} (retail)`, f.bytes))];
}

function readPrefab(c: FuzzCase, kind: 'PRFB' | 'MESH'): unknown {
  const r = readPrefabLike(c.bytes, kind === 'PRFB' ? 'fuzz.inst' : 'fuzz.wldmsh', 'fuzz', kind);
  return { r, out: r.model ? exportModel(r.model) : undefined };
}

export const prfb: FuzzTarget = {
  name: 'prfb',
  covers: 'PRFB v8 prefabs (.inst): header words, LOD groups and units, the tables found by search, the model when checkable',
  seeds: () => prefabSeeds('PRFB'),
  run: (c) => readPrefab(c, 'PRFB'),
};

export const worldMesh: FuzzTarget = {
  name: 'mesh',
  covers: 'MESH v5 world meshes (.wldmsh): header, tables found by search, draws decoded into a model when checkable',
  seeds: () => prefabSeeds('MESH'),
  run: (c) => readPrefab(c, 'MESH'),
};
