/**
 * Writes SKEL v17 skeletons in the layout ./reader.ts reads (see ./layout.ts): synthetic
 * files for tests and the embedded sample install. Unknown fields get the real sample's values:
 * header words [10..15] = 0, 0, 0, 0, -1, 0; 0xDCDCFF03 = 0, 1, 2, …; empty cloth and 0xDCDCFF05
 * sections with the 0xDEADDEAD checksum; the "SKPY" footer and 8 zero bytes.
 *
 * Bones are given in depth-first order with model-space transforms (as the file stores them);
 * the string blob lists the bone names in breadth-first order (the sample's name-table order),
 * then mask, socket, .anix and part names; equal strings share one offset, as on the sample.
 */
import { Arch06Error } from '../../../errors';
import { ByteWriter } from '../../../io/byteWriter';
import { SKEL_BONE_SIZE, SKEL_CHECKSUM, SKEL_MAGIC, SKEL_SECTION, SKEL_VERSION } from './layout';
import { breadthFirstOrder } from './hierarchy';

export interface SkelWriteBone {
  name: string;
  parent: number;
  /** Model space. */
  translation: [number, number, number];
  rotation: [number, number, number, number];
  /** u8 deform flag (default 1). */
  deform?: number;
}

export interface SkelWritePart {
  name: string;
  /** LOD entries: from `distance` on, material slot `material` (the MMSH chain at the same positions). */
  lods: { distance: number; material: number; flagA?: number; flagB?: number; unk?: number }[];
}

export interface SkelWriteInput {
  bones: SkelWriteBone[];
  parts?: SkelWritePart[];
  anix?: string[];
  /** One per .anix library (default 0). */
  animationTypes?: number[];
  masks?: { name: string; values?: number[]; unk?: number }[];
  sockets?: { bone: number; name: string; rotation: [number, number, number, number]; translation: [number, number, number]; scale?: number }[];
  /** The f32 at 0x44 (default 500). */
  distance0x44?: number;
  /** Default: the bone positions' box. */
  bounds?: { min: [number, number, number]; max: [number, number, number] };
}

const bad = (message: string, field: string, expected: string, actual: string): Arch06Error =>
  new Arch06Error('BAD_ARGUMENT', message, { file: 'skel', field, expected, actual });

