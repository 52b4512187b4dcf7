/**
 * Archives of Kraken chunks for the worker benchmarks (verifyWorkers, extractWorkers): written once
 * under bench-data/kraken with the project's LTAR writer from the shared vectors' 64 KiB Kraken
 * payloads, mounted as -arch archives beside the full-scale synthetic install.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter, type WriterChunk } from '../core/formats/archive';

const repo = path.resolve(__dirname, '..', '..');
const krakenDir = path.join(repo, 'bench-data', 'kraken');
export const vectors = path.join(repo, '..', 'shared', 'kraken-vectors');
export const ARCHIVES = 12;
const ENTRIES = 64;
const CHUNKS = 4;

/** Archives of Kraken chunks (the vectors' 64 KiB Kraken payloads, in turn), written once. */
export function krakenArchives(): string[] {
  const files = Array.from({ length: ARCHIVES }, (_, a) => path.join(krakenDir, `Kraken_${String(a).padStart(2, '0')}.arch06`));
  if (files.every((f) => fs.existsSync(f))) return files;
  const manifest: { rawFile: string; compressedFile: string; rawSize: number }[] = JSON.parse(fs.readFileSync(path.join(vectors, 'manifest.json'), 'utf8'));
  const chunks: WriterChunk[] = manifest
    .filter((v) => v.rawSize === 0x10000)
    .map((v) => ({ payload: fs.readFileSync(path.join(vectors, v.compressedFile)), rawLen: v.rawSize }))
    .filter((c) => c.payload.length < c.rawLen);
  fs.mkdirSync(krakenDir, { recursive: true });
  let k = 0;
  files.forEach((file, a) => {
    const w = new LtarWriter();
    for (let e = 0; e < ENTRIES; e++)
      w.add(`kraken\\a${a}\\entry_${e}.bin`, { storage: 'chunks', chunks: Array.from({ length: CHUNKS }, () => chunks[k++ % chunks.length]) });
    fs.writeFileSync(file, Buffer.concat(w.build()));
  });
  return files;
}
