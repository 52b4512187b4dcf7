/**
 * Mesh commands: `mesh <root> <path>` reads a .mesh (MMSH) or .skel (SKEL) entry from the mount
 * (the winning copy, or --source S), `mesh-file <file>` one from disk. For a mesh the skeleton is
 * `--skel` (a game path for `mesh`, a disk path for `mesh-file`) or, by default, the `.skel`
 * with the same folder and stem; when there is none (or it does not parse) bones are shown by
 * hash. `--json` prints, per data block (one vertex + face block each), its vertex and triangle
 * counts and its meshes, the materials, the LOD groups and levels, the layouts and the bones;
 * `--glb OUT` writes LOD 0 as glTF binary (core/model/glb.ts).
 *
 * `.inst` (PRFB v8 prefabs) and `.wldmsh` (MESH v5 world meshes), or any file with those magics,
 * print their structure as read from seed 001 alone (core/formats/prefab/prfb.ts, worldMesh.ts): the
 * header words with the seed's labels, the LOD records and groups, the tables and buffers with
 * how they were located (all uncertain), what could not be located and why, and, when the
 * geometry is checkable, the model's LODs (`--glb` then writes LOD 0).
 */
import * as path from 'node:path';
import { Arch06Error, isArch06Error } from '../../core/errors';
import { defaultHasher, formatHash } from '../../core/hash';
import { parseMmsh, Mmsh, parseSkel, Skel, skelBonesByHash, MMSH_MAGIC, MMSH_VERSION, SKEL_MAGIC, SKEL_VERSION } from '../../core/formats/mesh';
import { meshModelFromSkel, SkeletonLookup, findSiblingSkeleton, meshModelWithSkeleton, MeshModel } from '../../core/model';
import { FieldReader } from '../../core/io';
import { PRFB_MAGIC, PRFB_VERSION, MESH_MAGIC, WORLD_MESH_VERSION, parsePrfb, parseWorldMesh } from '../../core/formats/prefab';
import { Mount } from '../../core/archive';
import type { SourceEntry } from '../../core/archive';
import { ParsedArgs, flagString, need } from '../args';
import { escapeControls, escapeName, printJson, refuseInsideInstall, writeOut } from '../output';
import { readEntryChecked, readFileChecked } from '../limits';
import { openMount } from './mountCommands';
import { writeGlbOption } from './meshGlb';
import { prefabKind, showPrefabLike } from './meshPrefab';

const isSkelPath = (p: string): boolean => /\.skel$/i.test(p);

type MeshKind = 'MMSH' | 'SKEL' | 'PRFB' | 'MESH';
const HEADERS: Record<MeshKind, { magic: number; version: number; parse: (b: Uint8Array, f: string) => unknown }> = {
  MMSH: { magic: MMSH_MAGIC, version: MMSH_VERSION, parse: parseMmsh },
  SKEL: { magic: SKEL_MAGIC, version: SKEL_VERSION, parse: parseSkel },
  PRFB: { magic: PRFB_MAGIC, version: PRFB_VERSION, parse: parsePrfb },
  MESH: { magic: MESH_MAGIC, version: WORLD_MESH_VERSION, parse: parseWorldMesh },
};

/**
 * The header check the parsers start with (magic at 0, version at 4), on the first bytes only,
 * so a non-mesh is refused before the whole entry is read and decoded. `expect`: the kinds the
 * name allows (a .skel is a SKEL, a .inst a PRFB, a .wldmsh a MESH, anything else an MMSH or,
 * by magic, a PRFB or MESH). On a mismatch the expected parser runs on the prefix and throws the
 * format's own magic or version error.
 */
function checkMeshHeader(prefix: Uint8Array, file: string, expect: MeshKind[] = expectedKinds(file)): void {
  if (prefix.length < 8) return; // the whole entry is this short: the parser reports it
  const head = new FieldReader(prefix, file);
  const magic = head.u32At(0, 'header.magic');
  const version = head.u32At(4, 'header.version');
  if (expect.some((k) => HEADERS[k].magic === magic && HEADERS[k].version === version)) return;
  const k = expect.find((x) => HEADERS[x].magic === magic) ?? expect[0]!;
  HEADERS[k].parse(prefix, file);
  throw new Arch06Error('BAD_MAGIC', `not a ${expect.join(' or ')} file`, { file, offset: 0, field: 'header.magic' });
}

