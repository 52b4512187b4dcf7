// The index cache: a second start reads the snapshot (same bindings, same problems, script texts
// read back from the mount on first use); a change to any archive gives another key and a rebuild;
// a snapshot that does not parse is rebuilt, never trusted. The cross-script facts are kept beside
// the index under the same key and read back equal to the pass that made them. A snapshot is a
// file like any other: one that is no regular file, over the cap or of the wrong shape is rebuilt,
// never read to its end or trusted.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Mount } from '../../core/archive';
import { SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { tempDir } from '../../test/support/fixtures';
import { mountSample } from '../../test/support/sampleMount';
import { CrossScriptIndex } from '../../core/scriptIndex';
import { MAX_SNAPSHOT_BYTES, cachedCross, cachedIndex, indexKey } from '../indexCache';

const ALARM = '_gatealarm_SR_Script1_0c1d2e3f';

test('index cache: built once, then read back with the same bindings; texts load on demand', () => {
  const cache = tempDir('arch06-index-cache-');
  const m = mountSample('arch06-index-cache-install-');
  try {
    const first = cachedIndex(m, cache);
    assert.equal(first.from, 'built');
    assert.equal(fs.readdirSync(cache).filter((f) => f.endsWith('.json')).length, 1);
    const second = cachedIndex(m, cache);
    assert.equal(second.from, 'cache');
    assert.deepEqual(second.index.boundBy(SAMPLE_LAYER_SCRIPT, ALARM), first.index.boundBy(SAMPLE_LAYER_SCRIPT, ALARM));
    assert.deepEqual(second.index.problems, first.index.problems);
    assert.deepEqual(
      second.index.scripts().map((s) => [s.path, s.from, [...s.definitions.keys()]]),
      first.index.scripts().map((s) => [s.path, s.from, [...s.definitions.keys()]]),
    );
    assert.equal(second.index.script(SAMPLE_LAYER_SCRIPT)!.text, SAMPLE_LAYER_SOURCE);
    assert.deepEqual(second.index.analysed(SAMPLE_LAYER_SCRIPT)!.chunk.diagnostics, []);
  } finally {
    m.close();
  }
});

test('index cache: any change to a mounted archive gives another key; a corrupt snapshot is rebuilt', () => {
  const cache = tempDir('arch06-index-cache-');
  const m = mountSample('arch06-index-cache-install-');
  const root = m.root;
  const key = indexKey(m);
  cachedIndex(m, cache);
  m.close();
  // Touch Patch_02 (same bytes, newer time): the key changes.
  const patch = path.join(root, 'Patch_02.arch06');
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(patch, later, later);
  const again = Mount.open({ root });
  try {
    assert.notEqual(indexKey(again), key);
    assert.equal(cachedIndex(again, cache).from, 'built');
    // Corrupt the snapshot of the current key: rebuilt, with a log line saying why.
    const file = fs.readdirSync(cache).find((f) => f.includes(indexKey(again).slice(0, 32)))!;
    fs.writeFileSync(path.join(cache, file), '{ not json');
    const lines: string[] = [];
    const r = cachedIndex(again, cache, {}, (l) => lines.push(l));
    assert.equal(r.from, 'built');
    assert.match(lines.join('\n'), /not used .*rebuilding/);
    assert.equal(cachedIndex(again, cache).from, 'cache');
  } finally {
    again.close();
  }
});

test('cross-script cache: the pass runs once per key; its facts read back equal', () => {
  const cache = tempDir('arch06-index-cache-');
  const m = mountSample('arch06-index-cache-install-');
  try {
    const { index, place } = cachedIndex(m, cache);
    let passes = 0;
    const build = (): CrossScriptIndex => {
      passes++;
      return CrossScriptIndex.build(index.scripts());
    };
    const first = cachedCross(place, build);
    const second = cachedCross(place, build);
    assert.deepEqual([first.from, second.from, passes], ['built', 'cache', 1]);
    assert.ok(fs.readdirSync(cache).some((f) => /^cross-[0-9a-f]{32}\.json$/.test(f)));
    const names = [...first.cross.usage.globals.keys()];
    assert.ok(names.includes('ScriptRelay') && names.length > 10, names.join(', '));
    for (const name of names) {
      assert.deepEqual(second.cross.globalSites(name), first.cross.globalSites(name), name);
      assert.deepEqual(second.cross.globalDefinitions(name), first.cross.globalDefinitions(name), name);
    }
    assert.deepEqual(second.cross.usage.ranked(), first.cross.usage.ranked());
    // Without a cache folder the pass runs every time.
    assert.equal(cachedCross(undefined, build).from, 'built');
    assert.equal(passes, 2);
  } finally {
    m.close();
  }
});

test('index cache: a snapshot that is a FIFO, a link to /dev/zero, over the cap or of the wrong shape is rebuilt, never read or trusted', (t) => {
  const cache = tempDir('arch06-index-cache-');
  const m = mountSample('arch06-index-cache-install-');
  try {
    const file = path.join(cache, `index-${indexKey(m).slice(0, 32)}.json`);
    assert.equal(cachedIndex(m, cache).from, 'built');
    const good = fs.readFileSync(file, 'utf8');
    const lies: [string, () => void, RegExp][] = [
      [
        'over the cap',
        () => {
          fs.writeFileSync(file, '');
          fs.truncateSync(file, MAX_SNAPSHOT_BYTES + 1);
        },
        /too large to read into memory/,
      ],
      [
        "a definition's kind of another kind",
        () => fs.writeFileSync(file, good.replace(/"kind":"function"/, '"kind":7')),
        /snapshot\.scripts\[\d+\]\.definitions\[\d+\]\.kind/,
      ],
      ['a binding naming a registry that is not there', () => fs.writeFileSync(file, good.replace(/"registry":0,/, '"registry":99,')), /registry 99/],
    ];
    if (fs.existsSync('/dev/zero')) lies.push(['a link to /dev/zero', () => fs.symlinkSync('/dev/zero', file), /not a regular file/]);
    if (spawnSync('mkfifo', [path.join(cache, 'probe')]).status === 0) {
      fs.rmSync(path.join(cache, 'probe'));
      lies.push(['a FIFO', () => spawnSync('mkfifo', [file]), /not a regular file/]);
    } else t.diagnostic('mkfifo is not available: the FIFO case is not run');
    for (const [what, lie, why] of lies) {
      fs.rmSync(file, { force: true });
      lie();
      const lines: string[] = [];
      const r = cachedIndex(m, cache, {}, (l) => lines.push(l));
      assert.equal(r.from, 'built', what);
      assert.match(lines.join('\n'), why, what);
      assert.match(lines.join('\n'), /not used .*rebuilding/, what);
      // The rebuilt snapshot replaced the lie and reads back.
      assert.ok(fs.lstatSync(file).isFile(), what);
      assert.equal(cachedIndex(m, cache).from, 'cache', what);
    }
  } finally {
    m.close();
  }
});
