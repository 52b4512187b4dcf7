// Find in Files over a mount (E2E drives it through the extension; here the engine alone).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { writeScri } from '../../formats/script/writer';
import { writeSkdb } from '../../formats/strings/writer';
import { stringHash } from '../../hash/stringHash';
import { Mount } from '../../archive/mount';
import { describeSearch, searchText } from '../textSearch';
import { searchTextStreaming } from '../streamSearch';
import { tempDir, writeTree } from '../../../test/support/fixtures';

/** The script source the archive's SCRI script holds: the word on lines 2 and 4 (0-based 1 and 3). */
const SOURCE = '-- header comment\nBeSentry = function (self)\nend\n\tself:BeSentry()\n';

/**
 * Base holds a.txt, b.cfg, a SCRI script, a texture-named file holding the word, a string table;
 * Patch shadows a.txt; Game holds a bare script and a binary file.
 */
function mount(): Mount {
  const root = tempDir('arch06-find-');
  const base = new LtarWriter();
  base.addBytes('docs\\a.txt', Buffer.from('Urfael in Base\nnothing\n'));
  base.addBytes('docs\\b.cfg', Buffer.from('urfael=1\r\nURFAEL=2\r\n'));
  base.addBytes('worlds\\layer\\part.scripts', writeScri(SOURCE));
  base.addBytes('textures\\urfael.tex', Buffer.from('Urfael, but a texture is binary by its type\n'));
  base.addBytes('database\\string\\enus\\names.strdb', writeSkdb([{ hash: stringHash('Name_Urfael'), text: 'Urfael the orc' }]));
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
  assert.equal(r.matches.find((x) => x.path === 'docs\\b.cfg')!.preview, 'urfael=1', 'the line without its \\r');
  assert.deepEqual([r.filesSearched, r.filesMatched, r.matchCount], [4, 3, 5]);
  assert.deepEqual(r.searchedAs, { text: 2, script: 2, decoded: 0 });
  // The texture and the string table are binary by their type, the blob by a NUL byte.
  assert.deepEqual(r.binary, {
    'by file type: .tex': 1,
    'with a decoded view, not asked for: .strdb': 1,
    'with a NUL byte in the first 8 KiB': 1,
  });
  assert.deepEqual([r.limitHit, r.cancelled, r.filesSkipped, r.skippedCount], [false, false, [], 0]);
  assert.equal(
    describeSearch(r, 'urfael'),
    '5 results for "urfael" in 3 files; 4 files searched (2 as text, 2 scripts as source); 3 skipped as binary: ' +
      '1 by file type (.tex 1); 1 with a NUL byte in the first 8 KiB; 1 with a decoded view, not asked for (.strdb 1)',
  );
  m.close();
});

test('searchText: a SCRI script is searched in its source after the header, lines numbered as its text view', () => {
  const m = mount();
  const r = searchText(m, { query: 'BeSentry', include: '*.scripts' });
  // The oracle: the source's own lines, split here.
  const expected = SOURCE.split('\n').flatMap((line, i) =>
    line.includes('BeSentry') ? [`Base.arch06:worlds\\layer\\part.scripts:${i}:${line.indexOf('BeSentry')}`] : [],
  );
  assert.deepEqual(
    r.matches.map((x) => `${x.source}:${x.path}:${x.line}:${x.start}`),
    expected,
  );
  assert.ok(r.matches.every((x) => x.view === 'script'));
  assert.equal(r.matches[1].preview, '\tself:BeSentry()');
  m.close();
});

test('searchText: files of a binary type are not read; decoded views are searched when asked', () => {
  const m = mount();
  const read: string[] = [];
  for (const s of m.sources) {
    const entryAt = s.entryAt.bind(s);
    s.entryAt = (i: number) => {
      read.push(s.pathAt(i));
      return entryAt(i);
    };
  }
  searchText(m, { query: 'urfael' });
  assert.ok(!read.some((p) => /\.(tex|strdb)$/.test(p)), `no binary-typed file read: ${read.join(', ')}`);
  const decoded = searchText(m, { query: 'the orc', decoded: true });
  assert.deepEqual(
    decoded.matches.map((x) => [x.path, x.view]),
    [['database\\string\\enus\\names.strdb', 'decoded']],
  );
  assert.match(decoded.matches[0].preview, /Urfael the orc/);
  assert.equal(decoded.searchedAs.decoded, 1);
  m.close();
});

test('searchText: match case, regular expressions, include globs, limits, cancellation', () => {
  const m = mount();
  assert.deepEqual(where(searchText(m, { query: 'URFAEL', matchCase: true })), ['Base.arch06:docs\\b.cfg:1:0-6']);
  assert.deepEqual(where(searchText(m, { query: 'urfael=\\d$', isRegExp: true, include: '**/*.cfg' })), [
    'Base.arch06:docs\\b.cfg:0:0-8',
    'Base.arch06:docs\\b.cfg:1:0-8',
  ]);
  // A regular expression sees one line: ^ anchors at each line's start.
  assert.deepEqual(where(searchText(m, { query: '^\\tself', isRegExp: true })), ['Base.arch06:worlds\\layer\\part.scripts:3:0-5']);
  // A glob without a separator matches the file name anywhere; with one, the whole path.
  assert.deepEqual(where(searchText(m, { query: 'Urfael', include: '*.scripts' })), ['Game:scripts\\s.scripts:0:11-17']);
  assert.deepEqual(searchText(m, { query: 'Urfael', include: 'docs/*.scripts' }).matches, []);
  // An empty match still advances: one per position, and the limit stops the search.
  const limited = searchText(m, { query: 'x*', isRegExp: true, maxMatches: 7 });
  assert.deepEqual([limited.matches.length, limited.limitHit], [7, true]);
  const big = searchText(m, { query: 'Urfael', maxFileSize: 30 });
  assert.ok(big.filesSkipped.some((s) => s.path === 'docs\\a.txt' && /larger than 30 bytes/.test(s.reason)));
  assert.match(describeSearch(big, 'Urfael'), /unreadable or too large/);
  // Cancel is asked after every file read: the search stops after the first.
  const c = searchText(m, { query: 'Urfael', isCancelled: () => true });
  assert.deepEqual([c.cancelled, c.filesSearched], [true, 1]);
  const progress: [number, number][] = [];
  searchText(m, { query: 'Urfael', include: '**/*.txt', onProgress: (done, total) => progress.push([done, total]) });
  // Every distinct path is gone through (the include picks one of them), and the progress says so at the end.
  const paths = m.distinctPaths().length;
  assert.deepEqual(progress[progress.length - 1], [paths, paths]);
  m.close();
});

test('searchTextStreaming: matches arrive between slices, before the search ends, in the order of a whole run', async () => {
  const m = mount();
  const whole = searchText(m, { query: 'urfael' });
  const seen: string[] = [];
  let pauses = 0;
  let seenAtFirstPause = -1;
  const r = await searchTextStreaming(m, {
    query: 'urfael',
    sliceMs: 0,
    keepMatches: false,
    onMatch: (x) => seen.push(`${x.path}:${x.line}:${x.start}`),
    pause: async () => {
      if (pauses++ === 0) seenAtFirstPause = seen.length;
    },
  });
  assert.ok(pauses > 0 && seenAtFirstPause >= 0 && seenAtFirstPause < seen.length, `paused ${pauses} times, ${seenAtFirstPause} matches at the first`);
  assert.deepEqual(
    seen,
    whole.matches.map((x) => `${x.path}:${x.line}:${x.start}`),
  );
  assert.deepEqual([r.matches.length, r.matchCount], [0, whole.matchCount]);
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
