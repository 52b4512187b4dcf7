/**
 * The archive layer: LTAR tables (header, name pool, file and folder records) and chunk streams
 * (chunk headers and the Oodle payloads behind them), the archive config list (parsed, then
 * mounted over a sample install on disk) and the path index. Seeds: the sample install's archives
 * (the writers), a crafted archive with deep folders and many small chunks, and the retail
 * Patch_00.arch06 and its path index.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LtarSource, Mount, ROOT, toGamePath, type GamePath } from '../../core/archive';
import { LtarWriter, PATH_INDEX_NAME, parsePathIndex, writePathIndex } from '../../core/formats/archive';
import {
  FILE_RECORD_SIZE,
  FOLDER_RECORD_SIZE,
  HEADER_SIZE,
  FILE_DATA_OFFSET,
  FILE_STORED_SIZE,
  FILE_SIZE,
  FILE_READER,
  FILE_FLAGS,
} from '../../core/formats/archive/ltar/layout';
import { Arch06Error } from '../../core/errors';
import { defaultHasher } from '../../core/hash/stringHash';
import { type FieldSpan, MemoryByteSource } from '../../core/io';
import { sampleGame } from '../../core/sample';
import type { Seed } from '../mutate';
import { mutateText } from '../mutateText';
import { realSample } from '../samples';
import { type FuzzTarget, textSeed, withFields } from '../target';

/** Bytes read from one entry per window, and the windows per entry: enough to reach every chunk kind without decoding bombs whole. */
const WINDOW = 0x20000;

/** An archive with deep and wide folders, odd names, empty and plain entries, and many small stored chunks. */
function craftedArchive(): Uint8Array {
  const w = new LtarWriter();
  for (let i = 0; i < 30; i++) w.addBytes(`a\\b${i % 5}\\c${i % 3}\\f${i}.txt`, Buffer.from(`file ${i}\n`));
  w.addBytes('deep\\' + Array.from({ length: 20 }, (_, i) => `d${i}`).join('\\') + '\\leaf.bin', new Uint8Array(7));
  w.add('chunks\\small.bin', { storage: 'chunked', bytes: Uint8Array.from({ length: 5000 }, (_, i) => i * 7), chunkSize: 97 });
  w.add('chunks\\empty.bin', { storage: 'empty' });
  w.addBytes(PATH_INDEX_NAME, writePathIndex(['a\\b0\\c0\\f0.txt', 'chunks\\small.bin']));
  return w.toBytes();
}

/** Every record field of an archive's tables, and every chunk header of its chunked entries (the reader reads them through DataViews). */
function ltarFields(bytes: Uint8Array, withChunks: boolean): FieldSpan[] {
  const spans: FieldSpan[] = [];
  const src = new LtarSource('seed.arch06', '', new MemoryByteSource('seed.arch06', bytes));
  const a = src.archive;
  const { namePoolSize, fileCount, folderCount } = a.header;
  for (const [name, off, len] of [
    ['header.namePoolSize', 8, 4],
    ['header.folderCount', 12, 4],
    ['header.fileCount', 16, 4],
  ] as const)
    spans.push({ name, offset: off, length: len });
  const files = HEADER_SIZE + namePoolSize;
  const folders = files + fileCount * FILE_RECORD_SIZE;
  for (let i = 0; i < fileCount; i++) {
    const at = files + i * FILE_RECORD_SIZE;
    spans.push({ name: `file[${i}].nameOffset`, offset: at, length: 4 });
    spans.push({ name: `file[${i}].dataOffset`, offset: at + FILE_DATA_OFFSET, length: 8 });
    spans.push({ name: `file[${i}].storedSize`, offset: at + FILE_STORED_SIZE, length: 8 });
    spans.push({ name: `file[${i}].size`, offset: at + FILE_SIZE, length: 8 });
    spans.push({ name: `file[${i}].reader`, offset: at + FILE_READER, length: 1 });
    spans.push({ name: `file[${i}].flags`, offset: at + FILE_FLAGS, length: 1 });
  }
  for (let i = 0; i < folderCount; i++) {
    const at = folders + i * FOLDER_RECORD_SIZE;
    for (const [k, f] of ['nameOffset', 'firstChild', 'nextSibling', 'fileCount'].entries())
      spans.push({ name: `folder[${i}].${f}`, offset: at + 4 * k, length: 4 });
  }
  if (withChunks) {
    for (let i = 0; i < fileCount; i++) {
      const e = src.entryAt(i);
      if (e.storage !== 'chunked') continue;
      const cs = e.chunkStream();
      const base = e.record.dataOffset;
      for (let c = 0, n = cs.indexAll(); c < n; c++) {
        const h = base + cs.chunk(c).headerOffset;
        spans.push({ name: `file[${i}].chunk[${c}].storedLen`, offset: h, length: 4 });
        spans.push({ name: `file[${i}].chunk[${c}].rawLen`, offset: h + 4, length: 4 });
      }
    }
  }
  return spans;
}

