/**
 * Unit quaternions as the files store them: [x, y, z, w] (vector part first). Written once for the
 * registry's object rotations (core/formats/registry/rotation.ts) and the mesh skeleton's bone
 * frames (core/model/fromMmsh.ts).
 */
export type Quaternion = [number, number, number, number];

/** The Hamilton product a · b: the rotation b, then a. */
export function multiplyQuaternions(a: Quaternion, b: Quaternion): Quaternion {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}
