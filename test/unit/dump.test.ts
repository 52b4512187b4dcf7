// `arch06 dump` as a user runs it: the JSON shapes on a synthetic install built with the writers
// (a world layer's bundle holding its registry and script, a patched standalone registry, a string
// table, a registry whose OBJL does not validate), and every real registry, manifest, container and
// script of ../shared/samples/real/Patch_00.arch06.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stringHash } from '../../core/hash';
import { LtarWriter } from '../../core/formats/archive';
import { writeBndl, writeEmbb } from '../../core/formats/bundle';
import { OBJL_RECORD, parseObjr, writeRegistry } from '../../core/formats/registry';
import { writeSkdb } from '../../core/formats/strings';
import { writeScri } from '../../core/formats/script';
import { cliJson, runCli } from '../support/cli';
import { sharedPath } from '../support/shared';
import { tempDir, writeTree } from '../support/fixtures';

const STEM = 'worlds\\retail\\sample\\sectionsandlayers\\gate';
const SCRIPT_PATH = `${STEM}.scripts`;
const SOURCE = [
  '-- IMPLEMENTATION',
  'local section_1 = {',
  '_gate_SR_Script1_2 = function (self, threadId, scriptId)',
  'end,',
  '_gate_SO_Script_3 = hmake _gate_SO_Script_1_meta {',
  '\tInit = function ( self )',
  '\tend',
  '},',
  '}',
  '_G.loadedresource = section_1',
].join('\n');

const layer = (extra: string[] = []) =>
  writeRegistry({
    scriptPath: SCRIPT_PATH,
    objects: [
      { className: 'WorldInitializer', name: 'WorldInitializer' },
      { className: 'ScriptObject', name: 'Gate_00.SO', group: 'Gate_00', propertyIndex: 1, position: [1, 2, 3] },
      { className: 'ScriptRelay', name: 'Gate_00.SR', group: 'Gate_00', propertyIndex: 2 },
      { className: 'ScriptRelay', name: 'Gate_01.SR', propertyIndex: 2 },
      ...extra.map((name) => ({ className: 'StartupCommand', name })),
    ],
    bindings: [
      { name: 'Gate_00.SO', bindings: [{ event: 'Script', function: '_gate_SO_Script_3' }] },
      { name: 'Gate_00.SR', bindings: [{ event: 'Script1', function: '_gate_SR_Script1_2' }] },
      { name: 'Gate_01.SR', bindings: [{ event: 'Script1', function: '_gate_SR_Script1_2' }] },
    ],
    groups: [{ owner: 'Gate_00.SO', members: ['Gate_00.SR'] }],
  });

/** Base: the layer's bundle (registry + script in the container). Patch_01: a standalone registry with one more object. */
function syntheticInstall(): string {
  const root = tempDir('arch06-dump-');
  const members = [
    { path: `${STEM}.objres`, bytes: layer() },
    { path: SCRIPT_PATH, bytes: writeScri(SOURCE) },
  ];
  const base = new LtarWriter();
  base.addBytes(
    `${STEM}.bndl`,
    writeBndl(
      'World',
      members.map((m) => ({ path: m.path, size: m.bytes.length })),
    ),
  );
  base.add(`${STEM}.embb`, { storage: 'chunked', bytes: writeEmbb(members), chunkSize: 1024 });
  base.addBytes(
    'strings\\english\\string.strdb',
    writeSkdb([
      { hash: stringHash('UI_1Sword_Starting_N'), text: 'Urfael' },
      { hash: stringHash('UI_Quit'), text: 'Quit\nnow' },
    ]),
  );
  base.addBytes('strings\\french\\string.strdb', writeScri('not a table'));
  base.addBytes('loose\\hello.hks', new TextEncoder().encode('function hello()\nend\n'));
  // A registry whose OBJL record layout does not validate (a name offset inside a string).
  const bad = layer();
  const reg = parseObjr(bad, 'x');
  new DataView(bad.buffer).setUint32(reg.objectList!.objects[1].offset + OBJL_RECORD.nameOffset, 1, true);
  base.addBytes('worlds\\retail\\sample\\broken.objres', bad);
  const patch = new LtarWriter();
  patch.addBytes(`${STEM}.objres`, layer(['Gate_00.SC']));
  writeTree(root, { 'x64/default.archcfg': '..\\Base.arch06\r\n..\\Patch_01.arch06\r\n', 'Base.arch06': base.toBytes(), 'Patch_01.arch06': patch.toBytes() });
  return root;
}

const root = syntheticInstall();

