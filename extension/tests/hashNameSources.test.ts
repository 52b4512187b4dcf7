// The hash names of a mounted install (hashNameSources.ts) on the sample install: every mounted
// path, the literals of loose scripts and of the world layer's script inside its bundle container,
// the OBJL names of the registries; the byte budget; user files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Mount } from '../../core/archive';
import { HashDictionary, stringHash } from '../../core/hash';
import { SAMPLE_LAYER_SCRIPT, SAMPLE_STRING_TABLES, sampleGame } from '../../core/sample';
import { tempDir, writeTree } from '../../test/support/fixtures';
import { addUserNames, collectMountNames, dictionarySummary } from '../hashNameSources';

function sampleMount(): Mount {
  const root = tempDir('arch06-hash-names-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}

test('collectMountNames: paths, loose and embedded script literals, registry object names', async () => {
  const mount = sampleMount();
  try {
    const dict = new HashDictionary();
    let pauses = 0;
    const report = await collectMountNames(mount, dict, { pause: async () => void pauses++ });
    assert.equal(report.paths, mount.distinctPaths().length);
    assert.equal(report.truncated, undefined);
    assert.equal(report.failures, 0);
    assert.ok(report.scripts >= 4, `${report.scripts} scripts`); // three loose, one in the layer's container
    assert.ok(report.registries >= 2, `${report.registries} registries`); // the patched standalone one and the embedded one
    assert.ok(report.containers >= 2);
    assert.ok(pauses > 0);
    // A mounted path, by its full game path.
    assert.equal(dict.entry(stringHash(SAMPLE_STRING_TABLES.enus))?.origin, 'path');
    // Literals: a loose script's and the embedded layer script's (which names string-table keys).
    assert.equal(dict.entry(stringHash('hello from Base'))?.origin, 'script literal');
    assert.equal(dict.name(stringHash('UI_Sample_GateOpen')), 'UI_Sample_GateOpen');
    assert.equal(dict.name(stringHash('UI_Sample_GateAlarm')), 'UI_Sample_GateAlarm');
    assert.equal(dict.name(stringHash('GateRelay')), 'GateRelay');
    // An embedded member path is not a mounted path: only what the mount lists is.
    assert.equal(dict.entry(stringHash(SAMPLE_LAYER_SCRIPT)), undefined);
    assert.ok(dict.stats.byOrigin['object name'] > 0);
    assert.match(dictionarySummary(dict), /^\d+ names \(\d+ from paths, \d+ from script literals, \d+ from object names, 0 from user files\)/);
  } finally {
    mount.close();
  }
});

test('collectMountNames: the byte budget stops reading and says so', async () => {
  const mount = sampleMount();
  try {
    const dict = new HashDictionary();
    const report = await collectMountNames(mount, dict, { maxBytes: 64 });
    assert.match(report.truncated ?? '', /budget is spent/);
    assert.ok(report.bytesRead <= 64);
    assert.equal(report.paths, mount.distinctPaths().length); // paths cost no reads
    // Under the container cap, world parts' containers come first (their scripts name keys).
    const cappedDict = new HashDictionary();
    const capped = await collectMountNames(mount, cappedDict, { maxContainers: 1 });
    assert.match(capped.truncated ?? '', /walked 1 of \d+ bundle containers/);
    assert.equal(cappedDict.name(stringHash('UI_Sample_GateOpen')), 'UI_Sample_GateOpen');
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
