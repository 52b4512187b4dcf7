/**
 * The I/O floor for mounting: open each archive named on the command line, read its 0x30-byte
 * header and then exactly the table bytes the mount reads (name pool, file and folder records),
 * with plain `fs` calls and no parsing. Run as its own process, like the CLI's mount.
 */
import * as fs from 'node:fs';

let bytes = 0;
for (const file of process.argv.slice(2)) {
  const fd = fs.openSync(file, 'r');
  const h = Buffer.alloc(0x30);
  fs.readSync(fd, h, 0, 0x30, 0);
  const tables = h.readUInt32LE(8) + h.readUInt32LE(16) * 30 + h.readUInt32LE(12) * 16;
  const t = Buffer.allocUnsafe(tables);
  fs.readSync(fd, t, 0, tables, 0x30);
  bytes += 0x30 + tables;
  fs.closeSync(fd);
}
process.stdout.write(String(bytes));