function expectedKinds(p: string): MeshKind[] {
  if (isSkelPath(p)) return ['SKEL'];
  if (/\.inst$/i.test(p)) return ['PRFB'];
  if (/\.wldmsh$/i.test(p)) return ['MESH'];
  return ['MMSH', 'PRFB', 'MESH'];
}

function noExtra(args: ParsedArgs, own: number): void {
  const extra = args.positionals.slice(own);
  if (extra.length) throw new Arch06Error('BAD_ARGUMENT', `unexpected argument ${JSON.stringify(extra[0])}`);
}

export async function meshCommand(args: ParsedArgs): Promise<number> {
  noExtra(args, 2);
  const m = openMount(args);
  try {
    refuseInsideInstall(flagString(args, 'glb'), m.root, 'glb');
    const p = need(args, 1, '<path>');
    const bytes = readEntryChecked(m.entry(p, flagString(args, 'source')), p, (prefix) => checkMeshHeader(prefix, p));
    const forbid = m.readOnlyPlaces();
    if (isSkelPath(p)) return showSkel(parseSkel(bytes, p), args, forbid);
    const kind = prefabKind(p, bytes);
    if (kind) return showPrefabLike(bytes, p, kind, args, forbid);
    const mmsh = parseMmsh(bytes, p);
    return showMesh(mmsh, await mountSkeleton(m, p, flagString(args, 'skel')), args, forbid);
  } finally {
    m.close();
  }
}

export async function meshFileCommand(args: ParsedArgs): Promise<number> {
  noExtra(args, 1);
  const file = need(args, 0, '<file.mesh|file.skel|file.inst|file.wldmsh>');
  const bytes = readFileChecked(file, (prefix) => checkMeshHeader(prefix, file));
  if (isSkelPath(file)) return showSkel(parseSkel(bytes, file), args, []);
  const kind = prefabKind(file, bytes);
  if (kind) return showPrefabLike(bytes, file, kind, args, []);
  const mmsh = parseMmsh(bytes, file);
  return showMesh(mmsh, await diskSkeleton(file, flagString(args, 'skel')), args, []);
}

/** `--skel` (a game path), else the mesh's sibling `.skel` in the mount (its winning copy). */
async function mountSkeleton(m: Mount, meshPath: string, explicit: string | undefined): Promise<SkeletonLookup> {
  const readSkel = (e: SourceEntry, p: string): Uint8Array => readEntryChecked(e, p, (prefix) => checkMeshHeader(prefix, p, ['SKEL']));
  if (explicit !== undefined) return { skel: parseSkel(readSkel(m.entry(explicit), explicit), explicit), from: explicit };
  return findSiblingSkeleton(meshPath, (sibling) => {
    const e = m.winner(sibling);
    return e ? { bytes: readSkel(e, sibling), from: e.path } : undefined;
  });
}

const readSkelFile = (f: string): Uint8Array => readFileChecked(f, (prefix) => checkMeshHeader(prefix, f, ['SKEL']));

/** `--skel` (a disk path), else the `.skel` beside the mesh file. */
async function diskSkeleton(meshFile: string, explicit: string | undefined): Promise<SkeletonLookup> {
  if (explicit !== undefined) return { skel: parseSkel(readSkelFile(explicit), explicit), from: explicit };
  return findSiblingSkeleton(meshFile, (sibling) => {
    try {
      return { bytes: readSkelFile(sibling), from: sibling };
    } catch (err) {
      // A file that is not there (or not a regular file) is no skeleton; a bad one is reported.
      if (isArch06Error(err)) throw err;
      return undefined;
    }
  });
}

