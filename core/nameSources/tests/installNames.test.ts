// The names of a mounted install (installNames.ts): on the sample install every mounted path and
// bundle member path, path-index rows, loose and embedded script literals and definitions,
// registry OBJL and SCRB names, skeleton names; the byte budget; what a caller already read; user
// files; and on the retail archive, every name its four layers' registries bind.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, readBundleMember, resolveBundle, toGamePath } from '../../archive';
import { LtarWriter, PATH_INDEX_NAME, parsePathIndex, writePathIndex } from '../../formats/archive';
import { parseObjr } from '../../formats/registry';
import { HashDictionary, stringHash } from '../../hash';
import { SAMPLE_BUNDLE, SAMPLE_LAYER_SCRIPT, SAMPLE_STRING_TABLES, SAMPLE_SWORD_BONES, SAMPLE_SWORD_GROUPS } from '../../sample';
import { mountSample } from '../../../test/support/sampleMount';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { addUserNames, collectInstallNames, dictionarySummary } from '..';

test('collectInstallNames: paths, member paths, path indexes, scripts, registries and skeletons of the sample install', async () => {
  const root = mountSample('arch06-names-').root;
  // An extra archive whose path index names a path no source holds (seed 004: retail indexes name 495 such paths).
  const extra = path.join(root, 'Extra.arch06');
  const w = new LtarWriter();
  w.addBytes(PATH_INDEX_NAME, writePathIndex(['sound\\only_in_the_index.bnk']));
  fs.writeFileSync(extra, w.toBytes());
  const mount = Mount.open({ root, extraArchives: [extra] });
  try {
    const dict = new HashDictionary();
    let pauses = 0;
    const report = await collectInstallNames(mount, dict, { pause: async () => void pauses++ });
    assert.equal(report.paths, mount.distinctPaths().length);
    assert.equal(report.truncated, undefined);
    assert.equal(report.failures, 0);
    // The served scripts, counted from the mount's listing and bundles here: every loose one, and
    // each bundle member served from its container (three loose, one in the layer's container).
    const paths = mount.distinctPaths();
    const loose = paths.filter((p) => p.toLowerCase().endsWith('.scripts'));
    const embedded = paths
      .filter((p) => p.toLowerCase().endsWith('.bndl'))
      .flatMap((b) => resolveBundle(mount, b).members.filter((m) => m.servedFrom === 'container' && m.path.toLowerCase().endsWith('.scripts')));
    assert.deepEqual([loose.length, embedded.length], [3, 1]);
    assert.equal(report.scripts, loose.length + embedded.length);
    assert.equal(report.registries, 1); // the patched standalone registry; the embedded one it replaces is not served
    assert.equal(report.skeletons, 1);
    // Every row of every archive's own path index (read here with the path-index reader) is named.
    const rows = new Set<string>();
    for (const source of mount.sources) {
      const ix = source.lookup(toGamePath(PATH_INDEX_NAME));
      if (!ix) continue;
      for (const row of parsePathIndex(ix.readSync(), PATH_INDEX_NAME).rows) {
        assert.equal(dict.name(stringHash(row.path))?.toLowerCase(), row.path.toLowerCase(), row.path);
        rows.add(row.path.toLowerCase());
      }
    }
    assert.equal(report.pathIndexRows, rows.size, 'one row per distinct path the indexes name');
    assert.ok(pauses > 0);
    // A mounted path, by its full game path; a path only an index names.
    assert.equal(dict.entry(stringHash(SAMPLE_STRING_TABLES.enus))?.origin, 'path');
    assert.equal(dict.entry(stringHash('sound\\only_in_the_index.bnk'))?.origin, 'path index');
    // Bundle members are named by path (the manifest declares them; the engine requests them by hash).
    const members = resolveBundle(mount, `${SAMPLE_BUNDLE}.bndl`).members;
    assert.ok(members.length > 0);
    for (const m of members) assert.equal(dict.name(stringHash(m.path))?.toLowerCase(), m.path.toLowerCase());
    assert.equal(dict.entry(stringHash(SAMPLE_LAYER_SCRIPT))?.origin, 'path');
    // Literals: a loose script's and the embedded layer script's (which names string-table keys).
    assert.equal(dict.entry(stringHash('hello from Base'))?.origin, 'script literal');
    assert.equal(dict.name(stringHash('UI_Sample_GateOpen')), 'UI_Sample_GateOpen');
    // Registry names: OBJL objects, SCRB events and functions.
    assert.equal(dict.entry(stringHash('GateAlarm_02.SR'))?.origin, 'object name');
    assert.equal(dict.entry(stringHash('Script1'))?.origin, 'binding name');
    // Skeleton names: every bone and part of the sword.
    for (const b of SAMPLE_SWORD_BONES) assert.equal(dict.entry(stringHash(b.name))?.origin, 'skeleton name', b.name);
    for (const g of SAMPLE_SWORD_GROUPS) assert.equal(dict.entry(stringHash(g))?.origin, 'skeleton name', g);
    assert.match(dictionarySummary(dict), /^\d+ names \(\d+ from paths, [1-9]\d* from path indexes, .* [1-9]\d* from skeletons, 0 from user files\)/);
  } finally {
    mount.close();
  }
});

