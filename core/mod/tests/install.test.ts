// Issue 23 item 5: install and uninstall, three ways, all reversible; the lists restored byte for
// byte; a list the store client reset found again; names that are taken refused.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../../archive';
import { sampleGame } from '../../sample';
import { createMod } from '../copy';
import { applyInstall, applyUninstall, findResets, namedByModsList, planInstall, planUninstall } from '../install';
import { packMod } from '../pack';
import { checkMods } from '../check';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { cannotCountDescriptors, descriptorsUnder } from '../../../test/support/heldFiles';
import { snapshotTree as fullSnapshot, treeChanges } from '../../../test/support/adversarial';

/** The tree by content (a list restored byte for byte has a new mtime, the same bytes). */
function snapshotTree(dir: string): Map<string, string> {
  return new Map([...fullSnapshot(dir)].map(([k, v]) => [k, v.replace(/^(file \d+) [\d.]+ /, '$1 ')]));
}

function sampleInstall(cfg?: (text: string) => string): string {
  const root = tempDir('arch06-install-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  if (cfg) {
    const p = path.join(root, 'x64', 'default.archcfg');
    fs.writeFileSync(p, Buffer.from(cfg(fs.readFileSync(p, 'latin1')), 'latin1'));
  }
  return root;
}

function makeMod(name = 'My Mod'): string {
  const mod = path.join(tempDir('arch06-modsrc-'), name.replace(/ /g, ''));
  createMod(mod, name);
  writeTree(mod, { 'config/game.cfg': '; the mod copy\nDifficulty=Easy\n', 'scripts/quests/q_mod.scripts': '-- new\n' });
  return mod;
}

const read = (m: Mount, p: string): string => Buffer.from(m.entry(p).readSync()).toString();

test('as an archive through the separate list: the game files untouched, the mod first in `-archcfg` order, uninstall leaves the install as it was', async () => {
  const root = sampleInstall();
  const mod = makeMod();
  const before = snapshotTree(root);
  const plan = planInstall({ root, mod, as: 'archive' });
  assert.equal(plan.change.list, 'mods');
  assert.equal(plan.change.before, undefined, 'the separate list does not exist yet');
  assert.equal(plan.launchOption, '-archcfg arch06-mods.archcfg');
  assert.match(plan.change.diff, /^\+\.\.\\My_Mod\.arch06 ; arch06 mod: My Mod$/m);
  await applyInstall(plan);

  const defaultBytes = fs.readFileSync(path.join(root, 'x64', 'default.archcfg'));
  const mods = fs.readFileSync(path.join(root, 'x64', 'arch06-mods.archcfg'), 'latin1');
  assert.equal(mods, defaultBytes.toString('latin1') + '..\\My_Mod.arch06 ; arch06 mod: My Mod\n', 'the default list plus the mod line');
  assert.deepEqual(
    treeChanges(before, snapshotTree(root)).sort(),
    ['added My_Mod.arch06', 'added x64/arch06-mods.archcfg'],
    'only the archive and the separate list are new; no game file changed',
  );
  const m = Mount.open({ root, cfg: path.join(root, 'x64', 'arch06-mods.archcfg') });
  assert.equal(m.sources[0].name, 'My_Mod.arch06', 'the mod is consulted first');
  assert.match(read(m, 'config\\game.cfg'), /the mod copy/);
  m.close();
  const plain = Mount.open({ root });
  assert.ok(!plain.sources.some((s) => s.name === 'My_Mod.arch06'), 'the default list does not name it');
  assert.ok(plain.unlisted.includes('My_Mod.arch06'));
  plain.close();

  const un = planUninstall({ root, name: 'My Mod' });
  assert.equal(un.changes[0].after, undefined, 'the separate list goes: no mod is left in it');
  assert.equal(un.removeArchive, path.join(root, 'My_Mod.arch06'));
  applyUninstall(un);
  assert.deepEqual(treeChanges(before, snapshotTree(root)), [], 'the install is byte for byte as before');
  if (!cannotCountDescriptors) assert.equal(descriptorsUnder(fs.realpathSync(root)), 0, 'pack, install and uninstall let go of every folder they wrote in');
});

