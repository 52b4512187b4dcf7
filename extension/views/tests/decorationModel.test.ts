// The Explorer decorations' logic in plain node over the sample install (core/sample/sampleGame.ts:
// config\game.cfg ships in Base, Patch_01 and Patch_02, Patch_02 wins; scripts\common\startup.scripts
// in Base and the Game folder, Base wins; the orc bundle's members come from Base's container, a
// loose entry in Patch_02, or nowhere). decorations.ts only maps the result to a FileDecoration.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { BundleFolders, Mount } from '../../../core/archive';
import { LtarWriter } from '../../../core/formats/archive';
import { writeBndl, writeEmbb } from '../../../core/formats/bundle';
import { SAMPLE_BUNDLE, sampleGame } from '../../../core/sample';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { parseUriPath, sourceFolderNames, sourceUriPath } from '../../../core/archive';
import { decorationFor } from '../decorationModel';

const root = tempDir('arch06-decorations-');
for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
const mount = Mount.open({ root });
const bundles = new BundleFolders();
const at = (uriPath: string) => decorationFor(mount, bundles, parseUriPath(uriPath));

test('decorationModel loads in plain node; decorations.ts is the module that imports vscode', () => {
  // Read, not loaded (loading it would fail at require('vscode') and count as running it).
  assert.match(fs.readFileSync(require.resolve('../decorations'), 'utf8'), /require\("vscode"\)/);
});

test('merged view: a badge with the number of copies when a path ships in several sources, nothing otherwise', () => {
  assert.deepEqual(at('/config/game.cfg'), {
    badge: '3',
    tooltip: '3 copies: Patch_02.arch06 wins, shadowing Patch_01.arch06, Base.arch06',
    colour: 'warning',
  });
  assert.deepEqual(at('/Scripts/Common/Startup.scripts'), { badge: '2', tooltip: '2 copies: Base.arch06 wins, shadowing Game', colour: 'warning' });
  assert.equal(at('/config/input.cfg'), undefined, 'one copy');
  assert.equal(at('/config'), undefined, 'a folder');
  assert.equal(at('/'), undefined, 'the root');
  assert.equal(at('/no/such/file.txt'), undefined);
});

test("one source's view: W on the winning copy, S on a shadowed one, any case of the source name", () => {
  assert.deepEqual(at('/@sources/patch_02.ARCH06/config/game.cfg'), { badge: 'W', tooltip: 'Wins over 2 other copies' });
  assert.deepEqual(at('/@sources/Base.arch06/config/game.cfg'), {
    badge: 'S',
    tooltip: 'Shadowed: the game loads the copy in Patch_02.arch06',
    colour: 'disabled',
  });
  assert.deepEqual(at('/@sources/Base.arch06/scripts/common/startup.scripts'), { badge: 'W', tooltip: 'Wins over 1 other copy' });
  assert.deepEqual(at('/@sources/Game/scripts/common/startup.scripts'), {
    badge: 'S',
    tooltip: 'Shadowed: the game loads the copy in Base.arch06',
    colour: 'disabled',
  });
  assert.equal(at('/@sources/Base.arch06/config/input.cfg'), undefined);
  assert.equal(at('/@sources'), undefined);
});

test('the numbered @sources folders as the Explorer lists them (search order): the same badges as the bare names', () => {
  const folders = sourceFolderNames(mount.sources);
  const folderOf = (name: string) => folders[mount.sources.findIndex((s) => s.name === name)]!;
  assert.match(folderOf('Patch_02.arch06'), /^0\d Patch_02\.arch06$/);
  assert.deepEqual(at(sourceUriPath(folderOf('Patch_02.arch06'), 'config\\game.cfg')), { badge: 'W', tooltip: 'Wins over 2 other copies' });
  assert.deepEqual(at(sourceUriPath(folderOf('Base.arch06'), 'config\\game.cfg')), {
    badge: 'S',
    tooltip: 'Shadowed: the game loads the copy in Patch_02.arch06',
    colour: 'disabled',
  });
  assert.deepEqual(at(sourceUriPath(folderOf('Game'), 'scripts\\common\\startup.scripts'))?.badge, 'S');
  // A stale number (a remount renumbered the sources) still names the source by its name.
  assert.deepEqual(at('/@sources/99 Base.arch06/config/game.cfg')?.badge, 'S');
  assert.equal(at(sourceUriPath(folderOf('Base.arch06'))), undefined, 'the source folder itself');
});

