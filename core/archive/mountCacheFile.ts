/**
 * The warm-mount cache file (core/archive/mountCache.ts): one mount's merged distinct-path index
 * and, once listed, its bundle member catalogue, in a little-endian binary layout read back with
 * the same care as a game file: every count checked against the bytes present, every index
 * against what it indexes, every enum and size against its range; a failure is a typed
 * Arch06Error (the caller rebuilds). Strings are stored once each (bundles, sources and reasons
 * repeat) as one latin1 or UTF-16 run, decoded in one call and sliced.
 *
 * Layout: header (HEADER_BYTES, fields below), per source in search order {has u32, digest 32
 * bytes} (an archive's tables digest, core/archive/mountCache.ts; a folder: has 0, zeros),
 * winnerSource u16[n] (padded to 4), winnerFile
 * i32[n], copies u16[n] (padded), keys u32[n], duplicates {source, served, fileCount, path}
 * u32 each + files i32[fileCount], rows {path, bundle, source or NONE, servedFrom} u32 each +
 * size f64 (-1: none), failures {bundle, reason} u32 each, string lengths u32[strings], string
 * units.
 */
import { Arch06Error } from '../errors';
import type { MemberOrigin } from './bundles';
import type { MemberRow } from './memberCatalog';

export const MOUNT_CACHE_MAGIC = 0x434d3641; // 'A6MC'
export const MOUNT_CACHE_VERSION = 2; // 2: the archives' table digests
const KEY_BYTES = 32;
const HEADER_BYTES = 80;
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
  const dupWords = c.index.duplicates.reduce((w, d) => w + 4 + d.files.length, 0);
  const rows = c.catalog?.rows ?? [];
  const failures = c.catalog?.failures ?? [];
  const rowIds = rows.map((r) => [id(r.path), id(r.bundle), r.source === undefined ? NONE : id(r.source)]);
  const failIds = failures.map((f) => [id(f.bundle), id(f.reason)]);
  const dupIds = c.index.duplicates.map((d) => id(d.path));
  const text = strings.join('');
  const wide = /[^\x00-\xff]/.test(text);
  const textBytes = Buffer.from(text, wide ? 'utf16le' : 'latin1');
  const size =
    HEADER_BYTES +
    SOURCE_BYTES * c.tables.length +
    pad4(2 * n) +
    4 * n +
    pad4(2 * n) +
    4 * n +
    4 * dupWords +
    ROW_BYTES * rows.length +
    8 * failures.length +
    4 * strings.length +
    textBytes.length;
  const out = Buffer.alloc(size);
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
  c.index.duplicates.forEach((d, i) => {
    for (const v of [d.source, d.served, d.files.length, dupIds[i]]) at = out.writeUInt32LE(v >>> 0, at);
    for (const f of d.files) at = out.writeInt32LE(f, at);
  });
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

/** The key stored in a cache file, or undefined when it is too short to hold one (read before the rest). */
export function storedKey(bytes: Uint8Array): Uint8Array | undefined {
  return bytes.length >= HEADER_BYTES ? bytes.subarray(8, 8 + KEY_BYTES) : undefined;
}

/** Read a whole cache file (index and catalogue) for a mount of `shape`, checking every field; throws Arch06Error. */
export function decodeMountCache(bytes: Uint8Array, shape: MountShape, file: string): MountCacheContents {
  const read = readMountCache(bytes, shape, file);
  const { readCatalog, ...contents } = read;
  return readCatalog ? { ...contents, catalog: readCatalog() } : contents;
}

