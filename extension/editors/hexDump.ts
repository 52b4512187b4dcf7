/** A classic hex dump (offset, 16 bytes, ASCII) of the first `max` bytes: the raw view of a file no reader understood. */
export function hexDump(bytes: Uint8Array, max = 512): string {
  const lines: string[] = [];
  for (let o = 0; o < Math.min(bytes.length, max); o += 16) {
    const row = bytes.subarray(o, Math.min(o + 16, bytes.length));
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const text = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${o.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${text}`);
  }
  return lines.join('\n');
}
