// Bundles as folders (bundleFolders.ts): the path syntax `x.bndl [bundle]\<member>`, the member
// tree, and members served as the engine would, over the sample install's orc bundle (body, head
// and weapon from Base's container, banner loose in Patch_02, voice shipped nowhere) and crafted
// manifests.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { writeBndl } from '../../formats/bundle/bndlWriter';
import { writeEmbb } from '../../formats/bundle/embbWriter';
import { LtarWriter } from '../../formats/archive/ltar/writer';
import { BUNDLE_SUFFIX, BundleFolder, BundleFolders, bundleFolderPath, memberName } from '../bundleFolders';
import { GamePath } from '../gamePath';
import { Mount } from '../mount';
import { SAMPLE_BUNDLE, sampleGame } from '../../sample/sampleGame';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const gp = (s: string): GamePath => s as GamePath;

function sampleMount(): Mount {
  const root = tempDir('arch06-bundle-folders-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}

test('a bundle folder path: manifest and member as game paths, either separator, any case; undefined outside one', () => {
  assert.deepEqual(bundleFolderPath(`bundles/characters/orc_sample.bndl${BUNDLE_SUFFIX}/characters/orcs`), {
    bundle: 'bundles\\characters\\orc_sample.bndl',
    member: 'characters\\orcs',
  });
  assert.deepEqual(bundleFolderPath('\\b\\\\x.BNDL [BUNDLE]\\'), { bundle: 'b\\x.BNDL', member: '' });
  assert.deepEqual(bundleFolderPath('x.bndl [bundle]/a\\b.txt'), { bundle: 'x.bndl', member: 'a\\b.txt' });
  assert.equal(bundleFolderPath('bundles\\characters\\orc_sample.bndl'), undefined);
  assert.equal(bundleFolderPath(''), undefined);
  for (const p of ['x.bndl [bundle]\\..\\y', '..\\x.bndl [bundle]', 'x.bndl [bundle]\\a\u0001b']) {
    assert.throws(
      () => bundleFolderPath(p),
      (e: unknown) => e instanceof Arch06Error && e.code === 'BAD_ARGUMENT',
      p,
    );
  }
});

test('bundle folders: the member tree of the sample bundle, listed folder by folder, any case', () => {
  const m = sampleMount();
  try {
    const folders = new BundleFolders();
    const b = folders.resolve(m, gp(`${SAMPLE_BUNDLE}.bndl`));
    assert.strictEqual(folders.resolve(m, gp(`${SAMPLE_BUNDLE}.BNDL`.toUpperCase())), b, 'cached per mount, case-insensitively');
    assert.deepEqual(b.list(gp('')), { folders: ['characters'], files: [] });
    assert.deepEqual(b.list(gp('CHARACTERS\\orcs'))!.folders, ['orc_sample']);
    const leaf = b.list(gp('characters\\orcs\\orc_sample'))!;
    assert.deepEqual(leaf.folders, []);
    assert.deepEqual(
      leaf.files.map((x) => x.path.split('\\').pop()),
      ['body.txt', 'head.txt', 'weapon.txt', 'banner.txt', 'voice.txt'],
    );
    assert.deepEqual(leaf.files.map(memberName), ['body.txt', 'head.txt', 'weapon.txt', 'banner.txt', 'voice.txt']);
    assert.deepEqual(
      leaf.files.map((x) => x.servedFrom),
      ['container', 'container', 'container', 'loose', 'missing'],
    );
    assert.equal(b.list(gp('characters\\nothing')), undefined);
    assert.equal(b.list(gp('characters\\orcs\\orc_sample\\body.txt')), undefined, 'a member is no folder');
    assert.equal(b.member(gp('Characters\\Orcs\\Orc_Sample\\Body.txt'))!.servedFrom, 'container');
    assert.equal(b.member(gp('characters\\orcs\\orc_sample')), undefined, 'a folder is no member');
    assert.equal(b.member(gp('')), undefined);
    const other = sampleMount();
    try {
      assert.notStrictEqual(folders.resolve(other, gp(`${SAMPLE_BUNDLE}.bndl`)), b, 'a new mount empties the cache');
    } finally {
      other.close();
    }
  } finally {
    m.close();
  }
});

test('bundle folders: members as entries serve the bytes the engine would, ranges included; missing ones are left out', () => {
  const m = sampleMount();
  try {
    const folders = new BundleFolders();
    const entries = folders.resolve(m, gp(`${SAMPLE_BUNDLE}.bndl`)).entries(gp('characters\\orcs'));
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
    assert.throws(
      () => weapon.readSync(0, weapon.size + 1),
      (e: unknown) => e instanceof Arch06Error && e.code === 'OUT_OF_RANGE',
    );
    assert.throws(
      () => folders.resolve(m, gp(`${SAMPLE_BUNDLE}.bndl`)).entries(gp('characters\\orcs\\orc_sample\\voice.txt')),
      (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND',
    );
  } finally {
    m.close();
  }
});

test('bundle folders: a member read through its folder is the bytes of its entry, and a missing one is NOT_FOUND', async () => {
  const m = sampleMount();
  try {
    const b = BundleFolder.open(m, `${SAMPLE_BUNDLE}.bndl`);
    const body = b.member(gp('characters\\orcs\\orc_sample\\body.txt'))!;
    assert.equal(Buffer.from(await b.read(body)).toString('utf8'), 'orc_sample body: served from the container in Base\n');
    const voice = b.member(gp('characters\\orcs\\orc_sample\\voice.txt'))!;
    await assert.rejects(b.read(voice), (e: unknown) => e instanceof Arch06Error && e.code === 'NOT_FOUND');
  } finally {
    m.close();
  }
});

test('bundle folders: member paths are normalised once (either separator, repeated ones); a path that cannot be a game path is in no listing', () => {
  const root = tempDir('arch06-bundle-folders-odd-');
  const members = [
    { path: 'ui/menus//a.txt', bytes: Buffer.from('A') },
    { path: 'ui\\b.txt', bytes: Buffer.from('BB') },
    { path: 'ui\\..\\escape.txt', bytes: Buffer.from('X') },
  ];
  const w = new LtarWriter();
  w.addBytes(
    'b\\odd.bndl',
    writeBndl(
      'Presentation',
      members.map((x) => ({ path: x.path, size: x.bytes.length })),
    ),
  );
  w.addBytes('b\\odd.embb', writeEmbb(members));
  writeTree(root, { 'x64/default.archcfg': '..\\Base.arch06\n', 'Base.arch06': w.toBytes() });
  const m = Mount.open({ root });
  try {
    const b = BundleFolder.open(m, 'b\\odd.bndl');
    assert.deepEqual(b.list(gp('')), { folders: ['ui'], files: [] });
    const ui = b.list(gp('UI'))!;
    assert.deepEqual([ui.folders, ui.files.map(memberName)], [['menus'], ['b.txt']]);
    assert.equal(b.member(gp('ui\\menus\\a.txt'))!.path, 'ui/menus//a.txt', 'found by its game path, reported as the manifest spells it');
    assert.equal(b.member(gp('ui\\..\\escape.txt')), undefined);
    // The whole bundle takes every member that ships, so extraction reports the unsafe name rather than skipping it.
    const all = b.entries(gp(''));
    assert.deepEqual(
      all.map((e) => e.path),
      ['ui\\menus\\a.txt', 'ui\\b.txt', 'ui\\..\\escape.txt'],
    );
    assert.deepEqual(
      b.entries(gp('ui')).map((e) => e.path),
      ['ui\\menus\\a.txt', 'ui\\b.txt'],
    );
  } finally {
    m.close();
  }
});
