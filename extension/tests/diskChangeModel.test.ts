// What the extension says when the disk changes under the mount (extension/diskChangeModel.ts), on a
// real install changed on disk: the change notice names each change; open copies are sorted by
// what became of them (the identities are the mount's own, before and after a remount); the reload
// offer and the "no longer in the mount" notice name the files, escaped.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, looseChange, mountChanges, remount } from '../../core/archive';
import { LtarWriter } from '../../core/formats/archive';
import { tempDir, writeTree } from '../../test/support/fixtures';
import { isModSourceName, modSourceName, openOverlay } from '../../core/mod';
import { changeNotice, copyLabel, modsListNotice, onlyModChanges, reloadNotice, sortCopies, unlistedNotice, vanishedNotice } from '../diskChangeModel';

const archive = (files: Record<string, string>): Uint8Array => {
  const w = new LtarWriter();
  for (const [p, t] of Object.entries(files)) w.addBytes(p, Buffer.from(t));
  return w.toBytes();
};

test('a replaced and a deleted archive: the notice names both; the open copies are sorted into changed, vanished and the same', () => {
  const root = tempDir('arch06-diskmodel-');
  writeTree(root, {
    'x64/default.archcfg': '..\\Base.arch06\r\n..\\Patch_02.arch06\r\n..\\Mod.arch06\r\n',
    'Base.arch06': archive({ 'config\\game.cfg': 'base', 'base.txt': 'b' }),
    'Patch_02.arch06': archive({ 'config\\game.cfg': 'patch 2' }),
    'Mod.arch06': archive({ 'mod\\only.txt': 'mod' }),
  });
  const old = Mount.open({ root });
  const open = ['config\\game.cfg', 'base.txt', 'mod\\only.txt'].map((p) => ({ label: copyLabel('/' + p.replace(/\\/g, '/')), before: old.entry(p).identity }));
  fs.writeFileSync(path.join(root, 'Patch_02.arch06.new'), archive({ 'config\\game.cfg': 'patch 2, v2' }));
  fs.renameSync(path.join(root, 'Patch_02.arch06.new'), path.join(root, 'Patch_02.arch06'));
  fs.rmSync(path.join(root, 'Mod.arch06'));
  const r = remount(old, mountChanges(old));
  try {
    const notice = changeNotice(r.changes);
    assert.match(notice, /^arch06: the install changed on disk: /);
    assert.match(notice, /Patch_02\.arch06 replaced by another file \(\d+ bytes\)/);
    assert.match(notice, /Mod\.arch06 deleted/);
    const copies = open.map((c) => ({ ...c, after: r.mount.winner(c.label.replace(/\//g, '\\'))?.identity }));
    const { changed, vanished } = sortCopies(copies);
    assert.deepEqual(
      changed.map((c) => c.label),
      ['config/game.cfg'],
    );
    assert.deepEqual(
      vanished.map((c) => c.label),
      ['mod/only.txt'],
    );
    assert.equal(
      reloadNotice(changed),
      'arch06: "config/game.cfg" is open, and the copy the mount serves changed on disk: the editor shows the copy read before. Reload it?',
    );
    assert.match(
      vanishedNotice(vanished, r.changes)!,
      /^arch06: "mod\/only\.txt" is no longer in the mount \(.*Mod\.arch06 deleted.*\): the editor shows what was read before/,
    );
    assert.equal(reloadNotice([]), undefined);
    assert.equal(vanishedNotice([], r.changes), undefined);
  } finally {
    r.mount.close();
  }
});

test('many files and hostile names: the notices list three, count the rest, and escape what they print', () => {
  const copies = ['a', 'b\x1b[31m', 'c', 'd', 'e'].map((label) => ({ label, before: 'x', after: 'y' }));
  const offer = reloadNotice(copies)!;
  assert.match(offer, /^arch06: 5 open files \("a", "b\\x1B\[31m", "c" and 2 more\) changed on disk: .* Reload them\?$/);
  assert.doesNotMatch(offer, /\x1b/);
  assert.equal(
    unlistedNotice(['Extra.arch06']),
    'arch06: Extra.arch06 was added to the install, but no line of the archive config list names it: the game does not load it, so arch06 does not mount it either.',
  );
  assert.match(unlistedNotice(['A.arch06', 'B.arch06', 'C.arch06', 'D.arch06']), /^arch06: A\.arch06, B\.arch06, C\.arch06 and 1 more were added/);
});

test("a save into an active mod's folder is the mod's own change (followed without a notice); a change to a game source is not", () => {
  const root = tempDir('arch06-diskmodel-mod-');
  writeTree(root, {
    'x64/default.archcfg': '..\\Base.arch06\r\n',
    'Base.arch06': archive({ 'config\\game.cfg': 'base' }),
  });
  const modFolder = tempDir('arch06-diskmodel-modsrc-');
  writeTree(modFolder, { 'config/game.cfg': 'mod' });
  const { mount } = openOverlay({ root }, [{ folder: modFolder, name: 'Tune', position: { kind: 'bottom' } }]);
  const modSource = mount.sources.find((s) => s.name === modSourceName('Tune'));
  assert.ok(modSource, mount.sources.map((s) => s.name).join(', '));
  assert.ok(isModSourceName(modSource!.name));
  assert.ok(!mount.sources.filter((s) => s !== modSource).some((s) => isModSourceName(s.name)), 'no game source looks like a mod');

  const saved = path.join(modFolder, 'config', 'game.cfg');
  fs.writeFileSync(saved, 'mod, saved');
  const own = looseChange(mount, saved, 'modified');
  assert.ok(own, 'the save is in a mounted folder');
  assert.equal(own!.name, modSourceName('Tune'));
  assert.equal(onlyModChanges([own!], isModSourceName), true);

  fs.writeFileSync(path.join(root, 'Base.arch06'), archive({ 'config\\game.cfg': 'base, patched' }));
  const game = mountChanges(mount);
  assert.ok(game.length > 0);
  assert.equal(onlyModChanges([own!, ...game], isModSourceName), false, 'a game archive changed too');
  assert.equal(onlyModChanges([], isModSourceName), false);
});

test('the notice for archives only arch06-mods.archcfg names says how the game loads them, escaped', () => {
  assert.match(
    modsListNotice(['My_Mod.arch06']),
    /^arch06: My_Mod\.arch06 was installed through arch06-mods\.archcfg: the game loads it when started with -archcfg arch06-mods\.archcfg\./,
  );
  const many = modsListNotice(['a.arch06', 'b.arch06', 'c.arch06', 'd\nx.arch06']);
  assert.match(many, /a\.arch06, b\.arch06, c\.arch06 and 1 more were installed/);
  assert.ok(!modsListNotice(['e\u202evil.arch06']).includes('\u202e'), 'a bidi control is escaped');
});
