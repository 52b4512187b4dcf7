/**
 * The warm-mount cache file (core/archive/mountCache.ts): one mount's merged distinct-path index
 * and, once listed, its bundle member catalogue, in a little-endian binary layout read back with
 * the same care as a game file: every count checked against the bytes present, every index
 * against what it indexes, every enum and size against its range; a failure is a typed
 * Arch06Error (the caller rebuilds).
 *
 * Two parts, each read when needed: the index part (what a mount needs) and, from `catalogAt` to
 * the end, the catalogue part (most of the file: read when the catalogue is asked for). The index
 * arrays are used in place (views of the bytes read, 4-aligned). The catalogue's strings are
 * stored once each (bundles, sources and reasons repeat) as one latin1 or UTF-16 run, decoded in
 * one call and sliced.
 *
 * Layout: header (HEADER_BYTES, fields below); per source in search order {has u32, digest 32
 * bytes} (an archive's tables digest, core/archive/mountCache.ts; a folder: has 0, zeros);
 * winnerSource u16[n] (padded to 4), winnerFile i32[n], copies u16[n] (padded), keys u32[n];
 * duplicates {source, served, fileCount, pathUnits} u32 each + files i32[fileCount] + path
 * UTF-16 (padded); then, at catalogAt: rows {path, bundle, source or NONE, servedFrom} u32 each +
 * size f64 (-1: none), failures {bundle, reason} u32 each, string lengths u32[strings], string
 * units.
 */
import { Arch06Error } from '../errors';
import type { MemberOrigin } from './bundles';
import type { MemberRow } from './memberCatalog';

export const MOUNT_CACHE_MAGIC = 0x434d3641; // 'A6MC'
export const MOUNT_CACHE_VERSION = 2; // 2: the archives' table digests, the catalogue a part of its own
const KEY_BYTES = 32;
/** Bytes of the header: magic, version, key, then u32 fields from 40 (`FIELDS`), zeros to the end. */
export const MOUNT_CACHE_HEADER_BYTES = 96;
const HEADER_BYTES = MOUNT_CACHE_HEADER_BYTES;
const FIELDS = ['distinct', 'duplicates', 'hasCatalog', 'manifests', 'rows', 'failures', 'strings', 'encoding', 'stringBytes', 'sources', 'catalogAt'] as const;
const NONE = 0xffffffff;
const ORIGINS: readonly MemberOrigin[] = ['loose', 'container', 'empty', 'missing'];
const ROW_BYTES = 24;
const DIGEST_BYTES = 32;
const SOURCE_BYTES = 4 + DIGEST_BYTES;

/** The merged index's arrays and duplicates (core/archive/mergedIndex.ts), as stored. */
export interface IndexParts {
  /** Distinct paths: the arrays' first `size` items are the index (a built index's arrays are longer). */
  size: number;
  winnerSource: Uint16Array;
  winnerFile: Int32Array;
  copies: Uint16Array;
  keys: Uint32Array;
  duplicates: { source: number; path: string; files: number[]; served: number }[];
}

export interface CatalogParts {
  manifests: number;
  rows: MemberRow[];
  failures: { bundle: string; reason: string }[];
}

export interface MountCacheContents {
  /** sha-256 of everything the mount was made from (core/archive/mountCache.ts `mountCacheKey`). */
  key: Uint8Array;
  index: IndexParts;
  catalog?: CatalogParts;
  /**
   * Per source in search order: the sha-256 of an archive's header counts and tables as they were
   * when the index was built (undefined for a folder). A deferred archive's tables are checked
   * against it when first read (core/archive/ltarSource.ts `trust`).
   */
  tables: (Uint8Array | undefined)[];
}

/** What the file's indexes are checked against: the mount it is read for. */
export interface MountShape {
  /** Files per source, in search order. */
  fileCounts: readonly number[];
}

/** What the file's indexes are checked against: the mount it is read for. */
export interface MountShape {
  /** Files per source, in search order. */
  fileCounts: readonly number[];
}

const pad4 = (n: number): number => (n + 3) & ~3;

