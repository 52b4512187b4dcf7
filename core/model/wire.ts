/**
 * `MeshModel` ⇄ `WireModel`: the shape a model takes in a webview message.
 *
 * VS Code's `Webview.postMessage` carries ArrayBuffers (and typed arrays) without going through
 * JSON, but a typed array that views part of a larger buffer would drag the whole buffer along,
 * and a plain object cannot say which typed array it was. So on the wire every vertex and index
 * array is its own exact-size `ArrayBuffer`, and the element type is fixed per field:
 *
 * | field       | element          | per vertex | notes                                   |
 * |-------------|------------------|------------|-----------------------------------------|
 * | `positions` | Float32 (LE)     | 3          | centimetres                             |
 * | `normals`   | Float32          | 3          | optional                                |
 * | `tangents`  | Float32          | 4          | optional, w = ±1                        |
 * | `uvs`       | Float32          | 2          | optional, v down as stored              |
 * | `colors`    | Uint8            | 4          | optional, rgba 0..255                   |
 * | `joints`    | Uint16           | 4          | optional, skeleton bone indices         |
 * | `weights`   | Float32          | 4          | optional, with `joints`                 |
 * | `indices`   | Uint16 or Uint32 | —          | triangle list; `indexType` says which   |
 *
 * Everything else (names, LOD figures, skeleton, sockets, bounds, sphere, notes) is plain data,
 * exactly as in `MeshModel`. Byte order is the platform's (little-endian on every host VS Code
 * runs on). Pure functions, no DOM, no Node: both the extension host and the webview use them.
 */
import { Arch06Error } from '../errors';
import type { MeshModel, ModelLod, ModelPart } from './meshModel';

/** Bumped when the shape changes, so a stale webview can say so instead of drawing garbage. */
export const WIRE_VERSION = 1;

export interface WirePart {
  name: string;
  material?: string;
  materialIndex?: number;
  positions: ArrayBuffer;
  normals?: ArrayBuffer;
  tangents?: ArrayBuffer;
  uvs?: ArrayBuffer;
  colors?: ArrayBuffer;
  indices: ArrayBuffer;
  indexType: 'uint16' | 'uint32';
  joints?: ArrayBuffer;
  weights?: ArrayBuffer;
}

export interface WireLod extends Omit<ModelLod, 'parts'> {
  parts: WirePart[];
}

export interface WireModel extends Omit<MeshModel, 'lods'> {
  wireVersion: number;
  lods: WireLod[];
}

/** The bytes of a typed array as an ArrayBuffer of exactly that size (its own buffer when it already is one). */
function exact(a: ArrayBufferView): ArrayBuffer {
  const buffer = a.buffer as ArrayBuffer;
  if (a.byteOffset === 0 && a.byteLength === buffer.byteLength && isArrayBuffer(buffer)) return buffer;
  return buffer.slice(a.byteOffset, a.byteOffset + a.byteLength);
}

function isArrayBuffer(x: unknown): x is ArrayBuffer {
  // Not `instanceof`: a buffer that crossed a realm (a webview message) has another ArrayBuffer.
  return Object.prototype.toString.call(x) === '[object ArrayBuffer]';
}

/**
 * The wire form of `model`. Arrays that own their whole buffer are passed as that buffer (no
 * copy; do not modify the model afterwards while the message is in flight), others are copied.
 */
export function toWireModel(model: MeshModel): WireModel {
  const { lods, ...rest } = model;
  return {
    ...rest,
    wireVersion: WIRE_VERSION,
    lods: lods.map(({ parts, ...lod }) => ({
      ...lod,
      parts: parts.map((p) => {
        const w: WirePart = {
          name: p.name,
          positions: exact(p.positions),
          indices: exact(p.indices),
          indexType: p.indices instanceof Uint32Array ? 'uint32' : 'uint16',
        };
        if (p.material !== undefined) w.material = p.material;
        if (p.materialIndex !== undefined) w.materialIndex = p.materialIndex;
        if (p.normals) w.normals = exact(p.normals);
        if (p.tangents) w.tangents = exact(p.tangents);
        if (p.uvs) w.uvs = exact(p.uvs);
        if (p.colors) w.colors = exact(p.colors);
        if (p.joints) w.joints = exact(p.joints);
        if (p.weights) w.weights = exact(p.weights);
        return w;
      }),
    })),
  };
}

/** Every ArrayBuffer in a wire model (each once), for a `postMessage` transfer list. */
export function wireTransferables(wire: WireModel): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const lod of wire.lods) {
    for (const p of lod.parts) {
      for (const b of [p.positions, p.normals, p.tangents, p.uvs, p.colors, p.indices, p.joints, p.weights]) if (b) out.add(b);
    }
  }
  return [...out];
}

