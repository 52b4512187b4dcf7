import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Arch06Error } from '../../errors';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { writePathIndex } from '../../formats/archive/pathIndex';
import { stringHash } from '../../hash/stringHash';
import { parseArchcfg } from '../archcfg';
import { Mount } from '../mount';
import { parseUriPath, sourceFolderNames, sourceUriPath } from '../viewPaths';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const archive = (files: Record<string, string>, index?: string[]): Uint8Array => {
  const w = new LtarWriter();
  if (index) w.addBytes('archivepatchloosefiles.txt', writePathIndex(index));
  for (const [p, t] of Object.entries(files)) w.addBytes(p, Buffer.from(t));
  return w.toBytes();
};

const read = (m: Mount, p: string, source?: string): string => Buffer.from(m.entry(p, source).readSync()).toString();

/** An install shaped like the game's: Game line on top, archives below, search bottom-up. */
function install(): string {
  const root = tempDir();
  writeTree(root, {
    'x64/default.archcfg': [
      '; file search order is from the bottom up',
      '',
      '..\\Game            ; loose files',
      '..\\NoSuchDir',
      '   ',
      '..\\Base.arch06',
      '..\\Great_Hall.arch06 ; not shipped',
      '..\\Patch_01.arch06',
      '..\\patch_02.ARCH06',
      '',
    ].join('\r\n'),
    'Base.arch06': archive({ 'config\\game.cfg': 'base', 'only\\base.txt': 'b', 'scripts\\s.scripts': 'base script' }),
    'Patch_01.arch06': archive({ 'config\\game.cfg': 'patch1', 'patch1.txt': 'p1' }, ['config\\game.cfg', 'patch1.txt']),
    'Patch_02.arch06': archive({ 'Config\\Game.cfg': 'patch2' }, ['config\\game.cfg']),
    'Blade.arch06': archive({ 'dlc\\blade.txt': 'Unlocked' }),
    'Game/scripts/s.scripts': 'game script',
    'Game/Movies/Intro.vib': 'movie',
  });
  return root;
}

test('archcfg: comments, blank lines, line numbers', () => {
  assert.deepEqual(parseArchcfg('; c\n\n a.arch06 ; x\r\n\t\n..\\Game\n;only comment\n'), [
    { line: 3, text: 'a.arch06' },
    { line: 5, text: '..\\Game' },
  ]);
});

test('search order is the cfg reversed; missing lines are skipped and reported', () => {
  const m = Mount.open({ root: install() });
  assert.deepEqual(
    m.sources.map((s) => s.name),
    ['Patch_02.arch06', 'Patch_01.arch06', 'Base.arch06', 'Game'],
  );
  assert.deepEqual(
    m.sources.map((s) => s.kind),
    ['archive', 'archive', 'archive', 'directory'],
  );
  assert.deepEqual(
    m.skipped.map((s) => [s.line, s.text]),
    [
      [4, '..\\NoSuchDir'],
      [7, '..\\Great_Hall.arch06'],
    ],
  );
  assert.ok(m.skipped.every((s) => /nothing/.test(s.reason)));
  // On disk but not in the cfg: not mounted, listed for the user.
  assert.deepEqual(m.unlisted, ['Blade.arch06']);
  assert.equal(m.which('dlc\\blade.txt'), undefined);
  m.close();
});

test('@sources lists the sources in search order: numbered folders that sort as the search order and resolve to their sources', () => {
  const m = Mount.open({ root: install() });
  const folders = sourceFolderNames(m.sources);
  assert.deepEqual(folders, ['01 Patch_02.arch06', '02 Patch_01.arch06', '03 Base.arch06', '04 Game']);
  // The Explorer sorts by name: with the numbers that is the search order (the bare names would not be).
  assert.deepEqual([...folders].sort(), folders);
  assert.notDeepEqual(
    m.sources.map((s) => s.name).sort(),
    m.sources.map((s) => s.name),
  );
  for (const [i, folder] of folders.entries()) {
    const u = parseUriPath(sourceUriPath(folder, 'config\\game.cfg'));
    assert.equal(u.view, 'source');
    assert.equal(m.source(u.view === 'source' ? u.source : '')?.name, m.sources[i]!.name, folder);
  }
  const base = parseUriPath(sourceUriPath(folders[2]!, 'config\\game.cfg'));
  assert.equal(read(m, base.view === 'source' ? base.path : '', base.view === 'source' ? base.source : undefined), 'base');
  m.close();
});

