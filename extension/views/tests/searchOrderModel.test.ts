// The Search Order view's node model and the status bar / notification text, in plain node: these
// modules must not import vscode (the view and the status bar only render what they return).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Mount } from '../../../core/archive';
import { sampleGame } from '../../../core/sample';
import { prng, randomBytes, tempDir, writeTree } from '../../../test/support/fixtures';
import { baseName, ordinal, SearchOrderMount, SearchOrderNode, searchOrderNodes, summaryText } from '../searchOrderModel';
import { brokenNotice, describeBroken, mountStatus } from '../../mountSummary';

const source = (name: string, kind: 'archive' | 'directory' = 'archive', fileCount = 3) => ({ name, kind, diskPath: `/games/sow/${name}`, fileCount });
const broken = (line: number, name: string, reason = 'bad magic: expected LTAR') => ({
  line,
  text: `..\\${name}`,
  path: `/games/sow/${name}`,
  reason,
  code: 'BAD_MAGIC',
});

const mount = (over: Partial<SearchOrderMount> = {}): SearchOrderMount & { root: string } => ({
  root: '/games/sow',
  cfgPath: '/games/sow/x64/default.archcfg',
  sources: [source('Patch_01.arch06'), source('Base.arch06', 'archive', 1234), source('Game', 'directory', 2)],
  skipped: [],
  unlisted: [],
  broken: [],
  ...over,
});

test('the modules used by the tree and the status bar load in plain node; one importing vscode would not', () => {
  // This test file imported searchOrderModel and mountSummary, so they loaded without vscode.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the point: a plain require must fail
  assert.throws(() => require('../searchOrderView'), /Cannot find module 'vscode'/);
});

/** The nodes below the summary line. */
const below = (m: SearchOrderMount): SearchOrderNode[] => {
  const [summary, ...rest] = searchOrderNodes(m);
  assert.equal(summary!.kind, 'summary');
  return rest;
};

test('sources in search order, numbered, with kind, count, icon and a reveal action of their numbered @sources folder', () => {
  const nodes = below(mount());
  assert.deepEqual(
    nodes.map((n) => [n.kind, n.label, n.description, n.icon?.id]),
    [
      ['source', '1. Patch_01.arch06', 'archive · 3 files', 'archive'],
      ['source', '2. Base.arch06', 'archive · 1,234 files', 'archive'],
      ['source', '3. Game', 'directory · 2 files', 'folder-library'],
    ],
  );
  // One file, one source: singular (issue 20 item 11: "1 files").
  assert.deepEqual(
    below(mount({ sources: [source('Patch_00.arch06', 'archive', 1), source('Empty.arch06', 'archive', 0)] })).map((n) => n.description),
    ['archive · 1 file', 'archive · 0 files'],
  );
  assert.deepEqual(nodes[1].action, { kind: 'revealSource', source: 'Base.arch06', folder: '02 Base.arch06' });
  assert.equal(nodes[1].source, 'Base.arch06');
  assert.deepEqual(
    nodes.map((n) => n.folder),
    ['01 Patch_01.arch06', '02 Base.arch06', '03 Game'],
    'the same numbers as the labels: what @sources lists',
  );
  assert.ok(nodes[1].tooltipIsMarkdown);
  assert.match(nodes[1].tooltip!, /Consulted 2nd of 3/);
  assert.equal(new Set(searchOrderNodes(mount()).map((n) => n.id)).size, nodes.length + 1, 'ids are unique');
});

