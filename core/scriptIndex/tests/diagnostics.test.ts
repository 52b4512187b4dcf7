// Where a broken binding's diagnostic sits and what it suggests: on the real island layer of
// Patch_00.arch06 with a mod's registry (searched first) binding a misspelled function and an
// unrelated one, the misspelling sits on the function it misspells and says "did you mean" it, the
// unrelated one on the script's section table (line 332, where its bound definitions are), neither
// on line 1; a script without a section table gets it on its first definition or statement. The edit distance is held against a plain full-table Levenshtein on random strings.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Mount } from '../../archive';
import { writeRegistry } from '../../formats/registry';
import { lineNumbers } from '../../havokScript';
import { mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { prng } from '../../../test/support/fixtures';
import { SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT } from '../../sample';
import { mountSample } from '../../../test/support/sampleMount';
import { ScriptIndex, analyseText, scriptDiagnostics } from '..';
import { boundedDistance, nearestName } from '../nearestName';

test(
  'broken bindings on the real island script: the misspelt name on the function it misspells with "did you mean", the other on the section table',
  { skip: realPatch.skip },
  () => {
    const m = mountRealPatch();
    const root = m.root;
    m.close();
    const stem = realLayerStem('island');
    fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Mods\n');
    const file = path.join(root, 'Mods', ...`${stem}.objres`.split('\\'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      writeRegistry({
        scriptPath: `${stem}.scripts`,
        objects: [
          { className: 'ScriptRelay', name: 'Typo.SR' },
          { className: 'ScriptRelay', name: 'Other.SR' },
        ],
        bindings: [
          { name: 'Typo.SR', bindings: [{ event: 'OnInitialize', function: '_ambsentry_Set_OnInitialise_8813e52a' }] },
          { name: 'Other.SR', bindings: [{ event: 'OnFire', function: 'CompletelyUnrelated' }] },
        ],
        groups: [],
      }),
    );
    const again = Mount.open({ root });
    try {
      const index = ScriptIndex.build(again);
      const script = index.analysed(`${stem}.scripts`)!;
      const lineOf = lineNumbers(script.text);
      const diags = scriptDiagnostics(index, script);
      assert.equal(diags.length, 2, JSON.stringify(diags));
      const typo = diags.find((d) => d.message.includes('_ambsentry_Set_OnInitialise_8813e52a'))!;
      const meant = '_ambsentry_Set_OnInitialize_8813e52a';
      const meantLine = script.text.split('\n').findIndex((l) => l.startsWith(`${meant} = function`)) + 1;
      assert.match(typo.message, new RegExp(`did you mean ${meant} \\(line ${meantLine}\\)\\?$`));
      assert.equal(script.text.slice(typo.start, typo.end), meant);
      assert.equal(lineOf(typo.start), meantLine);
      const other = diags.find((d) => d.message.includes('CompletelyUnrelated'))!;
      assert.doesNotMatch(other.message, /did you mean/);
      assert.equal(script.text.slice(other.start, other.end), 'section_f18846ca');
      assert.equal(lineOf(other.start), script.text.split('\n').indexOf('local section_f18846ca = {') + 1);
      assert.ok(lineOf(other.start) > 1);
    } finally {
      again.close();
    }
  },
);

test('a script without a section table: the broken binding sits on its first bindable definition, else its first statement', () => {
  const m = mountSample('arch06-diagnostics-anchor-');
  const root = m.root;
  m.close();
  fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Mods\n');
  const file = path.join(root, 'Mods', ...SAMPLE_LAYER_REGISTRY.split('\\'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    writeRegistry({
      scriptPath: SAMPLE_LAYER_SCRIPT,
      objects: [{ className: 'ScriptRelay', name: 'Lost.SR' }],
      bindings: [{ name: 'Lost.SR', bindings: [{ event: 'Script1', function: 'NothingLikeIt' }] }],
      groups: [],
    }),
  );
  const again = Mount.open({ root });
  try {
    const index = ScriptIndex.build(again);
    const served = index.script(SAMPLE_LAYER_SCRIPT)!;
    const at = (text: string): string => {
      const [d] = scriptDiagnostics(index, analyseText(served, text));
      assert.match(d.message, /NothingLikeIt is bound \(Lost\.SR\) but the script does not define it$/);
      return `${lineNumbers(text)(d.start)}:${text.slice(d.start, Math.max(d.end, d.start + 5))}`;
    };
    assert.equal(at('-- a header\n\nlocal x = 1\nfunction Helper() end\n'), '4:Helper');
    assert.equal(at('-- a header\n\nlocal x = 1\n'), '3:local');
  } finally {
    again.close();
  }
});

/** Levenshtein distance, the whole table: the oracle for the banded one. */
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), d[i - 1][j] + 1, d[i][j - 1] + 1);
  return d[a.length][b.length];
}

test('bounded edit distance: equal to the full table within the bound, undefined beyond it (2,000 random pairs)', () => {
  const rand = prng(20);
  const word = (): string => Array.from({ length: Math.floor(rand() * 12) }, () => 'abc_'[Math.floor(rand() * 4)]).join('');
  for (let k = 0; k < 2000; k++) {
    const a = word();
    const b = rand() < 0.5 ? word() : a.slice(0, Math.floor(rand() * a.length)) + word().slice(0, 2) + a.slice(Math.floor(rand() * a.length));
    const max = Math.floor(rand() * 6);
    const full = levenshtein(a, b);
    assert.equal(boundedDistance(a, b, max), full <= max ? full : undefined, `${a} / ${b} within ${max}`);
  }
});

test('nearest name: case-insensitive, the nearest within a quarter of the name, none beyond', () => {
  assert.deepEqual(nearestName('OpenGat', ['CloseGate', 'openGate', 'Open']), { name: 'openGate', distance: 1 });
  assert.equal(nearestName('Fire', ['Water', 'Earth']), undefined);
  // 40 characters allow 10 edits, not 11.
  const long = 'a'.repeat(40);
  assert.equal(nearestName(long, ['b'.repeat(10) + 'a'.repeat(30)])?.distance, 10);
  assert.equal(nearestName(long, ['b'.repeat(11) + 'a'.repeat(29)]), undefined);
});
