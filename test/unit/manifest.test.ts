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

test("package.json's description and the README's opening describe what exists today (issue 20 item 10)", () => {
  // The language server answers these (its capabilities in server/server.ts): the description may name them.
  const server = fs.readFileSync(path.join(repoRoot(), 'server', 'server.ts'), 'utf8');
  for (const [claim, capability] of [
    [/lenses/, 'codeLensProvider'],
    [/hover/, 'hoverProvider'],
    [/go to definition/, 'definitionProvider'],
    [/references/, 'referencesProvider'],
    [/completion/, 'completionProvider'],
  ] as const) {
    assert.match(pkg.description, claim);
    assert.match(server, new RegExp(`${capability}:`), `the server advertises ${capability}`);
  }
  // Each editor the description names is contributed.
  const editors = pkg.contributes.customEditors.map((e: { viewType: string }) => e.viewType);
  for (const [claim, viewType] of [
    [/textures/, 'arch06.texture'],
    [/meshes/, 'arch06.mesh'],
    [/bundles/, 'arch06.bundle'],
    [/object registries/, 'arch06.registry'],
    [/string tables/, 'arch06.stringTable'],
    [/hex view/, 'arch06.hex'],
  ] as const) {
    assert.match(pkg.description, claim);
    assert.ok(editors.includes(viewType), viewType);
  }
  // The README's opening (up to its first section) promises nothing for later.
  const readme = fs.readFileSync(path.join(repoRoot(), 'README.md'), 'utf8');
  const opening = readme.slice(0, readme.indexOf('\n## '));
  assert.doesNotMatch(opening, /\(planned\)|come next|not yet|coming/i);
  assert.match(opening, /a language server/);
  assert.match(opening, /object\s+registries/);
});

test("package.json's allowScripts reviews every dependency the lockfile marks as running an install script (npm 11: no notice on install)", () => {
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
  };
  const allow = (pkg.allowScripts ?? {}) as Record<string, boolean>;
  const withScripts = Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript && !p.optional)
    .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
  assert.ok(withScripts.length > 0);
  for (const name of withScripts) assert.equal(typeof allow[name], 'boolean', `${name} runs an install script: approve or deny it in allowScripts`);
  // Nothing approved that no longer installs.
  for (const name of Object.keys(allow)) assert.ok(withScripts.includes(name), `${name} in allowScripts runs no install script any more`);
});
