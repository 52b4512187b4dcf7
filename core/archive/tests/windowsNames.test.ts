// Extraction of names Windows cannot hold (issue 21 item 8): a loose folder on Linux can serve
// names Windows would misread (a device name, a trailing dot, a `?`) and names differing only in
// case; each is refused with its reason, the rest extracted, on every platform, so an output
// folder made here means the same on the modders' Windows machines.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount, collectEntries, extractEntries } from '..';
import { tempDir } from '../../../test/support/fixtures';
import { mountSample } from '../../../test/support/sampleMount';

test('extract: names illegal on Windows and names differing only in case are refused with the reason; the rest is written', async () => {
  const sample = mountSample('arch06-windows-names-');
  const root = sample.root;
  sample.close();
  const folder = path.join(root, 'Game', 'clash');
  fs.mkdirSync(folder, { recursive: true });
  const files: Record<string, string> = {
    'Name.txt': 'upper',
    'name.txt': 'lower',
    'NAME.TXT': 'shout',
    'CON.txt': 'device',
    aux: 'device',
    'trailing.': 'dot',
    'what?.txt': 'question',
    'star*.dds': 'star',
    'fine.txt': 'ok',
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text);
  const m = Mount.open({ root });
  const out = tempDir('arch06-windows-names-out-');
  try {
    const game = m.sources.find((s) => s.kind === 'directory')!;
    const entries = collectEntries(m, 'clash', game.name);
    assert.equal(entries.length, Object.keys(files).length, 'the loose folder serves every name');
    const r = await extractEntries(m, entries, out);
    const why = new Map(r.failures.map((f) => [f.path.split('\\').pop()!, `${f.code}: ${f.message}`]));
    // The first of the names differing only in case (in the order listed) is written; the others are refused naming it.
    const cased = entries.map((e) => e.path.split('\\').pop()!).filter((n) => n.toLowerCase() === 'name.txt');
    for (const n of cased.slice(1))
      assert.match(
        why.get(n) ?? 'written',
        new RegExp(`^CASE_CLASH: .*differs only in case from clash\\\\${cased[0]}, which it would overwrite on Windows`),
        n,
      );
    assert.match(why.get('CON.txt') ?? 'written', /Windows device name/);
    assert.match(why.get('aux') ?? 'written', /Windows device name/);
    assert.match(why.get('trailing.') ?? 'written', /ends in a dot or a space/);
    assert.match(why.get('what?.txt') ?? 'written', /character Windows forbids/);
    assert.match(why.get('star*.dds') ?? 'written', /character Windows forbids/);
    assert.equal(r.failures.length, 7);
    assert.deepEqual(fs.readdirSync(path.join(out, 'clash')).sort(), [cased[0], 'fine.txt'].sort());
    assert.equal(fs.readFileSync(path.join(out, 'clash', cased[0]), 'utf8'), files[cased[0]]);
  } finally {
    m.close();
  }
});
