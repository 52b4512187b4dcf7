// What the Copies of the Active File view lists (issue 20 item 9), over the sample install
// (core/sample/sampleGame.ts): the world layer's script is served from its bundle's container
// and ships nowhere loose; its registry ships loose in Patch_02, which replaces the container's.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, parseUriPath, gamePathOf, viewedPath } from '../../../core/archive';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, sampleGame } from '../../../core/sample';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { sharedPath } from '../../../test/support/shared';
import { copyListOf, describeCopy } from '../copiesModel';

const root = tempDir('arch06-copies-');
for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
const mount = Mount.open({ root });

test('a script served from its bundle lists its one copy, in the container, as the winner (not nothing)', () => {
  // As the view follows it: a bundle-folder URI, or the text view of one (its path carries the folder URI).
  const u = parseUriPath(viewedPath(`/${SAMPLE_LAYER.replace(/\\/g, '/')}.bndl [bundle]/${SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/')}`));
  assert.equal(u.view, 'bundle');
  const list = copyListOf(mount, gamePathOf(u)!, u.view === 'bundle' ? u.bundle : undefined);
  assert.equal(list.copies.length, 0);
  assert.ok(list.embedded);
  assert.equal(list.embedded.served, true);
  assert.equal(list.embedded.source, 'Base.arch06');
  assert.equal(list.embedded.container, `${SAMPLE_LAYER}.embb`);
  const d = describeCopy(list, 0);
  assert.equal(d.label, 'Base.arch06');
  assert.equal(d.wins, true);
  assert.match(d.description, /^wins · [\d,]+ bytes · in fortgate\.embb$/);
  assert.match(d.tooltip, /The engine loads this copy/);
  // Without the bundle named (a path alone), the bundle of its stem is found the same way.
  assert.deepEqual(copyListOf(mount, SAMPLE_LAYER_SCRIPT).embedded, list.embedded);
});

test('a registry patched loose: the loose copy wins, the container copy below it is shadowed', () => {
  const list = copyListOf(mount, SAMPLE_LAYER_REGISTRY);
  assert.deepEqual(
    list.copies.map((c) => c.source.name),
    ['Patch_02.arch06'],
  );
  assert.equal(list.embedded?.served, false);
  assert.equal(describeCopy(list, 0).wins, true);
  const e = describeCopy(list, 1);
  assert.deepEqual([e.label, e.wins], ['Base.arch06', false]);
  assert.match(e.tooltip, /Shadowed by the loose copy in Patch_02\.arch06/);
});

test('a plain file: its loose copies only', () => {
  const list = copyListOf(mount, 'config\\game.cfg');
  assert.deepEqual(
    list.copies.map((c) => c.source.name),
    ['Patch_02.arch06', 'Patch_01.arch06', 'Base.arch06'],
  );
  assert.equal(list.embedded, undefined);
  assert.match(describeCopy(list, 2).tooltip, /Shadowed by Patch_02\.arch06/);
});

const patch = sharedPath('samples/real/Patch_00.arch06');

test('the retail island script and registry (Patch_00.arch06), served from their bundle: one copy each, winning', { skip: patch.skip }, () => {
  const r = tempDir('arch06-copies-real-');
  writeTree(r, { 'x64/default.archcfg': '..\\Patch_00.arch06\n' });
  fs.copyFileSync(patch.path, path.join(r, 'Patch_00.arch06'));
  const m = Mount.open({ root: r });
  try {
    const stem = 'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay';
    for (const ext of ['scripts', 'objres']) {
      const list = copyListOf(m, `${stem}.${ext}`, `${stem}.bndl`);
      assert.equal(list.copies.length, 0, ext);
      assert.equal(list.embedded?.served, true, ext);
      assert.equal(list.embedded?.source, 'Patch_00.arch06', ext);
    }
  } finally {
    m.close();
  }
});