test('dump --json of a bundle: its members, each with declared size, where it is served from and the source', () => {
  const b = cliJson('dump', root, `${STEM}.bndl`);
  assert.deepEqual(
    b.members.map((m: any) => [m.path, m.servedFrom, m.source, m.declaredSize > 0]),
    [
      [`${STEM}.objres`, 'loose', 'Patch_01.arch06', true],
      [SCRIPT_PATH, 'container', 'Base.arch06', true],
    ],
  );
  // The container by its own path gives the same bundle.
  assert.deepEqual(cliJson('dump', root, `${STEM}.embb`).members, b.members);
});

test('dump --json of a string table: key count, hashes as 0x%08X, texts', () => {
  const t = cliJson('dump', root, 'strings\\english\\string.strdb');
  assert.equal(t.keys, 2);
  const byHash = Object.fromEntries(t.entries.map((e: any) => [e.hash, e.text]));
  assert.equal(byHash['0xDCDB4713'], 'Urfael');
  assert.equal(byHash['0x' + stringHash('UI_Quit').toString(16).toUpperCase().padStart(8, '0')], 'Quit\nnow');
  assert.ok(t.entries.every((e: any) => /^0x[0-9A-F]{8}$/.test(e.hash)));
});

test('dump --json of a registry: blocks, objects, one binding row per object and binding, groups, record layout', () => {
  // The patched standalone registry wins over the container's copy (seed 001: patched registries win).
  const r = cliJson('dump', root, `${STEM}.objres`);
  assert.equal(r.servedFrom, 'loose');
  assert.equal(r.source, 'Patch_01.arch06');
  assert.deepEqual(
    r.blocks.map((b: any) => b.tag),
    ['KEYF', 'SFXS', 'SWFX', 'ONLS', 'NLFE', null, 'SCRB', 'GADB', 'OBJL'],
  );
  for (const b of r.blocks) {
    assert.match(b.nameHash, /^0x[0-9A-F]{8}$/);
    assert.equal(typeof b.offset, 'number');
    assert.equal(typeof b.size, 'number');
  }
  assert.deepEqual(r.recordLayout, { validated: true, reason: null });
  assert.deepEqual(
    r.objects.map((o: any) => [o.set, o.name, o.class, o.group]),
    [
      ['0x3BDE767D', 'WorldInitializer', 'WorldInitializer', null],
      ['0x3BDE767D', 'Gate_00.SO', 'ScriptObject', 'Gate_00'],
      ['0x3BDE767D', 'Gate_00.SR', 'ScriptRelay', 'Gate_00'],
      ['0x3BDE767D', 'Gate_01.SR', 'ScriptRelay', null],
      ['0x3BDE767D', 'Gate_00.SC', 'StartupCommand', null],
    ],
  );
  const scriptHash = '0x' + stringHash(SCRIPT_PATH).toString(16).toUpperCase().padStart(8, '0');
  assert.deepEqual(r.bindings.map((b: any) => [b.object, b.class, b.event, b.function, b.scriptHash, b.script]).sort(), [
    ['Gate_00.SO', 'ScriptObject', 'Script', '_gate_SO_Script_3', scriptHash, SCRIPT_PATH],
    ['Gate_00.SR', 'ScriptRelay', 'Script1', '_gate_SR_Script1_2', scriptHash, SCRIPT_PATH],
    ['Gate_01.SR', 'ScriptRelay', 'Script1', '_gate_SR_Script1_2', scriptHash, SCRIPT_PATH],
  ]);
  assert.equal(r.bindingsResolved, true);
  assert.deepEqual(r.ownScript, { path: SCRIPT_PATH, servedFrom: 'container', source: 'Base.arch06', functions: 2 });
  assert.deepEqual(r.groups, [{ owner: 'Gate_00.SO', members: ['Gate_00.SR'], memberCount: 1 }]);
  // Inside the bundle folder: the same path, served as the bundle serves it (the loose copy wins there too).
  const inFolder = cliJson('dump', root, `${STEM}.bndl [bundle]\\${STEM}.objres`);
  assert.equal(inFolder.servedFrom, 'loose');
  assert.equal(inFolder.objects.length, 5);
  const text = runCli('dump', root, `${STEM}.objres`);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /bindings: 3 rows over 2 binding records, all resolved/);
  assert.match(text.stdout, /Gate_01\.SR \(ScriptRelay\) {2}Script1 -> _gate_SR_Script1_2/);
});