test('the summary line opens the view: sources, broken, skipped, not in the cfg; its icon says the worst of them', () => {
  const plain = searchOrderNodes(mount())[0]!;
  assert.deepEqual([plain.kind, plain.label, plain.icon], ['summary', '3 sources · 0 broken · 0 skipped · 0 not in the cfg', { id: 'pass' }]);
  assert.deepEqual(plain.action, { kind: 'openCfg', line: 1 });
  assert.match(plain.tooltip!, /3 sources mounted, in search order below/);
  assert.match(plain.tooltip!, /open \/games\/sow\/x64\/default\.archcfg/);
  const m = mount({
    sources: [...Array(7)].map((_, i) => source(`P${i}.arch06`)),
    broken: [broken(12, 'Mod.arch06')],
    unlisted: ['Blade.arch06', 'Extra.arch06'],
  });
  const nodes = searchOrderNodes(m);
  assert.equal(nodes[0]!.label, '7 sources · 1 broken · 0 skipped · 2 not in the cfg');
  assert.equal(summaryText(m), nodes[0]!.label);
  assert.deepEqual(nodes[0]!.icon, { id: 'error', color: 'errorForeground' });
  assert.match(nodes[0]!.tooltip!, /1 broken source: .*\(the mount is incomplete\)/);
  assert.equal(nodes[1]!.label, 'Broken sources (1)', 'the broken group right below it');
  const skippedOnly = searchOrderNodes(mount({ sources: [source('Base.arch06')], skipped: [{ line: 5, text: 'x', reason: 'y' }] }))[0]!;
  assert.deepEqual([skippedOnly.label, skippedOnly.icon], ['1 source · 0 broken · 1 skipped · 0 not in the cfg', { id: 'warning' }]);
});

test('with ten or more sources the folder numbers keep their width, so a name sort is the search order', () => {
  const m = mount({ sources: [...Array(12)].map((_, i) => source(`S${String.fromCharCode(97 + ((i * 7) % 12))}.arch06`)) });
  const folders = below(m).map((n) => n.folder!);
  assert.equal(folders[0], '01 Sa.arch06');
  assert.equal(folders[11], '12 Sf.arch06');
  assert.deepEqual([...folders].sort(), folders);
});

test('broken sources: a group at the top, each with an error icon, the reason and the cfg line', () => {
  const m = mount({ broken: [broken(12, 'Mod.arch06'), { ...broken(0, 'Extra.arch06', 'truncated header'), text: 'D:\\mods\\Extra.arch06' }] });
  const nodes = below(m);
  const group = nodes[0];
  assert.equal(group.kind, 'group');
  assert.equal(group.label, 'Broken sources (2)');
  assert.match(group.description!, /the mount is incomplete/);
  assert.deepEqual(group.icon, { id: 'error', color: 'errorForeground' });
  const [mod, extra] = group.children!;
  assert.deepEqual([mod.kind, mod.label, mod.description], ['broken', 'Mod.arch06', 'line 12: bad magic: expected LTAR']);
  assert.deepEqual(mod.icon, { id: 'error', color: 'errorForeground' });
  assert.deepEqual(mod.action, { kind: 'openCfg', line: 12 });
  assert.match(mod.tooltip!, /bad magic: expected LTAR \(BAD_MAGIC\)/);
  assert.match(mod.tooltip!, /default\.archcfg:12: \.\.\\Mod\.arch06/);
  // An -arch archive (line 0): no cfg line to open.
  assert.deepEqual([extra.label, extra.description, extra.action], ['Extra.arch06', 'truncated header', undefined]);
  assert.match(extra.tooltip!, /-arch archive: D:\\mods\\Extra\.arch06/);
  // The sources follow, unchanged.
  assert.deepEqual(
    nodes.slice(1).map((n) => n.label),
    ['1. Patch_01.arch06', '2. Base.arch06', '3. Game'],
  );
});

test('skipped lines and unlisted archives come last, in groups', () => {
  const nodes = below(mount({ skipped: [{ line: 5, text: '..\\Great_Hall.arch06', reason: 'names nothing on disk' }], unlisted: ['Blade.arch06'] }));
  const [skipped, unlisted] = nodes.slice(-2) as SearchOrderNode[];
  assert.equal(skipped.label, 'Skipped cfg lines (1)');
  assert.deepEqual(
    skipped.children!.map((c) => [c.label, c.description, c.action]),
    [['..\\Great_Hall.arch06', 'line 5: names nothing on disk', { kind: 'openCfg', line: 5 }]],
  );
  assert.equal(unlisted.label, 'Not in the cfg (1)');
  assert.deepEqual(
    unlisted.children!.map((c) => [c.label, c.description]),
    [['Blade.arch06', 'not mounted']],
  );
  assert.ok(!nodes.some((n) => /Broken/.test(n.label)), 'no broken group without broken sources');
});

