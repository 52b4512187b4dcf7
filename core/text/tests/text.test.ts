// The decoded-text renderers (core/text): the syntax reads back; the sample's world layer, its
// patched registry, string tables, bundle and skeleton render to texts whose records equal what
// the readers decode; the patched registry's text differs from the container copy's exactly by
// the patch; scripts keep their source byte for byte; the real layers of Patch_00.arch06 render.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../../archive/mount';
import { readBundleMember, resolveBundle } from '../../archive/bundles';
import { OBJL_RECORD, bindingRows, ownScriptPath, parseObjr, resolveRegistry } from '../../formats/registry';
import { parseScript, writeScri } from '../../formats/script';
import { bindableNames, scriptDefinitions } from '../../havokScript';
import { parseEmbb } from '../../formats/bundle';
import { formatHash, stringHash } from '../../hash';
import {
  SAMPLE_LAYER,
  SAMPLE_LAYER_REGISTRY,
  SAMPLE_LAYER_SCRIPT,
  SAMPLE_LAYER_SOURCE,
  SAMPLE_STRINGS,
  SAMPLE_SWORD_BONES,
  sampleGame,
  sampleLayerRegistry,
  sampleLayerScript,
  sampleStringTable,
  sampleSwordSkeleton,
} from '../../sample';
import { renderText, textKindOf } from '..';
import { renderContainer, renderManifest } from '../bundleText';
import { renderRegistry } from '../registryText';
import { renderScript } from '../scriptText';
import { List, TextDoc, readDecodedText, readList, value } from '../syntax';
import type { TextSection } from '../syntax';
import { sharedPath } from '../../../test/support/shared';
import { tempDir, writeTree } from '../../../test/support/fixtures';

const section = (secs: TextSection[], name: string): TextSection => {
  const s = secs.find((x) => x.name === name);
  assert.ok(s, `section [${name}]`);
  return s;
};
const vec = (s: string | null): number[] =>
  s!
    .replace(/^\(|\)$/g, '')
    .split(', ')
    .map(Number);
const functions = bindableNames(scriptDefinitions(SAMPLE_LAYER_SOURCE));

test('the syntax: values bare or quoted, lists and vectors, and it reads back', () => {
  assert.equal(value('GateCon.SC'), 'GateCon.SC');
  assert.equal(value('worlds\\a b.objres'), '"worlds\\\\a b.objres"');
  assert.equal(value('-'), '"-"');
  assert.equal(value(null), '-');
  assert.equal(value('@0x10'), '"@0x10"');
  assert.equal(value('k=v'), '"k=v"');
  assert.equal(value(true), 'yes');
  assert.equal(value(-0), '0');
  assert.equal(value([1.5, -2, 3]), '(1.5, -2, 3)');
  assert.equal(value(new List(['a', 'b c', null, 'd,e'])), '[a, "b c", -, "d,e"]');
  const d = new TextDoc()
    .comment('a comment\nwith a newline')
    .section('s', [
      ['n', 2],
      ['why', 'two words'],
    ])
    .field('name', 'x y = z')
    .field('none', null)
    .record('first', [
      ['pos', [1, 2, 3]],
      ['text', 'line 1\nline "2"'],
      ['list', new List(['a', 'b c'])],
      ['none', null],
      ['skipped', undefined],
    ])
    .record(null)
    .hex(new Uint8Array([0x41, 0, 0xff]), 0x20);
  const text = d.toString();
  assert.equal(text.split('\n')[0], '# a comment\\nwith a newline');
  const [s] = readDecodedText(text);
  assert.deepEqual(s.summary, { n: '2', why: 'two words' });
  assert.deepEqual(s.fields, { name: 'x y = z', none: null });
  assert.deepEqual(s.records[0].attrs, { pos: '(1, 2, 3)', text: 'line 1\nline "2"', list: '[a, "b c"]', none: null });
  assert.equal(s.records[0].id, 'first');
  assert.deepEqual(readList(s.records[0].attrs.list!), ['a', 'b c']);
  assert.equal(s.records[1].id, null);
  assert.equal(s.hex.length, 1);
  assert.match(s.hex[0], /^@0x000020 {2}41 00 FF {41}\|A\.\.\|$/);
});

