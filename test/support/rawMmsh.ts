/**
 * Figures of an MMSH v17 mesh read straight from its bytes at the offsets formats-public §5
 * gives, without the project's reader: tests use them as an independent oracle (the real head's
 * per-block triangle, vertex and mesh counts, its bone count, what LOD 0 draws).
 *
 *   header  u32 descSize @0x08, u32 infoSize @0x0C (sections follow the 20-byte header)
 *   desc    u32 id | u32 M | u32 D | s32[M] | s32[M] | u32[D] vertexBytes | u32[D] faceBytes | u32[D] groupBytes
 *   info    u32 id | G @+0x04 | C @+0x08 | L @+0x0C | meshCount @+0x10 | boneCount @+0x40 (72 fixed bytes),
 *           u32[G] group ids, C x 16-byte connections {s32 lodGroup, s32 lod (block), s32 material, s32},
 *           L x 48-byte LodInfo {u32 vertexBytes, u32 faceBytes, u32 groupBytes, u32 meshCount, u16[16]},
 *           meshCount x 40-byte MeshInfo {u32 vertexByteOffset, u32 firstVertex, u32 vertexCount, …},
 *           LOD section: u32 id | u32[S] settings | f32[ML] mesh distances | f32[SL] shadow distances |
 *           u32[ML] mesh links | u32[SL] shadow links   (S @+0x18, ML @+0x1C, SL @+0x20)
 */
import { rawU32 } from './rawLtar';

export interface RawMmshFacts {
  /** Per data block (LOD entry): face bytes / 6 (u16 triangle lists). */
  triangles: number[];
  /** Per block: the vertex counts of its MeshInfos summed (LodInfo i owns the next meshCount MeshInfos). */
  vertices: number[];
  /** Per block: LodInfo.meshCount. */
  meshes: number[];
  boneCount: number;
  /** Connections in table order. */
  connections: { lodGroup: number; lod: number; material: number }[];
  lodGroupCount: number;
  /**
   * Mesh levels, as stored: the settings read as the levels' connection lists back to back, each
   * `links[i]` long (the reading core/formats/mesh/mmsh/layout.ts documents, worked out on the real sample).
   */
  meshLevels: { distance: number; connections: number[] }[];
}

export function rawMmshFacts(b: Uint8Array): RawMmshFacts {
  const s32 = (o: number): number => rawU32(b, o) | 0;
  const desc = 0x14;
  const M = rawU32(b, desc + 4);
  const D = rawU32(b, desc + 8);
  const faceBytesAt = desc + 12 + 8 * M + 4 * D;
  const triangles = Array.from({ length: D }, (_, i) => rawU32(b, faceBytesAt + 4 * i) / 6);
  const info = 0x14 + rawU32(b, 0x08);
  const G = rawU32(b, info + 0x04);
  const C = rawU32(b, info + 0x08);
  const L = rawU32(b, info + 0x0c);
  const boneCount = rawU32(b, info + 0x40);
  const connAt = info + 72 + 4 * G;
  const connections = Array.from({ length: C }, (_, i) => ({
    lodGroup: s32(connAt + 16 * i),
    lod: s32(connAt + 16 * i + 4),
    material: s32(connAt + 16 * i + 8),
  }));
  const lodAt = connAt + 16 * C;
  const meshAt = lodAt + 48 * L;
  const meshes: number[] = [];
  const vertices: number[] = [];
  let next = 0;
  for (let i = 0; i < L; i++) {
    const n = rawU32(b, lodAt + 48 * i + 12);
    let v = 0;
    for (let k = 0; k < n; k++, next++) v += rawU32(b, meshAt + 40 * next + 8);
    meshes.push(n);
    vertices.push(v);
  }
  const S = rawU32(b, info + 0x18);
  const ML = rawU32(b, info + 0x1c);
  const SL = rawU32(b, info + 0x20);
  const meshCount = rawU32(b, info + 0x10);
  const lodSection = meshAt + 40 * meshCount + 4;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const settings = Array.from({ length: S }, (_, i) => rawU32(b, lodSection + 4 * i));
  const distancesAt = lodSection + 4 * S;
  const linksAt = distancesAt + 4 * (ML + SL);
  const meshLevels: RawMmshFacts['meshLevels'] = [];
  let taken = 0;
  for (let i = 0; i < ML; i++) {
    const n = rawU32(b, linksAt + 4 * i);
    meshLevels.push({ distance: dv.getFloat32(distancesAt + 4 * i, true), connections: settings.slice(taken, taken + n) });
    taken += n;
  }
  return { triangles, vertices, meshes, boneCount, connections, lodGroupCount: G, meshLevels };
}

/** Blocks each LOD group connects to, in connection-table order (-1 = none, dropped). */
export function rawGroupBlocks(f: RawMmshFacts, group: number): number[] {
  return f.connections.filter((c) => c.lodGroup === group && c.lod >= 0).map((c) => c.lod);
}

/** Triangles drawn at `distance` cm: the blocks of the nearest mesh level that starts at or below it. */
export function rawTrianglesAt(f: RawMmshFacts, distance: number): number {
  const level = f.meshLevels.filter((l) => l.distance <= distance).sort((a, b) => b.distance - a.distance)[0];
  if (!level) throw new Error(`no mesh level at ${distance} cm`);
  return level.connections.reduce((t, c) => t + (f.connections[c].lod >= 0 ? f.triangles[f.connections[c].lod] : 0), 0);
}