test('status bar: counts when complete; a warning naming the broken archive when not', () => {
  const ok = mountStatus(mount(), 56);
  assert.deepEqual([ok.text, ok.incomplete], ['$(archive) SoW: 3 sources · 56 paths', false]);
  assert.match(ok.tooltip, /^Mounted \/games\/sow\nsearch order from \/games\/sow\/x64\/default\.archcfg/);

  const bad = mountStatus(mount({ broken: [broken(12, 'Mod.arch06')], skipped: [{ line: 5, text: 'x', reason: 'y' }] }), 56);
  assert.equal(bad.text, '$(warning) SoW: 3 sources · 1 broken · 56 paths');
  assert.equal(bad.incomplete, true);
  assert.match(bad.tooltip, /^The mount is incomplete/);
  assert.match(bad.tooltip, /Mod\.arch06 \(cfg line 12\): bad magic: expected LTAR/);
  assert.match(bad.tooltip, /1 cfg line skipped/);
  // One source, one path: singular (the retail Patch_00.arch06 mounted alone showed "1 sources").
  const one = mountStatus(mount({ sources: [source('Patch_00.arch06', 'archive', 8)] }), 1);
  assert.equal(one.text, '$(archive) SoW: 1 source · 1 path');
  assert.equal(
    mountStatus(mount({ sources: [source('Patch_00.arch06')], broken: [broken(1, 'Mod.arch06')] }), 8).text,
    '$(warning) SoW: 1 source · 1 broken · 8 paths',
  );
});

test('the notification names every broken archive (the first three, then a count)', () => {
  assert.equal(brokenNotice([]), undefined);
  const one = brokenNotice([broken(12, 'Mod.arch06')])!;
  assert.equal(
    one,
    'arch06: the mount is incomplete: a source the cfg names is not a valid archive and was not mounted: Mod.arch06 (cfg line 12): bad magic: expected LTAR. The other sources are mounted.',
  );
  const five = brokenNotice([1, 2, 3, 4, 5].map((i) => broken(i, `M${i}.arch06`)))!;
  assert.match(five, /5 sources the cfg names are not valid archives and were not mounted: M1\.arch06 .*M3\.arch06 \(cfg line 3\)[^;]*; and 2 more\./);
  assert.doesNotMatch(five, /M4\.arch06/);
  assert.equal(describeBroken(broken(0, 'X.arch06', 'r')), 'X.arch06 (-arch): r');
});

test('helpers: base names of Windows and POSIX paths, ordinals', () => {
  assert.deepEqual(['/a/b/Mod.arch06', 'C:\\Games\\SoW\\Mod.arch06', 'Mod.arch06', '/a/dir/'].map(baseName), ['Mod.arch06', 'Mod.arch06', 'Mod.arch06', 'dir']);
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal), [
    '1st',
    '2nd',
    '3rd',
    '4th',
    '11th',
    '12th',
    '13th',
    '21st',
    '22nd',
    '101st',
    '111th',
  ]);
});

test('a real mount with a broken archive in its cfg: the model lists it, the rest mounts', () => {
  const root = path.join(tempDir('arch06-model-'), 'game');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const cfg = sampleGame().find((f) => f.path === 'x64/default.archcfg')!;
  const cfgText = `${Buffer.from(cfg.bytes).toString('latin1')}..\\Broken_Mod.arch06\n`;
  writeTree(root, { 'Broken_Mod.arch06': randomBytes(4096, prng(11)), 'x64/default.archcfg': cfgText });
  const m = Mount.open({ root });
  try {
    const nodes = below(m);
    assert.equal(searchOrderNodes(m)[0]!.label, `${m.sources.length} sources · 1 broken · ${m.skipped.length} skipped · ${m.unlisted.length} not in the cfg`);
    assert.equal(nodes[0].kind, 'group');
    const b = nodes[0].children!;
    assert.equal(b.length, 1);
    assert.equal(b[0].label, 'Broken_Mod.arch06');
    assert.match(b[0].description!, new RegExp(`^line ${cfgText.split('\n').indexOf('..\\Broken_Mod.arch06') + 1}: \\S`));
    assert.ok(
      !nodes.some((n) => n.kind === 'group' && n.children!.some((c) => c.label.includes('Broken_Mod') && c.kind !== 'broken')),
      'not also skipped or unlisted',
    );
    assert.equal(nodes[1].label, '1. HotChunk.arch06');
    assert.match(mountStatus(m, m.index().size).text, /^\$\(warning\) SoW: \d+ sources · 1 broken · /);
  } finally {
    m.close();
  }
});
