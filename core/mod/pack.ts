/**
 * Packing a mod folder into an LTAR v4 archive the engine's lookups accept (issue 23 item 4):
 * the archive writer (core/formats/archive) lays out names, folders and files in the orders the
 * engine's binary searches need; a path index (`archivepatchloosefiles.txt`, rows sorted by
 * StringHash) is added when the mod holds a file of the kinds the shipped indexes list; every
 * file is stored as chunks of 0x10000 bytes (the chunk rule: stored length = raw length means
 * stored), streamed from disk one block at a time, so memory stays at the tables plus one block.
 * The archive goes to a temporary file through the one write primitive (OutputFolder), is opened
 * with the project's reader and compared file by file against the folder, and only then renamed
 * into place. A folder the engine could not load as it is (./rules.ts, ./modFolder.ts) is refused
 * with every reason. A copy of the manifest goes into the archive at `arch06\arch06-mod.json`, so
 * an installed archive says which mod it is (a list the store client reset can be put back).
 */
import * as path from 'node:path';
import { Arch06Error } from '../errors';
import { FileByteSource } from '../io/node/fileSource';
import { OutputFolder } from '../io/node/outputFolder';
import { LtarWriter, MAX_CHUNK_LEN, PATH_INDEX_NAME, type PlannedEntry, frameStoredChunk, parsePathIndex, writePathIndex } from '../formats/archive';
import { LtarSource, toGamePath } from '../archive';
import { manifestText } from './manifest';
import { type ModFile, type ModFolder, openModFolder } from './modFolder';
import type { ModProblem } from './problems';
import { ARCHIVE_MANIFEST_PATH } from './rules';

/** A refusal with every reason: the CLI prints one line per problem, the extension lists them. */
export class ModRefusedError extends Arch06Error {
  constructor(
    description: string,
    readonly problems: ModProblem[],
    file?: string,
  ) {
    super('INVALID', description, { file });
  }
}

export interface PackOptions {
  /** The archive to write (default: the manifest's archive name beside the mod folder). */
  out?: string;
  /** Places the archive may not be written into besides the mod folder (the install, when packing elsewhere). */
  forbid?: readonly string[];
  /** A mod folder already opened (the caller checked it). */
  mod?: ModFolder;
  maxFiles?: number;
  /** Bytes of the archive written, of its length; files read, of the mod's. */
  onProgress?: (bytesDone: number, bytesTotal: number, filesDone: number, filesTotal: number) => void;
}

export interface PackResult {
  archive: string;
  files: number;
  /** Bytes of the mod's files. */
  bytes: number;
  archiveBytes: number;
  /** Rows of the path index (0: none written). */
  indexRows: number;
  /** Whether the path index is record 0 (it is unless a root file sorts before its name). */
  indexIsRecord0: boolean;
  /** Files read back from the written archive and found equal. */
  verified: number;
  notes: string[];
}

/** Bytes per block handed to the writer: 16 stored chunks. */
const BLOCK_CHUNKS = 16;
const BLOCK_BYTES = BLOCK_CHUNKS * (8 + MAX_CHUNK_LEN + 4);

export async function packMod(dir: string, options: PackOptions = {}): Promise<PackResult> {
  const mod = options.mod ?? openModFolder(dir, { maxFiles: options.maxFiles });
  const errors = mod.problems.filter((p) => p.severity === 'error');
  if (errors.length) {
    throw new ModRefusedError(
      `the mod cannot be packed: ${errors.length} problem${errors.length === 1 ? '' : 's'} (the first: ${describe(errors[0])})`,
      errors,
      mod.root,
    );
  }
  const out = path.resolve(options.out ?? path.join(path.dirname(mod.root), mod.manifest.archive));
  if (!/\.arch06$/i.test(out)) throw new Arch06Error('BAD_ARGUMENT', 'the archive to write must end in .arch06', { file: out });

  const writer = new LtarWriter();
  const indexed = mod.files.filter((f) => f.indexed).map((f) => f.path);
  if (indexed.length) writer.add(PATH_INDEX_NAME, { storage: 'chunked', bytes: writePathIndex(indexed) });
  const manifestBytes = Buffer.from(manifestText(mod.manifest), 'utf8');
  writer.add(ARCHIVE_MANIFEST_PATH, { storage: 'chunked', bytes: manifestBytes });
  mod.files.forEach((f, i) => writer.add(f.path, { storage: 'deferred', size: f.size, id: i }));
  const plan = writer.plan();
  const notes: string[] = [];
  const indexIsRecord0 = indexed.length > 0 && plan.entries[0].path === PATH_INDEX_NAME;
  if (indexed.length && !indexIsRecord0) {
    notes.push(`${plan.entries[0].path} sorts before ${PATH_INDEX_NAME} in the root folder, so the path index is not record 0 (the engine finds it by name)`);
  }
  const bytes = mod.files.reduce((n, f) => n + f.size, 0);

  const { folder, leaf } = OutputFolder.forFile(out, { forbid: [mod.root, ...(options.forbid ?? [])], forbidWhat: 'the mod folder (or the install)' });
  const blocks = archiveBlocks(plan.head, plan.entries, mod.files, (done, files) => options.onProgress?.(done, plan.totalSize, files, mod.files.length));
  let verified = 0;
  try {
    await folder.writeBlocks([leaf], async () => blocks.next().value ?? undefined, {
      names: 'user',
      fsync: true,
      beforeRename: (tmp) => {
        verified = verifyArchive(tmp, mod.files, indexed, manifestBytes);
      },
    });
  } finally {
    blocks.return(undefined); // closes the file being read when the write failed half way
    folder.close();
  }
  return {
    archive: folder.pathOf([leaf]),
    files: mod.files.length,
    bytes,
    archiveBytes: plan.totalSize,
    indexRows: new Set(indexed).size,
    indexIsRecord0,
    verified,
    notes,
  };
}