/** A cache file read up to its catalogue, which is read (and checked) only when asked for. */
export interface MountCacheRead extends Omit<MountCacheContents, 'catalog'> {
  /** The catalogue, when the file has one: its rows and strings decoded and checked on this call. */
  readCatalog?: () => CatalogParts;
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

/**
 * Read a cache file for a mount of `shape` up to its catalogue (the mount needs the index; the
 * catalogue, most of the file's strings, is decoded when first asked for), checking every field
 * read; throws Arch06Error.
 */
export function readMountCache(bytes: Uint8Array, shape: MountShape, file: string): MountCacheRead {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = failer(file);
  if (buf.length < HEADER_BYTES) fail('TRUNCATED', 'header', 0, `${HEADER_BYTES} bytes`, buf.length);
  if (buf.readUInt32LE(0) !== MOUNT_CACHE_MAGIC) fail('BAD_MAGIC', 'magic', 0, 'A6MC', buf.readUInt32LE(0).toString(16));
  if (buf.readUInt32LE(4) !== MOUNT_CACHE_VERSION) fail('UNSUPPORTED_VERSION', 'version', 4, String(MOUNT_CACHE_VERSION), buf.readUInt32LE(4));
  const [n, dupCount, hasCatalog, manifests, rowCount, failureCount, stringCount, wide, textBytes, sourceCount] = Array.from({ length: 10 }, (_, i) =>
    buf.readUInt32LE(40 + 4 * i),
  );
  const sources = shape.fileCounts.length;
  if (sourceCount !== sources) fail('INVALID', 'sources', 76, `${sources} (the mount's sources)`, sourceCount);
  const totalFiles = shape.fileCounts.reduce((a, b) => a + b, 0);
  if (n > totalFiles) fail('OUT_OF_RANGE', 'distinct', 40, `<= ${totalFiles} (the mount's files)`, n);
  if (hasCatalog > 1) fail('INVALID', 'hasCatalog', 48, '0 or 1', hasCatalog);
  if (wide > 1) fail('INVALID', 'encoding', 68, '0 (latin1) or 1 (UTF-16)', wide);
  if (wide && textBytes % 2) fail('INVALID', 'stringBytes', 72, 'even for UTF-16', textBytes);
  // Every fixed-size part is known from the header: check the total before reading any of them.
  const indexAt = HEADER_BYTES + SOURCE_BYTES * sources;
  const fixed = indexAt + 2 * pad4(2 * n) + 8 * n;
  let at = fixed;
  const need = (bytes: number, field: string): void => {
    if (bytes > buf.length - at) fail('TRUNCATED', field, at, `${bytes} bytes`, buf.length - at);
  };
  if (fixed > buf.length) fail('TRUNCATED', 'index', HEADER_BYTES, `${fixed - HEADER_BYTES} bytes`, buf.length - HEADER_BYTES);
  const tables = shape.fileCounts.map((_, i) => {
    const at = HEADER_BYTES + SOURCE_BYTES * i;
    const has = buf.readUInt32LE(at);
    if (has > 1) fail('INVALID', `sources[${i}].hasDigest`, at, '0 or 1', has);
    return has ? Uint8Array.from(buf.subarray(at + 4, at + SOURCE_BYTES)) : undefined;
  });
  // Copied out into arrays of their own: aligned, and not holding the file's bytes alive.
  const copyOut = <T extends ArrayBufferView>(make: (b: ArrayBuffer) => T, from: number, len: number): T => {
    const a = new ArrayBuffer(len);
    new Uint8Array(a).set(buf.subarray(from, from + len));
    return make(a);
  };
  let o = indexAt;
  const winnerSource = copyOut((b) => new Uint16Array(b), o, 2 * n);
  o += pad4(2 * n);
  const winnerFile = copyOut((b) => new Int32Array(b), o, 4 * n);
  o += 4 * n;
  const copies = copyOut((b) => new Uint16Array(b), o, 2 * n);
  o += pad4(2 * n);
  const keys = copyOut((b) => new Uint32Array(b), o, 4 * n);
  const fileCounts = Int32Array.from(shape.fileCounts);
  for (let d = 0; d < n; d++) {
    const s = winnerSource[d];
    if (s >= sources) fail('OUT_OF_RANGE', `winnerSource[${d}]`, indexAt + 2 * d, `< ${sources}`, s);
    const f = winnerFile[d];
    if (f < 0 || f >= fileCounts[s]) fail('OUT_OF_RANGE', `winnerFile[${d}]`, indexAt + pad4(2 * n) + 4 * d, `in [0, ${fileCounts[s]})`, f);
    const c = copies[d];
    if (c < 1 || c > sources) fail('OUT_OF_RANGE', `copies[${d}]`, indexAt + pad4(2 * n) + 4 * n + 2 * d, `in [1, ${sources}]`, c);
  }
  const dupRaw: { source: number; served: number; files: number[]; pathId: number; at: number }[] = [];
  for (let i = 0; i < dupCount; i++) {
    need(16, `duplicates[${i}]`);
    const [source, served, fileCount, pathId] = [0, 4, 8, 12].map((k) => buf.readUInt32LE(at + k));
    if (source >= sources) fail('OUT_OF_RANGE', `duplicates[${i}].source`, at, `< ${sources}`, source);
    if (fileCount < 2) fail('INVALID', `duplicates[${i}].fileCount`, at + 8, '>= 2', fileCount);
    const dAt = at;
    at += 16;
    need(4 * fileCount, `duplicates[${i}].files`);
    const files: number[] = [];
    for (let k = 0; k < fileCount; k++, at += 4) {
      const f = buf.readInt32LE(at);
      if (f < 0 || f >= shape.fileCounts[source]) fail('OUT_OF_RANGE', `duplicates[${i}].files[${k}]`, at, `in [0, ${shape.fileCounts[source]})`, f);
      files.push(f);
    }
    if (!files.includes(served | 0)) fail('INVALID', `duplicates[${i}].served`, dAt + 4, 'one of its files', served);
    dupRaw.push({ source, served: served | 0, files, pathId, at: dAt });
  }
  const rowsAt = at;
  need(ROW_BYTES * rowCount, 'rows');
  at += ROW_BYTES * rowCount;
  const failuresAt = at;
  need(8 * failureCount, 'failures');
  at += 8 * failureCount;
  need(4 * stringCount, 'string lengths');
  const lengthsAt = at;
  at += 4 * stringCount;
  if (buf.length - at !== textBytes) fail('INVALID', 'strings', at, `${textBytes} bytes of text, then the end`, buf.length - at);
  const strings = new StringTable(buf, { count: stringCount, lengthsAt, textAt: at, textBytes, wide: wide === 1 }, fail);
  const duplicates = dupRaw.map((d, i) => ({
    source: d.source,
    path: strings.one(d.pathId, 'duplicates', i, 'path', d.at + 12),
    files: d.files,
    served: d.served,
  }));
  const contents: MountCacheRead = {
    key: Uint8Array.from(buf.subarray(8, 8 + KEY_BYTES)),
    index: { size: n, winnerSource, winnerFile, copies, keys, duplicates },
    tables,
  };
  if (!hasCatalog) {
    if (rowCount || failureCount || manifests)
      fail('INVALID', 'catalog', 48, 'no rows, failures or manifests without a catalogue', rowCount + failureCount + manifests);
    return contents;
  }
  contents.readCatalog = () => readCatalog(buf, strings, { manifests, rowCount, rowsAt, failureCount, failuresAt }, fail);
  return contents;
}

/**
 * The file's strings: lengths checked against the text once (cheap), one string decoded alone
 * when asked for (the index's few), or all of them in one decode and sliced (the catalogue's).
 */
class StringTable {
  private readonly starts: Uint32Array;
  private all: string[] | undefined;

