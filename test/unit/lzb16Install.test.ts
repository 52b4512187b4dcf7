// `arch06 verify` as a user runs it on a folder holding the retail Patch_00.arch06 (from
// ../shared, copied into a temp install at test time) and a cfg naming it: every chunk decodes,
// the four LZB16 manifests included, and the report counts chunks per codec.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { sharedPath } from '../support/shared';
import { runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';

const patch = sharedPath('samples/real/Patch_00.arch06');

function install(): string {
  const root = tempDir('arch06-lzb16-cli-');
  writeTree(root, { 'x64/default.archcfg': '..\\Patch_00.arch06\n', 'Patch_00.arch06': fs.readFileSync(patch.path) });
  return root;
}

// 13 chunks, not the 14 the issue names: see core/oodle/tests/lzb16Real.test.ts.
test('arch06 verify on Patch_00.arch06: 0 failures, 9 Kraken and 4 LZB16 chunks decoded', { skip: patch.skip }, () => {
  const root = install();
  const j = runCli('verify', root, '--json');
  assert.equal(j.code, 0, j.stderr);
  const report = JSON.parse(j.stdout);
  assert.deepEqual(report.failures, []);
  assert.equal(report.entries, 8);
  assert.deepEqual(report.chunksByCodec, { lzb16: 4, kraken: 9 });
  assert.deepEqual(report.unsupportedChunks, {});
  assert.deepEqual(report.unsupportedForms, {});
  const t = runCli('verify', root);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /^1 sources, 8 entries, .* decoded, 0 failures$/m);
  assert.match(t.stdout, /^13 chunks decoded \(lzb16 4, kraken 9\), 0 stored$/m);
  // A manifest reads back as the BNDL it is.
  const cat = runCli('cat', root, 'worlds\\retail\\island\\sectionsandlayers\\fortwallgameplay.bndl');
  assert.equal(cat.code, 0, cat.stderr);
  assert.equal(cat.stdout.slice(0, 4), 'BNDL');
});
