// `arch06 search`: the search Find in Files runs, on the command line. On the sample install (the
// layer's SCRI script, served from its bundle's container) and on the retail scripts of
// ../shared/samples/real/Patch_00.arch06. The oracles split the scripts' sources here.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleGame } from '../../core/sample';
import { runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { parseEmbb } from '../../core/formats/bundle';
import { mountRealPatch, realLayerStem, realPatch } from '../support/realLayers';

const lines = (out: string): any[] =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Every (line, column), 1-based, where `word` stands in `source`. */
const sitesIn = (source: string, word: string): [number, number][] =>
  source.split('\n').flatMap((line, i) => {
    const out: [number, number][] = [];
    for (let at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) out.push([i + 1, at + 1]);
    return out;
  });

const sample = tempDir('arch06-search-cli-');
for (const f of sampleGame()) writeTree(sample, { [f.path]: f.bytes });

test('arch06 search --json on the sample: a function name in the layer script, one object per hit and line', () => {
  const r = runCli('search', sample, 'OpenGate', '--match-case', '--json');
  assert.equal(r.code, 0, r.stderr);
  const hits = lines(r.stdout);
  assert.deepEqual(
    hits.map((h) => [h.path, h.line, h.column]),
    sitesIn(SAMPLE_LAYER_SOURCE, 'OpenGate').map(([l, c]) => [SAMPLE_LAYER_SCRIPT, l, c]),
  );
  const first = hits[0];
  assert.deepEqual(Object.keys(first).sort(), ['bundle', 'column', 'line', 'path', 'source', 'text', 'view']);
  assert.deepEqual([first.source, first.bundle, first.view], ['Base.arch06', `${SAMPLE_LAYER_SCRIPT.slice(0, -'.scripts'.length)}.bndl`, 'script']);
  assert.equal(first.text, SAMPLE_LAYER_SOURCE.split('\n')[first.line - 1]);
  // The result line on stderr: what was searched, what was skipped as binary and why.
  assert.match(
    r.stderr,
    /^arch06: 4 results for "OpenGate" in 1 file; \d+ files searched \(\d+ as text, 4 scripts as source\); \d+ skipped as binary: .*by file type \(.*\.tex 1/,
  );
});

test('arch06 search: text lines, --include, --regex, --decoded; exit 1 without hits, 2 for a broken expression', () => {
  const text = runCli('search', sample, 'OpenGate', '--match-case', '--include', '*.scripts');
  assert.equal(text.code, 0, text.stderr);
  const [line1] = SAMPLE_LAYER_SOURCE.split('\n').flatMap((l, i) => (l.includes('OpenGate') ? [i + 1] : []));
  assert.equal(text.stdout.split('\n')[0], `${SAMPLE_LAYER_SCRIPT}:${line1}:2 [in ${SAMPLE_LAYER_SCRIPT.slice(0, -8)}.bndl]: \tOpenGate : ifunction`);
  assert.match(text.stderr, /4 files searched \(4 scripts as source\)$/m);
  const regex = lines(runCli('search', sample, '^_gate\\w+_SR_', '--regex', '--json').stdout);
  assert.deepEqual(
    regex.map((h) => [h.line, h.column]),
    SAMPLE_LAYER_SOURCE.split('\n').flatMap((l, i) => (/^_gate\w+_SR_/.test(l) ? [[i + 1, 1]] : [])),
  );
  // A string-table text is in its decoded view only.
  const plain = lines(runCli('search', sample, 'Urfael', '--include', '*.strdb', '--json').stdout);
  const decoded = lines(runCli('search', sample, 'Urfael', '--include', '*.strdb', '--decoded', '--json').stdout);
  assert.deepEqual([plain.length, decoded.length > 0, decoded.every((h) => h.view === 'decoded')], [0, true, true]);
  const none = runCli('search', sample, 'no such words anywhere');
  assert.deepEqual([none.code, none.stdout], [1, '']);
  assert.match(none.stderr, /0 results for "no such words anywhere"/);
  const bad = runCli('search', sample, '(', '--regex');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /invalid regular expression/);
});

test('arch06 search finds BeSentry in the retail island script of Patch_00.arch06', { skip: realPatch.skip }, () => {
  const root = tempDir('arch06-search-real-');
  fs.mkdirSync(path.join(root, 'x64'));
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(realPatch.path, path.join(root, 'Patch_00.arch06'));
  const r = runCli('search', root, 'BeSentry', '--match-case', '--include', 'worlds/retail/island/**', '--json');
  assert.equal(r.code, 0, r.stderr);
  const hits = lines(r.stdout);
  // The oracle: the island script cut out of its container by the EMBB reader, its 13-byte header and final NUL dropped here.
  const stem = realLayerStem('island');
  const m = mountRealPatch();
  const embb = m.entry(`${stem}.embb`).readSync();
  m.close();
  const member = parseEmbb(embb, 'island.embb').members.find((x) => x.path.toLowerCase() === `${stem}.scripts`)!;
  const script = Buffer.from(embb.subarray(member.offset, member.offset + member.size));
  assert.equal(script.subarray(0, 4).toString('latin1'), 'SCRI');
  const source = script.subarray(13, script.length - 1).toString('utf8');
  assert.deepEqual(
    hits.map((h) => [h.path.toLowerCase(), h.line, h.column]),
    sitesIn(source, 'BeSentry').map(([l, c]) => [`${stem}.scripts`, l, c]),
  );
  assert.ok(hits.length >= 4 && hits.every((h) => h.source === 'Patch_00.arch06' && h.view === 'script'));
  assert.match(r.stderr, /in 1 file; 1 file searched \(1 script as source\); \d+ skipped as binary/);
});