test('collectInstallNames: the byte budget stops reading and says so; cancelling stops it too', async () => {
  const mount = mountSample('arch06-names-');
  try {
    const dict = new HashDictionary();
    const report = await collectInstallNames(mount, dict, { maxBytes: 64 });
    assert.match(report.truncated ?? '', /budget is spent/);
    assert.ok(report.bytesRead <= 64);
    assert.equal(report.paths, mount.distinctPaths().length); // paths cost no reads
    const cancelled = await collectInstallNames(mount, new HashDictionary(), { isCancelled: () => true });
    assert.equal(cancelled.truncated, 'cancelled');
    assert.equal(cancelled.scripts + cancelled.registries + cancelled.skeletons, 0);
  } finally {
    mount.close();
  }
});

test('collectInstallNames: scripts and registries a caller has read are not read again', async () => {
  const mount = mountSample('arch06-names-');
  try {
    const dict = new HashDictionary();
    const report = await collectInstallNames(mount, dict, {
      known: {
        scripts: () => [{ text: 'x = "KnownLiteral"', definitions: ['KnownFunction'] }],
        registries: () => ({ objects: ['KnownObject'], bindings: ['KnownEvent'] }),
      },
    });
    assert.equal(report.scripts + report.registries, 0);
    assert.equal(report.skeletons, 1);
    assert.equal(dict.entry(stringHash('KnownLiteral'))?.origin, 'script literal');
    assert.equal(dict.entry(stringHash('KnownFunction'))?.origin, 'script name');
    assert.equal(dict.entry(stringHash('KnownObject'))?.origin, 'object name');
    assert.equal(dict.entry(stringHash('KnownEvent'))?.origin, 'binding name');
    assert.equal(dict.entry(stringHash('hello from Base')), undefined);
  } finally {
    mount.close();
  }
});

test('collectInstallNames on the retail archive: the four layers, their scripts, and every name their registries bind', async (t) => {
  if (realPatch.skip) return t.skip(realPatch.skip);
  const mount = mountRealPatch();
  try {
    const dict = new HashDictionary();
    const report = await collectInstallNames(mount, dict);
    assert.equal(report.failures, 0);
    assert.equal(report.scripts, 4);
    assert.equal(report.registries, 4);
    for (const layer of REAL_LAYER_NAMES) {
      assert.equal(dict.entry(stringHash(`${realLayerStem(layer)}.scripts`))?.origin, 'path', layer);
      assert.equal(dict.entry(stringHash(`${realLayerStem(layer)}.objres`))?.origin, 'path', layer);
    }
    // Every name the four registries bind, read here with the registry reader: each SCRB event and
    // function, each OBJL object and class, named in the dictionary with the spelling's hash.
    let bound = 0;
    let objects = 0;
    for (const layer of REAL_LAYER_NAMES) {
      const objres = `${realLayerStem(layer)}.objres`;
      const reg = parseObjr(readBundleMember(mount, resolveBundle(mount, `${realLayerStem(layer)}.bndl`), objres), objres);
      const has = (name: string, what: string): void =>
        assert.equal(dict.name(stringHash(name))?.toLowerCase(), name.toLowerCase(), `${layer} ${what} ${name}`);
      for (const b of reg.bindings!.bindings) {
        has(b.event!, 'event');
        has(b.function!, 'function');
        bound += 2;
      }
      for (const o of reg.objectList!.objects) {
        has(o.name!, 'object');
        has(o.className!, 'class');
        objects++;
      }
    }
    assert.equal(bound, 2 * (25 + 5 + 10 + 10));
    assert.equal(objects, 788);
  } finally {
    mount.close();
  }
});

test('addUserNames: one name a line, counted when new', () => {
  const dict = new HashDictionary();
  assert.equal(addUserNames(dict, '# keys\nUI_1Sword_Starting_N\nui_1sword_starting_n\n\nbad:name\n'), 1);
  assert.equal(dict.entry(0xdcdb4713)?.origin, 'user file');
  assert.equal(dict.stats.unhashable, 1);
});
