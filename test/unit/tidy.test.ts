// Architecture rules that conventions alone do not keep.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/shared';

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const importsOf = (file: string): string[] => [...fs.readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);

test('core/ never imports vscode, LSP, the DOM side or the layers above it', () => {
  const root = repoRoot();
  for (const f of sources(path.join(root, 'core'))) {
    for (const spec of importsOf(f)) {
      assert.ok(!/^vscode/.test(spec), `${path.relative(root, f)} imports ${spec}`);
      if (spec.startsWith('.')) {
        const target = path.relative(root, path.resolve(path.dirname(f), spec));
        assert.ok(target.startsWith('core') || target.startsWith('test'), `${path.relative(root, f)} imports ${spec} outside core/`);
      }
    }
  }
});

test('only core/io/node.ts (and tests) touch node:fs inside core/', () => {
  const root = repoRoot();
  for (const f of sources(path.join(root, 'core'))) {
    const rel = path.relative(root, f);
    if (rel === path.join('core', 'io', 'node.ts') || rel.includes(`${path.sep}tests${path.sep}`)) continue;
    // directorySource needs path manipulation only.
    for (const spec of importsOf(f)) assert.ok(!/^(node:)?fs(\/promises)?$/.test(spec), `${rel} imports ${spec}`);
  }
});

test('cli/ and server/ never import vscode', () => {
  const root = repoRoot();
  for (const dir of ['cli', 'server']) {
    for (const f of sources(path.join(root, dir))) for (const spec of importsOf(f)) assert.ok(spec !== 'vscode', `${path.relative(root, f)} imports vscode`);
  }
});