test('a path shadowed in three archives: the lowest cfg line wins, copies in search order', () => {
  const m = Mount.open({ root: install() });
  const w = m.which('CONFIG/game.cfg')!;
  assert.equal(w.winner.source.name, 'Patch_02.arch06');
  assert.deepEqual(
    w.copies.map((c) => c.source.name),
    ['Patch_02.arch06', 'Patch_01.arch06', 'Base.arch06'],
  );
  assert.equal(w.path, 'Config\\Game.cfg');
  assert.equal(read(m, 'config\\game.cfg'), 'patch2');
  assert.equal(read(m, 'config\\game.cfg', 'patch_01.arch06'), 'patch1');
  assert.equal(read(m, 'config\\game.cfg', 'Base.arch06'), 'base');
  m.close();
});

test('the same path in the Game folder and an archive: Game is the top line, so consulted last', () => {
  const m = Mount.open({ root: install() });
  const w = m.which('scripts\\s.scripts')!;
  assert.deepEqual(
    w.copies.map((c) => c.source.name),
    ['Base.arch06', 'Game'],
  );
  assert.equal(read(m, 'scripts/s.scripts'), 'base script');
  assert.equal(read(m, 'scripts/s.scripts', 'Game'), 'game script');
  // Directory sources resolve case-insensitively, as on Windows.
  const movie = m.which('movies\\intro.VIB')!;
  assert.equal(movie.winner.source.name, 'Game');
  assert.equal(movie.winner.storage, 'loose');
  assert.equal(Buffer.from(movie.winner.readSync()).toString(), 'movie');
  m.close();
});

test('a directory line that moves the Game folder to the bottom makes it win', () => {
  const root = install();
  fs.appendFileSync(path.join(root, 'x64/default.archcfg'), '..\\Game\n');
  const m = Mount.open({ root });
  assert.equal(m.sources[0].name, 'Game');
  assert.equal(read(m, 'scripts\\s.scripts'), 'game script');
  // Mounted twice: one source, at the later (higher-ranked) line; the earlier line is reported.
  assert.equal(m.sources.filter((s) => s.name === 'Game').length, 1);
  assert.ok(m.skipped.some((s) => /again/.test(s.reason)));
  m.close();
});

test('extra archives (-arch) rank below every cfg line', () => {
  const root = install();
  writeTree(root, { 'Extra.arch06': archive({ 'config\\game.cfg': 'extra', 'extra.txt': 'e' }) });
  const m = Mount.open({ root, extraArchives: ['Extra.arch06'] });
  assert.equal(m.sources.at(-1)!.name, 'Extra.arch06');
  assert.equal(read(m, 'config\\game.cfg'), 'patch2');
  assert.equal(read(m, 'extra.txt'), 'e');
  m.close();
});

test('an explicit cfg (-archcfg) replaces default.archcfg', () => {
  const root = install();
  writeTree(root, { 'x64/mine.archcfg': '..\\Patch_01.arch06\n..\\Base.arch06\n' });
  const m = Mount.open({ root, cfg: path.join(root, 'x64/mine.archcfg') });
  assert.deepEqual(
    m.sources.map((s) => s.name),
    ['Base.arch06', 'Patch_01.arch06'],
  );
  assert.equal(read(m, 'config\\game.cfg'), 'base');
  m.close();
});

test('merged listing, distinct path count and copies', () => {
  const m = Mount.open({ root: install() });
  const root = m.list('')!;
  assert.deepEqual(
    root.folders.map((f) => f.name.toLowerCase()),
    ['config', 'movies', 'only', 'scripts'],
  );
  assert.deepEqual(
    root.files.map((f) => [f.name, f.winner.source.name, f.copies]),
    [
      ['archivepatchloosefiles.txt', 'Patch_02.arch06', 2],
      ['patch1.txt', 'Patch_01.arch06', 1],
    ],
  );
  const config = m.list('config')!;
  assert.deepEqual(
    config.files.map((f) => [f.name, f.copies]),
    [['Game.cfg', 3]],
  );
  assert.equal(m.list('nope'), undefined);
  // Distinct paths: index (1) + config\game.cfg + only\base.txt + scripts\s.scripts + patch1.txt + movies\intro.vib.
  const ix = m.index();
  assert.equal(ix.size, 6);
  assert.equal(ix.maxCopies(), 3);
  assert.equal(ix.shadowedCount(), 3);
  assert.deepEqual([...m.walk('')].map((e) => e.path.toLowerCase()).sort(), [
    'archivepatchloosefiles.txt',
    'config\\game.cfg',
    'movies\\intro.vib',
    'only\\base.txt',
    'patch1.txt',
    'scripts\\s.scripts',
  ]);
  m.close();
});