test('as a folder, in place in default.archcfg (CRLF, no final line break), above a named line: backup, diff, byte-for-byte restore', async () => {
  const root = sampleInstall((t) => t.replace(/\n/g, '\r\n').replace(/\r\n$/, ''));
  const mod = makeMod('Folder Mod');
  const cfgFile = path.join(root, 'x64', 'default.archcfg');
  const original = fs.readFileSync(cfgFile);
  const before = snapshotTree(root);
  const plan = planInstall({ root, mod, list: 'default', position: { kind: 'above', name: 'HotChunk' } });
  assert.equal(plan.as, 'folder');
  assert.equal(plan.archive, undefined);
  await applyInstall(plan);
  const after = fs.readFileSync(cfgFile, 'latin1');
  const lines = after.split('\r\n');
  const at = lines.findIndex((l) => l.includes('arch06 mod: Folder Mod'));
  assert.ok(at > 0);
  assert.equal(lines[at], `${mod} ; arch06 mod: Folder Mod`);
  assert.match(lines[at + 1], /HotChunk/, 'directly above the HotChunk line: HotChunk still wins');
  assert.ok(!after.includes('\n\n') && !/[^\r]\n/.test(after), 'the CRLF line ends kept');
  assert.deepEqual(fs.readFileSync(cfgFile + '.bak'), original, 'the backup is the list before');
  const m = Mount.open({ root });
  const names = m.sources.map((s) => s.name);
  assert.ok(names.indexOf('HotChunk.arch06') < names.indexOf(mod) && names.indexOf(mod) < names.indexOf('Patch_02.arch06'));
  assert.match(read(m, 'config\\game.cfg'), /the mod copy/, 'the mod folder wins over Patch_02');
  m.close();

  assert.throws(() => planInstall({ root, mod, list: 'default' }), /already installed/);
  applyUninstall(planUninstall({ root, name: 'Folder Mod', list: 'default' }));
  assert.deepEqual(fs.readFileSync(cfgFile), original);
  assert.deepEqual(treeChanges(before, snapshotTree(root)), [], 'the backup went too: it equalled the restored list');
  if (!cannotCountDescriptors) assert.equal(descriptorsUnder(fs.realpathSync(root)), 0, 'the list writes and removals let go of the folder');
});

test('a last line without a line break, and a list with a BOM: the mod line is added and taken out exactly', async () => {
  for (const edit of [(t: string) => t.replace(/\n$/, ''), (t: string) => '\xEF\xBB\xBF' + t]) {
    const root = sampleInstall(edit);
    const cfgFile = path.join(root, 'x64', 'default.archcfg');
    const original = fs.readFileSync(cfgFile);
    await applyInstall(planInstall({ root, mod: makeMod(), list: 'default' }));
    assert.match(fs.readFileSync(cfgFile, 'latin1'), /\nC?[^\n]*arch06 mod: My Mod$|arch06 mod: My Mod\n$/);
    const m = Mount.open({ root });
    assert.equal(m.sources[0].kind, 'directory', 'the bottom line: consulted first');
    m.close();
    applyUninstall(planUninstall({ root, name: 'my mod' }));
    assert.deepEqual(fs.readFileSync(cfgFile), original);
  }
});

test('a list the store client reset: the archive without its line is found, and installing it again only puts the line back', async () => {
  const root = sampleInstall();
  const cfgFile = path.join(root, 'x64', 'default.archcfg');
  const original = fs.readFileSync(cfgFile);
  await applyInstall(planInstall({ root, mod: makeMod(), as: 'archive', list: 'default' }));
  assert.deepEqual(findResets(root), []);
  fs.writeFileSync(cfgFile, original); // "verify files" puts the shipped list back
  const resets = findResets(root);
  assert.equal(resets.length, 1);
  assert.equal(path.basename(resets[0].archive), 'My_Mod.arch06');
  assert.equal(resets[0].manifest.name, 'My Mod');
  const report = await checkMods({ root });
  const reset = report.install.find((p) => p.code === 'LIST_RESET');
  assert.ok(reset, JSON.stringify(report.install));
  assert.equal(reset!.fix?.kind, 'reinstall');

  const again = planInstall({ root, mod: resets[0].archive, list: 'default' });
  assert.equal(again.archive, undefined, 'the archive stays as it is');
  await applyInstall(again);
  assert.deepEqual(findResets(root), []);
  applyUninstall(planUninstall({ root, name: 'My Mod' }));
  assert.deepEqual(fs.readFileSync(cfgFile), original);
  assert.ok(!fs.existsSync(path.join(root, 'My_Mod.arch06')));
});

