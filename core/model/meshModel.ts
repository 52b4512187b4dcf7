/**
 * A renderable model, independent of the file format it came from: what the 3D viewer draws and
 * what the glTF exporter writes. Readers convert into this (MMSH and SKEL in fromMmsh.ts, PRFB and
 * MESH in fromPrfb.ts); front ends never look at format records to draw.
 *
 * Units and axes are the game's: centimetres, Y up (seed 004: the Numenorean sword's blade runs
 * along +Y and is 102 cm long). Converters to other conventions (glTF metres) say so where they
 * convert.
 */

/** One drawable piece: a sub-mesh of one LOD, with its own vertex arrays. */
export interface ModelPart {
  /** A label for lists ("LOD0 mesh 2"). */
  name: string;
  /** Material slot name or index label, when known. */
  material?: string;
  /** Index into the file's material table, when the format has one (-1 = none). */
  materialIndex?: number;
  /** xyz per vertex, centimetres. */
  positions: Float32Array;
  /** xyz per vertex, unit length, when the layout has normals. */
  normals?: Float32Array;
  /** xyzw per vertex (w = handedness ±1), when the layout has tangents. */
  tangents?: Float32Array;
  /** uv per vertex, first texture coordinate set, v down as stored. */
  uvs?: Float32Array;
  /** rgba per vertex, 0..255, when the layout has a colour. */
  colors?: Uint8Array;
  /** Triangle list, indices local to this part (0 .. vertexCount-1). */
  indices: Uint16Array | Uint32Array;
  /** Four joint indices per vertex, already resolved through the palette to skeleton bone indices. */
  joints?: Uint16Array;
  /** Four weights per vertex, 0..1, summing to 1 (matching `joints` slot for slot). */
  weights?: Float32Array;
}

/** One level of detail: the parts drawn together at that distance. */
export interface ModelLod {
  index: number;
  /** Sum of the parts' triangles. */
  triangles: number;
  vertices: number;
  parts: ModelPart[];
  /** Switch distance in centimetres, when the file gives one. */
  distance?: number;
}

/** One bone of the bind pose. Rotation is a unit quaternion (x, y, z, w), relative to the parent. */
export interface ModelBone {
  /** The name, or `0x%08X` of its hash when only the hash is known. */
  name: string;
  /** Index of the parent in `bones`, -1 for a root. Parents always come before children. */
  parent: number;
  translation: [number, number, number];
  rotation: [number, number, number, number];
  scale: number;
}

/** A named attachment point on a bone (weapons, effects). */
export interface ModelSocket {
  name: string;
  bone: number;
  translation: [number, number, number];
  rotation: [number, number, number, number];
}

export interface ModelSkeleton {
  /** Bones in the order joint indices refer to. */
  bones: ModelBone[];
  sockets: ModelSocket[];
  /** Where the bones came from: a matching skeleton file, or the mesh's own bone list (names as hashes). */
  from?: 'skel' | 'mesh';
}

export interface ModelBounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface MeshModel {
  /** The game path or file name it came from. */
  name: string;
  lods: ModelLod[];
  skeleton?: ModelSkeleton;
  /** Axis-aligned bounds of LOD 0 computed from the positions. */
  bounds: ModelBounds;
  /** The bounding sphere the file declares (centre, radius), when it has one. */
  sphere?: { center: [number, number, number]; radius: number };
  /** Lines worth showing beside the picture: uncertain fields, skipped data, guesses made. */
  notes: string[];
}

/** Axis-aligned bounds of a set of xyz positions (zeros for an empty set). */
export function boundsOf(positionSets: Iterable<Float32Array>): ModelBounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const p of positionSets) {
    for (let i = 0; i + 2 < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = p[i + k]!;
        if (v < min[k]!) min[k] = v;
        if (v > max[k]!) max[k] = v;
      }
    }
  }
  if (min[0] === Infinity) return { min: [0, 0, 0], max: [0, 0, 0] };
  return { min, max };
}