const view = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => view(a).equals(view(b));

function describe(p: ModProblem): string {
  return `${p.path ? `${p.path}: ` : ''}${p.message} [${p.code}]`;
}

/**
 * The archive's bytes in order: the tables, then each entry. A deferred entry's stored chunks are
 * framed in one reused block and its bytes read straight into it; the writer writes each block
 * before asking for the next, so the block can be filled again.
 */
function* archiveBlocks(
  head: Uint8Array[],
  entries: PlannedEntry[],
  files: ModFile[],
  progress: (done: number, files: number) => void,
): Generator<Uint8Array, undefined> {
  let done = 0;
  let filesDone = 0;
  for (const h of head) {
    done += h.length;
    yield h;
  }
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  let used = 0;
  function* flush(): Generator<Uint8Array, undefined> {
    if (used === 0) return;
    done += used;
    yield block.subarray(0, used);
    used = 0;
    progress(done, filesDone);
  }
  for (const e of entries) {
    if (e.padBefore) {
      if (used + e.padBefore > BLOCK_BYTES) yield* flush();
      block.fill(0, used, used + e.padBefore);
      used += e.padBefore;
    }
    if (e.parts) {
      yield* flush();
      for (const p of e.parts) {
        done += p.length;
        yield p;
      }
      continue;
    }
    const f = files[e.deferredId!];
    filesDone++;
    if (f.size === 0) continue;
    const src = FileByteSource.open(f.diskPath, f.path);
    try {
      if (src.size !== f.size)
        throw new Arch06Error('INVALID', 'the file changed while packing', { file: f.diskPath, expected: `${f.size} bytes`, actual: `${src.size} bytes` });
      let written = 0;
      for (let at = 0; at < f.size; at += MAX_CHUNK_LEN) {
        const len = Math.min(MAX_CHUNK_LEN, f.size - at);
        if (used + 8 + len + 4 > BLOCK_BYTES) yield* flush();
        src.readIntoSync(at, len, block, used + 8);
        const end = frameStoredChunk(block, used, len);
        written += end - used;
        used = end;
      }
      if (written !== e.storedSize)
        throw new Arch06Error('INVALID', 'the chunk stream does not have its planned length', {
          file: f.path,
          expected: String(e.storedSize),
          actual: String(written),
        });
    } finally {
      src.close();
    }
  }
  yield* flush();
  return undefined;
}

/** Open the written archive with the project's reader and compare every file with the folder; throws at the first difference. */
function verifyArchive(tmp: string, files: ModFile[], indexed: string[], manifestBytes: Uint8Array): number {
  const src = LtarSource.openFile(tmp, path.basename(tmp));
  const fail = (file: string, why: string): never => {
    throw new Arch06Error('INVALID', `the archive written does not read back as packed (${why}); nothing was written`, { file });
  };
  try {
    const expected = files.length + 1 + (indexed.length ? 1 : 0);
    if (src.fileCount !== expected) fail(tmp, `${src.fileCount} records, ${expected} packed`);
    for (let i = 0; i < src.fileCount; i++) if (src.hidden(i)) fail(src.pathAt(i), `a record the reader hides: ${src.hidden(i)}`);
    const piece = 1 << 20;
    let verified = 0;
    for (const f of files) {
      // The engine's lookup (binary searches over the folder and leaf orders) must find it.
      const e = src.lookup(toGamePath(f.path));
      if (!e) fail(f.path, 'the lookup does not find it');
      if (e!.size !== f.size) fail(f.path, `${e!.size} bytes read back, ${f.size} packed`);
      const disk = FileByteSource.open(f.diskPath, f.path);
      try {
        for (let at = 0; at < f.size; at += piece) {
          const end = Math.min(f.size, at + piece);
          if (!sameBytes(e!.readSync(at, end), disk.readSync(at, end - at))) fail(f.path, `bytes differ in [${at}, ${end})`);
        }
      } finally {
        disk.close();
      }
      verified++;
    }
    const m = src.lookup(toGamePath(ARCHIVE_MANIFEST_PATH));
    if (!m || !sameBytes(m.readSync(), manifestBytes)) fail(ARCHIVE_MANIFEST_PATH, 'the manifest copy differs');
    if (indexed.length) {
      const ix = src.lookup(toGamePath(PATH_INDEX_NAME));
      if (!ix) fail(PATH_INDEX_NAME, 'the path index is missing');
      const parsed = parsePathIndex(ix!.readSync(), PATH_INDEX_NAME);
      if (parsed.problems.length) fail(PATH_INDEX_NAME, parsed.problems[0].message);
      const want = new Set(indexed);
      if (parsed.rows.length !== want.size || parsed.rows.some((r) => !want.has(r.path))) fail(PATH_INDEX_NAME, 'its rows are not the indexed files');
    }
    return verified;
  } finally {
    src.close();
  }
}