export function encodeMountCache(c: MountCacheContents): Uint8Array {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const id = (s: string): number => {
    let i = ids.get(s);
    if (i === undefined) ids.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const n = c.index.size;
  const dupBytes = c.index.duplicates.reduce((w, d) => w + 16 + 4 * d.files.length + pad4(2 * d.path.length), 0);
  const rows = c.catalog?.rows ?? [];
  const failures = c.catalog?.failures ?? [];
  const rowIds = rows.map((r) => [id(r.path), id(r.bundle), r.source === undefined ? NONE : id(r.source)]);
  const failIds = failures.map((f) => [id(f.bundle), id(f.reason)]);
  const text = strings.join('');
  const wide = /[^\x00-\xff]/.test(text);
  const textBytes = Buffer.from(text, wide ? 'utf16le' : 'latin1');
  const catalogAt = HEADER_BYTES + SOURCE_BYTES * c.tables.length + 2 * pad4(2 * n) + 8 * n + dupBytes;
  const out = Buffer.alloc(catalogAt + ROW_BYTES * rows.length + 8 * failures.length + 4 * strings.length + textBytes.length);
  out.writeUInt32LE(MOUNT_CACHE_MAGIC, 0);
  out.writeUInt32LE(MOUNT_CACHE_VERSION, 4);
  out.set(c.key.subarray(0, KEY_BYTES), 8);
  const header = [
    n,
    c.index.duplicates.length,
    c.catalog ? 1 : 0,
    c.catalog?.manifests ?? 0,
    rows.length,
    failures.length,
    strings.length,
    wide ? 1 : 0,
    textBytes.length,
    c.tables.length,
    catalogAt,
  ];
  header.forEach((v, i) => out.writeUInt32LE(v, 40 + 4 * i));
  let at = HEADER_BYTES;
  for (const d of c.tables) {
    at = out.writeUInt32LE(d ? 1 : 0, at);
    if (d) out.set(d.subarray(0, DIGEST_BYTES), at);
    at += DIGEST_BYTES;
  }
  const put = (a: ArrayBufferView, bytes: number): void => {
    out.set(new Uint8Array(a.buffer, a.byteOffset, bytes), at);
    at += pad4(bytes);
  };
  put(c.index.winnerSource, 2 * n);
  put(c.index.winnerFile, 4 * n);
  put(c.index.copies, 2 * n);
  put(c.index.keys, 4 * n);
  for (const d of c.index.duplicates) {
    for (const v of [d.source, d.served, d.files.length, d.path.length]) at = out.writeUInt32LE(v >>> 0, at);
    for (const f of d.files) at = out.writeInt32LE(f, at);
    out.write(d.path, at, 'utf16le');
    at += pad4(2 * d.path.length);
  }
  rows.forEach((r, i) => {
    for (const v of rowIds[i]) at = out.writeUInt32LE(v, at);
    at = out.writeUInt32LE(ORIGINS.indexOf(r.servedFrom), at);
    at = out.writeDoubleLE(r.size ?? -1, at);
  });
  for (const [b, r] of failIds) at = out.writeUInt32LE(r, out.writeUInt32LE(b, at));
  for (const s of strings) at = out.writeUInt32LE(s.length, at);
  out.set(textBytes, at);
  return out;
}

type Fail = (
  code: 'TRUNCATED' | 'BAD_MAGIC' | 'UNSUPPORTED_VERSION' | 'OUT_OF_RANGE' | 'INVALID',
  field: string,
  offset: number,
  expected: string,
  actual: string | number,
) => never;

const failer =
  (file: string): Fail =>
  (code, field, offset, expected, actual) => {
    throw new Arch06Error(code, 'mount cache does not read back', { file, offset, field, expected, actual: String(actual) });
  };

/** A cache file's header: its key and where its parts lie, checked against the file's size. */
export interface MountCacheHeader {
  key: Uint8Array;
  /** Bytes of the index part (the catalogue part starts there). */
  catalogAt: number;
  fields: Record<(typeof FIELDS)[number], number>;
}

/** Read the header (the file's first HEADER_BYTES, or fewer when it is shorter) of a file of `fileSize` bytes; throws Arch06Error. */
export function readMountCacheHeader(head: Uint8Array, fileSize: number, file: string): MountCacheHeader {
  const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const fail = failer(file);
  if (buf.length < HEADER_BYTES) fail('TRUNCATED', 'header', 0, `${HEADER_BYTES} bytes`, buf.length);
  if (buf.readUInt32LE(0) !== MOUNT_CACHE_MAGIC) fail('BAD_MAGIC', 'magic', 0, 'A6MC', buf.readUInt32LE(0).toString(16));
  if (buf.readUInt32LE(4) !== MOUNT_CACHE_VERSION) fail('UNSUPPORTED_VERSION', 'version', 4, String(MOUNT_CACHE_VERSION), buf.readUInt32LE(4));
  const fields = Object.fromEntries(FIELDS.map((f, i) => [f, buf.readUInt32LE(40 + 4 * i)])) as MountCacheHeader['fields'];
  const { distinct: n, hasCatalog, encoding, stringBytes, sources, catalogAt, rows, failures, strings } = fields;
  if (hasCatalog > 1) fail('INVALID', 'hasCatalog', 48, '0 or 1', hasCatalog);
  if (encoding > 1) fail('INVALID', 'encoding', 68, '0 (latin1) or 1 (UTF-16)', encoding);
  if (encoding && stringBytes % 2) fail('INVALID', 'stringBytes', 72, 'even for UTF-16', stringBytes);
  const fixed = HEADER_BYTES + SOURCE_BYTES * sources + 2 * pad4(2 * n) + 8 * n;
  if (catalogAt < fixed || catalogAt > fileSize) fail('OUT_OF_RANGE', 'catalogAt', 80, `in [${fixed}, ${fileSize}] (the index's arrays, the file)`, catalogAt);
  // The catalogue part's size is known from the header: a file cut short fails here, not when the catalogue is read.
  const catalogBytes = ROW_BYTES * rows + 8 * failures + 4 * strings + stringBytes;
  if (fileSize - catalogAt !== catalogBytes) fail('INVALID', 'file size', catalogAt, `${catalogAt + catalogBytes} bytes`, fileSize);
  return { key: Uint8Array.from(buf.subarray(8, 8 + KEY_BYTES)), catalogAt, fields };
}

/** Read a whole cache file (index and catalogue) for a mount of `shape`, checking every field; throws Arch06Error. */
export function decodeMountCache(bytes: Uint8Array, shape: MountShape, file: string): MountCacheContents {
  const header = readMountCacheHeader(bytes.subarray(0, HEADER_BYTES), bytes.length, file);
  const { readCatalog, ...contents } = readMountCacheIndex(bytes.subarray(0, header.catalogAt), header, shape, file);
  return readCatalog ? { ...contents, catalog: readCatalog(bytes.subarray(header.catalogAt)) } : contents;
}

/** A cache file's index part, read; its catalogue part is read (and checked) only when asked for. */
export interface MountCacheRead extends Omit<MountCacheContents, 'catalog'> {
  /** The catalogue, when the file has one: its part's bytes (from `catalogAt` to the end) decoded and checked. */
  readCatalog?: (part: Uint8Array) => CatalogParts;
}

/**
 * Read the index part (the file's bytes [0, catalogAt)) for a mount of `shape`, checking every
 * field; the arrays are views of `bytes` when it is 4-aligned. Throws Arch06Error.
 */
export function readMountCacheIndex(bytes: Uint8Array, header: MountCacheHeader, shape: MountShape, file: string): MountCacheRead {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = failer(file);
  const { distinct: n, duplicates: dupCount, hasCatalog, manifests, rows, failures } = header.fields;
  if (buf.length !== header.catalogAt) fail('TRUNCATED', 'index', 0, `${header.catalogAt} bytes`, buf.length);
  const sources = shape.fileCounts.length;
  if (header.fields.sources !== sources) fail('INVALID', 'sources', 76, `${sources} (the mount's sources)`, header.fields.sources);
  const totalFiles = shape.fileCounts.reduce((a, b) => a + b, 0);
  if (n > totalFiles) fail('OUT_OF_RANGE', 'distinct', 40, `<= ${totalFiles} (the mount's files)`, n);
  const tables = shape.fileCounts.map((_, i) => {
    const at = HEADER_BYTES + SOURCE_BYTES * i;
    const has = buf.readUInt32LE(at);
    if (has > 1) fail('INVALID', `sources[${i}].hasDigest`, at, '0 or 1', has);
    return has ? Uint8Array.from(buf.subarray(at + 4, at + SOURCE_BYTES)) : undefined;
  });
  // In place when aligned (a fresh read is): a copy of ~12 bytes a path is most of what a warm mount would do.
  const aligned = buf.byteOffset % 4 === 0;
  const view = <T>(make: (b: ArrayBufferLike, at: number, count: number) => T, at: number, count: number, size: number): T =>
    aligned ? make(buf.buffer, buf.byteOffset + at, count) : make(Uint8Array.from(buf.subarray(at, at + count * size)).buffer, 0, count);
  const indexAt = HEADER_BYTES + SOURCE_BYTES * sources;
  const filesAt = indexAt + pad4(2 * n);
  const copiesAt = filesAt + 4 * n;
  const keysAt = copiesAt + pad4(2 * n);
  const winnerSource = view((b, o, c) => new Uint16Array(b, o, c), indexAt, n, 2);
  const winnerFile = view((b, o, c) => new Int32Array(b, o, c), filesAt, n, 4);
  const copies = view((b, o, c) => new Uint16Array(b, o, c), copiesAt, n, 2);
  const keys = view((b, o, c) => new Uint32Array(b, o, c), keysAt, n, 4);
  const fileCounts = Int32Array.from(shape.fileCounts);
  // One branch-free pass (the file count of every u16 source number, 0 past the sources, so one
  // compare checks both indexes); the first bad item is looked for only when the pass finds one.
  const limit = new Uint32Array(0x10000);
  limit.set(fileCounts);
  let bad = 0;
  for (let d = 0; d < n; d++) bad |= (winnerFile[d] >>> 0 >= limit[winnerSource[d]] ? 1 : 0) | ((copies[d] - 1) >>> 0 >= sources ? 1 : 0);
  for (let d = 0; bad && d < n; d++) {
    const s = winnerSource[d];
    if (s >= sources) fail('OUT_OF_RANGE', `winnerSource[${d}]`, indexAt + 2 * d, `< ${sources}`, s);
    const f = winnerFile[d];
    if (f < 0 || f >= fileCounts[s]) fail('OUT_OF_RANGE', `winnerFile[${d}]`, filesAt + 4 * d, `in [0, ${fileCounts[s]})`, f);
    const c = copies[d];
    if (c < 1 || c > sources) fail('OUT_OF_RANGE', `copies[${d}]`, copiesAt + 2 * d, `in [1, ${sources}]`, c);
  }
  const duplicates = readDuplicates(buf, keysAt + 4 * n, dupCount, fileCounts, fail);
  const contents: MountCacheRead = { key: header.key, index: { size: n, winnerSource, winnerFile, copies, keys, duplicates }, tables };
  if (!hasCatalog) {
    if (rows || failures || manifests) fail('INVALID', 'catalog', 48, 'no rows, failures or manifests without a catalogue', rows + failures + manifests);
    return contents;
  }
  contents.readCatalog = (part) => readCatalog(part, header, fail);
  return contents;
}

/** The duplicates, from `at` to the end of the index part. */
function readDuplicates(buf: Buffer, at: number, count: number, fileCounts: Int32Array, fail: Fail): IndexParts['duplicates'] {
  const need = (bytes: number, field: string): void => {
    if (bytes > buf.length - at) fail('TRUNCATED', field, at, `${bytes} bytes`, buf.length - at);
  };
  const out: IndexParts['duplicates'] = [];
  for (let i = 0; i < count; i++) {
    need(16, `duplicates[${i}]`);
    const [source, served, fileCount, pathUnits] = [0, 4, 8, 12].map((k) => buf.readUInt32LE(at + k));
    if (source >= fileCounts.length) fail('OUT_OF_RANGE', `duplicates[${i}].source`, at, `< ${fileCounts.length}`, source);
    if (fileCount < 2) fail('INVALID', `duplicates[${i}].fileCount`, at + 8, '>= 2', fileCount);
    const dAt = at;
    at += 16;
    need(4 * fileCount, `duplicates[${i}].files`);
    const files: number[] = [];
    for (let k = 0; k < fileCount; k++, at += 4) {
      const f = buf.readInt32LE(at);
      if (f < 0 || f >= fileCounts[source]) fail('OUT_OF_RANGE', `duplicates[${i}].files[${k}]`, at, `in [0, ${fileCounts[source]})`, f);
      files.push(f);
    }
    if (!files.includes(served | 0)) fail('INVALID', `duplicates[${i}].served`, dAt + 4, 'one of its files', served);
    need(pad4(2 * pathUnits), `duplicates[${i}].path`);
    const path = buf.toString('utf16le', at, at + 2 * pathUnits);
    at += pad4(2 * pathUnits);
    out.push({ source, served: served | 0, files, path });
  }
  if (at !== buf.length) fail('INVALID', 'duplicates', at, 'the end of the index part', buf.length - at);
  return out;
}

/** The catalogue part (the file from `catalogAt` on; its size was checked with the header). */
function readCatalog(part: Uint8Array, header: MountCacheHeader, fail: Fail): CatalogParts {
  const buf = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
  const { rows: rowCount, failures: failureCount, strings: stringCount, encoding, stringBytes, manifests } = header.fields;
  const base = header.catalogAt; // offsets in messages are the file's
  const failuresAt = ROW_BYTES * rowCount;
  const lengthsAt = failuresAt + 8 * failureCount;
  const textAt = lengthsAt + 4 * stringCount;
  if (buf.length !== textAt + stringBytes) fail('TRUNCATED', 'catalogue', base, `${textAt + stringBytes} bytes`, buf.length);
  const text = buf.toString(encoding ? 'utf16le' : 'latin1', textAt, textAt + stringBytes);
  const strings: string[] = new Array(stringCount);
  let c = 0;
  for (let i = 0; i < stringCount; i++) {
    const len = buf.readUInt32LE(lengthsAt + 4 * i);
    if (len > text.length - c) fail('OUT_OF_RANGE', `strings[${i}].length`, base + lengthsAt + 4 * i, `<= ${text.length - c}`, len);
    strings[i] = text.slice(c, (c += len));
  }
  if (c !== text.length) fail('INVALID', 'string lengths', base + lengthsAt, `${text.length} characters in all`, c);
  // Field names are spelt out only for a failure: built for every string they cost more than the reads.
  const str = (v: number, part: string, i: number, field: string, offset: number): string =>
    v < stringCount ? strings[v] : fail('OUT_OF_RANGE', `${part}[${i}].${field}`, base + offset, `< ${stringCount} (strings)`, v);
  const rows: MemberRow[] = new Array(rowCount);
  for (let i = 0, r = 0; i < rowCount; i++, r += ROW_BYTES) {
    const origin = buf.readUInt32LE(r + 12);
    if (origin >= ORIGINS.length) fail('OUT_OF_RANGE', `rows[${i}].servedFrom`, base + r + 12, `< ${ORIGINS.length}`, origin);
    const size = buf.readDoubleLE(r + 16);
    if (size !== -1 && !(Number.isSafeInteger(size) && size >= 0)) fail('OUT_OF_RANGE', `rows[${i}].size`, base + r + 16, 'a byte count or -1', size);
    const source = buf.readUInt32LE(r + 8);
    const row: MemberRow = {
      path: str(buf.readUInt32LE(r), 'rows', i, 'path', r),
      bundle: str(buf.readUInt32LE(r + 4), 'rows', i, 'bundle', r + 4),
      servedFrom: ORIGINS[origin],
    };
    if (source !== NONE) row.source = str(source, 'rows', i, 'source', r + 8);
    if (size !== -1) row.size = size;
    rows[i] = row;
  }
  const failures: { bundle: string; reason: string }[] = new Array(failureCount);
  for (let i = 0, f = failuresAt; i < failureCount; i++, f += 8)
    failures[i] = { bundle: str(buf.readUInt32LE(f), 'failures', i, 'bundle', f), reason: str(buf.readUInt32LE(f + 4), 'failures', i, 'reason', f + 4) };
  return { manifests, rows, failures };
}
