// One resolution of an address for every front end (address.ts): a mount path, a bundle folder's
// member, and a world part's file that only its bundle's container holds (the served-part rule),
// on the sample install (its layer: the script only in Base's container, the registry loose in
// Patch_02 above the container's copy). The oracle cuts members out of the container with the
// EMBB reader.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { parseEmbb } from '../../formats/bundle/embb';
import { collectAddress, declaredMember, locateAddress, locateUri, partBundlePath, uriFileEntry } from '../address';
import { BundleFolders } from '../bundleFolders';
import { memberUriPath, mergedUriPath, sourceFolderName, sourceUriPath } from '../viewPaths';
import { Mount } from '../mount';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, sampleGame } from '../../sample/sampleGame';
import { tempDir, writeTree } from '../../../test/support/fixtures';

function sampleMount(): Mount {
  const root = tempDir('arch06-address-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}

const folderOf = (path: string): string => `${SAMPLE_LAYER}.bndl [bundle]\\${path}`;
const isCode = (code: string) => (e: unknown) => e instanceof Arch06Error && e.code === code;

test('partBundlePath: a world part file names the manifest of its own stem', () => {
  assert.equal(partBundlePath(SAMPLE_LAYER_SCRIPT), `${SAMPLE_LAYER}.bndl`);
  assert.equal(partBundlePath('a/b/x.objres'), 'a\\b\\x.bndl');
});

test('locateAddress: a part file only the container holds is read from it, by its path or through its bundle folder', () => {
  const m = sampleMount();
  try {
    const embb = m.entry(`${SAMPLE_LAYER}.embb`).readSync();
    const member = parseEmbb(embb, 'fortgate.embb').members.find((x) => x.path.toLowerCase() === SAMPLE_LAYER_SCRIPT.toLowerCase())!;
    const expected = Buffer.from(embb.subarray(member.offset, member.offset + member.size));
    assert.equal(m.winner(SAMPLE_LAYER_SCRIPT), undefined, 'no source holds the script loose');
    for (const address of [SAMPLE_LAYER_SCRIPT, folderOf(SAMPLE_LAYER_SCRIPT), SAMPLE_LAYER_SCRIPT.toUpperCase().replace(/\\/g, '/')]) {
      const at = locateAddress(m, address);
      assert.equal(at.servedFrom, 'container', address);
      assert.equal(at.entry.source.name, 'Base.arch06');
      assert.equal(at.bundle?.manifest.path.toLowerCase(), `${SAMPLE_LAYER}.bndl`);
      assert.ok(Buffer.from(at.entry.readSync()).equals(expected), `${address}: the container's bytes`);
      assert.ok(Buffer.from(at.entry.readSync(13, 40)).equals(expected.subarray(13, 40)), 'a range of the member');
    }
    // The registry: loose in Patch_02 wins over the container's copy, whichever way it is named.
    for (const address of [SAMPLE_LAYER_REGISTRY, folderOf(SAMPLE_LAYER_REGISTRY)]) {
      const at = locateAddress(m, address);
      assert.deepEqual([at.servedFrom, at.entry.source.name], ['loose', 'Patch_02.arch06'], address);
    }
    assert.equal(locateAddress(m, SAMPLE_LAYER_REGISTRY, { source: 'Patch_02.arch06' }).entry.source.name, 'Patch_02.arch06');
    assert.equal(declaredMember(locateAddress(m, SAMPLE_LAYER_SCRIPT).bundle!, SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/'))?.servedFrom, 'container');
    // Nothing serves these: NOT_FOUND; a bundle folder itself is no file.
    assert.throws(() => locateAddress(m, `${SAMPLE_LAYER}.nothing`), isCode('NOT_FOUND'));
    assert.throws(() => locateAddress(m, folderOf(`${SAMPLE_LAYER}.nothing`)), isCode('NOT_FOUND'));
    assert.throws(() => locateAddress(m, SAMPLE_LAYER_SCRIPT, { source: 'Base.arch06' }), isCode('NOT_FOUND'));
    assert.throws(() => locateAddress(m, `${SAMPLE_LAYER}.bndl [bundle]`), isCode('BAD_ARGUMENT'));
  } finally {
    m.close();
  }
});

test('collectAddress: a bundle folder, a member, a part file served from its container, a mount folder', () => {
  const m = sampleMount();
  try {
    const paths = (xs: { path: string }[]): string[] => xs.map((x) => x.path.toLowerCase()).sort();
    assert.deepEqual(
      paths(collectAddress(m, `${SAMPLE_LAYER}.bndl [bundle]`)),
      [SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT].map((p) => p.toLowerCase()).sort(),
    );
    assert.deepEqual(paths(collectAddress(m, folderOf(SAMPLE_LAYER_SCRIPT))), [SAMPLE_LAYER_SCRIPT.toLowerCase()]);
    const served = collectAddress(m, SAMPLE_LAYER_SCRIPT);
    assert.deepEqual([served.length, served[0].source.name], [1, 'Base.arch06']);
    assert.ok(collectAddress(m, 'config').length >= 1);
    assert.throws(() => collectAddress(m, 'no\\such\\thing'), isCode('NOT_FOUND'));
  } finally {
    m.close();
  }
});

test("locateUri: the one URI → entry rule (the file system and every editor): merged winner, one source's copy, a bundle member, folders and nothing", () => {
  const m = sampleMount();
  try {
    const bundles = new BundleFolders();
    // The merged view: the winning copy (Patch_02's loose registry), never the stem's container.
    const merged = locateUri(m, mergedUriPath(SAMPLE_LAYER_REGISTRY.toUpperCase()), bundles);
    assert.equal(merged?.view, 'merged');
    assert.equal(merged.entry.source.name, 'Patch_02.arch06');
    assert.equal(merged.entry.identity, m.winner(SAMPLE_LAYER_REGISTRY)?.identity);
    assert.equal(locateUri(m, mergedUriPath(SAMPLE_LAYER_SCRIPT), bundles), undefined, 'only the container holds the script: no merged file');
    // One source's copy, under its numbered @sources folder: Patch_02 ships the registry loose, Base only in its container.
    const folder = (name: string): string => sourceFolderName(m.sources.findIndex((x) => x.name === name) + 1, m.sources.length, name);
    const own = locateUri(m, sourceUriPath(folder('Patch_02.arch06'), SAMPLE_LAYER_REGISTRY), bundles);
    assert.equal(own?.view, 'source');
    assert.deepEqual([own.holder.name, own.entry.identity], ['Patch_02.arch06', m.entry(SAMPLE_LAYER_REGISTRY, 'Patch_02.arch06').identity]);
    assert.equal(locateUri(m, sourceUriPath(folder('Base.arch06'), SAMPLE_LAYER_REGISTRY), bundles), undefined);
    // A bundle member: the declared member, served from the container (its bytes are the EMBB's slice).
    const member = locateUri(m, memberUriPath(`${SAMPLE_LAYER}.bndl`, SAMPLE_LAYER_SCRIPT), bundles);
    assert.equal(member?.view, 'bundle');
    assert.equal(member.declared.servedFrom, 'container');
    assert.equal(member.path, member.member);
    const embb = m.entry(`${SAMPLE_LAYER}.embb`).readSync();
    const slot = parseEmbb(embb, 'fortgate.embb').members.find((x) => x.path.toLowerCase() === SAMPLE_LAYER_SCRIPT.toLowerCase())!;
    assert.ok(Buffer.from(uriFileEntry(member).readSync()).equals(Buffer.from(embb.subarray(slot.offset, slot.offset + slot.size))));
    // Folders and nothing: undefined; an unknown source or a path no game path can be: typed errors.
    for (const p of ['/', '/@sources', mergedUriPath('config'), memberUriPath(`${SAMPLE_LAYER}.bndl`, ''), mergedUriPath('no\\such.file')])
      assert.equal(locateUri(m, p, bundles), undefined, p);
    assert.throws(() => locateUri(m, sourceUriPath('99 Nowhere.arch06', 'a.txt'), bundles), isCode('NOT_FOUND'));
    assert.throws(() => locateUri(m, '/a/../b', bundles), isCode('BAD_ARGUMENT'));
    assert.throws(() => locateUri(m, memberUriPath('no\\such.bndl', 'x'), bundles), isCode('NOT_FOUND'));
  } finally {
    m.close();
  }
});
