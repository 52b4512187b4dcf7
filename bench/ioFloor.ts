/**
 * The I/O floor for mounting: open each archive, read its 0x30-byte header and then exactly the
 * table bytes the mount reads (name pool, file and folder records), with plain `fs` calls and no
 * parsing. `readTableFloor` for a bench's own process; run as a script (the archives on the
 * command line) for a process of its own, like the CLI's mount.
 */
import * as fs from 'node:fs';

/** Read each archive's header and tables; the bytes read. */
export function readTableFloor(files: readonly string[]): number {
  let bytes = 0;
  for (const file of files) {
    const fd = fs.openSync(file, 'r');
    const h = Buffer.alloc(0x30);
    fs.readSync(fd, h, 0, 0x30, 0);
    const tables = h.readUInt32LE(8) + h.readUInt32LE(16) * 30 + h.readUInt32LE(12) * 16;
    fs.readSync(fd, Buffer.allocUnsafe(tables), 0, tables, 0x30);
    bytes += 0x30 + tables;
    fs.closeSync(fd);
  }
  return bytes;
}

/** Stat each archive, then read the cache file; the bytes read. */
export function statFloor(files: readonly string[], cacheFile: string): number {
  for (const file of files) fs.statSync(file);
  return fs.readFileSync(cacheFile).length;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  process.stdout.write(String(args[0] === '--stat' ? statFloor(args.slice(2), args[1]) : readTableFloor(args)));
}
