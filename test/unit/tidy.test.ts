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

test('only the node-specific io files, core/io/node/ (and tests), touch node:fs inside core/', () => {
  const root = repoRoot();
  for (const f of sources(path.join(root, 'core'))) {
    const rel = path.relative(root, f);
    if (rel.startsWith(path.join('core', 'io', 'node') + path.sep) || rel.includes(`${path.sep}tests${path.sep}`)) continue;
    // directorySource needs path manipulation only.
    for (const spec of importsOf(f)) assert.ok(!/^(node:)?fs(\/promises)?$/.test(spec), `${rel} imports ${spec}`);
  }
});

test('a format family (core/formats/<family>/) imports no other family: shared primitives live in core/io/', () => {
  const root = repoRoot();
  const formats = path.join(root, 'core', 'formats');
  for (const f of sources(formats)) {
    const rel = path.relative(formats, f);
    if (rel.split(path.sep).includes('tests')) continue;
    const family = rel.split(path.sep)[0];
    for (const spec of importsOf(f)) {
      if (!spec.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(f), spec));
      const inFormats = path.relative(formats, path.resolve(path.dirname(f), spec));
      if (!inFormats.startsWith('..')) {
        assert.equal(inFormats.split(path.sep)[0], family, `${path.relative(root, f)} imports ${spec}, a module of another format family`);
      } else {
        assert.ok(/^core[\\/](io|hash|oodle)([\\/]|$)|^core[\\/]errors$/.test(target), `${path.relative(root, f)} imports ${spec} (${target}); formats use core/io, core/errors, core/hash, core/oodle`);
      }
    }
  }
});

test('cli/ and server/ never import vscode', () => {
  const root = repoRoot();
  for (const dir of ['cli', 'server']) {
    for (const f of sources(path.join(root, dir))) for (const spec of importsOf(f)) assert.ok(spec !== 'vscode', `${path.relative(root, f)} imports vscode`);
  }
});