test('dump of a registry whose OBJL does not validate: exit 0, the names and raw records, with the reason', () => {
  const r = cliJson('dump', root, 'worlds\\retail\\sample\\broken.objres');
  assert.equal(r.recordLayout.validated, false);
  assert.match(r.recordLayout.reason, /record 1 .*object name offset 1 is not a string start/);
  assert.deepEqual(r.objects, []);
  assert.deepEqual(r.strings.names, ['WorldInitializer', 'Gate_00.SO', 'Gate_00.SR', 'Gate_01.SR']);
  assert.equal(r.rawRecords.length, 4);
  assert.ok(r.rawRecords.every((x: any) => x.bytes.length === 100));
  assert.equal(r.bindingsResolved, false);
  const text = runCli('dump', root, 'worlds\\retail\\sample\\broken.objres');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /record layout NOT validated/);
});

test('dump --json of a script: version, kind, functions with 1-based lines; a bare .hks too', () => {
  const s = cliJson('dump', root, SCRIPT_PATH);
  assert.equal(s.version, 1);
  assert.equal(s.kind, 'source');
  assert.deepEqual(
    s.functions.map((f: any) => [f.name, f.line]),
    [
      ['_gate_SR_Script1_2', 3],
      ['_gate_SO_Script_3', 5],
    ],
  );
  const h = cliJson('dump', root, 'loose\\hello.hks');
  assert.equal(h.version, null);
  assert.equal(h.hasHeader, false);
  assert.deepEqual(
    h.functions.map((f: any) => [f.name, f.line]),
    [['hello', 1]],
  );
});

test('dump: a path nowhere is exit 1, another extension and a wrong magic exit 2, names escaped in text', () => {
  const missing = runCli('dump', root, 'worlds\\nowhere.objres');
  assert.equal(missing.code, 1, missing.stderr);
  const other = runCli('dump', root, 'strings\\english\\string.txt');
  assert.equal(other.code, 2);
  assert.match(other.stderr, /dump reads bundles/);
  const wrong = runCli('dump', root, 'strings\\french\\string.strdb');
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /not an SKDB string table/);
  const notStrings = runCli('dump', root, `${STEM}.bndl [bundle]\\${SCRIPT_PATH.replace('.scripts', '.strdb')}`);
  assert.equal(notStrings.code, 1, 'a member the manifest does not declare');
  const text = runCli('dump', root, 'strings\\english\\string.strdb');
  assert.equal(text.code, 0);
  assert.match(text.stdout, /0xDCDB4713 {2}Urfael/);
  assert.match(text.stdout, /Quit\\x0Anow/);
});

// ---- the real layers ------------------------------------------------------------------

const patch = sharedPath('samples/real/Patch_00.arch06');
const ROWS: Record<string, number> = { island: 40, mtnpass: 17, snowmtn: 18, volcano: 19 };

test('dump of every real registry, manifest, container and script of Patch_00.arch06 exits 0', { skip: patch.skip }, () => {
  const real = tempDir('arch06-dump-real-');
  fs.mkdirSync(path.join(real, 'x64'));
  fs.writeFileSync(path.join(real, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(patch.path, path.join(real, 'Patch_00.arch06'));
  for (const [layerName, rows] of Object.entries(ROWS)) {
    const stem = `worlds\\retail\\${layerName}\\sectionsandlayers\\fortwallgameplay`;
    for (const ext of ['bndl', 'embb', 'objres', 'scripts']) {
      const t = runCli('dump', real, `${stem}.${ext}`);
      assert.equal(t.code, 0, `${layerName} .${ext}: ${t.stderr}`);
    }
    const b = cliJson('dump', real, `${stem}.bndl`);
    // The manifest declares ten members: the container's nine and a 0-byte .wldmsh no container stores (served empty).
    assert.equal(b.members.length, 10);
    assert.deepEqual(
      b.members.filter((m: any) => m.servedFrom !== 'container').map((m: any) => [m.path, m.declaredSize, m.servedFrom, m.source]),
      [[`${stem}.wldmsh`, 0, 'empty', null]],
    );
    assert.ok(b.members.every((m: any) => m.servedFrom === 'empty' || m.source === 'Patch_00.arch06'));
    const r = cliJson('dump', real, `${stem}.objres`);
    assert.equal(r.servedFrom, 'container');
    assert.equal(r.blocks.length, 12);
    assert.deepEqual(r.recordLayout, { validated: true, reason: null });
    assert.equal(r.bindings.length, rows, layerName);
    assert.ok(
      r.bindings.every((x: any) => x.class && x.function && x.script === `${stem}.scripts` && x.problems.length === 0),
      layerName,
    );
    assert.equal(r.bindingsResolved, true);
    const s = cliJson('dump', real, `${stem}.scripts`);
    assert.equal(s.kind, 'source');
    assert.ok(s.functions.length > 0);
    const f = runCli('dump', real, `${stem}.bndl [bundle]\\${stem}.objres`);
    assert.equal(f.code, 0, f.stderr);
  }
});
