/**
 * Rotations in degrees and the unit quaternion an OBJL record stores (x, y, z, w at record +0x1A,
 * f32, ./layout.ts). The world is Y-up (the retail layers' rotations are almost all about Y: yaw),
 * so the degrees are Euler angles [pitch about X, yaw about Y, roll about Z], composed as
 * q = yaw · pitch · roll (roll applied first, yaw last). `degreesFromQuaternion` inverts it, with
 * pitch in [-90, 90]; at ±90 pitch the roll folds into the yaw (gimbal lock) and roll reads 0.
 */
import { type Quaternion, multiplyQuaternions as multiply } from '../../math';

export type { Quaternion };
export type EulerDegrees = [number, number, number];

const RAD = Math.PI / 180;

/** The unit quaternion of [pitch, yaw, roll] degrees, each component rounded to f32 as the file stores it. */
export function quaternionFromDegrees(degrees: EulerDegrees): Quaternion {
  const [p, y, r] = degrees.map((d) => (d * RAD) / 2);
  const q = multiply(multiply([0, Math.sin(y), 0, Math.cos(y)], [Math.sin(p), 0, 0, Math.cos(p)]), [0, 0, Math.sin(r), Math.cos(r)]);
  return normalizedF32(q);
}

/** `q` scaled to unit length and rounded to f32 (the identity when |q| is 0 or not finite). */
export function normalizedF32(q: Quaternion): Quaternion {
  const n = Math.hypot(...q);
  if (!(n > 0) || !Number.isFinite(n)) return [0, 0, 0, 1];
  return q.map((x) => Math.fround(x / n)) as Quaternion;
}

/** [pitch, yaw, roll] in degrees of a quaternion (normalized first). */
export function degreesFromQuaternion(q: Quaternion): EulerDegrees {
  const n = Math.hypot(...q) || 1;
  const [x, y, z, w] = q.map((c) => c / n);
  const m12 = 2 * (y * z - w * x);
  const pitch = Math.asin(Math.max(-1, Math.min(1, -m12)));
  if (Math.abs(m12) > 0.999999) {
    // Gimbal lock: only yaw ± roll is defined; read it all as yaw.
    const yaw = Math.atan2(-2 * (x * z - w * y), 1 - 2 * (y * y + z * z));
    return [pitch / RAD, yaw / RAD, 0];
  }
  const yaw = Math.atan2(2 * (x * z + w * y), 1 - 2 * (x * x + y * y));
  const roll = Math.atan2(2 * (x * y + w * z), 1 - 2 * (x * x + z * z));
  return [pitch / RAD, yaw / RAD, roll / RAD];
}