test('textKindOf: which files have a decoded text', () => {
  assert.equal(textKindOf('a\\b.OBJRES'), 'registry');
  assert.equal(textKindOf('x.bndl'), 'manifest');
  assert.equal(textKindOf('x.embb'), 'container');
  assert.equal(textKindOf('x.strdb'), 'strings');
  assert.equal(textKindOf('x.skel'), 'skeleton');
  assert.equal(textKindOf('x.scripts'), 'script');
  assert.equal(textKindOf('x.hks'), 'script');
  assert.equal(textKindOf('x.txt'), undefined);
  assert.equal(textKindOf('noext'), undefined);
  // The path index is binary despite its .txt: by its whole name, any case, any folder.
  assert.equal(textKindOf('archivepatchloosefiles.txt'), 'pathIndex');
  assert.equal(textKindOf('a/b\\ArchivePatchLooseFiles.TXT'), 'pathIndex');
  assert.equal(textKindOf('xarchivepatchloosefiles.txt'), undefined);
});

const realIndex = sharedPath('samples/real/archivepatchloosefiles.txt');

test('the real path index (archivepatchloosefiles.txt): one record per row, hash and path, in file order, no problem', { skip: realIndex.skip }, () => {
  const bytes = new Uint8Array(fs.readFileSync(realIndex.path));
  // By hand (../shared/samples/real/README.md: 243 rows; seed 004: u32 1 | u32 string bytes | strings | u32 count | {hash, offset}).
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stringBytes = dv.getUint32(4, true);
  const count = dv.getUint32(8 + stringBytes, true);
  assert.equal(count, 243);
  const rows = [...Array(count)].map((_, i) => {
    const at = 12 + stringBytes + 8 * i;
    const off = 8 + dv.getUint32(at + 4, true);
    return { hash: dv.getUint32(at, true), path: Buffer.from(bytes.subarray(off, bytes.indexOf(0, off))).toString('latin1') };
  });
  const r = renderText('pathIndex', bytes, 'archivepatchloosefiles.txt');
  assert.equal(r.language, 'decoded');
  const doc = readDecodedText(r.text);
  assert.deepEqual(section(doc, 'index').summary, { rows: '243', problems: '0' });
  assert.deepEqual(
    section(doc, 'index').records.map((x) => [x.id, x.attrs.path]),
    rows.map((x) => [formatHash(x.hash), x.path]),
  );
  assert.equal(
    doc.find((s) => s.name === 'problems'),
    undefined,
  );
});

