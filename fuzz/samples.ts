/**
 * The real game files the seeds start from (../shared/samples/real/): read once per worker. The
 * retail archive's entries are decoded through the project's own reader (Patch_00.arch06: four
 * world layers, each a `.bndl` manifest and an `.embb` container whose members are a prefab, a
 * registry and a script among others). Absent samples leave the writers' seeds alone, and the run
 * says so.
 */
import * as fs from 'node:fs';
import { LtarSource } from '../core/archive';
import { parseEmbb } from '../core/formats/bundle';
import { MemoryByteSource } from '../core/io';
import { sharedPath } from '../test/support/shared';

export interface RealFile {
  /** The game path (for archive entries and container members) or the sample's file name. */
  name: string;
  bytes: Uint8Array;
}

let cache: Map<string, Uint8Array | undefined> | undefined;
let archiveFiles: RealFile[] | undefined;

/** A sample from ../shared/samples/real/, or undefined when absent. */
export function realSample(name: string): Uint8Array | undefined {
  cache ??= new Map();
  if (!cache.has(name)) {
    const p = sharedPath(`samples/real/${name}`);
    cache.set(name, p.skip ? undefined : new Uint8Array(fs.readFileSync(p.path)));
  }
  return cache.get(name);
}

/** Whether the real samples are there (the run's header line says so). */
export const realSamplesPresent = (): boolean => realSample('Patch_00.arch06') !== undefined;

/**
 * Every entry of the retail archive and every member of its containers, decoded. Containers'
 * members are copied out, so a mutation never writes into another seed.
 */
export function realArchiveFiles(): RealFile[] {
  if (archiveFiles) return archiveFiles;
  archiveFiles = [];
  const bytes = realSample('Patch_00.arch06');
  if (!bytes) return archiveFiles;
  const src = new LtarSource('Patch_00.arch06', '', new MemoryByteSource('Patch_00.arch06', bytes));
  for (let i = 0; i < src.fileCount; i++) {
    const e = src.entryAt(i);
    const data = Uint8Array.from(e.readSync());
    archiveFiles.push({ name: e.path, bytes: data });
    if (e.path.endsWith('.embb')) {
      for (const m of parseEmbb(data, e.path).members) archiveFiles.push({ name: m.path, bytes: data.slice(m.offset, m.offset + m.size) });
    }
  }
  return archiveFiles;
}

/** The real files whose name ends with `suffix` (archive entries and container members). */
export const realFilesEnding = (suffix: string): RealFile[] => realArchiveFiles().filter((f) => f.name.toLowerCase().endsWith(suffix));
