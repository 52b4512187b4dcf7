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
import { Arch06Error } from '../../../errors';
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
  MMSH_SEMANTIC,
  MMSH_TYPE,
  MMSH_VERSION,
  MMSH_WEIGHT_BYTE_OF_SLOT,
} from './layout';
import { breadthFirstOrder } from '../skel/hierarchy';
import { ByteWriter } from '../../../io/byteWriter';
import { f32ToHalf } from '../../../io/half';

export interface MmshWritePart {
  /** xyz per vertex, cm. */
  positions: ArrayLike<number>;
  normals?: ArrayLike<number>;
  /** xyz per vertex. */
  tangents?: ArrayLike<number>;
  /** xyz per vertex. */
  bitangents?: ArrayLike<number>;
  /** uv per vertex (first channel). */
  uvs?: ArrayLike<number>;
  /** rgba per vertex, 0..255. */
  colors?: ArrayLike<number>;
  /** Triangle list, local to the part. */
  indices: ArrayLike<number>;
  /** Four bone indices per vertex (into `MmshWriteInput.bones`). */
  joints?: ArrayLike<number>;
  /** Four weights per vertex, 0..1 (any positive sum; normalised and quantised to 255). */
  weights?: ArrayLike<number>;
}

/** One data block (formats-public "LOD", seed 004 "arena"): its parts are drawn as separate meshes. */
export interface MmshWriteBlock {
  parts: MmshWritePart[];
}

export interface MmshWriteBone {
  /** The name (hashed with StringHash) or the hash itself. */
  name?: string;
  nameHash?: number;
  parent: number;
  /** Model space, as the file stores it. */
  translation: [number, number, number];
  rotation: [number, number, number, number];
  scale?: number;
}

export interface MmshWriteGroup {
  /** The LOD group name (the SKEL part name; hashed with StringHash) or its id. */
  name?: string;
  id?: number;
  /** The chain: from `distance` on, draw `block` (-1 = nothing) with material slot `material`. */
  chain: { block: number; material: number; distance: number; castsShadow?: boolean }[];
}

export interface MmshWriteInput {
  blocks: MmshWriteBlock[];
  bones?: MmshWriteBone[];
  /** Default: one group per block, drawn from 0 cm with material slot 0. */
  groups?: MmshWriteGroup[];
  positionFormat?: 'f32' | 'f16';
  uvFormat?: 'f32' | 's16';
  cullDistance?: number;
  sphere?: { center: [number, number, number]; radius: number };
}

const bad = (message: string, field: string, expected: string, actual: string): Arch06Error =>
  new Arch06Error('BAD_ARGUMENT', message, { file: 'mmsh', field, expected, actual });

interface Attr {
  stream: number;
  type: number;
  semantic: number;
  channel: number;
}

