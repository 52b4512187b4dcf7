// Issue 21 item 2: shared records do not multiply. Each amplification input of the issue, crafted
// by the project's writers (test/support/sharedRecords.ts), goes through every reader and model
// above it: the format reader, the resolved model, the decoded text, the editor models, the script
// index and the hash dictionary's name walk. Each is held to the figure "memory <= 20x the file's
// size + 32 MiB" by measuring what it keeps alive (after full garbage collections), and to counts
// that prove the sharing (rows materialised, sites expanded, characters of output).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { BundleFolder, Mount, resolveBundle } from '../../core/archive';
import { parseBndl, parseEmbb } from '../../core/formats/bundle';
import { bindingRows, ownScriptPath, parseObjr, resolveRegistry, spelledNames } from '../../core/formats/registry';
import { parseSkdb } from '../../core/formats/strings';
import { writeScri } from '../../core/formats/script';
import { HashDictionary } from '../../core/hash';
import { collectInstallNames } from '../../core/nameSources';
import { MAX_BOUND_SITES, ScriptIndex } from '../../core/scriptIndex';
import { renderText } from '../../core/text';
import { buildRegistryModel } from '../../extension/editors/registryModel';
import { ObjectTable } from '../../extension/editors/registryObjectTable';
import { StringTableModel } from '../../extension/editors/stringTableModel';
import { expectArch06Error } from '../support/errors';
import { tempDir, writeTree } from '../support/fixtures';
import {
  type CraftedFile,
  modelBound,
  retainedBytes,
  sharedGroupRegistry,
  sharedNameObjl,
  sharedNamesRegistry,
  sharedPathBundle,
  sharedRunRegistry,
  sharedTextTable,
} from '../support/sharedRecords';

/** What a decoded text may hold at most (core/text/syntax.ts: 8 characters per byte + 8 Mi). */
const textBound = (bytes: number): number => 8 * bytes + (8 << 20) + 200;

function assertBounded(what: string, bytes: number, file: CraftedFile): void {
  const bound = modelBound(file.bytes.length);
  assert.ok(bytes <= bound, `${file.name}: ${what} keeps ${(bytes / 1048576).toFixed(1)} MiB, more than 20 x ${file.bytes.length} bytes + 32 MiB`);
}

/** An install whose one folder source holds `files` (and the script the shared run binds to, defining f0 only). */
function installOf(files: CraftedFile[]): Mount {
  const root = tempDir('arch06-shared-records-');
  const tree: Record<string, Uint8Array | string> = { 'x64/default.archcfg': '..\\Game\r\n' };
  tree[`Game/${RUN_SCRIPT.replace(/\\/g, '/')}`] = writeScri('local s = {\nf0 = function (self) end,\n}\n_G.loadedresource = s\n');
  for (const f of files) tree[`Game/${f.path.replace(/\\/g, '/')}`] = f.bytes;
  writeTree(root, tree);
  return Mount.open({ root });
}

// ---- registries ------------------------------------------------------------------------------

const registries = [sharedRunRegistry(), sharedNamesRegistry(), sharedGroupRegistry(), sharedNameObjl()];
const RUN_SCRIPT = ownScriptPath(registries[0].path);
const NAMES_SCRIPT = ownScriptPath(registries[1].path);