test('bundle folders: C from the container, L loose, ! missing; a folder or an unknown bundle gets nothing', () => {
  const member = (name: string) => at(`/${SAMPLE_BUNDLE.replace(/\\/g, '/')}.bndl [bundle]/characters/orcs/orc_sample/${name}`);
  assert.deepEqual(member('body.txt'), { badge: 'C', tooltip: 'Served from the container bundles\\characters\\orc_sample.embb in Base.arch06' });
  const banner = member('banner.txt')!;
  assert.deepEqual([banner.badge, banner.colour], ['L', 'warning']);
  assert.match(banner.tooltip, /^Served from a loose entry in Patch_02\.arch06/);
  assert.deepEqual(member('voice.txt'), { badge: '!', tooltip: 'Declared by the manifest, but neither in the container nor shipped loose', colour: 'error' });
  assert.equal(at(`/${SAMPLE_BUNDLE.replace(/\\/g, '/')}.bndl [bundle]/characters`), undefined);
  assert.equal(at('/bundles/nothing.bndl [bundle]/a.txt'), undefined, 'an unresolvable bundle decorates nothing');
});

test("a member whose served copy differs in size from the manifest's declaration says so", () => {
  const r = tempDir('arch06-decorations-size-');
  const base = new LtarWriter();
  base.addBytes('b\\x.bndl', writeBndl('Presentation', [{ path: 'm\\a.txt', size: 1 }]));
  base.addBytes('b\\x.embb', writeEmbb([{ path: 'm\\a.txt', bytes: Buffer.from('A') }]));
  const patch = new LtarWriter();
  patch.addBytes('m\\a.txt', Buffer.from('longer'));
  writeTree(r, { 'x64/default.archcfg': '..\\Base.arch06\n..\\Patch.arch06\n', 'Base.arch06': base.toBytes(), 'Patch.arch06': patch.toBytes() });
  const m = Mount.open({ root: r });
  try {
    const d = decorationFor(m, new BundleFolders(), parseUriPath('/b/x.bndl [bundle]/m/a.txt'))!;
    assert.equal(d.badge, 'L');
    assert.match(d.tooltip, /^Served from a loose entry in Patch\.arch06 \(the manifest declares 1 bytes, the copy has 6\)/);
  } finally {
    m.close();
  }
});

test('a member declared with 0 bytes (as the retail layers declare their .wldmsh) is not flagged as missing', () => {
  const r = tempDir('arch06-decorations-empty-');
  const base = new LtarWriter();
  base.addBytes(
    'b\\x.bndl',
    writeBndl('', [
      { path: 'm\\a.txt', size: 1 },
      { path: 'm\\x.wldmsh', size: 0 },
    ]),
  );
  base.addBytes('b\\x.embb', writeEmbb([{ path: 'm\\a.txt', bytes: Buffer.from('A') }]));
  writeTree(r, { 'x64/default.archcfg': '..\\Base.arch06\n', 'Base.arch06': base.toBytes() });
  const m = Mount.open({ root: r });
  try {
    const d = decorationFor(m, new BundleFolders(), parseUriPath('/b/x.bndl [bundle]/m/x.wldmsh'))!;
    assert.equal(d.badge, '0');
    assert.equal(d.colour, undefined, 'no error colour');
    assert.match(d.tooltip, /Declared with 0 bytes/);
  } finally {
    m.close();
  }
});
