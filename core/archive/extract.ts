/**
 * Extraction: copy files of the mount (merged view, or one source) into a folder outside the
 * install, keeping their game paths. Large entries are read in bounded blocks, each file is
 * written to a temp name and renamed when complete, failures are collected and the rest goes on.
 */
import * as path from 'node:path';
import { Arch06Error, isArch06Error } from '../errors';
import { isInside, writeFileFromBlocks } from '../io/node';
import { toGamePath } from './gamePath';
import { Mount } from './mount';
import { SourceEntry } from './source';

/** The files a path names: the file itself, or every file under the folder (merged view or one source). */
export function collectEntries(mount: Mount, target: string, sourceName?: string): SourceEntry[] {
  const t = toGamePath(target);
  if (t) {
    try {
      return [mount.entry(t, sourceName)];
    } catch (e) {
      if (!(isArch06Error(e) && e.code === 'NOT_FOUND')) throw e;
    }
  }
  const out: SourceEntry[] = [];
  if (sourceName !== undefined) {
    const s = mount.source(sourceName);
    if (!s) throw new Arch06Error('NOT_FOUND', `no mounted source named ${sourceName}`);
    const walk = (folder: string): void => {
      const l = s.list(toGamePath(folder));
      if (!l) return;
      for (const f of l.files) out.push(f); // not push(...): big folders overflow a spread
      for (const d of l.folders) walk(folder ? `${folder}\\${d}` : d);
    };
    walk(t);
  } else for (const e of mount.walk(t)) out.push(e);
  if (out.length === 0) throw new Arch06Error('NOT_FOUND', 'no file or folder at this path', { file: t || '(root)' });
  return out;
}

export interface ExtractOptions {
  onProgress?: (done: number, total: number, bytes: number, current: string) => void;
  isCancelled?: () => boolean;
  blockSize?: number;
}

export interface ExtractResult {
  files: number;
  bytes: number;
  failures: { path: string; source: string; message: string }[];
  cancelled: boolean;
}

export async function extractEntries(mount: Mount, entries: SourceEntry[], outDir: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  // The install is read-only to arch06: never write into it.
  if (isInside(outDir, mount.root)) {
    throw new Arch06Error('BAD_ARGUMENT', 'refusing to extract into the install folder (it is read-only to arch06); choose another folder', { file: outDir });
  }
  const block = options.blockSize ?? 16 << 20;
  const result: ExtractResult = { files: 0, bytes: 0, failures: [], cancelled: false };
  for (const [i, e] of entries.entries()) {
    if (options.isCancelled?.()) {
      result.cancelled = true;
      break;
    }
    const dest = path.join(outDir, ...e.path.split('\\'));
    let at = 0;
    try {
      await writeFileFromBlocks(dest, async () => {
        if (at >= e.size) return undefined;
        const end = Math.min(e.size, at + block);
        const b = await e.read(at, end);
        at = end;
        return b;
      });
      result.files++;
      result.bytes += e.size;
    } catch (err) {
      if (!isArch06Error(err)) throw err;
      result.failures.push({ path: e.path, source: e.source.name, message: err.message });
    }
    options.onProgress?.(i + 1, entries.length, result.bytes, e.path);
  }
  return result;
}
