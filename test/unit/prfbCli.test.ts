// `arch06 mesh-file` on PRFB (.inst) and MESH (.wldmsh) files, as a user runs it: the bundled
// dist/cli.js (node scripts/build.mjs) against synthetic files written to a temp folder. No sample
// file of either format exists; the files come from core/formats/prefab/writer.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliJson, runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { samplePrefabInput, sampleWorldMeshInput, writePrfb, writeWorldMesh } from '../../core/formats/prefab';

const run = runCli;
const json = cliJson;

const dir = tempDir('arch06-prfb-');
const prefab = writePrfb(samplePrefabInput());
const noTables = writePrfb({ ...samplePrefabInput(), header: { 5: 1 } });
const world = writeWorldMesh(sampleWorldMeshInput());
const badMagic = prefab.bytes.slice();
badMagic[0] = 0x51;
writeTree(dir, {
  'keepwall_a.inst': prefab.bytes,
  'broken.inst': noTables.bytes,
  'prefab.bin': prefab.bytes,
  'lithlad.wldmsh': world.bytes,
  'short.wldmsh': world.bytes.subarray(0, 0x40),
  'notprfb.inst': badMagic,
});
const at = (name: string): string => path.join(dir, name);

test('mesh-file --json on a .inst: header words with labels, LOD groups and chains, located tables, LODs', () => {
  const j = json('mesh-file', at('keepwall_a.inst'));
  assert.equal(j.format, 'PRFB');
  assert.equal(j.version, 8);
  assert.equal(j.confidence, 'uncertain');
  assert.equal(j.hash, '0xCAFEF00D');
  assert.deepEqual(
    [4, 5, 6, 9].map((i) => j.header[i].label),
    ['draws', 'materials', 'child prefabs', 'vertex formats'],
  );
  assert.match(j.header[7].label, /not the unit count/);
  assert.equal(j.header[4].value, 6);
  assert.deepEqual(
    j.lods.groups.map((g: any) => g.tag),
    ['0xD238B9DD', '0x00003249'],
  );
  assert.deepEqual(j.lods.groups[0].chains[0].units, [1, 2, 3]);
  assert.equal(j.lods.records[3].next, -1);
  assert.equal(j.lods.records[3].raw[7], '0xBF800000');
  assert.equal(j.lods.nextReading, 'record index');
  assert.equal(j.tables.drawsOffset, prefab.layout.drawsOffset);
  assert.equal(j.tables.formats.framing, 'counted');
  assert.deepEqual(j.tables.materials.paths, samplePrefabInput().materials);
  assert.equal(j.buffers.vertexOffset, prefab.layout.vertexOffset);
  assert.equal(j.geometry.checkable, true);
  assert.deepEqual(
    j.model.lods.map((l: any) => l.triangles),
    [24, 12, 12],
  );
  assert.equal(j.modelReason, null);
  assert.ok(j.notes.some((n: string) => /draw table located by search/.test(n)));
  assert.ok(j.notes.some((n: string) => /UNCERTAIN/.test(n)));
});

test('mesh-file on a .inst prints the structure, the LODs and the notes', () => {
  const r = run('mesh-file', at('keepwall_a.inst'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^PRFB v8, \d+ bytes, hash 0xCAFEF00D; confidence uncertain/);
  assert.match(r.stdout, /\[4\] 0x10 = 6 \(0x00000006\): draws/);
  assert.match(r.stdout, /\[7\] 0x1c = 0 \(0x00000000\): unknown \(seed: not the unit count/);
  assert.match(r.stdout, /group 0xD238B9DD: 1 root\(s\), 3 unit\(s\)/);
  assert.match(r.stdout, /unit 3 at 0xbc: .*next -1 \(finest\), switch distance 8000/);
  assert.match(r.stdout, /LOD 0: 48 vertices, 24 triangles, 2 parts/);
  assert.match(r.stdout, /note: draw table located by search/);
});

test('mesh-file on a .inst whose tables fail the checks: the structure and why there is no model', () => {
  const j = json('mesh-file', at('broken.inst'));
  assert.equal(j.tables, null);
  assert.equal(j.model, null);
  assert.equal(j.modelReason, 'the draw table was not located');
  assert.equal(j.lods.records.length, 6);
  assert.equal(j.rest.offset, j.lods.end);
  assert.ok(j.notes.some((n: string) => /draw table not located: .*material < 1 \(header \[5\]\)/.test(n)));
  const t = run('mesh-file', at('broken.inst'));
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /tables \(vertex formats, draws, materials\): not located/);
  assert.match(t.stdout, /no model: the draw table was not located/);
  // Nothing to export.
  const g = run('mesh-file', at('broken.inst'), '--glb', path.join(dir, 'broken.glb'));
  assert.equal(g.code, 2);
  assert.match(g.stderr, /no model to export: the draw table was not located/);
  assert.ok(!fs.existsSync(path.join(dir, 'broken.glb')));
});

test('mesh-file --glb on a .inst writes LOD 0; a PRFB is recognised by its magic under any name', () => {
  const out = path.join(dir, 'keepwall.glb');
  const r = run('mesh-file', at('keepwall_a.inst'), '--glb', out);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(fs.readFileSync(out).subarray(0, 4).toString('latin1'), 'glTF');
  assert.match(r.stdout, /wrote .*keepwall\.glb/);
  assert.equal(json('mesh-file', at('prefab.bin')).format, 'PRFB');
});

test('mesh-file on a .wldmsh: buffers at 0x2C, tables, one LOD; typed errors exit 2', () => {
  const j = json('mesh-file', at('lithlad.wldmsh'));
  assert.equal(j.format, 'MESH');
  assert.equal(j.version, 5);
  assert.deepEqual(
    [3, 4, 9, 10].map((i) => j.header[i].label),
    ['draws', 'vertex formats', 'vertex bytes', 'index bytes'],
  );
  assert.equal(j.buffers.vertexOffset, 0x2c);
  assert.equal(j.tables.formats.offset, world.layout.formatsOffset);
  assert.equal(j.tables.materials, null);
  assert.equal(j.model.lods.length, 1);
  assert.match(j.model.lods[0].parts[2], /sky dome or vista card/);
  const t = run('mesh-file', at('lithlad.wldmsh'));
  assert.match(t.stdout, /^MESH v5/);
  assert.match(t.stdout, /vertex buffer at 0x2c/);

  const s = run('mesh-file', at('short.wldmsh'));
  assert.equal(s.code, 2);
  assert.match(s.stderr, /vertex buffer runs past the end of the file, field header\[9\]\.vertexBytes/);
  const m = run('mesh-file', at('notprfb.inst'));
  assert.equal(m.code, 2);
  assert.match(m.stderr, /not a PRFB prefab/);
});
