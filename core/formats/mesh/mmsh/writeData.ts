/**
 * The data section of an MMSH written by ./writer.ts: the vertex layouts (one per distinct
 * attribute set), each part checked and planned (its layout, palette and quantised weights), then
 * the vertex, face and palette blocks with the MeshInfo records that locate each part in them.
 */
import { ByteWriter } from '../../../io/byteWriter';
import { f32ToHalf } from '../../../io/half';
import { MMSH_SEMANTIC, MMSH_TYPE, MMSH_WEIGHT_BYTE_OF_SLOT } from './layout';
import { MmshWriteBone, MmshWriteInput, MmshWritePart, bad } from './writeInput';

export interface Attr {
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

/** One part as it will be written: its vertex count, layout, palette and, when skinned, its slots and weights. */
export interface PartPlan {
  part: MmshWritePart;
  n: number;
  layout: number;
  attrs: Attr[];
  palette: number[];
  slots?: Uint8Array;
  weights?: Uint8Array;
}

/**
 * Check and plan every part of every block; the layouts are the distinct attribute sets, in the
 * order first met. `nameTablePos[b]` is bone b's position in the name table (what palette bytes index).
 */
export function planParts(input: MmshWriteInput, bones: MmshWriteBone[], nameTablePos: Int32Array): { layouts: Attr[][]; plans: PartPlan[][] } {
  const layouts: Attr[][] = [];
  const layoutKeys: string[] = [];
  const plans: PartPlan[][] = input.blocks.map((b, bi) =>
    b.parts.map((part, pi) => {
      const plan = planPart(input, part, `blocks[${bi}].parts[${pi}]`, bones, nameTablePos);
      const key = plan.attrs.map((a) => `${a.stream}.${a.type}.${a.semantic}.${a.channel}`).join('|');
      let li = layoutKeys.indexOf(key);
      if (li < 0) {
        li = layouts.length;
        layouts.push(plan.attrs);
        layoutKeys.push(key);
      }
      plan.layout = li;
      return plan;
    }),
  );
  return { layouts, plans };
}

/** One part's checks, attributes (in the sample's order) and, when skinned, its palette and weights. */
function planPart(input: MmshWriteInput, part: MmshWritePart, f: string, bones: MmshWriteBone[], nameTablePos: Int32Array): PartPlan {
  const posType = input.positionFormat === 'f16' ? MMSH_TYPE.F16X4 : MMSH_TYPE.F32X4;
  const uvType = input.uvFormat === 's16' ? MMSH_TYPE.S16X2 : MMSH_TYPE.F32X2;
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
  return plan;
}

/** Where one part lies in its block's vertex, face and palette data (a MeshInfo record). */
export interface MeshRec {
  vertexByteOffset: number;
  firstVertex: number;
  vertexCount: number;
  firstIndex: number;
  indexCount: number;
  firstPalette: number;
  paletteCount: number;
  layout: number;
}

/** The data blocks: per block its vertex bytes (stream 0 of every vertex, then stream 1), faces and palettes. */
export interface DataBlocks {
  vertexBlocks: Uint8Array[];
  faceBlocks: Uint8Array[];
  paletteBlocks: Uint8Array[];
  meshRecs: MeshRec[][];
}

export function encodeDataBlocks(plans: PartPlan[][]): DataBlocks {
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
  return { vertexBlocks, faceBlocks, paletteBlocks, meshRecs };
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
