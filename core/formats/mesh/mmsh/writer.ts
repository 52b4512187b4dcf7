/**
 * Writes MMSH v17 meshes in the layout ./reader.ts reads (see ./layout.ts), from simple
 * arrays: synthetic files for tests and the embedded sample install. Not a re-encoder of game
 * files: fields whose meaning is unknown get the sample's values (MeshInfo unk7/unk8 = 0, info
 * +0x14 = the longest chain of drawn blocks).
 *
 * What it writes, following the real sample: positions f32x4 (or f16x4) with w = 1, weights and
 * palette indices u8x4 in stream 0; texcoord (f32x2 or s16x2 SNORM), normal, tangent, bitangent
 * f32x3 and colour u8x4 in stream 1, descriptors in the sample's order (position, texcoord,
 * normal, tangent, bitangent, colour, weights, indices). Weights are stored by seed 004's BGRA
 * rule (slot k's weight in byte (2, 1, 0, 3)[k]), quantised to bytes summing to 255. Joints are
 * indices into `bones` (depth-first, as the MMSH list is); palette bytes index the name-table
 * order, taken as the breadth-first order of `bones` (what the real sample shows). LOD groups are
 * chains of {block, material, distance}; the LOD section is written as levels (distinct
 * distances far to near, each listing the connection active per group; shadow levels list those
 * that cast shadows), the reading ./layout.ts documents.
 */
import { stringHash } from '../../../hash/stringHash';
import {
  MMSH_BONE_SECTION_ID,
  MMSH_BONE_SIZE,
  MMSH_DATA_ID,
  MMSH_DESC_ID,
  MMSH_INFO_ID,
  MMSH_LADDER_LENGTH,
  MMSH_LAYOUT_SECTION_ID,
  MMSH_LOD_SECTION_ID,
  MMSH_MAGIC,
  MMSH_VERSION,
} from './layout';
import { breadthFirstOrder } from '../skel/hierarchy';
import { ByteWriter } from '../../../io/byteWriter';
import { Attr, DataBlocks, encodeDataBlocks, planParts } from './writeData';
import { MmshWriteBlock, MmshWriteBone, MmshWriteGroup, MmshWriteInput, bad } from './writeInput';

export type { MmshWriteBlock, MmshWriteBone, MmshWriteGroup, MmshWriteInput, MmshWritePart } from './writeInput';
export { quantiseWeights } from './writeData';

/** Write an MMSH v17 file. Throws `BAD_ARGUMENT` for inconsistent input. */
export function writeMmsh(input: MmshWriteInput): Uint8Array {
  const blocks = input.blocks;
  const bones = input.bones ?? [];
  if (bones.length > 256) throw bad('at most 256 bones (palette bytes are u8)', 'bones', '<= 256', String(bones.length));
  bones.forEach((b, i) => {
    if (!(b.parent >= -1 && b.parent < i)) throw bad('bones must list parents before children', `bones[${i}].parent`, `-1..${i - 1}`, String(b.parent));
  });
  const nameTablePos = new Int32Array(bones.length);
  breadthFirstOrder(bones.map((b) => b.parent)).forEach((b, k) => (nameTablePos[b] = k));
  const groups: MmshWriteGroup[] = input.groups ?? blocks.map((_, i) => ({ id: i, chain: [{ block: i, material: 0, distance: 0 }] }));
  groups.forEach((g, gi) =>
    g.chain.forEach((c, k) => {
      if (!(c.block >= -1 && c.block < blocks.length))
        throw bad('chain names a block that does not exist', `groups[${gi}].chain[${k}].block`, `-1..${blocks.length - 1}`, String(c.block));
    }),
  );
  const { layouts, plans } = planParts(input, bones, nameTablePos);
  const blockData = encodeDataBlocks(plans);
  const lods = planLods(groups);
  const sphere = input.sphere ?? boundingSphere(blocks);
  const desc = writeDesc(blocks.length, lods.conns, blockData);
  const info = writeInfo(input, { groups, bones, layouts, blockData, lods, sphere });
  const data = new ByteWriter().u32(MMSH_DATA_ID);
  for (const b of [...blockData.vertexBlocks, ...blockData.faceBlocks, ...blockData.paletteBlocks]) data.bytes(b);

  const out = new ByteWriter().u32(MMSH_MAGIC).u32(MMSH_VERSION).u32(desc.length).u32(info.length).u32(data.length);
  out.bytes(desc.toBytes()).bytes(info.toBytes()).bytes(data.toBytes());
  return out.toBytes();
}

interface Conn {
  group: number;
  block: number;
  material: number;
  flags: number;
  distance: number;
}

/** The connections (one per chain link) and the LOD section's levels, far to near. */
interface LodPlan {
  conns: Conn[];
  distances: number[];
  meshLevels: number[][];
  shadowLevels: number[][];
  settings: number[];
  longestChain: number;
}

function planLods(groups: MmshWriteGroup[]): LodPlan {
  const conns: Conn[] = [];
  const groupConns: number[][] = [];
  groups.forEach((g, gi) => {
    groupConns.push(
      g.chain.map((c) => {
        conns.push({ group: gi, block: c.block, material: c.material, flags: (c.castsShadow === false ? 0 : 2) | 1, distance: c.distance });
        return conns.length - 1;
      }),
    );
  });
  const distances = [...new Set(conns.map((c) => c.distance))].sort((a, b) => b - a);
  const levelOf = (d: number, shadow: boolean): number[] => {
    const out: number[] = [];
    for (const chain of groupConns) {
      let active = -1;
      for (const ci of chain) if (conns[ci]!.distance <= d) active = ci;
      if (active >= 0 && (!shadow || conns[active]!.flags & 2)) out.push(active);
    }
    return out;
  };
  const meshLevels = distances.map((d) => levelOf(d, false));
  const shadowLevels = distances.map((d) => levelOf(d, true));
  const settings = [...meshLevels.flat(), ...shadowLevels.flat()];
  const longestChain = Math.max(0, ...groups.map((g) => g.chain.filter((c) => c.block >= 0).length));
  return { conns, distances, meshLevels, shadowLevels, settings, longestChain };
}

