// The text views' logic (extension/views/textViewModel.ts) in plain node over the sample install
// (core/sample/sampleGame.ts): a script of the world layer shows its source exactly, decoded texts
// for the registry (served and embedded copies), manifest, container, string table and skeleton,
// other files as they are, and a file that does not decode says why instead of failing.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Mount } from '../../../core/archive';
import { LtarWriter } from '../../../core/formats/archive';
import {
  SAMPLE_LAYER,
  SAMPLE_LAYER_REGISTRY,
  SAMPLE_LAYER_SCRIPT,
  SAMPLE_LAYER_SOURCE,
  SAMPLE_SKELETON,
  SAMPLE_STRING_TABLES,
  sampleGame,
} from '../../../core/sample';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { mergedUriPath, sourceUriPath } from '../../../core/archive';
import { DECODED_LANGUAGE, SCRIPT_LANGUAGE, bundleCopyOf, copyOfQuery, copyQuery, loadTextView } from '../textViewModel';

const root = tempDir('arch06-text-view-');
for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
const broken = new LtarWriter();
broken.addBytes('worlds\\broken\\layer.objres', new TextEncoder().encode('not a registry at all'));
writeTree(root, { 'Broken.arch06': broken.toBytes() });
const mount = Mount.open({ root, extraArchives: [path.join(root, 'Broken.arch06')] });
const inBundle = (member: string): string => `${mergedUriPath(`${SAMPLE_LAYER}.bndl [bundle]`)}${mergedUriPath(member)}`;

test('the copy query', () => {
  assert.equal(copyQuery('served'), '');
  assert.equal(copyOfQuery(copyQuery('embedded')), 'embedded');
  assert.equal(copyOfQuery(''), 'served');
});

test('a SCRI script of the world layer (in the bundle folder): its source exactly, in Havok Script, the header beside it', async () => {
  const v = await loadTextView(mount, inBundle(SAMPLE_LAYER_SCRIPT));
  assert.equal(v.text, SAMPLE_LAYER_SOURCE);
  assert.equal(v.language, SCRIPT_LANGUAGE);
  assert.match(v.summary, /^SCRI v1 · u8 1 · [\d,]+ bytes · source \+ NUL · 4 definitions$/);
  assert.deepEqual(v.fields!.slice(0, 2), [
    { label: 'magic', value: 'SCRI' },
    { label: 'version', value: '1' },
  ]);
  // A script without the SCRI header opens the same way.
  const bare = await loadTextView(mount, mergedUriPath('scripts\\common\\startup.scripts'));
  assert.equal(bare.language, SCRIPT_LANGUAGE);
  assert.match(bare.text, /^-- Base copy/);
  assert.match(bare.summary, /^no SCRI header/);
});

