/** Writing one decoded 4x4 RGBA8 block into an image, clipped at its right and bottom edges. */
export function storeBlock(out: Uint8Array, blk: Uint8Array, width: number, height: number, bx: number, by: number): void {
  const x0 = bx << 2;
  const y0 = by << 2;
  const cols = Math.min(4, width - x0);
  const rows = Math.min(4, height - y0);
  const rowBytes = width * 4;
  for (let y = 0; y < rows; y++) {
    const d = (y0 + y) * rowBytes + (x0 << 2);
    const b = y << 4;
    for (let k = 0, n = cols << 2; k < n; k++) out[d + k] = blk[b + k];
  }
}