/** 3,000 files in 300 folders, for lies that make records share names, links and data. */
function scaledArchive(): Uint8Array {
  const w = new LtarWriter();
  for (let i = 0; i < 3000; i++) w.addBytes(`s${i % 10}\\f${i % 300}\\file_${i}.txt`, Uint8Array.of(i & 0xff, 10));
  return w.toBytes();
}

function archiveSeeds(withChunks: boolean): Seed[] {
  const archives = sampleGame().filter((f) => f.path.endsWith('.arch06'));
  const list = [...archives.map((f) => ({ name: f.path, bytes: f.bytes })), { name: 'crafted.arch06', bytes: craftedArchive() }];
  if (!withChunks) list.push({ name: 'scaled: 3,000 files in 300 folders', bytes: scaledArchive() });
  const real = realSample('Patch_00.arch06');
  if (real) list.push({ name: 'Patch_00.arch06 (retail)', bytes: real });
  return list.map((s) => ({ ...s, fields: ltarFields(s.bytes, withChunks) }));
}

/**
 * The same bytes as a warm mount opens them (tables deferred, read on first use): the eager open's
 * very error, or the same paths. Anything else is a broken invariant (a plain Error).
 */
function checkDeferred(bytes: Uint8Array, eager: { error?: Arch06Error; paths?: string[] }): void {
  let paths: string[] | undefined;
  let error: unknown;
  try {
    paths = new LtarSource('fuzz.arch06', '', new MemoryByteSource('fuzz.arch06', bytes), { deferTables: true }).allPaths();
  } catch (e) {
    error = e;
  }
  const same = eager.error
    ? error instanceof Arch06Error && error.message === eager.error.message
    : error === undefined && paths!.length === eager.paths!.length && paths!.every((p, i) => p === eager.paths![i]);
  if (!same)
    throw new Error(`deferred tables disagree with an eager open: ${eager.error?.message ?? 'opened'} / ${error instanceof Error ? error.message : 'opened'}`);
}

/** Open the archive and use everything a mount uses: listings, lookups, keys, and a window of every entry. */
function walkArchive(bytes: Uint8Array): unknown {
  let src: LtarSource;
  try {
    src = new LtarSource('fuzz.arch06', '', new MemoryByteSource('fuzz.arch06', bytes));
  } catch (e) {
    if (e instanceof Arch06Error) checkDeferred(bytes, { error: e });
    throw e;
  }
  const paths = src.allPaths();
  checkDeferred(bytes, { paths });
  const keys = src.pathKeys();
  const stack: GamePath[] = [ROOT];
  let listed = 0;
  while (stack.length > 0) {
    const folder = stack.pop()!;
    const l = src.list(folder);
    if (!l) continue;
    listed += l.files.length;
    for (const f of l.folders) stack.push(toGamePath(folder ? `${folder}\\${f}` : f));
  }
  for (let i = 0; i < src.fileCount; i++) {
    src.hidden(i);
    src.foldedPath(i);
    const e = src.entryAt(i);
    if (!src.hidden(i)) src.lookup(toGamePath(paths[i] ?? src.pathAt(i)));
    try {
      if (e.size > 0) e.readSync(0, Math.min(e.size, WINDOW));
      if (e.size > WINDOW) e.readSync(e.size - Math.min(e.size, WINDOW), e.size);
    } catch (err) {
      // One bad entry leaves the archive usable: keep walking, report the first failure at the end.
      if (!(err instanceof Arch06Error)) throw err;
    }
  }
  return { src, paths, keys, listed };
}