/** The JSON description of a mesh (see the file comment). */
function describeMesh(mmsh: Mmsh, lookup: SkeletonLookup, model: MeshModel): Record<string, unknown> {
  const { info } = mmsh;
  const skel = lookup.skel;
  const byHash = skel ? skelBonesByHash(skel) : new Map<number, number>();
  // LOD group ids are StringHash of the SKEL part names (checked on the real sample).
  const groupName = new Map<number, string>();
  for (const p of skel?.parts ?? []) {
    const h = defaultHasher.tryHash(p.name);
    if (h.ok) groupName.set(h.hash, p.name);
  }
  const materialsOfBlock = (b: number): number[] => [...new Set(info.connections.filter((c) => c.lod === b).map((c) => c.material))];
  const groupsOfBlock = (b: number): number[] => [...new Set(info.connections.filter((c) => c.lod === b).map((c) => c.lodGroup))];
  const blocks = info.lods.map((l) => {
    const materials = materialsOfBlock(l.index);
    const meshes = info.meshes.slice(l.firstMesh, l.firstMesh + l.meshCount);
    return {
      index: l.index,
      vertices: meshes.reduce((s, x) => s + x.vertexCount, 0),
      triangles: l.faceBytes / 6,
      vertexBytes: l.vertexBytes,
      faceBytes: l.faceBytes,
      paletteBytes: l.paletteBytes,
      ladder: l.ladder,
      material: materials.length ? materials[0] : -1,
      materials,
      groups: groupsOfBlock(l.index).map((g) => groupName.get(info.lodGroupIds[g]!) ?? formatHash(info.lodGroupIds[g]!)),
      meshes: meshes.map((x) => ({
        index: x.indexInLod,
        vertices: x.vertexCount,
        indices: x.indexCount,
        triangles: x.indexCount / 3,
        material: materials.length ? materials[0] : -1,
        paletteSize: x.paletteCount,
        layout: x.layout,
        stride: info.layouts[x.layout]?.stride ?? null,
        vertexByteOffset: x.vertexByteOffset,
        firstIndex: x.firstIndex,
        unk7: x.unk7.asFloat,
        unk8: x.unk8.asFloat,
      })),
    };
  });
  const slots = [...new Set(info.connections.filter((c) => c.lod >= 0).map((c) => c.material))].sort((a, b) => a - b);
  const materials = slots.map((slot) => ({
    slot,
    blocks: [...new Set(info.connections.filter((c) => c.lod >= 0 && c.material === slot).map((c) => c.lod))],
  }));
  const bones = info.bones.map((b) => {
    const si = byHash.get(b.nameHash);
    return { index: b.index, name: si !== undefined ? skel!.bones[si]!.name : formatHash(b.nameHash), hash: formatHash(b.nameHash), parent: b.parent };
  });
  return {
    file: mmsh.file,
    size: mmsh.size,
    format: 'MMSH',
    version: mmsh.header.version,
    confidence: mmsh.confidence,
    cullDistance: info.cullDistance,
    sphere: info.sphere,
    // `matches`: the skeleton's bones are the mesh's (so it also resolves the palettes); names
    // below are resolved one by one by hash either way.
    skeleton: { from: lookup.from ?? null, note: lookup.note ?? null, bones: skel?.bones.length ?? null, matches: model.skeleton?.from === 'skel' },
    blocks,
    materials,
    lodGroups: mmsh.lodGroups.map((g) => ({
      index: g.index,
      id: formatHash(g.id),
      name: groupName.get(g.id) ?? null,
      chain: g.connections.map((ci) => {
        const c = info.connections[ci]!;
        return { connection: ci, block: c.lod, material: c.material, flags: c.flags };
      }),
    })),
    levels: mmsh.levels.map((l) => ({
      kind: l.kind,
      distance: l.distance,
      connections: l.connections,
      blocks: l.connections.map((c) => info.connections[c]!.lod),
    })),
    lods: model.lods.map((l) => ({
      index: l.index,
      distance: l.distance ?? null,
      vertices: l.vertices,
      triangles: l.triangles,
      parts: l.parts.map((p) => p.name),
    })),
    layouts: info.layouts.map((l) => ({
      index: l.index,
      stride: l.stride ?? null,
      strides: l.strides,
      attributes: l.attributes.map((a) => ({
        stream: a.stream,
        type: a.typeName ?? `unknown ${a.type}`,
        semantic: a.semanticName,
        channel: a.channel,
        size: a.size ?? null,
      })),
    })),
    boneCount: info.boneCount,
    bones,
    lodSection: info.lodSection,
    unknown: { info0x14: info.unknown14 },
    notes: [...mmsh.notes, ...model.notes, ...(lookup.note ? [lookup.note] : [])],
  };
}