for (const file of registries) {
  test(`registry readers and models in bounded memory: ${file.name}`, () => {
    const parsed = retainedBytes(() => {
      const reg = parseObjr(file.bytes, file.path);
      return { reg, res: resolveRegistry(reg, { scriptPath: ownScriptPath(file.path), functions: new Set(['f0']) }) };
    });
    assertBounded('parseObjr + resolveRegistry', parsed.bytes, file);
    const { reg, res } = parsed.value;
    // The model holds what the file holds: one entry per SCRB object and per record, never the rows.
    assert.equal(res.objects.length, reg.bindings?.objects.length ?? 0);
    assert.equal(res.records.length, reg.bindings?.bindings.length ?? 0);
    assert.ok(res.problems.length <= 501, `${res.problems.length} problem lines`);
    assert.equal([...bindingRows(res, 10)].length, Math.min(10, res.rowCount));
    const names = spelledNames(reg, res);
    assert.ok(names.bindings.length <= 2 * res.records.length);

    const text = retainedBytes(() => renderText('registry', file.bytes, file.path).text);
    assertBounded('the decoded text', text.bytes, file);
    assert.ok(text.value.length <= textBound(file.bytes.length), `${text.value.length} characters of text`);

    const model = retainedBytes(() => buildRegistryModel({ bytes: file.bytes, path: file.path, patch: { state: 'unresolved', text: '' } }));
    assertBounded('the registry editor model', model.bytes, file);
    const init = JSON.stringify(model.value.view);
    assert.ok(init.length <= modelBound(file.bytes.length), `the init message is ${init.length} characters`);
    assert.equal(model.value.view.bindingRows, res.rowCount);
    assert.ok(model.value.view.bindings.length <= 5000);
    const table = new ObjectTable(reg.objectList);
    const window = table.window('n', '', 0, 500);
    assert.ok(JSON.stringify(window).length <= 2 << 20, 'a window of 500 object rows stays small');
  });
}

test('3,000 objects sharing one run of 3,000 bindings: 9,000,000 rows counted, none materialised', () => {
  const file = sharedRunRegistry();
  const res = resolveRegistry(parseObjr(file.bytes, file.path));
  assert.equal(res.rowCount, 9_000_000);
  assert.equal(res.records.length, 3000);
  assert.equal(res.objects.length, 3000);
  assert.ok(res.coverage.every((c) => c === 3000));
  const text = renderText('registry', file.bytes, file.path).text;
  assert.match(text, /\[bindings\] rows=9000000 records=3000 resolved=yes shown=20000/);
  assert.match(text, /the first 20000 of 9000000 rows/);
});

test('20,000 bindings sharing two 300 KB names: each name is in the text once in full, then cut with its length', () => {
  const file = sharedNamesRegistry();
  const text = renderText('registry', file.bytes, file.path).text;
  assert.equal(text.split('E'.repeat(300_000)).length - 1, 1, 'the event name in full once');
  assert.match(text, /…\[same 300000-character text as line \d+\]/);
  assert.ok(text.length <= textBound(file.bytes.length));
});