test('an archive name the install already uses is refused: another archive, or a name the game list names', async () => {
  const root = sampleInstall();
  const mod = makeMod();
  fs.copyFileSync(path.join(root, 'Blade.arch06'), path.join(root, 'My_Mod.arch06'));
  assert.throws(() => planInstall({ root, mod, as: 'archive' }), /already holds My_Mod\.arch06, which is not this mod's archive/);
  const report = await checkMods({ root }, { mod });
  assert.ok(report.mods[0].problems.some((p) => p.code === 'ARCHIVE_NAME_TAKEN'));

  const mod2 = makeMod('Patch');
  const manifestFile = path.join(mod2, 'arch06-mod.json');
  fs.writeFileSync(manifestFile, fs.readFileSync(manifestFile, 'utf8').replace('Patch.arch06', 'Great_Hall.arch06'));
  assert.throws(() => planInstall({ root, mod: mod2, as: 'archive' }), /a name the game's list uses/);
});

test('installing a packed archive: copied beside the game archives, checked as an archive first; an earlier build of the same mod is replaced', async () => {
  const root = sampleInstall();
  const mod = makeMod();
  const built = await packMod(mod);
  await applyInstall(planInstall({ root, mod: built.archive }));
  assert.deepEqual(fs.readFileSync(path.join(root, 'My_Mod.arch06')), fs.readFileSync(built.archive));
  writeTree(mod, { 'config/extra.cfg': 'x=1\n' });
  const rebuilt = await packMod(mod);
  const plan = planInstall({ root, mod: rebuilt.archive });
  assert.ok(plan.archive?.replaces);
  assert.equal(plan.line, '', 'the line is there already');
  await applyInstall(plan);
  assert.deepEqual(fs.readFileSync(path.join(root, 'My_Mod.arch06')), fs.readFileSync(rebuilt.archive));
  const bad = path.join(tempDir(), 'Broken.arch06');
  fs.writeFileSync(bad, 'not an archive');
  assert.throws(
    () => planInstall({ root, mod: bad }),
    (e: Error & { code?: string }) => e.code === 'BAD_MAGIC' || e.code === 'TRUNCATED',
  );
});

test('an archive installed through the separate list is named by it; one dropped beside the game is not; a list that does not exist names nothing', async () => {
  const root = sampleInstall();
  const stray = path.join(root, 'Stray.arch06');
  fs.copyFileSync(path.join(root, 'Blade.arch06'), stray);
  assert.equal(namedByModsList(root, stray), false, 'no arch06-mods.archcfg yet');
  assert.equal(namedByModsList(root, path.join(root, 'Base.arch06')), false, 'default.archcfg is not the separate list');
  await applyInstall(planInstall({ root, mod: makeMod(), as: 'archive' }));
  assert.equal(namedByModsList(root, path.join(root, 'My_Mod.arch06')), true);
  assert.equal(namedByModsList(root, stray), false);
  // A line only default.archcfg gained since (an update of the game) is not the separate list's.
  const cfgFile = path.join(root, 'x64', 'default.archcfg');
  fs.appendFileSync(cfgFile, '..\\Stray.arch06\r\n');
  assert.equal(namedByModsList(root, stray), false, 'named by default.archcfg only');
  // The default list names the game's archives, the separate list copies it: those are named too.
  assert.equal(namedByModsList(root, path.join(root, 'Base.arch06')), true);
  // The mount of the default list does not know the mod's archive: it is among the unlisted.
  assert.ok(Mount.open({ root }).unlisted.some((n) => /^my_mod\.arch06$/i.test(n)));
});
