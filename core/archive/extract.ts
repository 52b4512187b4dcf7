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
import type { SourceEntry } from './source';

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

/** A source whose file changed on disk during the extraction: its files from then on were not extracted. */
export interface ExtractChanged {
  source: string;
  /** How it changed (`replaced by another file (1234 bytes)`), or the loose file's error. */
  detail: string;
  /** Its files not extracted because of it. */
  files: number;
}

export interface ExtractResult {
  files: number;
  bytes: number;
  failures: ExtractFailure[];
  /** Sources that changed on disk while they were read (their files are among `failures` too). */
  changed: ExtractChanged[];
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
  const result: ExtractResult = { files: 0, bytes: 0, failures: [], changed: [], cancelled: false };
  try {
    await extractInto(out, entries, block, result, options);
  } finally {
    out.close();
  }
  return result;
}

async function extractInto(out: OutputFolder, entries: SourceEntry[], block: number, result: ExtractResult, options: ExtractOptions): Promise<void> {
  const merge = new ExtractMerge(result);
  for (const [i, e] of entries.entries()) {
    if (options.isCancelled?.()) {
      result.cancelled = true;
      break;
    }
    const ahead = merge.before(e.path, e.source.name);
    merge.add(e.path, e.source.name, ahead ?? (await extractOne(out, e, block)));
    options.onProgress?.(i + 1, entries.length, result.bytes, e.path);
  }
}

/** What became of one entry: its bytes written, or why not (and, for a read that found its file changed, how it changed). */
export type EntryOutcome = { bytes: number } | { failure: Omit<ExtractFailure, 'path' | 'source'>; changed?: { archive: boolean; detail: string } };

/** Copy one entry under `out` at its game path, in bounded blocks; every failure but an internal error is an outcome. */
export async function extractOne(out: OutputFolder, e: SourceEntry, block: number): Promise<EntryOutcome> {
  let at = 0;
  let readFailed = false;
  try {
    await out.writeBlocks(e.path.split('\\'), async () => {
      if (at >= e.size) return undefined;
      const end = Math.min(e.size, at + block);
      const b = await e.read(at, end).catch((err: unknown) => {
        readFailed = true;
        throw err;
      });
      at = end;
      return b;
    });
    return { bytes: e.size };
  } catch (err) {
    if (isArch06Error(err)) {
      let changed: { archive: boolean; detail: string } | undefined;
      if (readFailed && err.code === 'CHANGED_ON_DISK') {
        const archive = e.source.changedOnDisk();
        changed = archive ? { archive: true, detail: archive.detail } : { archive: false, detail: err.description };
      }
      // The entry's own path is shown beside the message: leave it out of the message.
      const own = err.file === undefined || err.file === escapeName(e.path) || err.file === e.path;
      const message = own ? new Arch06Error(err.code, err.description, { ...err.details(), file: undefined }).message : err.message;
      return { failure: { message: escapeControls(message), code: err.code }, ...(changed ? { changed } : {}) };
    }
    if (isErrnoException(err)) return { failure: { message: escapeControls(errnoSummary(err)), code: err.code ?? 'E?' } };
    throw err;
  }
}

/**
 * Merges entry outcomes into a result in entry order (one thread, or the pool's workers):
 * a path differing only in case from one written before is refused (Windows folds case, so it would
 * overwrite the first there: issue 21 item 8), and once an archive changed on disk its later
 * files are not extracted.
 */
export class ExtractMerge {
  /** Paths written, by their case-folded spelling. */
  private readonly written = new Map<string, string>();
  /** Archives that changed on disk while read, by name. */
  private readonly changed = new Map<string, ExtractChanged>();

  constructor(private readonly result: ExtractResult) {}

  /** The outcome an entry has before any byte is read (a case clash, its archive changed), else undefined. */
  before(path: string, source: string): EntryOutcome | undefined {
    return this.clash(path) ?? this.gone(source);
  }

  /** A path differing only in case from one before it: refused (every path is passed here once, in order). */
  clash(path: string): EntryOutcome | undefined {
    const first = this.written.get(path.toLowerCase());
    if (first !== undefined && first !== path)
      return { failure: { message: `not extracted: differs only in case from ${escapeName(first)}, which it would overwrite on Windows`, code: 'CASE_CLASH' } };
    this.written.set(path.toLowerCase(), path);
    return undefined;
  }

  /** An entry of an archive that changed on disk earlier in the run: not read. */
  gone(source: string): EntryOutcome | undefined {
    const gone = this.changed.get(source);
    if (gone) {
      gone.files++;
      const message = `not extracted: ${source} changed on disk during the extraction (${gone.detail})`;
      return { failure: { message: escapeControls(message), code: 'CHANGED_ON_DISK' } };
    }
    return undefined;
  }

  add(path: string, source: string, o: EntryOutcome): void {
    const result = this.result;
    if ('bytes' in o) {
      result.files++;
      result.bytes += o.bytes;
      return;
    }
    const known = o.changed?.archive ? this.changed.get(source) : undefined;
    if (known)
      known.files++; // a worker that found the archive changed too
    else if (o.changed) {
      const entry = o.changed.archive ? { source, detail: o.changed.detail, files: 1 } : { source: `${source}\\${path}`, detail: o.changed.detail, files: 1 };
      result.changed.push(entry);
      if (o.changed.archive) this.changed.set(source, entry);
    }
    result.failures.push({ path, source, ...o.failure });
  }
}