test('30,000 owners sharing one group: the members are listed once, the other owners name the first', () => {
  const file = sharedGroupRegistry();
  const res = resolveRegistry(parseObjr(file.bytes, file.path));
  assert.equal(res.groups.length, 30_000);
  assert.ok(
    res.groups.every((g) => g.members === res.groups[0].members && g.unknownMembers === res.groups[0].unknownMembers),
    'one array, shared',
  );
  const text = renderText('registry', file.bytes, file.path).text;
  assert.equal((text.match(/ members=\[/g) ?? []).length, 1);
  assert.match(text, / count=100000 same=/);
  const model = buildRegistryModel({ bytes: file.bytes, path: file.path, patch: { state: 'unresolved', text: '' } });
  assert.equal(model.view.groupCount, 30_000);
  assert.equal(model.view.groups.filter((g) => g.members.length).length, 1);
});

// ---- the script index and the name walk over a crafted install ---------------------------------

test('the script index and the name walk over the crafted registries stay within 20x the install + 32 MiB', async () => {
  const m = installOf(registries);
  try {
    const total = registries.reduce((n, f) => n + f.bytes.length, 0);
    const all: CraftedFile = { name: 'the crafted registries', path: '', bytes: new Uint8Array(total) };
    const built = retainedBytes(() => ScriptIndex.build(m));
    assertBounded('ScriptIndex.build', built.bytes, all);
    const index = built.value;
    assert.deepEqual(index.failures, []);
    assert.equal(index.registries, 4);
    // f0 is bound by the 3,000 objects of the shared run: counted exactly, listed up to the cap.
    assert.equal(index.boundByCount(RUN_SCRIPT, 'f0'), 3000);
    assert.equal(index.boundBy(RUN_SCRIPT, 'f0').length, Math.min(3000, MAX_BOUND_SITES));
    assert.equal(index.boundBy(RUN_SCRIPT, 'f0', 7).length, 7);
    // 20,000 records name one 300 KB function: 20,000 sites, one name.
    assert.equal(index.boundByCount(NAMES_SCRIPT, 'F'.repeat(300_000)), 20_000);
    const snapshot = JSON.stringify(index.toSnapshot());
    assert.ok(snapshot.length <= modelBound(total), `the snapshot is ${snapshot.length} characters`);
    const again = ScriptIndex.fromSnapshot(m, JSON.parse(snapshot));
    assert.equal(again.boundByCount(RUN_SCRIPT, 'f0'), 3000);
    // One problem per bound name the script lacks (2,999 of the run's), never one per row.
    assert.ok(index.problems.length <= 3010, `${index.problems.length} problems`);
    assert.ok(JSON.stringify(index.problems).length <= modelBound(total));

    const dict = new HashDictionary();
    const names = await (async () => {
      const r = retainedBytes(() => collectInstallNames(m, dict));
      return { report: await r.value, bytes: r.bytes };
    })();
    assertBounded('the name walk', names.bytes, all);
    assert.equal(names.report.registries, 4);
  } finally {
    m.close();
  }
});

// ---- string tables ---------------------------------------------------------------------------

test(`string-table reader and models in bounded memory: ${sharedTextTable().name}`, () => {
  const file = sharedTextTable();
  const parsed = retainedBytes(() => parseSkdb(file.bytes, file.path));
  assertBounded('parseSkdb', parsed.bytes, file);
  assert.equal(parsed.value.distinctTexts, 1);
  const text = retainedBytes(() => renderText('strings', file.bytes, file.path).text);
  assertBounded('the decoded text', text.bytes, file);
  assert.equal(text.value.split('T'.repeat(250_000)).length - 1, 1);
  const model = retainedBytes(() => {
    const m = new StringTableModel([{ language: 'enus', table: parsed.value }]);
    m.search('tt');
    return m;
  });
  assertBounded('the string-table model (and a search)', model.bytes, file);
  assert.equal(model.value.shown, 60_000);
  const rows = JSON.stringify(model.value.rows(0, 1000));
  assert.ok(rows.length <= 8 << 20, `a window of 1000 rows is ${rows.length} characters`);
  // An export would write the one text 60,000 times: refused, with the figures.
  expectArch06Error(() => model.value.toCsv(), 'OUT_OF_RANGE');
});

// ---- bundles ---------------------------------------------------------------------------------

for (const chars of [200_000, 1000]) {
  test(`bundle readers and models in bounded memory: 50,000 members sharing one ${chars}-character path`, () => {
    const { manifest, container } = sharedPathBundle(50_000, chars);
    const b = retainedBytes(() => parseBndl(manifest.bytes, manifest.path));
    assertBounded('parseBndl', b.bytes, manifest);
    assert.ok(b.value.variant === 'manifest' && b.value.members.every((m) => m.path === b.value.members[0].path));
    const c = retainedBytes(() => parseEmbb(container.bytes, container.path));
    assertBounded('parseEmbb', c.bytes, container);
    assert.ok(c.value.notes.length <= 25, `${c.value.notes.length} notes`);
    for (const f of [manifest, container]) {
      const t = retainedBytes(() => renderText(f === manifest ? 'manifest' : 'container', f.bytes, f.path).text);
      assertBounded('the decoded text', t.bytes, f);
      assert.ok(t.value.length <= textBound(f.bytes.length));
    }
    const m = installOf([manifest, container]);
    try {
      const both: CraftedFile = { name: 'the bundle', path: '', bytes: new Uint8Array(manifest.bytes.length + container.bytes.length) };
      const folder = retainedBytes(() => new BundleFolder(m, resolveBundle(m, manifest.path)));
      assertBounded('resolveBundle + BundleFolder', folder.bytes, both);
      const listed = folder.value.list(folder.value.bundle.stem.split('\\').slice(0, -1).join('\\') as never);
      // A path no game path can be is in no listing; a valid one is listed once, however often it is declared.
      assert.equal(listed?.files.length ?? 0, chars > 1024 ? 0 : 1);
    } finally {
      m.close();
    }
  });
}
