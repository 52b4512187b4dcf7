// package.json says only what exists (issue 12, "No claims ahead of the code").
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/shared';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));

test("package.json: Havok Script is registered for the game's .scripts files as well as .hks", () => {
  const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === 'havokscript');
  assert.deepEqual([...lang.extensions].sort(), ['.hks', '.scripts']);
  assert.ok(pkg.contributes.grammars.some((g: { language: string }) => g.language === 'havokscript'));
});

test('package.json: the description claims no language support beyond the grammar (the server only answers initialize)', () => {
  assert.doesNotMatch(pkg.description, /language support|language server|completion|diagnostic/i);
  assert.match(pkg.description, /syntax highlighting/);
});
