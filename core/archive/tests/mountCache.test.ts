// The warm mount (issue 25 item 4): a mount's merged index and member catalogue read back from the
// cache folder when nothing they were made from changed, and built again (and rewritten) when the
// key is stale or the file does not read back. Work is counted (builds, manifests resolved), never timed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../mount';
import { MemberCatalog } from '../memberCatalog';
import { MountCache, mountCacheFile } from '../mountCache';
import { decodeMountCache, encodeMountCache } from '../mountCacheFile';
import { mountSample } from '../../../test/support/sampleMount';
import { tempDir } from '../../../test/support/fixtures';
import { isArch06Error } from '../../errors';

/** Open the install, take its index and catalogue through the cache; count the manifests the catalogue resolved. */
async function warm(root: string, folder: string) {
  const m = Mount.open({ root });
  const cache = new MountCache(m, folder);
  const index = cache.index();
  let resolved = 0;
  const { from, reason, catalog } = await cache.catalog(() => MemberCatalog.build(m, { onProgress: (done) => (resolved = done), manifestsPerPause: 1 }));
  const ix = m.index();
  const state = {
    index: index.from,
    indexReason: index.reason,
    catalog: from,
    catalogReason: reason,
    resolved,
    paths: m.distinctPaths(),
    copies: [...ix.copies.subarray(0, ix.size)],
    winners: [...ix.winnerFile.subarray(0, ix.size)],
    duplicates: ix.duplicates,
    rows: catalog.rows,
    failures: catalog.failures,
    manifests: catalog.manifests,
  };
  m.close();
  return state;
}

test('mount cache: built and stored the first time, used untouched the second, identical to a build', async () => {
  const root = mountSample('arch06-mcache-').root;
  const folder = tempDir('arch06-mcache-store-');
  const first = await warm(root, folder);
  assert.deepEqual([first.index, first.indexReason, first.catalog, first.catalogReason], ['built', 'absent', 'built', 'not listed yet']);
  assert.ok(first.resolved > 0 && first.rows.length > 0);
  const second = await warm(root, folder);
  assert.deepEqual([second.index, second.catalog, second.resolved], ['cache', 'cache', 0]);
  for (const k of ['paths', 'copies', 'winners', 'duplicates', 'rows', 'failures', 'manifests'] as const) assert.deepEqual(second[k], first[k], k);
  // Outside the install: the install's folder holds no cache file.
  assert.ok(!fs.readdirSync(root).some((f) => f.endsWith('.a6mc')));
  assert.equal(fs.readdirSync(folder).filter((f) => f.endsWith('.a6mc')).length, 1);
});

test('mount cache: an archive whose mtime moved is a stale key, and both parts are built again', async () => {
  const root = mountSample('arch06-mcache-').root;
  const folder = tempDir('arch06-mcache-store-');
  await warm(root, folder);
  const archive = fs.readdirSync(root).find((f) => /\.arch06$/i.test(f))!;
  const t = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(root, archive), t, t);
  const stale = await warm(root, folder);
  assert.deepEqual([stale.index, stale.indexReason, stale.catalog], ['built', 'stale', 'built']);
  assert.ok(stale.resolved > 0);
  // Rewritten under the new key: the next mount uses it.
  const again = await warm(root, folder);
  assert.deepEqual([again.index, again.catalog, again.resolved], ['cache', 'cache', 0]);
});

test('mount cache: a corrupt file is rebuilt with the field that failed named', async () => {
  const root = mountSample('arch06-mcache-').root;
  const folder = tempDir('arch06-mcache-store-');
  const first = await warm(root, folder);
  const m = Mount.open({ root });
  const file = mountCacheFile(folder, m);
  m.close();
  const good = fs.readFileSync(file);
  const corrupt = (edit: (b: Buffer) => Buffer) => fs.writeFileSync(file, edit(Buffer.from(good)));
  // Which part each corruption spoils: the index (read at mount: both parts built) or the catalogue
  // alone (read when asked for: the index still comes from the file, the catalogue is built).
  const cases: [string, (b: Buffer) => Buffer, RegExp, 'index' | 'catalogue'][] = [
    // The index follows the header (96 bytes) and one 36-byte digest record per source (count at 76).
    ['a winner source past the sources', (b) => (b.writeUInt16LE(0xffff, 96 + 36 * b.readUInt32LE(76)), b), /winnerSource\[0\]/, 'index'],
    ['a digest flag that is neither 0 nor 1', (b) => (b.writeUInt32LE(2, 96), b), /sources\[0\]\.hasDigest/, 'index'],
    ['cut short', (b) => b.subarray(0, b.length - 3), /file size/, 'index'],
    ['an unknown version', (b) => (b.writeUInt32LE(99, 4), b), /version/, 'index'],
    [
      'a string length past the text',
      (b) => (b.writeUInt32LE(0x7fffffff, b.length - 4 - b.readUInt32LE(72)), b),
      /strings\[\d+\]\.length|string lengths/,
      'catalogue',
    ],
  ];
  for (const [what, edit, field, part] of cases) {
    corrupt(edit);
    const state = await warm(root, folder);
    assert.deepEqual([state.index, state.catalog], part === 'index' ? ['built', 'built'] : ['cache', 'built'], what);
    assert.match((part === 'index' ? state.indexReason : state.catalogReason) ?? '', field, what);
    assert.ok(state.resolved > 0, what);
    assert.deepEqual(state.rows, first.rows, what);
    assert.deepEqual(state.failures, first.failures, what);
    // The rebuild rewrote it: good again.
    assert.deepEqual(fs.readFileSync(file), good, what);
  }
});

test('mount cache file: every index is checked against the mount it is read for', () => {
  const contents = {
    key: new Uint8Array(32),
    index: {
      size: 2,
      winnerSource: Uint16Array.of(0, 1),
      winnerFile: Int32Array.of(0, 2),
      copies: Uint16Array.of(1, 2),
      keys: Uint32Array.of(7, 9),
      duplicates: [{ source: 1, path: 'a\\b', files: [1, 2], served: 2 }],
    },
    catalog: { manifests: 1, rows: [{ path: 'x\\é', bundle: 'b.bndl', servedFrom: 'container' as const, source: 'Base.arch06', size: 5 }], failures: [] },
    tables: [undefined, new Uint8Array(32).fill(7)],
  };
  const bytes = encodeMountCache(contents);
  const back = decodeMountCache(bytes, { fileCounts: [1, 3] }, 'c');
  assert.deepEqual(back.catalog, contents.catalog);
  assert.deepEqual(back.index.duplicates, contents.index.duplicates);
  assert.deepEqual(back.tables, contents.tables);
  const fails = (fileCounts: number[], re: RegExp) =>
    assert.throws(
      () => decodeMountCache(bytes, { fileCounts }, 'c'),
      (e) => isArch06Error(e) && re.test(e.message),
    );
  fails([1, 2], /winnerFile\[1\]/); // the second source has fewer files now
  fails([1], /sources/); // one source fewer
});
