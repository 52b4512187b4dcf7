// The Mod Changes view's rows (issue 23 item 2), without vscode: what each mod file does in the
// overlaid mount (overrides, replaces a container's copy, adds, is shadowed) with its problems.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { sampleGame } from '../../../core/sample';
import { createMod, openOverlay, parsePosition } from '../../../core/mod';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { describeChange, modChangeRows, unplacedProblems } from '../modChangesModel';

test('each mod file: what it overrides (and from which source), what it adds, what a source above it shadows', () => {
  const root = tempDir('arch06-modrows-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  const folder = path.join(tempDir('arch06-modrows-mod-'), 'm');
  createMod(folder, 'Rows', { position: parsePosition('above HotChunk') });
  writeTree(folder, {
    'config/game.cfg': 'mine\n',
    'data/new.bin': 'new\n',
    'characters/orcs/orc_sample/head.txt': 'a new head\n',
    'database/string/enus/string.txt': 'HotChunk wins this one\n',
  });
  const { mount } = openOverlay({ root }, [{ folder, name: 'Rows', position: parsePosition('above HotChunk') }]);
  try {
    const source = mount.sources.find((s) => s.name === 'Rows (mod)')!;
    assert.ok(source, mount.sources.map((s) => s.name).join(', '));
    assert.equal(mount.sources.indexOf(source), 1, 'right below HotChunk');
    const problems = [
      { code: 'SHADOWS_NOTHING' as const, severity: 'info' as const, path: 'data\\new.bin', message: 'adds' },
      { code: 'LIST_RESET' as const, severity: 'warning' as const, message: 'no path' },
    ];
    const embedded = (p: string): { container: string; source: string } | undefined =>
      p === 'characters\\orcs\\orc_sample\\head.txt' ? { container: 'bundles\\characters\\orc_sample.embb', source: 'Base.arch06' } : undefined;
    const rows = modChangeRows(mount, source, problems, embedded);
    assert.deepEqual(
      rows.map((r) => [r.path, describeChange(r)]),
      [
        ['characters\\orcs\\orc_sample\\head.txt', 'replaces the copy in orc_sample.embb (Base.arch06)'],
        ['config\\game.cfg', 'overrides Patch_02.arch06 (+2 more)'],
        ['data\\new.bin', 'adds a new file'],
        ['database\\string\\enus\\string.txt', 'shadowed by HotChunk.arch06: not loaded'],
      ],
    );
    assert.deepEqual(rows.find((r) => r.kind === 'overrides')!.shadows, ['Patch_02.arch06', 'Patch_01.arch06', 'Base.arch06']);
    assert.equal(rows.find((r) => r.kind === 'adds')!.problems.length, 1);
    assert.deepEqual(
      unplacedProblems(rows, problems).map((p) => p.code),
      ['LIST_RESET'],
    );
  } finally {
    mount.close();
  }
});
