/**
 * Extraction: copy files of the mount (merged view, or one source) into a folder outside the
 * install, keeping their game paths. Large entries are read in bounded blocks, each file goes
 * through the one write primitive (`OutputFolder`: safe names, real paths checked, exclusive temp
 * file, rename), failures are collected and the rest goes on.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { errnoSummary, isErrnoException } from '../io/node/errno';
import { OutputFolder } from '../io/node/outputFolder';
import { toGamePath } from './gamePath';
import { escapeControls, escapeName } from '../io/safeName';
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
    // Iterative, each folder once: no table can make this walk deep or endless.
    const stack: string[] = [t];
    const seen = new Set<string>();
    while (stack.length) {
      const folder = stack.pop()!;
      if (seen.has(folder.toLowerCase())) continue;
      seen.add(folder.toLowerCase());
      const l = s.list(toGamePath(folder));
      if (!l) continue;
      for (const f of l.files) out.push(f); // not push(...): big folders overflow a spread
      for (let i = l.folders.length - 1; i >= 0; i--) stack.push(folder ? `${folder}\\${l.folders[i]}` : l.folders[i]);
    }
  } else for (const e of mount.walk(t)) out.push(e);
  if (out.length === 0) throw new Arch06Error('NOT_FOUND', 'no file or folder at this path', { file: t || '(root)' });
  return out;
}

export interface ExtractOptions {
  onProgress?: (done: number, total: number, bytes: number, current: string) => void;
  isCancelled?: () => boolean;
  blockSize?: number;
}

export interface ExtractFailure {
  /** The entry's path as its source spells it (raw: escape it before printing). */
  path: string;
  source: string;
  /** One line: what failed and why (file names in it escaped). */
  message: string;
  /** The Arch06Error code or the file-system error code (`ENAMETOOLONG`, …). */
  code: string;
}

export interface ExtractResult {
  files: number;
  bytes: number;
  failures: ExtractFailure[];
  cancelled: boolean;
}

/**
 * Copy `entries` under `outDir`, each at its game path. The output folder is opened once
 * (created if missing; refused when it is a file or, comparing real paths, inside the install or
 * a mounted source). Each entry's path is split on `\` and every segment must be a safe name
 * (`unsafeNameReason`): an archive's names are data, never a disk path. A file that cannot be
 * written (unsafe name, a link leading out of the folder, any file-system error, a read error)
 * is recorded in `failures` and the rest goes on; only internal errors abort.
 */
export async function extractEntries(mount: Mount, entries: SourceEntry[], outDir: string, options: ExtractOptions = {}): Promise<ExtractResult> {
  // The install (and every mounted source, which a cfg line may place outside it) is read-only to arch06.
  const out = OutputFolder.open(outDir, { forbid: mount.readOnlyPlaces() });
  const block = options.blockSize ?? 16 << 20;
  const result: ExtractResult = { files: 0, bytes: 0, failures: [], cancelled: false };
  try {
    await extractInto(out, entries, block, result, options);
  } finally {
    out.close();
  }
  return result;
}

async function extractInto(out: OutputFolder, entries: SourceEntry[], block: number, result: ExtractResult, options: ExtractOptions): Promise<void> {
  for (const [i, e] of entries.entries()) {
    if (options.isCancelled?.()) {
      result.cancelled = true;
      break;
    }
    let at = 0;
    try {
      await out.writeBlocks(e.path.split('\\'), async () => {
        if (at >= e.size) return undefined;
        const end = Math.min(e.size, at + block);
        const b = await e.read(at, end);
        at = end;
        return b;
      });
      result.files++;
      result.bytes += e.size;
    } catch (err) {
      if (isArch06Error(err)) {
        // The entry's own path is shown beside the message: leave it out of the message.
        const own = err.file === undefined || err.file === escapeName(e.path) || err.file === e.path;
        const message = own ? new Arch06Error(err.code, err.description, { ...err.details(), file: undefined }).message : err.message;
        result.failures.push({ path: e.path, source: e.source.name, message: escapeControls(message), code: err.code });
      } else if (isErrnoException(err))
        result.failures.push({ path: e.path, source: e.source.name, message: escapeControls(errnoSummary(err)), code: err.code ?? 'E?' });
      else throw err;
    }
    options.onProgress?.(i + 1, entries.length, result.bytes, e.path);
  }
}