test("round trip on the sample's world layer: the registry text's records are the decoded objects, bindings and groups", () => {
  for (const patched of [false, true]) {
    const bytes = sampleLayerRegistry(patched);
    const text = renderRegistry(bytes, SAMPLE_LAYER_REGISTRY, { functions });
    assert.equal(renderRegistry(bytes, SAMPLE_LAYER_REGISTRY, { functions }), text, 'stable');
    const reg = parseObjr(bytes, SAMPLE_LAYER_REGISTRY);
    const res = resolveRegistry(reg, { scriptPath: SAMPLE_LAYER_SCRIPT, functions });
    const secs = readDecodedText(text);
    assert.deepEqual(section(secs, 'registry').fields, {
      version: '13',
      hash: '0x5A3C9E21',
      size: String(bytes.length),
      blocks: '9',
      confidence: 'confirmed',
    });
    assert.deepEqual(
      section(secs, 'blocks').records.map((r) => [r.attrs.tag, r.attrs.hash, r.attrs.name]),
      reg.blocks.map((b) => [b.tag, formatHash(b.nameHash), b.name ?? null]),
    );
    const objects = section(secs, 'objects');
    assert.equal(objects.summary.layout, 'validated');
    assert.deepEqual(
      objects.records.map((r) => ({
        name: r.id,
        className: r.attrs.class,
        group: r.attrs.group,
        position: vec(r.attrs.pos),
        rotation: vec(r.attrs.rot),
        templateId: parseInt(r.attrs.template!, 16),
        propertyIndex: Number(r.attrs.props),
      })),
      reg.objectList!.objects.map((o) => ({
        name: o.name,
        className: o.className,
        group: o.group,
        position: o.position,
        rotation: o.rotation,
        templateId: o.templateId,
        propertyIndex: o.propertyIndex,
      })),
    );
    const bindings = section(secs, 'bindings');
    assert.deepEqual(bindings.summary, { rows: String([...bindingRows(res)].length), records: '4', resolved: 'yes' });
    assert.equal(bindings.fields.script, SAMPLE_LAYER_SCRIPT);
    assert.equal(bindings.fields['script.hash'], formatHash(stringHash(SAMPLE_LAYER_SCRIPT)));
    assert.deepEqual(
      bindings.records.map((r) => [r.id, r.attrs.class, r.attrs.event, r.attrs.function, r.attrs.found]),
      [...bindingRows(res)].map((b) => [b.object, b.class, b.event, b.function, 'yes']),
    );
    assert.deepEqual(
      section(secs, 'groups').records.map((r) => [r.id, readList(r.attrs.members!)]),
      res.groups.map((g) => [g.owner, g.members]),
    );
    // Every block no reader decodes is there as hex.
    for (const b of reg.blocks.filter((x) => !x.decoded)) assert.equal(section(secs, `raw.${b.index}`).hex.length, Math.ceil(b.size / 16));
  }
});

test("the patched registry's text differs from the container copy's exactly by the patch", () => {
  const a = readDecodedText(renderRegistry(sampleLayerRegistry(false), SAMPLE_LAYER_REGISTRY, { functions }));
  const b = readDecodedText(renderRegistry(sampleLayerRegistry(true), SAMPLE_LAYER_REGISTRY, { functions }));
  const diff = (name: string, key: (r: TextSection['records'][number]) => string = (r) => r.id!) => {
    const before = new Map(section(a, name).records.map((r) => [key(r), JSON.stringify(r.attrs)]));
    const after = new Map(section(b, name).records.map((r) => [key(r), JSON.stringify(r.attrs)]));
    return {
      added: [...after.keys()].filter((k) => !before.has(k)),
      removed: [...before.keys()].filter((k) => !after.has(k)),
      changed: [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k)),
    };
  };
  assert.deepEqual(diff('objects'), { added: ['GateAlarm_02.SR'], removed: [], changed: ['GateCon.SO'] });
  const moved = (secs: TextSection[]) => section(secs, 'objects').records.find((r) => r.id === 'GateCon.SO')!.attrs.pos;
  assert.deepEqual([moved(a), moved(b)], ['(-1250, 310.5, 4075)', '(-1050, 310.5, 4075)']);
  assert.deepEqual(diff('bindings'), { added: ['GateAlarm_02.SR'], removed: [], changed: [] });
  assert.deepEqual(diff('groups'), { added: [], removed: [], changed: ['GateGuards'] });
  // The binding records are shared: the new relay reuses the alarm's run, so none is added (only their offsets move).
  const records = (secs: TextSection[]) => section(secs, 'bindings.records').records.map((r) => [r.id, r.attrs.event, r.attrs.function, r.attrs.script]);
  assert.deepEqual(records(b), records(a));
  assert.deepEqual(diff('bindings.index', (r) => r.id!).added, [formatHash(stringHash('GateAlarm_02.SR'))]);
});

test('a registry whose OBJL does not validate: the reason, the string tables and the records raw', () => {
  const bad = sampleLayerRegistry();
  const reg = parseObjr(bad, 'x');
  new DataView(bad.buffer, bad.byteOffset).setUint32(reg.objectList!.objects[2].offset + OBJL_RECORD.nameOffset, 1, true);
  const secs = readDecodedText(renderRegistry(bad, SAMPLE_LAYER_REGISTRY));
  const objects = section(secs, 'objects');
  assert.equal(objects.summary.layout, 'not-validated');
  assert.match(objects.summary.reason!, /record 2 .*object name offset 1 is not a string start/);
  assert.deepEqual(
    section(secs, 'objects.names').records.map((r) => r.id),
    [...reg.objectList!.names.byOffset.values()],
  );
  const raw = section(secs, 'objects.records').records;
  assert.equal(raw.length, 9);
  assert.ok(raw.every((r) => r.attrs.bytes!.length === 100));
  assert.equal(section(secs, 'bindings').summary.resolved, 'no');
  assert.ok(section(secs, 'problems').records.length > 0);
});

