/**
 * What the synthetic PRFB / MESH writer (./writer.ts) is given and what it returns: vertex
 * formats, draws, LOD groups, the framing choices it can be switched between, and the layout of
 * what it wrote, for the tests to check the readers against.
 */
export interface WriteEntry {
  stream: 0 | 1;
  /** Seed type code: 2 float3, 12 half4, 10 half2, 4 ubyte4. */
  type: number;
  /** Seed usage code: 0 position, 1 normal, 2 tangent, 3 binormal, 4 uv, 5 colour. */
  usage: number;
  index?: number;
}

export interface WriteDraw {
  /** xyz per vertex. */
  positions: ArrayLike<number>;
  normals?: ArrayLike<number>;
  tangents?: ArrayLike<number>;
  binormals?: ArrayLike<number>;
  /** uv per vertex. */
  uvs?: ArrayLike<number>;
  /** rgba per vertex, 0..255. */
  colors?: ArrayLike<number>;
  /** Triangle list local to the draw (already rebased by idx_min). */
  indices: ArrayLike<number>;
  format: number;
  material: number;
  /** The two trailing f32 (not named by the seed). */
  f44?: number;
  f48?: number;
  /** Bytes between the end of the stream data and vend. */
  padAfter?: number;
}

export interface WriteUnit {
  nameHash: number;
  firstDraw: number;
  drawCount: number;
  switchDistance: number;
  f24?: number;
  distinctDraws?: number;
}

export interface WriteGroup {
  tag: number;
  cullDistance: number;
  /** Coarse to fine; the last gets next = -1. */
  units: WriteUnit[];
}

export interface TableFraming {
  formatFraming?: 'counted' | 'flat';
  /** Zero bytes after the index buffer (default: up to a multiple of 4). */
  tailPadding?: number;
}

export interface PrfbWriteInput extends TableFraming {
  hash?: number;
  groups: WriteGroup[];
  formats: WriteEntry[][];
  draws: WriteDraw[];
  materials: string[];
  /** Header word overrides by index (applied last, so they can also falsify counts). */
  header?: Record<number, number>;
  childPrefabs?: number;
  childBlock?: Uint8Array;
  materialEncoding?: 'nul' | 'u16' | 'u32';
  nextReading?: 'record index' | 'index in group';
  gapAfterLods?: number;
}

export interface WorldMeshWriteInput extends TableFraming {
  formats: WriteEntry[][];
  draws: WriteDraw[];
  header?: Record<number, number>;
  /** Bytes after the draw records. */
  trailing?: Uint8Array;
}

export interface WrittenLayout {
  lodOffset: number;
  lodCount: number;
  countsOffset: number;
  vertexOffset: number;
  vertexBytes: number;
  indexOffset: number;
  indexBytes: number;
  formatsOffset: number;
  drawsOffset: number;
  materialsOffset: number;
  restOffset: number;
  /** Per draw: the block start, stream starts (in the vertex buffer), vend. */
  blocks: { blockStart: number; start0: number; start1: number; vend: number }[];
}

export interface Written {
  bytes: Uint8Array;
  layout: WrittenLayout;
}
