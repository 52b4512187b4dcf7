/**
 * What ./writer.ts writes an MMSH from: blocks of parts as simple arrays, bones and LOD groups,
 * and the one error every check on them throws.
 */
import { Arch06Error } from '../../../errors';

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

/** The error for input the writer cannot write (inconsistent counts, indices out of range). */
export const bad = (message: string, field: string, expected: string, actual: string): Arch06Error =>
  new Arch06Error('BAD_ARGUMENT', message, { file: 'mmsh', field, expected, actual });