/** Quantise four weights to bytes summing to 255 (largest remainder). */
export function quantiseWeights(w: ArrayLike<number>): [number, number, number, number] {
  const v = [0, 1, 2, 3].map((k) => Math.max(0, Number(w[k]) || 0));
  const sum = v[0]! + v[1]! + v[2]! + v[3]!;
  if (sum <= 0) return [255, 0, 0, 0];
  const scaled = v.map((x) => (x / sum) * 255);
  const q = scaled.map(Math.floor);
  let left = 255 - q.reduce((a, b) => a + b, 0);
  const order = [0, 1, 2, 3].sort((a, b) => scaled[b]! - q[b]! - (scaled[a]! - q[a]!));
  for (let i = 0; left > 0; i = (i + 1) % 4, left--) q[order[i]!]!++;
  return q as [number, number, number, number];
}

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
  const posType = input.positionFormat === 'f16' ? MMSH_TYPE.F16X4 : MMSH_TYPE.F32X4;
  const uvType = input.uvFormat === 's16' ? MMSH_TYPE.S16X2 : MMSH_TYPE.F32X2;

  // Layouts (one per distinct attribute set) and per-part checks.
  const layouts: Attr[][] = [];
  const layoutKeys: string[] = [];
  interface PartPlan {
    part: MmshWritePart;
    n: number;
    layout: number;
    attrs: Attr[];
    palette: number[];
    slots?: Uint8Array;
    weights?: Uint8Array;
  }
  const plans: PartPlan[][] = blocks.map((b, bi) =>
    b.parts.map((part, pi) => {
      const f = `blocks[${bi}].parts[${pi}]`;
      if (part.positions.length % 3 !== 0) throw bad('positions are not xyz triples', `${f}.positions`, 'a multiple of 3', String(part.positions.length));
      const n = part.positions.length / 3;
      if (n > 0x10000) throw bad('more vertices than 16-bit indices reach', `${f}.positions`, '<= 65536 vertices', String(n));
      const per = (arr: ArrayLike<number> | undefined, k: number, name: string): boolean => {
        if (!arr) return false;
        if (arr.length !== n * k) throw bad(`${name} length does not match the vertex count`, `${f}.${name}`, String(n * k), String(arr.length));
        return true;
      };
      const attrs: Attr[] = [{ stream: 0, type: posType, semantic: MMSH_SEMANTIC.POSITION, channel: 0 }];
      if (per(part.uvs, 2, 'uvs')) attrs.push({ stream: 1, type: uvType, semantic: MMSH_SEMANTIC.TEXCOORD, channel: 0 });
      if (per(part.normals, 3, 'normals')) attrs.push({ stream: 1, type: MMSH_TYPE.F32X3, semantic: MMSH_SEMANTIC.NORMAL, channel: 0 });
      if (per(part.tangents, 3, 'tangents')) attrs.push({ stream: 1, type: MMSH_TYPE.F32X3, semantic: MMSH_SEMANTIC.TANGENT, channel: 0 });
      if (per(part.bitangents, 3, 'bitangents')) attrs.push({ stream: 1, type: MMSH_TYPE.F32X3, semantic: MMSH_SEMANTIC.BITANGENT, channel: 0 });
      if (per(part.colors, 4, 'colors')) attrs.push({ stream: 1, type: MMSH_TYPE.U8X4, semantic: MMSH_SEMANTIC.COLOR, channel: 0 });
      const skinned = per(part.joints, 4, 'joints');
      if (skinned !== per(part.weights, 4, 'weights'))
        throw bad('joints and weights go together', `${f}.weights`, 'both or neither', skinned ? 'joints only' : 'weights only');
      if (part.indices.length % 3 !== 0) throw bad('indices are not whole triangles', `${f}.indices`, 'a multiple of 3', String(part.indices.length));
      for (let i = 0; i < part.indices.length; i++) {
        const v = part.indices[i]!;
        if (!(Number.isInteger(v) && v >= 0 && v < n)) throw bad('index outside the part', `${f}.indices[${i}]`, `0..${n - 1}`, String(v));
      }
      const plan: PartPlan = { part, n, layout: 0, attrs, palette: [] };
      if (skinned) {
        attrs.push(
          { stream: 0, type: MMSH_TYPE.U8X4, semantic: MMSH_SEMANTIC.WEIGHTS, channel: 0 },
          { stream: 0, type: MMSH_TYPE.U8X4, semantic: MMSH_SEMANTIC.INDICES, channel: 0 },
        );
        const paletteSlot = new Map<number, number>();
        plan.slots = new Uint8Array(n * 4);
        plan.weights = new Uint8Array(n * 4);
        for (let v = 0; v < n; v++) {
          const q = quantiseWeights(Array.from({ length: 4 }, (_, k) => part.weights![4 * v + k]!));
          for (let k = 0; k < 4; k++) {
            const j = part.joints![4 * v + k]!;
            if (!(Number.isInteger(j) && j >= 0 && j < bones.length))
              throw bad('joint names a bone that does not exist', `${f}.joints[${4 * v + k}]`, `0..${bones.length - 1}`, String(j));
            let slot = paletteSlot.get(j);
            if (slot === undefined) {
              slot = paletteSlot.size;
              if (slot > 255) throw bad('a part uses more than 256 bones', `${f}.joints`, '<= 256 distinct bones', String(slot + 1));
              paletteSlot.set(j, slot);
              plan.palette.push(nameTablePos[j]!);
            }
            plan.slots[4 * v + k] = slot;
            plan.weights[4 * v + MMSH_WEIGHT_BYTE_OF_SLOT[k]] = q[k];
          }
        }
      }
      const key = attrs.map((a) => `${a.stream}.${a.type}.${a.semantic}.${a.channel}`).join('|');
      let li = layoutKeys.indexOf(key);
      if (li < 0) {
        li = layouts.length;
        layouts.push(attrs);
        layoutKeys.push(key);
      }
      plan.layout = li;
      return plan;
    }),
  );

  // Data blocks.
  interface MeshRec {
    vertexByteOffset: number;
    firstVertex: number;
    vertexCount: number;
    firstIndex: number;
    indexCount: number;
    firstPalette: number;
    paletteCount: number;
    layout: number;
  }
  const vertexBlocks: Uint8Array[] = [];
  const faceBlocks: Uint8Array[] = [];
  const paletteBlocks: Uint8Array[] = [];
  const meshRecs: MeshRec[][] = [];
  for (const bp of plans) {
    const vw = new ByteWriter();
    const fw = new ByteWriter();
    const pw = new ByteWriter();
    const recs: MeshRec[] = [];
    let firstVertex = 0;
    for (const p of bp) {
      const rec: MeshRec = {
        vertexByteOffset: vw.length,
        firstVertex,
        vertexCount: p.n,
        firstIndex: fw.length / 2,
        indexCount: p.part.indices.length,
        firstPalette: pw.length,
        paletteCount: p.palette.length,
        layout: p.layout,
      };
      for (const stream of [0, 1]) {
        for (let v = 0; v < p.n; v++) {
          for (const a of p.attrs) {
            if (a.stream !== stream) continue;
            writeAttr(vw, a, p, v);
          }
        }
      }
      for (let i = 0; i < p.part.indices.length; i++) fw.u16(p.part.indices[i]!);
      pw.bytes(p.palette);
      firstVertex += p.n;
      recs.push(rec);
    }
    vertexBlocks.push(vw.toBytes());
    faceBlocks.push(fw.toBytes());
    paletteBlocks.push(pw.toBytes());
    meshRecs.push(recs);
  }

  // Connections and LOD levels.
  interface Conn {
    group: number;
    block: number;
    material: number;
    flags: number;
    distance: number;
  }
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

  // Sphere default: the box centre and the farthest vertex from it.
  let sphere = input.sphere;
  if (!sphere) {
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
    sphere = { center: c, radius: r };
  }

  // Desc.
  const D = blocks.length;
  const desc = new ByteWriter().u32(MMSH_DESC_ID).u32(conns.length).u32(D);
  for (const c of conns) desc.s32(c.flags);
  for (const c of conns) desc.s32(c.block);
  for (const b of vertexBlocks) desc.u32(b.length);
  for (const b of faceBlocks) desc.u32(b.length);
  for (const b of paletteBlocks) desc.u32(b.length);

  // Info.
  const meshCount = meshRecs.reduce((s, r) => s + r.length, 0);
  const info = new ByteWriter()
    .u32(MMSH_INFO_ID)
    .u32(groups.length)
    .u32(conns.length)
    .u32(D)
    .u32(meshCount)
    .u32(longestChain)
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
  blocks.forEach((_, i) => {
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
  for (const l of meshLevels) info.u32(l.length);
  for (const l of shadowLevels) info.u32(l.length);
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

  // Data.
  const data = new ByteWriter().u32(MMSH_DATA_ID);
  for (const b of [...vertexBlocks, ...faceBlocks, ...paletteBlocks]) data.bytes(b);

  const out = new ByteWriter().u32(MMSH_MAGIC).u32(MMSH_VERSION).u32(desc.length).u32(info.length).u32(data.length);
  out.bytes(desc.toBytes()).bytes(info.toBytes()).bytes(data.toBytes());
  return out.toBytes();
}

function writeAttr(w: ByteWriter, a: Attr, p: { part: MmshWritePart; slots?: Uint8Array; weights?: Uint8Array }, v: number): void {
  const part = p.part;
  switch (a.semantic) {
    case MMSH_SEMANTIC.POSITION:
      for (let k = 0; k < 3; k++) {
        const x = part.positions[3 * v + k]!;
        if (a.type === MMSH_TYPE.F16X4) w.u16(f32ToHalf(x));
        else w.f32(x);
      }
      if (a.type === MMSH_TYPE.F16X4) w.u16(0x3c00);
      else w.f32(1);
      break;
    case MMSH_SEMANTIC.TEXCOORD:
      for (let k = 0; k < 2; k++) {
        const x = part.uvs![2 * v + k]!;
        if (a.type === MMSH_TYPE.S16X2) w.s16(Math.max(-32767, Math.min(32767, Math.round(x * 32767))));
        else w.f32(x);
      }
      break;
    case MMSH_SEMANTIC.NORMAL:
    case MMSH_SEMANTIC.TANGENT:
    case MMSH_SEMANTIC.BITANGENT: {
      const src = a.semantic === MMSH_SEMANTIC.NORMAL ? part.normals! : a.semantic === MMSH_SEMANTIC.TANGENT ? part.tangents! : part.bitangents!;
      for (let k = 0; k < 3; k++) w.f32(src[3 * v + k]!);
      break;
    }
    case MMSH_SEMANTIC.COLOR:
      for (let k = 0; k < 4; k++) w.u8(part.colors![4 * v + k]!);
      break;
    case MMSH_SEMANTIC.WEIGHTS:
      w.bytes(p.weights!.subarray(4 * v, 4 * v + 4));
      break;
    case MMSH_SEMANTIC.INDICES:
      w.bytes(p.slots!.subarray(4 * v, 4 * v + 4));
      break;
  }
}
