// Go to File's list on the sample install: the orc bundle's banner.txt ships loose in Patch_02 and
// is declared by the bundle; it is listed once, as the mounted path, with its bundle kept for the
// item's detail; members only a container holds follow the mounted paths.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MemberCatalog } from '../../archive/memberCatalog';
import { Mount } from '../../archive/mount';
import { sampleGame } from '../../sample/sampleGame';
import { FuzzyIndex } from '../fuzzy';
import { memberRowsAt, pathList, pathListKey } from '../pathList';
import { tempDir, writeTree } from '../../../test/support/fixtures';

test('pathList: a loose file that is also a bundle member is listed once; container members after the paths', async () => {
  const root = tempDir('arch06-path-list-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const m = Mount.open({ root });
  try {
    const catalog = await MemberCatalog.build(m);
    const paths = m.distinctPaths();
    const list = pathList(paths, catalog.rows);
    const banner = 'characters\\orcs\\orc_sample\\banner.txt';
    assert.ok(
      catalog.rows.some((r) => r.path.toLowerCase() === banner && r.servedFrom === 'loose'),
      'the catalog has the loose-served member',
    );
    assert.equal(list.paths.filter((p) => p.toLowerCase() === banner).length, 1, 'listed once');
    assert.equal(list.alsoDeclared.get(pathListKey(banner))?.bundle.toLowerCase(), 'bundles\\characters\\orc_sample.bndl');
    // Every row not served loose follows the mounted paths, in catalog order.
    const rest = catalog.rows.filter((r) => r.servedFrom !== 'loose');
    assert.deepEqual(list.members, rest);
    assert.deepEqual(list.paths, [...paths, ...rest.map((r) => r.path)]);
    assert.equal(list.looseCount, paths.length);
    // Go to File over it: one item for banner.txt.
    const ix = new FuzzyIndex(list.paths);
    assert.equal(ix.match('banner.txt').filter((x) => list.paths[x.index].toLowerCase() === banner).length, 1);
    assert.ok(
      ix.match('weapon.txt').some((x) => x.index >= list.looseCount),
      'the container-only member is there',
    );
  } finally {
    m.close();
  }
});

test('memberRowsAt: a member served loose (as a mod copy is) is found through its mounted path, a container member through the members', async () => {
  const root = tempDir('arch06-path-list-rows-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const m = Mount.open({ root });
  try {
    const catalog = await MemberCatalog.build(m);
    const list = pathList(m.distinctPaths(), catalog.rows);
    const banner = memberRowsAt(list, 'CHARACTERS/orcs/orc_sample/banner.txt');
    assert.equal(banner.length, 1);
    assert.equal(banner[0].servedFrom, 'loose');
    assert.ok(!list.members.includes(banner[0]), 'not among the members: the one Copy to Mod and Mod Changes missed');
    const body = memberRowsAt(list, 'characters\\orcs\\orc_sample\\body.txt');
    assert.deepEqual(
      body.map((r) => r.servedFrom),
      ['container'],
    );
    assert.deepEqual(memberRowsAt(list, 'characters\\orcs\\orc_sample\\none.txt'), []);
  } finally {
    m.close();
  }
});
