// The warm mount's deferred tables (issue 25 item 4): with a usable mount cache an archive's
// tables are not read at mount (one header per archive), then read, validated and checked against
// the cache's digest the first time the archive is used; a stale key (ctime included) or tables
// that do not match rebuild the cache, never a wrong read. Work is counted (reads of the archives'
// headers and tables, seen by wrapping the file reader), never timed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../mount';
import { MemberCatalog } from '../memberCatalog';
import { LtarSource, type TablesTrust } from '../ltarSource';
import { MountCache, mountCacheFile } from '../mountCache';
import { mountChanges, remount } from '../remount';
import { MOUNT_CACHE_HEADER_BYTES } from '../mountCacheFile';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { LtarArchive } from '../../formats/archive/ltar/reader';
import { FOLDER_FIRST_CHILD, NAME_POOL_START } from '../../formats/archive/ltar/layout';
import { MemoryByteSource } from '../../io/byteSource';
import { FileByteSource } from '../../io/node/fileSource';
import { Arch06Error, isArch06Error } from '../../errors';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const ARCHIVES = ['A.arch06', 'B.arch06', 'C.arch06'];

function archive(files: Record<string, string>): Uint8Array {
  const w = new LtarWriter();
  for (const [p, t] of Object.entries(files)) w.addBytes(p, Buffer.from(t));
  return w.toBytes();
}

/** Three archives, C consulted first; `shared\x.txt` in all three, each archive with files of its own. */
function install(): string {
  const root = tempDir('arch06-mdefer-');
  const files: Record<string, Uint8Array | string> = { 'x64/default.archcfg': ARCHIVES.map((a) => `..\\${a}`).join('\r\n') + '\r\n' };
  for (const a of ARCHIVES) {
    const stem = a.slice(0, 1);
    files[a] = archive({ 'shared\\x.txt': `x from ${stem}`, [`own\\${stem}\\one.txt`]: `one ${stem}`, [`own\\${stem}\\two.txt`]: `two ${stem}` });
  }
  writeTree(root, files);
  // Whole seconds: utimes can then put back exactly the mtime a stat reads.
  for (const a of ARCHIVES) fs.utimesSync(path.join(root, a), 1_700_000_000, 1_700_000_000);
  return root;
}

/** Every read of an archive file through the file reader: header reads (offset 0) and table reads (offset 0x30), by file. */
function countReads(): { headers: Map<string, number>; tables: Map<string, number>; restore: () => void } {
  const headers = new Map<string, number>();
  const tables = new Map<string, number>();
  const proto = FileByteSource.prototype;
  const original = proto.readIntoSync;
  proto.readIntoSync = function (this: FileByteSource, position, length, target, targetOffset) {
    const file = path.basename(this.diskPath);
    if (position === 0 && length <= NAME_POOL_START) headers.set(file, (headers.get(file) ?? 0) + 1);
    if (position === NAME_POOL_START) tables.set(file, (tables.get(file) ?? 0) + 1);
    return original.call(this, position, length, target, targetOffset);
  };
  return { headers, tables, restore: () => void (proto.readIntoSync = original) };
}

/** Mount as the CLI and the extension do with a cache folder: tables deferred, the cache settling them. */
function warmMount(root: string, folder: string): { mount: Mount; cache: MountCache } {
  const mount = Mount.open({ root, deferTables: true });
  return { mount, cache: new MountCache(mount, folder) };
}

const opened = (m: Mount): string[] => m.sources.filter((s) => s instanceof LtarSource && s.tablesOpen).map((s) => s.name);