function showMesh(mmsh: Mmsh, lookup: SkeletonLookup, args: ParsedArgs, forbid: string[]): number {
  const { model } = meshModelWithSkeleton(mmsh, lookup, path.basename(mmsh.file.replace(/\\/g, '/')));
  const glb = writeGlbOption(model, args, forbid);
  const d = describeMesh(mmsh, lookup, model);
  if (args.flags.has('json')) {
    printJson({ ...d, glb: glb ?? null });
    return 0;
  }
  const { info } = mmsh;
  const blocks = d.blocks as {
    index: number;
    vertices: number;
    triangles: number;
    material: number;
    groups: string[];
    meshes: { vertices: number; indices: number; triangles: number; paletteSize: number; layout: number; stride: number | null }[];
  }[];
  const lines = [
    `MMSH v${mmsh.header.version}  ${info.lodCount} data blocks, ${info.meshCount} meshes, ${info.lodGroupCount} LOD groups, ${info.boneCount} bones${lookup.from ? ` (names from ${escapeName(lookup.from)})` : ''}  cull distance ${info.cullDistance} cm  confidence ${mmsh.confidence}`,
  ];
  for (const b of blocks) {
    lines.push(
      `block ${b.index}: ${b.vertices} vertices, ${b.triangles} triangles, material ${b.material}${b.groups.length ? ` (${b.groups.map(escapeName).join(', ')})` : ''}`,
    );
    b.meshes.forEach((x, i) =>
      lines.push(
        `  mesh ${i}: ${x.vertices} vertices, ${x.indices} indices (${x.triangles} triangles), palette ${x.paletteSize}, layout ${x.layout} (stride ${x.stride ?? '?'})`,
      ),
    );
  }
  for (const l of model.lods)
    lines.push(
      `LOD ${l.index}${l.distance !== undefined ? ` (from ${l.distance} cm)` : ''}: ${l.vertices} vertices, ${l.triangles} triangles, ${l.parts.length} parts`,
    );
  const bones = d.bones as { name: string }[];
  if (bones.length) lines.push(`bones: ${bones.map((b) => escapeName(b.name)).join(', ')}`);
  for (const n of d.notes as string[]) lines.push(`note: ${n}`);
  if (glb) lines.push(`wrote ${glb.file} (${glb.bytes} bytes, LOD 0)`);
  writeOut(lines.map(escapeControls).join('\n') + '\n');
  return 0;
}

function showSkel(skel: Skel, args: ParsedArgs, forbid: string[]): number {
  const model = meshModelFromSkel(skel, path.basename(skel.file.replace(/\\/g, '/')));
  const glb = writeGlbOption(model, args, forbid);
  if (args.flags.has('json')) {
    printJson({
      file: skel.file,
      size: skel.size,
      format: 'SKEL',
      version: skel.header.version,
      confidence: skel.confidence,
      header: skel.header,
      parts: skel.parts,
      boneCount: skel.bones.length,
      bones: skel.bones.map((b) => ({
        index: b.index,
        name: b.name,
        parent: b.parent,
        deform: b.deform,
        childCount: b.childCount,
        translation: b.translation,
        rotation: b.rotation,
      })),
      nameTableOrder: skel.nameTableOrder,
      nameTableIsBreadthFirst: skel.nameTableIsBreadthFirst,
      sockets: skel.sockets,
      masks: skel.masks.map((m) => ({ name: m.name, boneCount: m.boneCount, unk: m.unk, values: m.values })),
      anix: skel.anixNames,
      animationTypes: skel.animationTypes,
      sections: skel.sections.map((s) => ({ ...s, id: formatHash(s.id) })),
      cloth: skel.cloth,
      unknown05: skel.unknown05 ?? null,
      footer: skel.footer ?? null,
      notes: skel.notes,
      glb: glb ?? null,
    });
    return 0;
  }
  const lines = [
    `SKEL v${skel.header.version}  ${skel.bones.length} bones, ${skel.sockets.length} sockets, ${skel.parts.length} mesh parts, ${skel.anixNames.length} .anix  confidence ${skel.confidence}`,
  ];
  const depth = new Array<number>(skel.bones.length).fill(0);
  for (const b of skel.bones) {
    if (b.parent >= 0) depth[b.index] = depth[b.parent]! + 1;
    lines.push(`${'  '.repeat(depth[b.index]!)}${b.index} ${escapeName(b.name)}${b.deform ? '' : ' (no deform)'}`);
  }
  for (const s of skel.sockets) lines.push(`socket ${escapeName(s.name)} on ${escapeName(skel.bones[s.bone]?.name ?? String(s.bone))}`);
  for (const p of skel.parts) lines.push(`part ${escapeName(p.name)}: ${p.entries.map((e) => `material ${e.material} from ${e.distance} cm`).join(', ')}`);
  for (const a of skel.anixNames) lines.push(`anix ${escapeName(a)}`);
  for (const n of skel.notes) lines.push(`note: ${n}`);
  if (glb) lines.push(`wrote ${glb.file} (${glb.bytes} bytes)`);
  writeOut(lines.map(escapeControls).join('\n') + '\n');
  return 0;
}
