// `arch06 mount` counts in words a person reads: "1 file", "1 distinct path" (issue 20 item 11).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { LtarWriter } from '../../core/formats/archive';
import { repoRoot } from '../support/shared';
import { tempDir, writeTree } from '../support/fixtures';

test('mount: "1 file" and "1 distinct path", "0 files" and "2 files" as before', () => {
  const root = tempDir('arch06-plurals-');
  const one = new LtarWriter();
  one.addBytes('a\\one.txt', Buffer.from('1'));
  const two = new LtarWriter();
  two.addBytes('a\\one.txt', Buffer.from('1 again'));
  two.addBytes('a\\two.txt', Buffer.from('2'));
  writeTree(root, {
    'x64/default.archcfg': '..\\Two.arch06\n..\\One.arch06\n..\\None.arch06\n',
    'One.arch06': one.toBytes(),
    'None.arch06': new LtarWriter().toBytes(),
  });
  const run = (): string => {
    const r = spawnSync(process.execPath, [path.join(repoRoot(), 'dist', 'cli.js'), 'mount', root], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  let out = run();
  assert.match(out, /One\.arch06 +archive +1 file$/m);
  assert.match(out, /None\.arch06 +archive +0 files$/m);
  assert.match(out, /^1 distinct path, 0 with more than one copy/m);
  writeTree(root, { 'Two.arch06': two.toBytes() });
  out = run();
  assert.match(out, /Two\.arch06 +archive +2 files$/m);
  assert.match(out, /^2 distinct paths, 1 with more than one copy/m);
});
