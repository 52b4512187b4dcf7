// `arch06 to-text` / `from-text` (issue 24) as a user runs them: files on disk, the form named by the
// text's first line, byte-for-byte round trips on the sample's string table and a real script,
// edits carried, errors naming the line with nothing written.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEmbb } from '../../core/formats/bundle';
import { parseSkdb } from '../../core/formats/strings';
import { parseScript } from '../../core/formats/script';
import { stringHash } from '../../core/hash';
import { sampleStringTable } from '../../core/sample';
import { runCli } from '../support/cli';
import { tempDir } from '../support/fixtures';
import { mountRealPatch, readRealRegistries, realLayerStem, realPatch } from '../support/realLayers';

test('to-text / from-text: a string table round trips exactly on disk, and an edit in the text lands', () => {
  const dir = tempDir('arch06-textcli-');
  const table = path.join(dir, 'string.strdb');
  fs.writeFileSync(table, sampleStringTable('enus'));
  const text = path.join(dir, 'string.strdb.txt');
  let r = runCli('to-text', table, '-o', text);
  assert.equal(r.code, 0, r.stderr);
  assert.match(fs.readFileSync(text, 'utf8'), /^# arch06 strdb text: /);
  const back = path.join(dir, 'back.strdb');
  r = runCli('from-text', text, '-o', back);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(fs.readFileSync(back), fs.readFileSync(table));

  // stdout without -o; then an added key compiled into an existing file (kept as .bak).
  r = runCli('to-text', table);
  assert.equal(r.stdout, fs.readFileSync(text, 'utf8'));
  fs.appendFileSync(text, 'UI_Added_By_Cli = "Hello from the CLI"\n');
  r = runCli('from-text', text, '-o', back);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(fs.readFileSync(`${back}.bak`), fs.readFileSync(table));
  const added = parseSkdb(new Uint8Array(fs.readFileSync(back)), 'back').entries.find((e) => e.hash === stringHash('UI_Added_By_Cli'));
  assert.equal(added?.text, 'Hello from the CLI');
});

test('from-text: an error names the line and the reason, exit 2, nothing written', () => {
  const dir = tempDir('arch06-textcli-bad-');
  const text = path.join(dir, 'bad.txt');
  const out = path.join(dir, 'out.strdb');
  fs.writeFileSync(text, '# arch06 strdb text\n0x1 = "a"\n0x1 = "b"\n');
  let r = runCli('from-text', text, '-o', out);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /line 3: the key 0x00000001 is already the key 0x00000001 of line 2/);
  assert.equal(fs.existsSync(out), false);
  assert.deepEqual(fs.readdirSync(dir), ['bad.txt']);
  fs.writeFileSync(text, 'no header\n');
  r = runCli('from-text', text, '-o', out);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /line 1: not an arch06 text/);
  r = runCli('from-text', text);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /-o <file>/);
  assert.equal(fs.existsSync(out), false);
});

test('to-text / from-text: a real retail script comes back byte for byte', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  const dir = tempDir('arch06-textcli-real-');
  try {
    const stem = realLayerStem('island');
    const embb = m.entry(`${stem}.embb`).readSync();
    const member = parseEmbb(embb, stem).members.find((x) => x.path.endsWith('.scripts'))!;
    const file = path.join(dir, 'fortwallgameplay.scripts');
    fs.writeFileSync(file, embb.subarray(member.offset, member.offset + member.size));
    let r = runCli('to-text', file, '-o', path.join(dir, 'script.txt'));
    assert.equal(r.code, 0, r.stderr);
    const text = fs.readFileSync(path.join(dir, 'script.txt'), 'utf8');
    assert.match(text, /^-- arch06 scripts text: SCRI version=1 flag=1 nuls=1 /);
    r = runCli('from-text', path.join(dir, 'script.txt'), '-o', path.join(dir, 'back.scripts'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'back.scripts')), fs.readFileSync(file));
    // An edit: the header's size follows the new payload.
    fs.writeFileSync(path.join(dir, 'script.txt'), text + '\n-- an added line\n');
    r = runCli('from-text', path.join(dir, 'script.txt'), '-o', path.join(dir, 'edited.scripts'));
    assert.equal(r.code, 0, r.stderr);
    const edited = parseScript(new Uint8Array(fs.readFileSync(path.join(dir, 'edited.scripts'))), 'e');
    assert.equal(edited.header!.size, member.size - 13 + '\n-- an added line\n'.length); // 13: the SCRI header
  } finally {
    m.close();
  }
});

test('to-text / from-text: each real retail registry comes back byte for byte; a moved object lands in the OBJL record', { skip: realPatch.skip }, () => {
  const dir = tempDir('arch06-textcli-objres-');
  for (const r of readRealRegistries()) {
    const file = path.join(dir, `${r.layer}.objres`);
    fs.writeFileSync(file, r.bytes);
    const textFile = path.join(dir, `${r.layer}.objres.txt`);
    let run = runCli('to-text', file, '-o', textFile);
    assert.equal(run.code, 0, run.stderr);
    const text = fs.readFileSync(textFile, 'utf8');
    assert.match(text, /^# arch06 registry text /);
    run = runCli('from-text', textFile, '-o', path.join(dir, `${r.layer}.back.objres`));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fs.readFileSync(path.join(dir, `${r.layer}.back.objres`)), fs.readFileSync(file), r.layer);
  }
  // One edit: the first object's position changed in the text moves it in the binary, nothing else.
  const text = fs.readFileSync(path.join(dir, 'island.objres.txt'), 'utf8');
  const pos = /pos=\(([^)]*)\)/.exec(text)!;
  fs.writeFileSync(path.join(dir, 'moved.txt'), text.replace(pos[0], 'pos=(1, 2, 3)'));
  const run = runCli('from-text', path.join(dir, 'moved.txt'), '-o', path.join(dir, 'moved.objres'));
  assert.equal(run.code, 0, run.stderr);
  const moved = runCli('to-text', path.join(dir, 'moved.objres'));
  assert.equal(moved.code, 0, moved.stderr);
  // The same text but the position (and the file name on the first line).
  const body = (t: string): string => t.slice(t.indexOf('\n'));
  assert.equal(body(moved.stdout), body(text.replace(pos[0], 'pos=(1, 2, 3)')));
});

test('from-text refuses an output inside a game install (x64/default.archcfg above it): exit 2, nothing written; --into-install allows it', () => {
  const dir = tempDir('arch06-textcli-install-');
  const game = path.join(dir, 'game');
  fs.mkdirSync(path.join(game, 'x64'), { recursive: true });
  fs.writeFileSync(path.join(game, 'x64', 'default.archcfg'), '+..\\Patch_00.arch06\n');
  const table = path.join(dir, 'string.strdb');
  fs.writeFileSync(table, sampleStringTable('enus'));
  const text = path.join(dir, 'string.strdb.txt');
  assert.equal(runCli('to-text', table, '-o', text).code, 0);
  const inside = path.join(game, 'database', 'string', 'enus', 'string.strdb');
  const before = fs.readdirSync(game, { recursive: true }).sort();
  let r = runCli('from-text', text, '-o', inside);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /inside the game install/);
  assert.match(r.stderr, /--into-install/);
  assert.deepEqual(fs.readdirSync(game, { recursive: true }).sort(), before, 'nothing written into the install');
  // Beside the install (not under it) is fine; inside it only when asked for.
  r = runCli('from-text', text, '-o', path.join(dir, 'beside.strdb'));
  assert.equal(r.code, 0, r.stderr);
  r = runCli('from-text', text, '-o', inside, '--into-install');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(fs.readFileSync(inside), fs.readFileSync(table));
});