test('deferred tables: a warm mount reads one header per archive and no table; the first use of an archive reads its tables once', async () => {
  const root = install();
  const folder = tempDir('arch06-mdefer-cache-');
  const eager = Mount.open({ root });
  const expected = { paths: eager.distinctPaths(), which: eager.which('shared\\x.txt')!.copies.map((c) => c.source.name) };
  eager.close();

  // Cold: no cache, so every table is read at once (as an eager mount would), and the cache written.
  let reads = countReads();
  const cold = warmMount(root, folder);
  reads.restore();
  assert.deepEqual(cold.cache.index(), { from: 'built', reason: 'absent' });
  await cold.cache.catalog(() => MemberCatalog.build(cold.mount));
  for (const a of ARCHIVES) assert.deepEqual([reads.headers.get(a), reads.tables.get(a)], [1, 1], a);
  cold.mount.close();

  // Warm: one header per archive, no table, the index from the cache.
  reads = countReads();
  try {
    const { mount, cache } = warmMount(root, folder);
    assert.deepEqual(cache.index(), { from: 'cache' });
    assert.equal((await cache.catalog(() => MemberCatalog.build(mount))).from, 'cache');
    assert.deepEqual(Object.fromEntries(reads.headers), Object.fromEntries(ARCHIVES.map((a) => [a, 1])));
    assert.equal(reads.tables.size, 0);
    assert.deepEqual(opened(mount), []);
    assert.deepEqual(
      mount.sources.map((s) => s.fileCount),
      ARCHIVES.map(() => 3),
    );
    // One lookup consults every source: each archive's tables read now, once.
    assert.deepEqual(
      mount.which('shared\\x.txt')!.copies.map((c) => c.source.name),
      expected.which,
    );
    assert.deepEqual(Object.fromEntries(reads.tables), Object.fromEntries(ARCHIVES.map((a) => [a, 1])));
    assert.equal(Buffer.from(mount.entry('own\\B\\two.txt').readSync()).toString(), 'two B');
    assert.deepEqual(mount.distinctPaths(), expected.paths);
    assert.deepEqual(Object.fromEntries(reads.tables), Object.fromEntries(ARCHIVES.map((a) => [a, 1])), 'read once, not once per use');
    mount.close();
  } finally {
    reads.restore();
  }
});

test('deferred tables: a path read through the cached index opens only the archive that serves it', () => {
  const root = install();
  const folder = tempDir('arch06-mdefer-cache-');
  warmMount(root, folder).cache.index();
  const { mount, cache } = warmMount(root, folder);
  assert.equal(cache.index().from, 'cache');
  const ix = mount.index();
  const d = [...Array(ix.size).keys()].find((k) => mount.sources[ix.winnerSource[k]].name === 'A.arch06')!;
  assert.match(mount.indexPath(d), /^own\\A\\/i);
  assert.deepEqual(opened(mount), ['A.arch06']);
  mount.close();
});

test('mount cache key: an archive rewritten with its size and mtime put back is stale (its ctime moved)', async () => {
  const root = install();
  const folder = tempDir('arch06-mdefer-cache-');
  warmMount(root, folder).cache.index();
  const file = path.join(root, 'B.arch06');
  const before = fs.statSync(file);
  // Same size, another file's bytes: B's own files renamed, one letter for another.
  const bytes = Buffer.from(
    fs
      .readFileSync(file)
      .toString('latin1')
      .replace(/own\\B/g, 'own\\Q'),
    'latin1',
  );
  assert.equal(bytes.length, before.size);
  fs.writeFileSync(file, bytes);
  fs.utimesSync(file, before.atime, before.mtime);
  const after = fs.statSync(file);
  assert.deepEqual([after.size, after.mtimeMs, after.ino], [before.size, before.mtimeMs, before.ino], 'only the ctime tells');
  assert.notEqual(after.ctimeMs, before.ctimeMs);
  const { mount, cache } = warmMount(root, folder);
  assert.deepEqual(cache.index(), { from: 'built', reason: 'stale' });
  assert.ok(mount.winner('own\\Q\\one.txt'));
  assert.equal(mount.winner('own\\B\\one.txt'), undefined);
  mount.close();
});

/** Replace archive `name`'s tables digest in the cache file (its key still matches): the cache now describes other tables. */
function forgeDigest(root: string, folder: string, name: string): string {
  const m = Mount.open({ root });
  const file = mountCacheFile(folder, m);
  const at = MOUNT_CACHE_HEADER_BYTES + 36 * m.sources.findIndex((s) => s.name === name);
  m.close();
  const b = fs.readFileSync(file);
  assert.equal(b.readUInt32LE(at), 1, 'an archive has a digest');
  b[at + 4] ^= 0xff;
  fs.writeFileSync(file, b);
  return file;
}