test('string tables: one key per line with its text, named where a candidate name hashes to it', () => {
  for (const lang of ['enus', 'frfr'] as const) {
    const { text } = renderText('strings', sampleStringTable(lang), `database\\string\\${lang}\\string.strdb`, { names: ['UI_Sample_GateOpen', 'Nope'] });
    const secs = readDecodedText(text);
    const entries = section(secs, 'entries');
    assert.deepEqual(entries.summary, { count: '4', named: '1' });
    const byHash = new Map(entries.records.map((r) => [r.id, r.attrs]));
    for (const [key, t] of Object.entries(SAMPLE_STRINGS[lang])) assert.equal(byHash.get(formatHash(stringHash(key)))!.text, t, key);
    assert.equal(byHash.get(formatHash(stringHash('UI_Sample_GateOpen')))!.name, 'UI_Sample_GateOpen');
    // Keys strictly ascending, as in the file.
    const hashes = entries.records.map((r) => parseInt(r.id!, 16));
    assert.deepEqual(
      hashes,
      [...hashes].sort((x, y) => x - y),
    );
  }
});

test("the sample layer's bundle: manifest, container and where the mount serves each member", () => {
  const root = tempDir('arch06-text-bundle-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const m = Mount.open({ root });
  const resolved = resolveBundle(m, `${SAMPLE_LAYER}.bndl`);
  const manifest = m.entry(`${SAMPLE_LAYER}.bndl`);
  const text = renderManifest(manifest.readSync(), manifest.path, { resolved });
  const secs = readDecodedText(text);
  assert.equal(section(secs, 'manifest').fields.type, '');
  assert.deepEqual(
    section(secs, 'members').records.map((r) => [r.id, Number(r.attrs.declared)]),
    resolved.members.map((x) => [x.path, x.declaredSize]),
  );
  assert.deepEqual(
    section(secs, 'served').records.map((r) => [r.id, r.attrs.from, r.attrs.source]),
    [
      [SAMPLE_LAYER_REGISTRY, 'loose', 'Patch_02.arch06'],
      [SAMPLE_LAYER_SCRIPT, 'container', 'Base.arch06'],
    ],
  );
  const container = m.entry(`${SAMPLE_LAYER}.embb`);
  const c = parseEmbb(container.readSync(), container.path);
  const ctext = readDecodedText(renderContainer(c, container.path));
  assert.equal(section(ctext, 'container').fields.size, String(container.size));
  assert.deepEqual(
    section(ctext, 'members').records.map((r) => [r.id, parseInt(r.attrs.offset!, 16), Number(r.attrs.size)]),
    c.members.map((x) => [x.path, x.offset, x.size]),
  );
  // The container's embedded registry is the unpatched one.
  assert.ok(Buffer.from(readBundleMember(m, resolved, resolved.members[1])).equals(Buffer.from(sampleLayerScript())));
  // Without a mount: the manifest alone.
  assert.ok(!readDecodedText(renderText('manifest', manifest.readSync(), manifest.path).text).some((s) => s.name === 'served'));
  m.close();
});

test('a skeleton: bones with parents and bind pose, parts, sockets', () => {
  const { text, summary } = renderText('skeleton', sampleSwordSkeleton(), 'characters\\sample\\sample_sword.skel');
  assert.match(summary, /skeleton \(SKEL\)/);
  const secs = readDecodedText(text);
  assert.deepEqual(
    section(secs, 'bones').records.map((r) => [r.id, r.attrs.parent, vec(r.attrs.t)[1], r.attrs.hash]),
    SAMPLE_SWORD_BONES.map((b) => [b.name, b.parent < 0 ? null : SAMPLE_SWORD_BONES[b.parent].name, b.y, formatHash(stringHash(b.name))]),
  );
  assert.deepEqual(
    section(secs, 'sockets').records.map((r) => [r.id, r.attrs.bone]),
    [['Socket_Tip', 'Blade_Tip']],
  );
  assert.equal(section(secs, 'parts').records.length, 6);
});

test('scripts: the source exactly (line numbers kept), a header summary; bare payloads and bytecode', () => {
  const s = renderScript(sampleLayerScript(), SAMPLE_LAYER_SCRIPT);
  assert.equal(s.text, SAMPLE_LAYER_SOURCE);
  assert.equal(s.language, 'havokscript');
  assert.equal(s.summary, `SCRI v1 · u8 1 · ${(SAMPLE_LAYER_SOURCE.length + 1).toLocaleString('en')} bytes · source + NUL · 4 definitions`);
  assert.deepEqual(
    s.fields.map((f) => f.label),
    ['magic', 'version', 'u8 @0x08', 'payload size @0x09', 'payload', 'kind', 'definitions'],
  );
  const bare = renderScript(new TextEncoder().encode('local x = 1\nreturn x\n'), 'a.hks');
  assert.equal(bare.text, 'local x = 1\nreturn x\n');
  assert.match(bare.summary, /^no SCRI header · 21 bytes · source · 0 definitions$/);
  const bytecode = new Uint8Array([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x0e, 1, 4, 8, 4, 8, 0, 0, 0, 9, 9, 9]);
  for (const bytes of [bytecode, writeScri(bytecode)]) {
    const b = renderScript(bytes, 'c.scripts');
    assert.equal(b.kind, 'bytecode');
    assert.equal(b.language, 'decoded');
    assert.match(b.summary, /compiled Havok Script \(bytecode\)/);
    const secs = readDecodedText(b.text);
    assert.equal(section(secs, 'bytecode').fields.version, String(0x51));
    assert.equal(section(secs, 'script').fields.kind, 'bytecode');
    assert.match(b.text, /^# arch06 decoded text · compiled Havok Script/);
  }
  assert.equal(parseScript(writeScri(bytecode), 'c').header?.version, 1);
});

// ---- the real layers ------------------------------------------------------------------

const patch = sharedPath('samples/real/Patch_00.arch06');
const REAL = { island: 248, mtnpass: 192, snowmtn: 125, volcano: 223 };

test('the four real registries of Patch_00.arch06 render: every object and binding row, all resolved', { skip: patch.skip }, () => {
  const root = tempDir('arch06-text-real-');
  fs.mkdirSync(path.join(root, 'x64'));
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(patch.path, path.join(root, 'Patch_00.arch06'));
  const m = Mount.open({ root });
  for (const [layer, count] of Object.entries(REAL)) {
    const stem = `worlds\\retail\\${layer}\\sectionsandlayers\\fortwallgameplay`;
    const b = resolveBundle(m, `${stem}.bndl`);
    const member = (ext: string) =>
      readBundleMember(
        m,
        b,
        b.members.find((x) => x.path.endsWith(ext))!,
      );
    const source = parseScript(member('.scripts'), `${stem}.scripts`).source!;
    const fns = bindableNames(scriptDefinitions(source));
    const text = renderRegistry(member('.objres'), `${stem}.objres`, { functions: fns });
    const secs = readDecodedText(text);
    assert.equal(section(secs, 'objects').records.length, count, layer);
    assert.equal(section(secs, 'bindings').summary.resolved, 'yes', layer);
    assert.equal(section(secs, 'bindings').fields.script, ownScriptPath(`${stem}.objres`));
    assert.ok(
      section(secs, 'bindings').records.every((r) => r.attrs.found === 'yes' && r.attrs.problem === undefined),
      layer,
    );
    // The script's text view is its source.
    assert.equal(renderScript(member('.scripts'), `${stem}.scripts`).text, source);
  }
  m.close();
});
