// What the .vsix ships, as `vsce ls --no-dependencies` lists it (the file list `npm run package`
// zips, after .vscodeignore): only the bundles in dist/, the media assets the pages load, the
// grammars and language configuration, package.json, README and LICENSE; no TypeScript, no tests,
// no source maps (the bundles are minified for the package and the maps would only double its
// size); and every file the extension needs at run time is in it: package.json's `main`, the
// files its contributions name (grammars, language configuration, icons), every bundle
// scripts/build.mjs writes (server, CLI, workers, webviews), and every `media/…` / `dist/…` file
// the extension's code names. Needs the build (npm test builds before it runs the tests).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/shared';

const repo = repoRoot();
const vsce = path.join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');

let listed: string[] | undefined;

/** The files the .vsix would hold, relative to the extension's folder, with `/` (vsce run once). */
function vsixFiles(): string[] {
  if (listed) return listed;
  // The timeout is a watchdog for a hang, far above an honest listing; nothing here times it.
  const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repo, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.error, undefined, `vsce ls: ${r.error?.message}`);
  assert.equal(r.status, 0, `vsce ls: ${r.stderr}`);
  listed = r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return listed;
}

/** Every string anywhere in a JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** Source files of a folder, tests left out. */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'tests') walk(p);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const norm = (p: string): string => p.replace(/^\.\//, '');

test('the .vsix holds only dist/ bundles, media assets, syntaxes, package.json, README and LICENSE', () => {
  const files = vsixFiles();
  // A handful of bundles and assets: more than 5, and far fewer than a source tree or node_modules would add.
  assert.ok(files.length > 5 && files.length < 300, `${files.length} files:\n${files.join('\n')}`);
  for (const f of files) {
    const allowed = ['package.json', 'README.md', 'LICENSE'].includes(f) || /^(dist|media|syntaxes)\//.test(f);
    assert.ok(allowed, `${f} is outside dist/, media/, syntaxes/ and the manifest files`);
    assert.ok(!/\.(ts|tsx|mts|cts)$/.test(f), `${f} is TypeScript source`);
    assert.ok(!/\.map$/.test(f), `${f} is a source map`);
    assert.ok(
      !/(^|\/)(tests?|out|node_modules|\.cache|test-artifacts|bench-data|sample-game)\//.test(f) && !/\.test\./.test(f),
      `${f} is test or build output`,
    );
    assert.ok(!/\.vsix$/.test(f), `${f} is a package`);
    if (f.startsWith('dist/')) assert.match(f, /\.js$/, `${f}: only bundles ship from dist/`);
    if (f.startsWith('media/')) assert.match(f, /\.(css|svg|png)$/, `${f}: only assets ship from media/ (its scripts ship bundled in dist/webview/)`);
    if (f.startsWith('syntaxes/')) assert.match(f, /\.json$/, f);
  }
});

test('the .vsix holds every file the extension needs at run time', () => {
  const files = new Set(vsixFiles());
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
  const needed = new Map<string, string>();
  needed.set(norm(pkg.main), 'package.json main');
  for (const s of strings(pkg.contributes)) if (/^(\.\/)?(dist|media|syntaxes)\/.+\.\w+$/.test(s)) needed.set(norm(s), 'package.json contributes');
  for (const m of fs.readFileSync(path.join(repo, 'scripts', 'build.mjs'), 'utf8').matchAll(/outfile: '([^']+)'/g))
    needed.set(m[1], 'a bundle of scripts/build.mjs');
  for (const file of [...sources(path.join(repo, 'extension')), ...sources(path.join(repo, 'server'))]) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/['"`]((?:media|dist)\/[\w./-]+\.(?:js|css|svg|png|json))['"`]/g))
      needed.set(m[1], path.relative(repo, file));
  }
  // The ones this test was written against, so a broken scan cannot pass with an empty list.
  for (const f of [
    'dist/extension.js',
    'dist/server.js',
    'dist/cli.js',
    'dist/nodeDecodeWorker.js',
    'media/arch06.svg',
    'syntaxes/havokscript.tmLanguage.json',
  ])
    assert.ok(needed.has(f), `${f} not found by the scan`);
  assert.ok([...needed.keys()].some((f) => f.startsWith('dist/webview/')));
  assert.ok([...needed.keys()].some((f) => f.endsWith('.css')));
  for (const [f, why] of needed) assert.ok(files.has(f), `${f} (named by ${why}) is not in the .vsix`);
  for (const f of ['package.json', 'README.md', 'LICENSE']) assert.ok(files.has(f), f);
});

test('package.json names its repository (vsce warns without one)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
  assert.equal(pkg.repository?.type, 'git');
  assert.match(pkg.repository?.url ?? '', /^https:\/\/.+\.git$/);
});