test('the patched registry (served) and the copy its container embeds, both decoded, bindings checked against the layer script', async () => {
  const served = await loadTextView(mount, mergedUriPath(SAMPLE_LAYER_REGISTRY));
  assert.equal(served.language, DECODED_LANGUAGE);
  assert.equal(served.kind, 'registry');
  assert.match(served.summary, /served from Patch_02\.arch06/);
  // Line 2 says which copy it is (so a diff of two copies shows that as one changed line).
  assert.equal(served.text.split('\n')[1], '# served from Patch_02.arch06');
  assert.match(served.text, /^\[objects\] count=10 /m);
  assert.match(served.text, /^\[bindings\] rows=6 records=4 resolved=yes$/m);
  assert.match(served.text, /# bound names checked against .*fortgate\.scripts \(in .*fortgate\.embb \(Base\.arch06\)\)/);
  const embedded = await loadTextView(mount, mergedUriPath(SAMPLE_LAYER_REGISTRY), 'embedded');
  assert.match(embedded.text, /^\[objects\] count=9 /m);
  assert.match(embedded.text, /^# the container's copy, embedded in .*fortgate\.embb \(Base\.arch06\)$/m);
  assert.match(embedded.text, /^GateCon\.SO class=ScriptObject group=GateCon pos=\(-1250, 310\.5, 4075\)/m);
  assert.match(served.text, /^GateCon\.SO class=ScriptObject group=GateCon pos=\(-1050, 310\.5, 4075\)/m);
  // The same member in the bundle folder is the served copy (line 2 says where from, in the bundle's words).
  const member = (await loadTextView(mount, inBundle(SAMPLE_LAYER_REGISTRY))).text.split('\n');
  assert.equal(member[1], '# loose in Patch_02.arch06');
  assert.deepEqual(member.slice(2), served.text.split('\n').slice(2));
});

test('bundleCopyOf: the copy a bundle container embeds, served or shadowed by a loose one', () => {
  const e = bundleCopyOf(mount, SAMPLE_LAYER_REGISTRY)!;
  assert.deepEqual([e.container, e.source, e.served], [`${SAMPLE_LAYER}.embb`, 'Base.arch06', false], 'Patch_02 ships it loose');
  const s = bundleCopyOf(mount, SAMPLE_LAYER_SCRIPT)!;
  assert.equal(s.served, true, 'served from the container itself');
  assert.equal(bundleCopyOf(mount, SAMPLE_LAYER_SCRIPT, `${SAMPLE_LAYER}.bndl`)!.served, true, 'the bundle named');
  assert.equal(bundleCopyOf(mount, 'config\\game.cfg'), undefined);
});

test('manifest (served: with where each member comes from; one copy: the manifest alone), container, string table, skeleton', async () => {
  const merged = await loadTextView(mount, mergedUriPath(`${SAMPLE_LAYER}.bndl`));
  assert.match(merged.text, /^\[served\] container=1 loose=1 missing=0$/m);
  const copy = await loadTextView(mount, sourceUriPath('Base.arch06', `${SAMPLE_LAYER}.bndl`));
  assert.doesNotMatch(copy.text, /^\[served\]/m);
  assert.match(copy.summary, /bundle manifest \(BNDL\) .*the copy in Base\.arch06/);
  const container = await loadTextView(mount, mergedUriPath(`${SAMPLE_LAYER}.embb`));
  assert.match(container.text, /^\[members\] count=2$/m);
  const strings = await loadTextView(mount, mergedUriPath(SAMPLE_STRING_TABLES.frfr));
  assert.match(strings.text, /^0xB5B20864 text="Alerte à la porte\u00a0!"$/m);
  const skel = await loadTextView(mount, mergedUriPath(SAMPLE_SKELETON));
  assert.match(skel.text, /^Blade_Tip index=2 parent=Blade /m);
});

test('other files as they are; a file that does not decode says why', async () => {
  const cfg = await loadTextView(mount, mergedUriPath('config\\game.cfg'));
  assert.equal(cfg.language, undefined);
  assert.match(cfg.text, /Patch_02 copy/);
  const bad = await loadTextView(mount, mergedUriPath('worlds\\broken\\layer.objres'));
  assert.equal(bad.language, DECODED_LANGUAGE);
  assert.match(bad.text, /^# arch06: worlds\\broken\\layer\.objres \(served from Broken\.arch06\) does not decode as registry:/);
  assert.match(bad.text, /^# 000000 {2}6e 6f 74 20/m);
  await assert.rejects(loadTextView(mount, mergedUriPath('nowhere\\x.objres')), /not found/);
});

test('the path index (archivepatchloosefiles.txt, binary despite its name) opens as its decoded rows, not as bytes', async () => {
  // HotChunk's (three string-table paths) wins in the merged view; Patch_02's lists five (core/sample/sampleGame.ts).
  const v = await loadTextView(mount, mergedUriPath('archivepatchloosefiles.txt'));
  assert.equal(v.kind, 'pathIndex');
  assert.equal(v.language, DECODED_LANGUAGE);
  assert.match(v.text, /^\[index\] rows=3 problems=0$/m);
  assert.match(v.text, /^0x[0-9A-F]{8} path=database\\string\\enus\\string\.strdb$/m);
  assert.match(v.summary, /path index .*served from HotChunk\.arch06/);
  assert.doesNotMatch(v.text, /\u0000/, 'no raw bytes');
  const patch2 = await loadTextView(mount, sourceUriPath('Patch_02.arch06', 'archivepatchloosefiles.txt'));
  assert.match(patch2.text, /^\[index\] rows=5 problems=0$/m);
  assert.match(patch2.text, /^0x[0-9A-F]{8} path=config\\game\.cfg$/m);
});