test('deferred tables: tables that are not those the cache describes fail their first use clearly, the cache is dropped and rebuilt next time', () => {
  const root = install();
  const folder = tempDir('arch06-mdefer-cache-');
  warmMount(root, folder).cache.index();
  const file = forgeDigest(root, folder, 'B.arch06');
  const { mount, cache } = warmMount(root, folder);
  assert.equal(cache.index().from, 'cache', 'the key still matches: trusted until B is read');
  assert.deepEqual(opened(mount), []);
  const isStale = (e: unknown): boolean =>
    isArch06Error(e) &&
    e.code === 'CHANGED_ON_DISK' &&
    e.file === path.join(root, 'B.arch06') &&
    e.field === 'tables (sha-256)' &&
    /not those the mount cache was made from/.test(e.message) &&
    /^[0-9a-f]{64}$/.test(e.expected ?? '') &&
    e.expected !== e.actual;
  // C is consulted first and is fine; B fails, and again on every later use: nothing is served through it.
  assert.throws(() => mount.which('shared\\x.txt'), isStale);
  assert.throws(() => mount.entry('own\\B\\one.txt', 'B.arch06'), isStale);
  assert.ok(!fs.existsSync(file), 'the cache file is dropped');
  assert.equal(mount.source('B.arch06')!.changedOnDisk()?.kind, 'modified', 'a disk watch remounts it');
  assert.equal(Buffer.from(mount.entry('own\\C\\one.txt').readSync()).toString(), 'one C');
  mount.close();
  const again = warmMount(root, folder);
  assert.deepEqual(again.cache.index(), { from: 'built', reason: 'absent' });
  assert.equal(Buffer.from(again.mount.entry('own\\B\\one.txt').readSync()).toString(), 'one B');
  again.mount.close();
});

/** Archive bytes whose tables fail validation: the root folder's first child out of range. */
function badTables(): Uint8Array {
  const bytes = archive({ 'a\\b.txt': 'b' });
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const folders = NAME_POOL_START + dv.getUint32(8, true) + dv.getUint32(16, true) * 30;
  dv.setUint32(folders + FOLDER_FIRST_CHILD, 0x7fff, true);
  return bytes;
}

test('deferred tables: bad tables give, on first use, the very error an eager open gives, and it sticks', () => {
  const bytes = badTables();
  let eager: unknown;
  assert.throws(
    () => LtarArchive.open(new MemoryByteSource('Bad.arch06', bytes)),
    (e) => ((eager = e), isArch06Error(e)),
  );
  const failed: Arch06Error[] = [];
  const trust: TablesTrust = { check: () => assert.fail('not reached: validation fails first'), failed: (e) => void failed.push(e) };
  const s = new LtarSource('Bad.arch06', '/x/Bad.arch06', new MemoryByteSource('Bad.arch06', bytes), { deferTables: true });
  s.trust(trust);
  assert.equal(s.fileCount, 1, 'the header alone was read');
  assert.throws(
    () => s.lookup('a\\b.txt' as never),
    (e) => isArch06Error(e) && e.message === (eager as Arch06Error).message,
  );
  assert.throws(
    () => s.allPaths(),
    (e) => e === failed[0],
  );
  assert.equal(failed.length, 1, 'the cache is told once');
  assert.equal(s.changedOnDisk()?.kind, 'modified');
});

