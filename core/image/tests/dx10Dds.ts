/**
 * A minimal DX10 DDS for the decoder tests: the 128-byte legacy header with FourCC "DX10", the
 * 20-byte DX10 header (a 2D texture, one array element) and one block-compressed level written by
 * hand, so the tests do not depend on the project's own writer.
 */
export function dx10Dds(dxgi: number, level: Uint8Array, width = 4, height = 4): Buffer {
  const head = Buffer.alloc(148 + level.length);
  head.write('DDS ', 0, 'latin1');
  head.writeUInt32LE(124, 4); // header size
  head.writeUInt32LE(height, 12);
  head.writeUInt32LE(width, 16);
  head.writeUInt32LE(32, 76); // pixel format size
  head.writeUInt32LE(4, 80); // DDPF_FOURCC
  head.write('DX10', 84, 'latin1');
  head.writeUInt32LE(dxgi, 128);
  head.writeUInt32LE(3, 132); // D3D10_RESOURCE_DIMENSION_TEXTURE2D
  head.writeUInt32LE(1, 140); // array size
  head.set(level, 148);
  return head;
}
