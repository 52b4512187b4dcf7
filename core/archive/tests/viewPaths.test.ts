// arch06: URI paths ⇄ game paths (core, no vscode: the extension's uris.ts and provider.ts only
// wrap what it returns, and the language server maps its documents with it).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import {
  BUNDLE_SUFFIX,
  SOURCES_FOLDER,
  gamePathOf,
  mergedUriPath,
  parseUriPath,
  sourceFolderName,
  sourceFolderNames,
  sourceOfFolder,
  sourceUriPath,
  memberUriPath,
  textViewPath,
  viewedPath,
} from '../viewPaths';

test('the merged view: /<game path>, either case, separators normalised to backslashes', () => {
  assert.deepEqual(parseUriPath('/'), { view: 'merged', path: '' });
  assert.deepEqual(parseUriPath('/Config/Game.cfg'), { view: 'merged', path: 'Config\\Game.cfg' });
  assert.deepEqual(parseUriPath('//config//game.cfg/'), { view: 'merged', path: 'config\\game.cfg' });
  assert.equal(mergedUriPath('config\\game.cfg'), '/config/game.cfg');
  assert.equal(mergedUriPath('\\config//game.cfg\\'), '/config/game.cfg');
  assert.equal(mergedUriPath(''), '/');
});

test('one source: /@sources/<name>/<game path>; /@sources alone lists the sources', () => {
  assert.deepEqual(parseUriPath(`/${SOURCES_FOLDER}`), { view: 'sources' });
  assert.deepEqual(parseUriPath('/@SOURCES/Base.arch06/config/game.cfg'), { view: 'source', source: 'Base.arch06', path: 'config\\game.cfg' });
  assert.deepEqual(parseUriPath('/@sources/Game'), { view: 'source', source: 'Game', path: '' });
  assert.equal(sourceUriPath('Base.arch06', 'config\\game.cfg'), '/@sources/Base.arch06/config/game.cfg');
  assert.equal(sourceUriPath('Game'), '/@sources/Game');
});

test('@sources folders are numbered in search order (zero-padded to the count, at least two digits); the number is dropped when parsed', () => {
  assert.equal(sourceFolderName(1, 7, 'Patch_02.arch06'), '01 Patch_02.arch06');
  assert.equal(sourceFolderName(7, 7, 'Game'), '07 Game');
  assert.equal(sourceFolderName(3, 120, 'Base.arch06'), '003 Base.arch06');
  assert.deepEqual(sourceFolderNames([{ name: 'Patch_02.arch06' }, { name: 'Base.arch06' }, { name: 'Game' }]), [
    '01 Patch_02.arch06',
    '02 Base.arch06',
    '03 Game',
  ]);
  // Ten or more sources: a plain name sort still gives the search order.
  const many = sourceFolderNames([...Array(11)].map((_, i) => ({ name: `z${10 - i}` })));
  assert.deepEqual([...many].sort(), many);
  assert.deepEqual(parseUriPath('/@sources/02 Base.arch06/config/game.cfg'), { view: 'source', source: 'Base.arch06', path: 'config\\game.cfg' });
  assert.deepEqual(parseUriPath(sourceUriPath('03 Game')), { view: 'source', source: 'Game', path: '' });
  // The number is display, the name identity: any number, or none, names the same source.
  assert.equal(sourceOfFolder('17 Base.arch06'), 'Base.arch06');
  assert.equal(sourceOfFolder('Base.arch06'), 'Base.arch06');
  // A name that itself starts with digits and a space keeps them under its number.
  assert.equal(sourceOfFolder(sourceFolderName(4, 9, '2024 mods')), '2024 mods');
  assert.equal(sourceOfFolder('12'), '12', 'digits alone are a name');
  assert.equal(sourceOfFolder('01  two spaces'), ' two spaces');
});

test('a bundle folder: /<manifest path> [bundle]/<member path>', () => {
  const u = parseUriPath(`/bundles/characters/orc_sample.bndl${BUNDLE_SUFFIX}/characters/orcs/orc_sample/body.txt`);
  assert.deepEqual(u, { view: 'bundle', bundle: 'bundles\\characters\\orc_sample.bndl', member: 'characters\\orcs\\orc_sample\\body.txt' });
  assert.deepEqual(parseUriPath('/b/x.BNDL [BUNDLE]'), { view: 'bundle', bundle: 'b\\x.BNDL', member: '' });
  assert.equal(gamePathOf(u), 'characters\\orcs\\orc_sample\\body.txt');
  assert.equal(gamePathOf(parseUriPath('/@sources/Base.arch06/a/b.txt')), 'a\\b.txt');
  assert.equal(gamePathOf(parseUriPath('/a/b.txt')), 'a\\b.txt');
  assert.equal(gamePathOf(parseUriPath('/@sources')), undefined);
});

test('round trips: a game path survives mergedUriPath / sourceUriPath and back', () => {
  for (const p of ['config\\game.cfg', 'a', 'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.embb', 'with space\\and [brackets].txt']) {
    assert.deepEqual(parseUriPath(mergedUriPath(p)), { view: 'merged', path: p });
    assert.deepEqual(parseUriPath(sourceUriPath('Patch_01.arch06', p)), { view: 'source', source: 'Patch_01.arch06', path: p });
  }
});

test('a URI path that leaves the tree (.., .) or holds control characters is a typed error', () => {
  for (const p of ['/a/../b', '/@sources/Base.arch06/..', '/./x', '/a\u0001b', '/x.bndl [bundle]/../y']) {
    assert.throws(
      () => parseUriPath(p),
      (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
      p,
    );
  }
});

test('text view paths say where the file is, so same-named files of two regions get different tab titles', () => {
  const layer = (region: string): string => `worlds\\retail\\${region}\\sectionsandlayers\\fortwallgameplay`;
  const island = memberUriPath(`${layer('island')}.bndl`, `${layer('island')}.scripts`);
  const volcano = memberUriPath(`${layer('volcano')}.bndl`, `${layer('volcano')}.scripts`);
  const title = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  assert.equal(title(textViewPath(island)), 'fortwallgameplay.scripts (text in island)');
  assert.equal(title(textViewPath(volcano)), 'fortwallgameplay.scripts (text in volcano)');
  // Outside worlds: the file's folder; one source's copy: the source too; a root file of the merged view: no place.
  assert.equal(title(textViewPath(mergedUriPath('database\\string\\frfr\\string.strdb'))), 'string.strdb (text in frfr)');
  assert.equal(
    title(textViewPath(sourceUriPath('03 Patch_02.arch06', `${layer('island')}.objres`))),
    'fortwallgameplay.objres (text in island of Patch_02.arch06)',
  );
  assert.equal(title(textViewPath(sourceUriPath('01 HotChunk.arch06', 'archivepatchloosefiles.txt'))), 'archivepatchloosefiles.txt (text in HotChunk.arch06)');
  assert.equal(title(textViewPath(mergedUriPath('archivepatchloosefiles.txt'))), 'archivepatchloosefiles.txt (text)');
  // Back to the file's path, from the new titles and from the older ` (text)` alike.
  for (const p of [island, volcano, mergedUriPath('a\\b.objres'), sourceUriPath('Base.arch06', 'x.bndl')]) assert.equal(viewedPath(textViewPath(p)), p);
  assert.equal(viewedPath(`${island} (text)`), island);
  assert.equal(viewedPath(island), island, 'a path without the suffix is taken as it is');
  // Only characters every URI encoder writes alike are added (letters, digits, spaces, parentheses).
  assert.match(textViewPath(island).slice(island.length), /^[A-Za-z0-9 ()._-]+$/);
});