function bad(file: string, what: string, field: string, expected: string, actual: string): Arch06Error {
  return new Arch06Error('INVALID', what, { file, field, expected, actual });
}

/**
 * The `MeshModel` a wire model describes, its arrays viewing the received buffers (no copy).
 * Checks what a renderer relies on: the shape, element sizes, per-vertex lengths that agree
 * with `positions`, and indices below the vertex count. Throws `Arch06Error` (INVALID).
 */
export function fromWireModel(input: unknown): MeshModel {
  const wire = input as WireModel;
  const file = typeof wire?.name === 'string' ? wire.name : '(model message)';
  if (typeof wire !== 'object' || wire === null || !Array.isArray(wire.lods) || typeof wire.bounds !== 'object' || !Array.isArray(wire.notes)) {
    throw bad(file, 'not a wire model', 'model', 'an object with name, lods, bounds and notes', typeof wire);
  }
  if (wire.wireVersion !== WIRE_VERSION) throw bad(file, 'wire model from another version', 'wireVersion', String(WIRE_VERSION), String(wire.wireVersion));
  const lods: ModelLod[] = wire.lods.map((lod, li) => {
    if (!Array.isArray(lod?.parts)) throw bad(file, `LOD ${li} has no part list`, `lods[${li}].parts`, 'an array', typeof lod?.parts);
    return {
      ...lod,
      parts: lod.parts.map((w, pi): ModelPart => {
        const field = `lods[${li}].parts[${pi}]`;
        const label = `part "${w?.name}" (LOD ${lod.index}, part ${pi})`;
        const view = <T>(name: keyof WirePart, make: (b: ArrayBuffer) => T, size: number, required: boolean): T | undefined => {
          const b = w[name];
          if (b === undefined && !required) return undefined;
          if (!isArrayBuffer(b))
            throw bad(file, `${label}: ${name} is not an ArrayBuffer`, `${field}.${name}`, 'an ArrayBuffer', b === null ? 'null' : typeof b);
          if (b.byteLength % size !== 0)
            throw bad(
              file,
              `${label}: ${name} byte length is not a whole number of elements`,
              `${field}.${name}`,
              `a multiple of ${size} bytes`,
              String(b.byteLength),
            );
          return make(b);
        };
        const positions = view('positions', (b) => new Float32Array(b), 12, true)!;
        const n = positions.length / 3;
        if (w.indexType !== 'uint16' && w.indexType !== 'uint32')
          throw bad(file, `${label}: unknown index type`, `${field}.indexType`, "'uint16' or 'uint32'", String(w.indexType));
        const indices = w.indexType === 'uint32' ? view('indices', (b) => new Uint32Array(b), 4, true)! : view('indices', (b) => new Uint16Array(b), 2, true)!;
        if (indices.length % 3 !== 0)
          throw bad(file, `${label}: index count is not a multiple of 3`, `${field}.indices`, 'a triangle list', String(indices.length));
        for (let i = 0; i < indices.length; i++) {
          if (indices[i]! >= n) throw bad(file, `${label}: index out of range`, `${field}.indices[${i}]`, `< ${n}`, String(indices[i]));
        }
        const part: ModelPart = { name: String(w.name), positions, indices };
        if (w.material !== undefined) part.material = w.material;
        if (w.materialIndex !== undefined) part.materialIndex = w.materialIndex;
        const attr = <K extends 'normals' | 'tangents' | 'uvs' | 'colors' | 'joints' | 'weights'>(
          name: K,
          make: (b: ArrayBuffer) => NonNullable<ModelPart[K]>,
          size: number,
          k: number,
        ): void => {
          const a = view(name, make, size, false);
          if (a === undefined) return;
          if (a.length !== n * k) throw bad(file, `${label}: ${name} do not match the ${n} positions`, `${field}.${name}`, `${n * k} values`, String(a.length));
          part[name] = a;
        };
        attr('normals', (b) => new Float32Array(b), 12, 3);
        attr('tangents', (b) => new Float32Array(b), 16, 4);
        attr('uvs', (b) => new Float32Array(b), 8, 2);
        attr('colors', (b) => new Uint8Array(b), 4, 4);
        attr('joints', (b) => new Uint16Array(b), 8, 4);
        attr('weights', (b) => new Float32Array(b), 16, 4);
        return part;
      }),
    };
  });
  const { wireVersion: _version, lods: _lods, ...rest } = wire;
  return { ...rest, lods };
}