  constructor(
    private readonly buf: Buffer,
    private readonly at: { count: number; lengthsAt: number; textAt: number; textBytes: number; wide: boolean },
    private readonly fail: Fail,
  ) {
    const chars = at.wide ? at.textBytes / 2 : at.textBytes;
    const starts = (this.starts = new Uint32Array(at.count + 1));
    let c = 0;
    for (let i = 0; i < at.count; i++) {
      const len = buf.readUInt32LE(at.lengthsAt + 4 * i);
      if (len > chars - c) fail('OUT_OF_RANGE', `strings[${i}].length`, at.lengthsAt + 4 * i, `<= ${chars - c}`, len);
      starts[i + 1] = c += len;
    }
    if (c !== chars) fail('INVALID', 'string lengths', at.lengthsAt, `${chars} characters in all`, c);
  }

  private check(v: number, part: string, i: number, field: string, offset: number): void {
    // Field names are spelt out only for a failure: built for every string they cost more than the reads.
    if (v >= this.at.count) this.fail('OUT_OF_RANGE', `${part}[${i}].${field}`, offset, `< ${this.at.count} (strings)`, v);
  }

  one(v: number, part: string, i: number, field: string, offset: number): string {
    this.check(v, part, i, field, offset);
    if (this.all) return this.all[v];
    const unit = this.at.wide ? 2 : 1;
    return this.buf.toString(this.at.wide ? 'utf16le' : 'latin1', this.at.textAt + unit * this.starts[v], this.at.textAt + unit * this.starts[v + 1]);
  }

  get(v: number, part: string, i: number, field: string, offset: number): string {
    this.check(v, part, i, field, offset);
    if (!this.all) {
      const text = this.buf.toString(this.at.wide ? 'utf16le' : 'latin1', this.at.textAt, this.at.textAt + this.at.textBytes);
      this.all = new Array(this.at.count);
      for (let k = 0; k < this.at.count; k++) this.all[k] = text.slice(this.starts[k], this.starts[k + 1]);
    }
    return this.all[v];
  }
}

function readCatalog(
  buf: Buffer,
  strings: StringTable,
  at: { manifests: number; rowCount: number; rowsAt: number; failureCount: number; failuresAt: number },
  fail: Fail,
): CatalogParts {
  const rows: MemberRow[] = new Array(at.rowCount);
  for (let i = 0, r = at.rowsAt; i < at.rowCount; i++, r += ROW_BYTES) {
    const origin = buf.readUInt32LE(r + 12);
    if (origin >= ORIGINS.length) fail('OUT_OF_RANGE', `rows[${i}].servedFrom`, r + 12, `< ${ORIGINS.length}`, origin);
    const size = buf.readDoubleLE(r + 16);
    if (size !== -1 && !(Number.isSafeInteger(size) && size >= 0)) fail('OUT_OF_RANGE', `rows[${i}].size`, r + 16, 'a byte count or -1', size);
    const source = buf.readUInt32LE(r + 8);
    const row: MemberRow = {
      path: strings.get(buf.readUInt32LE(r), 'rows', i, 'path', r),
      bundle: strings.get(buf.readUInt32LE(r + 4), 'rows', i, 'bundle', r + 4),
      servedFrom: ORIGINS[origin],
    };
    if (source !== NONE) row.source = strings.get(source, 'rows', i, 'source', r + 8);
    if (size !== -1) row.size = size;
    rows[i] = row;
  }
  const failures: { bundle: string; reason: string }[] = new Array(at.failureCount);
  for (let i = 0, f = at.failuresAt; i < at.failureCount; i++, f += 8)
    failures[i] = {
      bundle: strings.get(buf.readUInt32LE(f), 'failures', i, 'bundle', f),
      reason: strings.get(buf.readUInt32LE(f + 4), 'failures', i, 'reason', f + 4),
    };
  return { manifests: at.manifests, rows, failures };
}