test('deferred tables without a usable cache: an archive whose tables are bad is a broken source, as in an eager mount', () => {
  const root = install();
  fs.writeFileSync(path.join(root, 'B.arch06'), badTables());
  const eager = Mount.open({ root });
  const { mount, cache } = warmMount(root, tempDir('arch06-mdefer-cache-'));
  assert.deepEqual(cache.index(), { from: 'built', reason: 'absent' });
  assert.deepEqual(mount.broken, eager.broken);
  assert.deepEqual(
    mount.sources.map((s) => s.name),
    eager.sources.map((s) => s.name),
  );
  assert.deepEqual(mount.distinctPaths(), eager.distinctPaths());
  // The key is the settled mount's: the next warm mount uses the file.
  const next = warmMount(root, path.dirname(cache.file));
  assert.equal(next.cache.index().from, 'cache');
  assert.deepEqual(next.mount.broken, eager.broken);
  for (const m of [eager, mount, next.mount]) m.close();
});

test('mount cache: the catalogue part is read later from the very file the mount read; a file changed since is not used', async () => {
  const root = install();
  const folder = tempDir('arch06-mdefer-cache-');
  const first = warmMount(root, folder);
  first.cache.index();
  const built = await first.cache.catalog(() => MemberCatalog.build(first.mount));
  first.mount.close();
  const { mount, cache } = warmMount(root, folder);
  assert.equal(cache.index().from, 'cache');
  // Another writer's file in its place between the mount and the catalogue (one byte longer).
  fs.writeFileSync(cache.file, Buffer.concat([fs.readFileSync(cache.file), Buffer.of(0)]));
  const later = await cache.catalog(() => MemberCatalog.build(mount));
  assert.equal(later.from, 'built');
  assert.match(later.reason ?? '', /bytes/);
  assert.deepEqual(later.catalog.failures, built.catalog.failures);
  assert.deepEqual(later.catalog.rows, built.catalog.rows);
  mount.close();
  // Gone in between (a user clearing the cache folder): built too.
  const third = warmMount(root, folder);
  assert.equal(third.cache.index().from, 'cache');
  fs.rmSync(third.cache.file);
  const gone = await third.cache.catalog(() => MemberCatalog.build(third.mount));
  assert.equal(gone.from, 'built');
  assert.deepEqual(gone.catalog.failures, built.catalog.failures);
  third.mount.close();
});

test('deferred tables: a remount carries the unchanged archive over, reopens the changed one and the one that failed its check', () => {
  const root = install();
  const folder = tempDir('arch06-mdefer-cache-');
  warmMount(root, folder).cache.index();
  forgeDigest(root, folder, 'B.arch06');
  const { mount, cache } = warmMount(root, folder);
  assert.equal(cache.index().from, 'cache');
  assert.throws(
    () => mount.entry('own\\B\\one.txt'),
    (e) => isArch06Error(e) && e.code === 'CHANGED_ON_DISK',
  );
  // A changed on disk too (fewer files, so shorter): the disk check names both; C is kept as it is, unread.
  fs.writeFileSync(path.join(root, 'A.arch06'), archive({ 'shared\\x.txt': 'x from A, longer', 'own\\A\\one.txt': 'one A again' }));
  const changes = mountChanges(mount);
  assert.deepEqual(changes.map((c) => [c.name, c.kind]).sort(), [
    ['A.arch06', 'truncated'],
    ['B.arch06', 'modified'],
  ]);
  const r = remount(mount, changes);
  assert.equal(r.kept, 1);
  // C (consulted first, so read before B failed) is carried over open; A and B are opened anew, their tables deferred.
  assert.deepEqual(opened(r.mount), ['C.arch06']);
  const next = new MountCache(r.mount, folder);
  assert.deepEqual(next.index(), { from: 'built', reason: 'absent' }, 'the failed check dropped the file');
  assert.deepEqual(
    ['own\\A\\one.txt', 'own\\B\\one.txt', 'own\\C\\one.txt', 'shared\\x.txt'].map((p) => Buffer.from(r.mount.entry(p).readSync()).toString()),
    ['one A again', 'one B', 'one C', 'x from C'],
  );
  // Written for the remounted install: the next mount takes the index from it, and reads no table.
  r.mount.close();
  const again = warmMount(root, folder);
  assert.equal(again.cache.index().from, 'cache');
  assert.deepEqual(opened(again.mount), []);
  again.mount.close();
});