/** Write a SKEL v17 file. Throws `BAD_ARGUMENT` for inconsistent input (bones not depth-first, names with NUL). */
export function writeSkel(input: SkelWriteInput): Uint8Array {
  const bones = input.bones;
  const parts = input.parts ?? [];
  const anix = input.anix ?? [];
  const masks = input.masks ?? [];
  const sockets = input.sockets ?? [];
  if (bones.length > 256) throw bad('at most 256 bones (palette bytes are u8)', 'bones', '<= 256', String(bones.length));
  // Depth-first check: rebuilding the parents from the child counts must give them back.
  const childCounts = new Array<number>(bones.length).fill(0);
  bones.forEach((b, i) => {
    if (!(b.parent >= -1 && b.parent < i)) throw bad('bones must list parents before children', `bones[${i}].parent`, `-1..${i - 1}`, String(b.parent));
    if (b.parent >= 0) childCounts[b.parent]!++;
  });
  const stack: { bone: number; left: number }[] = [];
  bones.forEach((b, i) => {
    while (stack.length && stack[stack.length - 1]!.left === 0) stack.pop();
    const top = stack[stack.length - 1];
    if ((top ? top.bone : -1) !== b.parent)
      throw bad('bones are not in depth-first order', `bones[${i}].parent`, String(top ? top.bone : -1), String(b.parent));
    if (top) top.left--;
    stack.push({ bone: i, left: childCounts[i]! });
  });
  sockets.forEach((s, i) => {
    if (!(s.bone >= 0 && s.bone < bones.length))
      throw bad('socket names a bone that does not exist', `sockets[${i}].bone`, `0..${bones.length - 1}`, String(s.bone));
  });

  // String blob.
  const blob = new ByteWriter().u8(0);
  const offsets = new Map<string, number>([['', 0]]);
  const str = (s: string, field: string): number => {
    if (s.includes('\0')) throw bad('a name holds a NUL', field, 'no NUL', JSON.stringify(s));
    let o = offsets.get(s);
    if (o === undefined) {
      o = blob.length;
      offsets.set(s, o);
      blob.bytes(Buffer.from(s, 'latin1')).u8(0);
    }
    return o;
  };
  for (const b of breadthFirstOrder(bones.map((x) => x.parent))) str(bones[b]!.name, `bones[${b}].name`);
  masks.forEach((m, i) => str(m.name, `masks[${i}].name`));
  sockets.forEach((s, i) => str(s.name, `sockets[${i}].name`));
  anix.forEach((a, i) => str(a, `anix[${i}]`));
  parts.forEach((p, i) => str(p.name, `parts[${i}].name`));

  let bounds = input.bounds;
  if (!bounds) {
    const min: [number, number, number] = [0, 0, 0];
    const max: [number, number, number] = [0, 0, 0];
    bones.forEach((b, i) => {
      for (let k = 0; k < 3; k++) {
        min[k] = i ? Math.min(min[k]!, b.translation[k]!) : b.translation[k]!;
        max[k] = i ? Math.max(max[k]!, b.translation[k]!) : b.translation[k]!;
      }
    });
    bounds = { min, max };
  }

  const w = new ByteWriter().u32(SKEL_MAGIC);
  for (const v of [
    SKEL_VERSION,
    64,
    blob.length,
    anix.length + parts.length,
    bones.length,
    SKEL_BONE_SIZE * bones.length,
    anix.length,
    parts.length,
    sockets.length,
    bones.length,
    0,
    0,
    0,
    0,
    0xffffffff,
    0,
  ])
    w.u32(v);
  w.f32(input.distance0x44 ?? 500);
  for (const v of [...bounds.min, ...bounds.max]) w.f32(v);
  for (const p of parts) {
    w.u32(p.lods.length);
    for (const l of p.lods)
      w.u8(l.flagA ?? 1)
        .u8(l.flagB ?? 1)
        .f32(l.distance)
        .s32(l.material)
        .s32(l.unk ?? -1);
  }
  w.u32(SKEL_SECTION.BONES).bytes(blob.toBytes());
  bones.forEach((b, i) => {
    w.u32(offsets.get(b.name)!).u8(b.deform ?? 1);
    for (const x of b.translation) w.f32(x);
    for (const x of b.rotation) w.f32(x);
    w.u32(childCounts[i]!);
  });
  w.u32(masks.length);
  for (const m of masks) {
    const values = m.values ?? bones.map(() => 1);
    w.u32(offsets.get(m.name)!)
      .u32(values.length)
      .u32(m.unk ?? 0)
      .bytes(values);
  }
  w.u32(sockets.length);
  for (const s of sockets) {
    w.u32(s.bone).u32(offsets.get(s.name)!);
    for (const x of s.rotation) w.f32(x);
    for (const x of s.translation) w.f32(x);
    w.f32(s.scale ?? 1);
  }
  w.u32(SKEL_SECTION.MODEL);
  for (const a of anix) w.u32(offsets.get(a)!);
  for (const p of parts) w.u32(offsets.get(p.name)!);
  w.u32(SKEL_SECTION.ANIMATION_TYPES);
  anix.forEach((_, i) => w.u32(input.animationTypes?.[i] ?? 0));
  w.u32(SKEL_SECTION.BONE_BYTES);
  bones.forEach((_, i) => w.u8(i));
  w.u32(SKEL_SECTION.CLOTH).u32(0).u32(SKEL_CHECKSUM);
  w.u32(SKEL_SECTION.UNKNOWN05).u32(0).u32(SKEL_CHECKSUM);
  w.u32(SKEL_SECTION.FOOTER).bytes([0x53, 0x4b, 0x50, 0x59]).u32(1).u32(0).u32(0);
  return w.toBytes();
}
