// Find in Files over a mount (E2E drives it through the extension; here the engine alone).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { Mount } from '../../archive/mount';
import { searchText } from '../textSearch';
import { tempDir, writeTree } from '../../../test/support/fixtures';

/** Base holds a.txt and b.cfg; Patch shadows a.txt; Game holds a loose script and a binary file. */
function mount(): Mount {
  const root = tempDir('arch06-find-');
  const base = new LtarWriter();
  base.addBytes('docs\\a.txt', Buffer.from('Urfael in Base\nnothing\n'));
  base.addBytes('docs\\b.cfg', Buffer.from('urfael=1\r\nURFAEL=2\r\n'));
  const patch = new LtarWriter();
  patch.addBytes('docs\\a.txt', Buffer.from('first line\nthe Patch copy names Urfael twice: Urfael\n'));
  writeTree(root, {
    'x64/default.archcfg': '..\\Game\n..\\Base.arch06\n..\\Patch.arch06\n',
    'Base.arch06': base.toBytes(),
    'Patch.arch06': patch.toBytes(),
    'Game/scripts/s.scripts': 'local x = "Urfael"\n',
    'Game/data/blob.bin': Buffer.from([0x55, 0x72, 0, 0x66, 0x61, 0x65, 0x6c]),
  });
  return Mount.open({ root });
}

const where = (r: ReturnType<typeof searchText>): string[] => r.matches.map((m) => `${m.source}:${m.path}:${m.line}:${m.start}-${m.end}`);

test('searchText: winning copies only, every match with its line and columns, case-insensitive by default', () => {
  const m = mount();
  const r = searchText(m, { query: 'urfael' });
  assert.deepEqual(where(r).sort(), [
    'Base.arch06:docs\\b.cfg:0:0-6',
    'Base.arch06:docs\\b.cfg:1:0-6',
    'Game:scripts\\s.scripts:0:11-17',
    // "the Patch copy names Urfael twice: Urfael": columns 21 and 35.
    'Patch.arch06:docs\\a.txt:1:21-27',
    'Patch.arch06:docs\\a.txt:1:35-41',
  ]);
  assert.equal(r.matches.find((x) => x.path === 'docs\\a.txt')!.preview, 'the Patch copy names Urfael twice: Urfael');
  assert.equal(r.filesSearched, 3, 'the binary file is skipped');
  assert.deepEqual([r.limitHit, r.cancelled, r.filesSkipped], [false, false, []]);
  m.close();
});

test('searchText: match case, regular expressions, include globs, limits, cancellation', () => {
  const m = mount();
  assert.deepEqual(where(searchText(m, { query: 'URFAEL', matchCase: true })), ['Base.arch06:docs\\b.cfg:1:0-6']);
  assert.deepEqual(where(searchText(m, { query: 'urfael=\\d', isRegExp: true, include: '**/*.cfg' })), [
    'Base.arch06:docs\\b.cfg:0:0-8',
    'Base.arch06:docs\\b.cfg:1:0-8',
  ]);
  // A glob without a separator matches the file name anywhere; with one, the whole path.
  assert.deepEqual(where(searchText(m, { query: 'Urfael', include: '*.scripts' })), ['Game:scripts\\s.scripts:0:11-17']);
  assert.deepEqual(searchText(m, { query: 'Urfael', include: 'docs/*.scripts' }).matches, []);
  // An empty match still advances: one per position, and the limit stops the search.
  const limited = searchText(m, { query: 'x*', isRegExp: true, maxMatches: 7 });
  assert.deepEqual([limited.matches.length, limited.limitHit], [7, true]);
  const big = searchText(m, { query: 'Urfael', maxFileSize: 30 });
  assert.ok(big.filesSkipped.some((s) => s.path === 'docs\\a.txt' && /larger than 30 bytes/.test(s.reason)));
  let asked = 0;
  const c = searchText(m, { query: 'Urfael', isCancelled: () => ++asked > 1 });
  assert.deepEqual([c.cancelled, c.filesSearched], [true, 1]);
  const progress: [number, number][] = [];
  searchText(m, { query: 'Urfael', include: '**/*.txt', onProgress: (done, total) => progress.push([done, total]) });
  assert.deepEqual(progress, [[1, 1]]);
  m.close();
});

test('searchText: an empty query or a broken regular expression is BAD_ARGUMENT', () => {
  const m = mount();
  for (const o of [{ query: '' }, { query: '(', isRegExp: true }]) {
    assert.throws(
      () => searchText(m, o),
      (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
    );
  }
  m.close();
});