export const ltarTables: FuzzTarget = {
  name: 'ltar-tables',
  covers: 'LTAR v4 header, name pool, file and folder records: open, list every folder, look up every path, read every entry',
  seeds: () => archiveSeeds(false),
  run: (c) => walkArchive(c.bytes),
};

export const ltarChunks: FuzzTarget = {
  name: 'ltar-chunks',
  covers: 'LTAR chunk streams: chunk headers and their stored, Kraken and LZB16 payloads, read by window',
  seeds: () => archiveSeeds(true),
  run: (c) => walkArchive(c.bytes),
};

let install: string | undefined;

/** The sample install on disk (once per worker), whose cfg each case replaces. */
function sampleInstall(): string {
  if (install) return install;
  install = fs.mkdtempSync(path.join(os.tmpdir(), 'arch06-fuzz-cfg-'));
  for (const f of sampleGame()) {
    const p = path.join(install, ...f.path.split('/'));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.bytes);
  }
  const root = install;
  process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  return install;
}

export const archcfg: FuzzTarget = {
  name: 'archcfg',
  covers: 'the archive config list: parsed, then mounted over the sample install (sources, skipped and broken lines, the merged index)',
  seeds: () => {
    const cfg = sampleGame().find((f) => f.path === 'x64/default.archcfg')!;
    sampleInstall();
    return [
      { name: 'sample default.archcfg', bytes: cfg.bytes },
      textSeed(
        'windows lines',
        '..\\Game\r\n..\\BASE.ARCH06\r\n; c:\\absolute\\x.arch06\r\n..\\\\Patch_01.arch06   ; trailing\r\n\uFEFF..\\HotChunk.arch06\r\n',
      ),
    ];
  },
  mutate: mutateText,
  run: (c) => {
    const root = sampleInstall();
    const cfg = path.join(root, 'x64', 'fuzz.archcfg');
    fs.writeFileSync(cfg, c.bytes);
    const m = Mount.open({ root, cfg });
    try {
      // Index and list only sources inside the install: a line may name any folder on the machine.
      const inside = m.sources.every((s) => !path.relative(root, s.diskPath).startsWith('..') && s.diskPath !== path.parse(root).root);
      if (inside) {
        m.index();
        m.list(ROOT);
        m.which('config\\game.cfg');
        m.pathTable();
      }
      return { sources: m.sources.length, skipped: m.skipped, broken: m.broken };
    } finally {
      m.close();
    }
  },
};

export const pathIndex: FuzzTarget = {
  name: 'path-index',
  covers: 'archivepatchloosefiles.txt: strings, rows, hashes checked against their paths',
  seeds: () => {
    // The rows are read through a view (one span for the table): name each row's fields here.
    const parse = (b: Uint8Array, spans: FieldSpan[]): unknown => {
      const ix = parsePathIndex(b, 'seed', defaultHasher, { spans });
      const rows = spans.find((s) => s.name === 'rows')!;
      for (let i = 0; i * 8 < rows.length; i++) {
        spans.push(
          { name: `row[${i}].hash`, offset: rows.offset + 8 * i, length: 4 },
          { name: `row[${i}].stringOffset`, offset: rows.offset + 8 * i + 4, length: 4 },
        );
      }
      return ix;
    };
    const seeds = [
      withFields('writer: sample paths', writePathIndex(['config\\game.cfg', 'data\\patched.bin', 'a\\b\\c.txt', 'x'.repeat(200)]), parse),
      withFields('writer: one path', writePathIndex(['only.txt']), parse),
      withFields('writer: 3,000 paths', writePathIndex(Array.from({ length: 3000 }, (_, i) => `scaled\\f${i % 30}\\file_${i}.txt`)), parse),
    ];
    const real = realSample('archivepatchloosefiles.txt');
    if (real) seeds.push(withFields('archivepatchloosefiles.txt (retail)', real, parse));
    return seeds;
  },
  run: (c) => parsePathIndex(c.bytes, 'fuzz.txt'),
};