test('path index: every archive merged into one sorted hash -> path table; unhash', () => {
  const m = Mount.open({ root: install() });
  const t = m.pathTable();
  assert.deepEqual(t.archives, ['Patch_02.arch06', 'Patch_01.arch06']);
  assert.deepEqual(
    t.rows.map((r) => r.path),
    [...t.rows].sort((a, b) => a.hash - b.hash).map((r) => r.path),
  );
  assert.deepEqual(t.rows.map((r) => r.path).sort(), ['config\\game.cfg', 'patch1.txt']);
  assert.deepEqual(t.problems, []);
  assert.deepEqual(m.unhash(stringHash('config\\game.cfg')), [{ path: 'config\\game.cfg', from: 'path-index' }]);
  assert.deepEqual(m.unhash(stringHash('only\\base.txt')), [{ path: 'only\\base.txt', from: 'mount' }]);
  assert.deepEqual(m.unhash(0x12345678), []);
  m.close();
});

test('missing root or cfg, and bad paths, are typed errors', () => {
  assert.throws(
    () => Mount.open({ root: '/definitely/not/here' }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
  );
  assert.throws(
    () => Mount.open({ root: tempDir() }),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND' && /archcfg/.test(e.message),
  );
  const m = Mount.open({ root: install() });
  assert.throws(
    () => m.which('..\\..\\etc\\passwd'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
  );
  assert.throws(
    () => m.entry('nope.txt'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
  );
  assert.throws(
    () => m.entry('config\\game.cfg', 'Nope.arch06'),
    (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
  );
  m.close();
});

test('a cfg line naming a file that is no archive is a broken source, not a skipped line; the rest mounts', () => {
  const root = install();
  for (const bytes of [
    Buffer.from('LTAR garbage'),
    Buffer.from('hello, I am a text file\n'),
    Buffer.alloc(0),
    Buffer.from([0x4c, 0x54, 0x41, 0x52, 4, 0, 0, 0]),
  ]) {
    fs.writeFileSync(path.join(root, 'Patch_01.arch06'), bytes);
    const m = Mount.open({ root });
    assert.deepEqual(
      m.sources.map((s) => s.name),
      ['Patch_02.arch06', 'Base.arch06', 'Game'],
    );
    assert.equal(
      m.skipped.find((x) => x.text === '..\\Patch_01.arch06'),
      undefined,
    );
    assert.equal(m.unlisted.includes('Patch_01.arch06'), false, 'a broken source is not also "not in the cfg"');
    assert.equal(m.broken.length, 1);
    const b = m.broken[0];
    assert.equal(b.text, '..\\Patch_01.arch06');
    assert.equal(b.path, path.join(root, 'Patch_01.arch06'));
    assert.match(b.reason, /Patch_01\.arch06/);
    assert.ok(['BAD_MAGIC', 'TRUNCATED'].includes(b.code), b.code);
    assert.equal(m.complete, false);
    m.close();
  }
});

test('a UTF-8 byte-order mark before the first cfg line is not part of it', () => {
  const root = install();
  const cfg = path.join(root, 'x64', 'default.archcfg');
  fs.writeFileSync(cfg, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fs.readFileSync(cfg)]));
  const m = Mount.open({ root });
  assert.deepEqual(
    m.skipped.filter((s) => s.line === 1),
    [],
  );
  assert.equal(m.sources.length, 4);
  m.close();
});

test('a path with characters beyond one byte is simply absent (never truncated into another name)', () => {
  const m = Mount.open({ root: install() });
  // U+0163 would truncate to 0x63 ("c") under latin1 encoding: "\u0163onfig" must not find "config".
  assert.equal(m.which('\u0163onfig\\game.cfg'), undefined);
  assert.equal(m.hasFolder('\u0163onfig'), false);
  assert.equal(m.list('\u0163onfig'), undefined);
  m.close();
});
