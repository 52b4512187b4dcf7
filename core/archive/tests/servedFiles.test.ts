// The served-file walk (servedFiles.ts) on the sample install: a path only the layer's container
// holds is served from it; a standalone loose copy of that path replaces the embedded one (the
// patch rule) and is served once, its bytes the loose file's. The oracle is the bytes the test
// writes and the sample's own generators, not the walk.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Mount } from '../mount';
import { servedFiles } from '../servedFiles';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, sampleGame, sampleLayerRegistry } from '../../sample/sampleGame';
import { tempDir, writeTree } from '../../../test/support/fixtures';

function sampleMount(extra: Record<string, string | Uint8Array> = {}): Mount {
  const root = tempDir('arch06-served-files-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  writeTree(root, extra);
  return Mount.open({ root });
}

const isRegistry = (p: string): boolean => /\.objres$/i.test(p);
const key = (p: string): string => p.toLowerCase().replace(/\//g, '\\');

test('a registry only the container holds is served once, from the container, with the bytes the sample put in it', () => {
  // Base alone: the sample’s Patch_02 ships a standalone copy (the next test's rule).
  const m = sampleMount({ 'x64/default.archcfg': '..\\Base.arch06\n' });
  try {
    const served = servedFiles(m, isRegistry).filter((f) => key(f.path) === key(SAMPLE_LAYER_REGISTRY));
    assert.equal(served.length, 1);
    assert.deepEqual([served[0].from, served[0].source, served[0].bundle?.toLowerCase()], ['container', 'Base.arch06', `${SAMPLE_LAYER}.bndl`]);
    assert.ok(Buffer.from(served[0].read()).equals(Buffer.from(sampleLayerRegistry())));
  } finally {
    m.close();
  }
});

test('the sample’s Patch_02 standalone .objres replaces the embedded one: served once, loose, the patched bytes', () => {
  const m = sampleMount();
  try {
    const served = servedFiles(m, isRegistry).filter((f) => key(f.path) === key(SAMPLE_LAYER_REGISTRY));
    assert.deepEqual(
      served.map((f) => [f.from, f.source]),
      [['loose', 'Patch_02.arch06']],
    );
    assert.ok(Buffer.from(served[0].read()).equals(Buffer.from(sampleLayerRegistry(true))));
  } finally {
    m.close();
  }
});

test('a standalone loose .objres in a folder replaces the embedded one: served once, loose, its own bytes', () => {
  // The patched registry: a valid OBJR (the read checks the magic) with bytes other than the embedded one's.
  const loose = sampleLayerRegistry(true);
  assert.ok(!Buffer.from(loose).equals(Buffer.from(sampleLayerRegistry())));
  const m = sampleMount({
    'x64/default.archcfg': '..\\Game\n..\\Base.arch06\n',
    [`Game/${SAMPLE_LAYER_REGISTRY.replace(/\\/g, '/')}`]: loose,
  });
  try {
    const served = servedFiles(m, isRegistry).filter((f) => key(f.path) === key(SAMPLE_LAYER_REGISTRY));
    assert.deepEqual(
      served.map((f) => [f.from, f.source, f.size]),
      [['loose', 'Game', loose.length]],
    );
    assert.ok(Buffer.from(served[0].read()).equals(Buffer.from(loose)));
  } finally {
    m.close();
  }
});
