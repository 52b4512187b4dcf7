// The sample install's world layer and string tables (core/sample/sampleGame.ts): shaped as the
// game ships them, resolved through the mount as the engine does, deterministic.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Mount, locateBundleMember, resolveBundle } from '../../archive';
import { bindingRows, parseObjr, resolveRegistry } from '../../formats/registry';
import { parseScript } from '../../formats/script';
import { bindableNames, scriptDefinitions } from '../../havokScript';
import { parseSkdb } from '../../formats/strings';
import { stringHash } from '../../hash';
import {
  SAMPLE_LAYER,
  SAMPLE_LAYER_REGISTRY,
  SAMPLE_LAYER_SCRIPT,
  SAMPLE_LAYER_SOURCE,
  SAMPLE_STRINGS,
  SAMPLE_STRING_TABLES,
  sampleGame,
  sampleLayerRegistry,
  sampleLayerScript,
  sampleStringTable,
} from '..';
import { tempDir, writeTree } from '../../../test/support/fixtures';

function sampleMount(): Mount {
  const root = tempDir('arch06-sample-layer-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}

test('the sample install is deterministic', () => {
  const a = sampleGame();
  const b = sampleGame();
  assert.deepEqual(
    a.map((f) => f.path),
    b.map((f) => f.path),
  );
  for (let i = 0; i < a.length; i++) assert.ok(Buffer.from(a[i].bytes).equals(Buffer.from(b[i].bytes)), a[i].path);
});

test('the layer: a manifest and container in Base; the registry patched by a standalone copy in Patch_02', () => {
  const m = sampleMount();
  const b = resolveBundle(m, `${SAMPLE_LAYER}.bndl`);
  assert.equal(b.manifest.source, 'Base.arch06');
  assert.equal(b.container!.source, 'Base.arch06');
  assert.deepEqual(
    b.members.map((x) => [x.path, x.servedFrom, x.source]),
    [
      [SAMPLE_LAYER_REGISTRY, 'loose', 'Patch_02.arch06'],
      [SAMPLE_LAYER_SCRIPT, 'container', 'Base.arch06'],
    ],
  );
  // The container still holds the original registry (the one the patch replaces).
  const reg = b.members[0];
  assert.ok(reg.embedded);
  const container = m.entry(b.container!.path, b.container!.source);
  const embedded = container.readSync(reg.embedded!.offset, reg.embedded!.offset + reg.embedded!.size);
  assert.ok(Buffer.from(embedded).equals(Buffer.from(sampleLayerRegistry())));
  const served = locateBundleMember(m, b, SAMPLE_LAYER_REGISTRY);
  assert.ok(Buffer.from(served.entry.readSync(served.start, served.end)).equals(Buffer.from(sampleLayerRegistry(true))));
  m.close();
});

test("the layer's registry: scripted objects of the seed's classes, every binding resolved against the layer's own script", () => {
  const script = parseScript(sampleLayerScript(), SAMPLE_LAYER_SCRIPT);
  assert.equal(script.header?.version, 1);
  assert.equal(script.kind, 'source');
  assert.equal(script.source, SAMPLE_LAYER_SOURCE);
  const defs = scriptDefinitions(script.source!).filter((d) => d.bindable);
  assert.deepEqual(
    defs.map((d) => d.kind),
    ['function', 'hmake', 'function', 'function'],
  );
  const functions = bindableNames(defs);
  for (const patched of [false, true]) {
    const reg = parseObjr(sampleLayerRegistry(patched), SAMPLE_LAYER_REGISTRY);
    assert.equal(reg.objectList!.recordLayout.validated, true);
    const res = resolveRegistry(reg, { scriptPath: SAMPLE_LAYER_SCRIPT, functions });
    assert.equal(res.bindingsResolved, true, res.problems.join('; '));
    const classes = new Set([...bindingRows(res)].map((r) => r.class));
    for (const c of ['ScriptRelay', 'ScriptObject', 'QuestRelay', 'StartupCommand']) assert.ok(classes.has(c), c);
    assert.equal([...bindingRows(res)].length, patched ? 6 : 5);
    // Objects share binding runs, as on the real registries: the alarm relays share one record.
    assert.equal(reg.bindings!.bindings.length, 4);
  }
});

test('the string tables: two language folders in HotChunk, keys hashed from their names', () => {
  const m = sampleMount();
  for (const lang of ['enus', 'frfr'] as const) {
    const w = m.which(SAMPLE_STRING_TABLES[lang])!;
    assert.equal(w.winner.source.name, 'HotChunk.arch06');
    const t = parseSkdb(w.winner.readSync(0, w.winner.size), SAMPLE_STRING_TABLES[lang]);
    assert.ok(Buffer.from(w.winner.readSync(0, w.winner.size)).equals(Buffer.from(sampleStringTable(lang))));
    assert.equal(t.keyCount, Object.keys(SAMPLE_STRINGS[lang]).length);
    for (const [key, text] of Object.entries(SAMPLE_STRINGS[lang])) assert.equal(t.entries.find((e) => e.hash === stringHash(key))?.text, text);
  }
  m.close();
});
