// arch06: URI paths ⇄ game paths, and bundles as folders, in plain node: these modules must not
// import vscode (uris.ts and provider.ts only wrap what they return).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Arch06Error } from '../../../core/errors';
import { GamePath } from '../../../core/archive/gamePath';
import { Mount } from '../../../core/archive/mount';
import { SAMPLE_BUNDLE, sampleGame } from '../../../core/sample/sampleGame';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { BUNDLE_SUFFIX, SOURCES_FOLDER, gamePathOf, mergedUriPath, parseUriPath, sourceUriPath } from '../uriPaths';
import { BundleFolders } from '../bundleFolders';

const gp = (s: string): GamePath => s as GamePath;

test('uriPaths and bundleFolders load in plain node; uris.ts is the module that imports vscode', () => {
  // Read, not loaded (loading it would fail at require('vscode') and count as running it).
  assert.match(fs.readFileSync(require.resolve('../uris'), 'utf8'), /require\("vscode"\)/);
});

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
    assert.throws(() => parseUriPath(p), (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT', p);
  }
});

function sampleMount(): Mount {
  const root = tempDir('arch06-uris-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}

test('bundle folders: the member tree of the sample bundle, listed folder by folder, any case', () => {
  const m = sampleMount();
  try {
    const folders = new BundleFolders();
    const b = folders.resolve(m, gp(`${SAMPLE_BUNDLE}.bndl`));
    assert.strictEqual(folders.resolve(m, gp(`${SAMPLE_BUNDLE}.BNDL`.toUpperCase())), b, 'cached per mount, case-insensitively');
    assert.deepEqual(folders.list(b, gp('')), { folders: ['characters'], files: [] });
    assert.deepEqual(folders.list(b, gp('CHARACTERS\\orcs'))!.folders, ['orc_sample']);
    const leaf = folders.list(b, gp('characters\\orcs\\orc_sample'))!;
    assert.deepEqual(leaf.folders, []);
    assert.deepEqual(leaf.files.map((x) => x.path.split('\\').pop()), ['body.txt', 'head.txt', 'weapon.txt', 'banner.txt', 'voice.txt']);
    assert.equal(folders.list(b, gp('characters\\nothing')), undefined);
    assert.equal(folders.member(b, gp('Characters\\Orcs\\Orc_Sample\\Body.txt'))!.servedFrom, 'container');
    assert.equal(folders.member(b, gp('characters\\orcs\\orc_sample')), undefined, 'a folder is no member');
  } finally {
    m.close();
  }
});

test('bundle folders: members as entries serve the bytes the engine would, ranges included; missing ones are left out', () => {
  const m = sampleMount();
  try {
    const folders = new BundleFolders();
    const entries = folders.entries(m, gp(`${SAMPLE_BUNDLE}.bndl`), gp('characters\\orcs'));
    const text = (e: { readSync(s?: number, x?: number): Uint8Array }, s?: number, x?: number): string => Buffer.from(e.readSync(s, x)).toString('utf8');
    const by = new Map(entries.map((e) => [e.path.split('\\').pop()!, e]));
    assert.deepEqual([...by.keys()], ['body.txt', 'head.txt', 'weapon.txt', 'banner.txt']); // voice.txt ships nowhere
    // Texts from core/sample/sampleGame.ts: body from Base's container, banner loose in Patch_02.
    assert.equal(text(by.get('body.txt')!), 'orc_sample body: served from the container in Base\n');
    assert.deepEqual([by.get('body.txt')!.source.name, by.get('body.txt')!.storage], ['Base.arch06', 'plain']);
    assert.equal(text(by.get('banner.txt')!), 'orc_sample banner: declared by the Patch_02 manifest, ships loose in Patch_02\n');
    assert.deepEqual([by.get('banner.txt')!.source.name, by.get('banner.txt')!.storage], ['Patch_02.arch06', 'loose']);
    const weapon = by.get('weapon.txt')!;
    assert.equal(text(weapon, 11, 17), 'weapon');
    assert.throws(() => weapon.readSync(0, weapon.size + 1), (e: unknown) => e instanceof Arch06Error && e.code === 'OUT_OF_RANGE');
    assert.throws(() => folders.entries(m, gp(`${SAMPLE_BUNDLE}.bndl`), gp('characters\\orcs\\orc_sample\\voice.txt')), (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND');
  } finally {
    m.close();
  }
});