/** The default sphere: the box centre and the farthest vertex from it. */
function boundingSphere(blocks: MmshWriteBlock[]): { center: [number, number, number]; radius: number } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const b of blocks)
    for (const p of b.parts)
      for (let i = 0; i < p.positions.length; i++) {
        min[i % 3] = Math.min(min[i % 3]!, p.positions[i]!);
        max[i % 3] = Math.max(max[i % 3]!, p.positions[i]!);
      }
  const c: [number, number, number] = min[0] === Infinity ? [0, 0, 0] : ([0, 1, 2].map((k) => (min[k]! + max[k]!) / 2) as [number, number, number]);
  let r = 0;
  for (const b of blocks)
    for (const p of b.parts)
      for (let i = 0; i + 2 < p.positions.length; i += 3)
        r = Math.max(r, Math.hypot(p.positions[i]! - c[0], p.positions[i + 1]! - c[1], p.positions[i + 2]! - c[2]));
  return { center: c, radius: r };
}

/** The desc section: the connections' flags and blocks, then the byte size of every data block. */
function writeDesc(blockCount: number, conns: Conn[], d: DataBlocks): ByteWriter {
  const desc = new ByteWriter().u32(MMSH_DESC_ID).u32(conns.length).u32(blockCount);
  for (const c of conns) desc.s32(c.flags);
  for (const c of conns) desc.s32(c.block);
  for (const b of d.vertexBlocks) desc.u32(b.length);
  for (const b of d.faceBlocks) desc.u32(b.length);
  for (const b of d.paletteBlocks) desc.u32(b.length);
  return desc;
}

/** Everything the info section is written from. */
interface InfoPlan {
  groups: MmshWriteGroup[];
  bones: MmshWriteBone[];
  layouts: Attr[][];
  blockData: DataBlocks;
  lods: LodPlan;
  sphere: { center: [number, number, number]; radius: number };
}

/** The info section: fixed fields, LOD groups, connections, LodInfo, MeshInfo, the LOD section, layouts and bones. */
function writeInfo(input: MmshWriteInput, plan: InfoPlan): ByteWriter {
  const { groups, bones, layouts, lods, sphere } = plan;
  const { vertexBlocks, faceBlocks, paletteBlocks, meshRecs } = plan.blockData;
  const { conns, distances, settings } = lods;
  const meshCount = meshRecs.reduce((s, r) => s + r.length, 0);
  const info = new ByteWriter()
    .u32(MMSH_INFO_ID)
    .u32(groups.length)
    .u32(conns.length)
    .u32(input.blocks.length)
    .u32(meshCount)
    .u32(lods.longestChain)
    .u32(settings.length)
    .u32(distances.length)
    .u32(distances.length)
    .u32(layouts.length)
    .u32(layouts.reduce((s, l) => s + l.length, 0))
    .f32(input.cullDistance ?? 500)
    .f32(sphere.center[0])
    .f32(sphere.center[1])
    .f32(sphere.center[2])
    .f32(sphere.radius)
    .u32(bones.length)
    .u32(bones.length * MMSH_BONE_SIZE);
  for (const g of groups) info.u32(g.id ?? stringHash(g.name ?? ''));
  for (const c of conns) info.s32(c.group).s32(c.block).s32(c.material).s32(c.flags);
  input.blocks.forEach((_, i) => {
    const triangles = faceBlocks[i]!.length / 6;
    info.u32(vertexBlocks[i]!.length).u32(faceBlocks[i]!.length).u32(paletteBlocks[i]!.length).u32(meshRecs[i]!.length);
    for (let k = 0; k < MMSH_LADDER_LENGTH; k++) info.u16(Math.min(triangles, 0xffff));
  });
  for (const recs of meshRecs) {
    for (const r of recs)
      info
        .u32(r.vertexByteOffset)
        .u32(r.firstVertex)
        .u32(r.vertexCount)
        .u32(r.firstIndex)
        .u32(r.indexCount)
        .u32(r.firstPalette)
        .u32(r.paletteCount)
        .u32(0)
        .u32(0)
        .u32(r.layout);
  }
  info.u32(MMSH_LOD_SECTION_ID);
  for (const s of settings) info.u32(s);
  for (const d of distances) info.f32(d);
  for (const d of distances) info.f32(d);
  for (const l of lods.meshLevels) info.u32(l.length);
  for (const l of lods.shadowLevels) info.u32(l.length);
  info.u32(MMSH_LAYOUT_SECTION_ID);
  for (const l of layouts) {
    info.u32(l.length);
    for (const a of l) info.u8(a.stream).u8(a.type).u8(a.semantic).u8(a.channel);
  }
  info.u32(MMSH_BONE_SECTION_ID);
  const childCounts = new Array<number>(bones.length).fill(0);
  for (const b of bones) if (b.parent >= 0) childCounts[b.parent]!++;
  bones.forEach((b, i) => {
    info
      .u32(b.nameHash ?? stringHash(b.name ?? ''))
      .s16(b.parent)
      .u16(childCounts[i]!);
    for (const x of b.translation) info.f32(x);
    for (const x of b.rotation) info.f32(x);
    info.f32(b.scale ?? 1);
  });
  return info;
}
