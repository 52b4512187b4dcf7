/**
 * Little-endian reads from a byte array, for format readers that have already checked the range
 * (every caller checks offset + size against the data before reading).
 */
export const u16 = (b: Uint8Array, o: number): number => b[o] | (b[o + 1] << 8);
export const u32 = (b: Uint8Array, o: number): number => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
